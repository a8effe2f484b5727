"""P-2a, P-3 on Windows: a managed install's hooks keep their state in the account's own Local
AppData folder, as Windows knows it, never where an environment variable says.

A repository's settings can set ``HOME``, ``CLAUDE_CONFIG_DIR`` and ``LOCALAPPDATA`` for a
Session; the Session records in the state dir tell the write guard which scope the Session may
write, and the token file there is sent to the service. On Windows there is no password
database, and the state dir was ``$HOME/.claude/harness-memory`` (or ``$CLAUDE_CONFIG_DIR``'s):
a planted record or token would be trusted. It is now ``FOLDERID_LocalAppData\\harness-memory``
(``SHGetKnownFolderPath``), checked here without Windows: the choice through
``account_state_dir(platform="win32")``, the call through a stand-in of ``ctypes.windll``.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

from harness_memory.settings import account_state_dir, unknown_account_note
from harness_memory.windows_folders import FOLDERID_LOCAL_APP_DATA, local_app_data

LOCAL = r"C:\Users\ada\AppData\Local"
PLANTED = {
    "HOME": r"C:\src\repo\planted",
    "USERPROFILE": r"C:\src\repo\planted",
    "CLAUDE_CONFIG_DIR": r"C:\src\repo\planted",
    "LOCALAPPDATA": r"C:\src\repo\planted",
}


def test_p2a_on_windows_the_state_dir_is_local_app_data_whatever_the_variables_say() -> None:
    found = account_state_dir(PLANTED, platform="win32", local_app_data=lambda: LOCAL)
    assert found == Path(LOCAL) / "harness-memory"
    assert "planted" not in str(found)


def test_p2a_on_windows_an_account_without_local_app_data_keeps_no_state() -> None:
    assert account_state_dir(PLANTED, platform="win32", local_app_data=lambda: None) is None
    assert "Windows gives this account no Local AppData folder" in unknown_account_note("win32")


class _Shell32:
    """``shell32`` answering ``SHGetKnownFolderPath`` for ``FOLDERID_LocalAppData`` only."""

    def __init__(self) -> None:
        self.asked: list[bytes] = []

    def SHGetKnownFolderPath(self, folder: Any, flags: int, token: None, path: Any) -> int:  # noqa: N802
        self.asked.append(bytes(folder._obj))
        if bytes(folder._obj) != FOLDERID_LOCAL_APP_DATA.bytes_le or flags or token:
            return -2147024894  # E_INVALIDARG-like: not the folder asked for
        path._obj.value = LOCAL
        return 0


class _Ole32:
    def __init__(self) -> None:
        self.freed: list[str | None] = []

    def CoTaskMemFree(self, pointer: ctypes.c_wchar_p) -> None:  # noqa: N802
        self.freed.append(pointer.value)


class _Windll:
    def __init__(self) -> None:
        self.shell32 = _Shell32()
        self.ole32 = _Ole32()


def test_p2a_local_app_data_asks_windows_for_the_known_folder_and_frees_its_answer() -> None:
    windll = _Windll()

    assert local_app_data(windll) == LOCAL
    assert windll.shell32.asked == [FOLDERID_LOCAL_APP_DATA.bytes_le]
    assert windll.ole32.freed == [LOCAL]


def test_p2a_local_app_data_is_none_off_windows() -> None:
    assert not hasattr(ctypes, "windll")
    assert local_app_data() is None
