"""Run a command with a dropped FUSE mount over a folder, as a disconnected sshfs leaves it.

usage: python dropped_mount.py FOLDER -- COMMAND [ARG …]   (in a mount namespace of its own,
e.g. under ``unshare --mount``; needs ``/dev/fuse``)

FUSE is mounted over ``FOLDER`` on a ``/dev/fuse`` descriptor that is then closed: no daemon
will ever answer, so every lookup below ``FOLDER`` fails with ``ENOTCONN`` ("Transport
endpoint is not connected"), what a dropped sshfs or a crashed FUSE daemon leaves. Then
``COMMAND`` replaces this process.
"""

from __future__ import annotations

import os
import subprocess
import sys


def main(argv: list[str]) -> None:
    """Mount, then exec ``argv[2:]`` (``argv`` is ``[FOLDER, "--", COMMAND, …]``)."""
    folder, separator, *command = argv
    if separator != "--" or not command:
        raise SystemExit(__doc__)
    device = os.open("/dev/fuse", os.O_RDWR)
    options = f"fd={device},rootmode=40000,user_id={os.getuid()},group_id={os.getgid()}"
    subprocess.run(
        ["mount", "-i", "-t", "fuse", "-o", options, "dropped", folder],
        check=True,
        pass_fds=(device,),
    )
    os.close(device)  # the connection has no daemon from now on
    os.execvp(command[0], command)  # noqa: S606 - the command the test names


if __name__ == "__main__":
    main(sys.argv[1:])
