"""The account's Local AppData folder as Windows knows it, not as the environment says.

A managed install's hooks keep their state and read their token in the running account's own
folder (:func:`~harness_memory.settings.account_state_dir`): on POSIX the home the password
database gives, on Windows the known folder ``FOLDERID_LocalAppData`` (``%LOCALAPPDATA%``,
``C:\\Users\\NAME\\AppData\\Local``), where applications keep per-user state that does not
roam. Both are asked of the system: the variables ``LOCALAPPDATA``, ``USERPROFILE`` and ``HOME``
can be set by a repository's settings for a Session, and the Session records there tell the
write guard which scope the Session may write (P-2a, P-3).
"""

from __future__ import annotations

import ctypes
import uuid
from typing import Any

__all__ = ["FOLDERID_LOCAL_APP_DATA", "local_app_data"]

FOLDERID_LOCAL_APP_DATA = uuid.UUID("F1B32785-6FBA-4FCF-9D55-7B8E7F157091")
"""``FOLDERID_LocalAppData`` (KnownFolders.h)."""


class _Guid(ctypes.Structure):
    _fields_ = [
        ("data1", ctypes.c_uint32),
        ("data2", ctypes.c_uint16),
        ("data3", ctypes.c_uint16),
        ("data4", ctypes.c_ubyte * 8),
    ]


def local_app_data(windll: Any = None) -> str | None:
    """The path of ``FOLDERID_LocalAppData`` for the account running this process, from
    ``SHGetKnownFolderPath`` (``windll``: ``ctypes.windll``, or a stand-in with its
    ``shell32`` and ``ole32``); None off Windows or when Windows gives the account none."""
    windll = windll if windll is not None else getattr(ctypes, "windll", None)
    if windll is None:
        return None
    guid = _Guid.from_buffer_copy(FOLDERID_LOCAL_APP_DATA.bytes_le)
    found = ctypes.c_wchar_p()
    status = windll.shell32.SHGetKnownFolderPath(ctypes.byref(guid), 0, None, ctypes.byref(found))
    try:
        return found.value if status == 0 and found.value else None
    finally:
        if found:
            windll.ole32.CoTaskMemFree(found)
