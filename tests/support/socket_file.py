"""A Unix socket's file at any path, however long the test's temp dir makes it.

``bind`` takes the path in ``sun_path``: 108 bytes with its NUL, and pytest's base temp dir
alone can take half of that (``/tmp/pytest-of-root/pytest-12345678901/popen-gw0/…``). The
socket is bound through a short symlink to the file's folder instead, so it is made where the
caller asked, under the name asked, whatever the length of the folder's path.
"""

from __future__ import annotations

import socket
import tempfile
from pathlib import Path


def bound_socket(path: Path) -> socket.socket:
    """A Unix stream socket bound at ``path`` (its file stays there after ``close()``).

    ``path``'s folder must exist and ``path`` must not. Raises :class:`OSError` as ``bind`` does
    for either. The caller closes the socket (``with bound_socket(path) as listener: …``).
    """
    with tempfile.TemporaryDirectory(prefix="sock-", dir="/tmp") as short:
        folder = Path(short) / "d"
        folder.symlink_to(path.parent.resolve(), target_is_directory=True)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(str(folder / path.name))
        except OSError:
            listener.close()
            raise
        return listener
