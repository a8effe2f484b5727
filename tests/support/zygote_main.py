"""The zygote of :mod:`tests.support.zygote`: a process that imports ``memory-api``'s code once,
then forks one ``memory-api`` command per request (``serve``, ``demo seed``), each as the
``memory-api`` console script would run it.

Run as a script (``python -P zygote_main.py``), never imported by the tests. It reads one JSON
request a line on stdin, ``{"argv": [...], "env": {...}, "log": "<path>"}`` (and
``"mount_namespace": true`` for a child in a mount namespace of its own, as ``unshare --mount``
makes one), and answers each with the child's pid on a line of stdout. The child starts a
session of its own (as ``start_new_session``), has stdin from ``/dev/null`` and stdout and
stderr in ``log``, exactly ``env`` as its environment, and runs :func:`memory_api.cli.main`
with ``argv``; its exit code goes to ``<log>.exit`` (a child a signal ended writes none). The
zygote itself stays single-threaded (forking is safe), reaps a child only when asked
(``{"reap": pid}``, once its owner has seen its end through a pidfd), and ends when its stdin
closes.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
import traceback
from pathlib import Path

import aiohttp.web  # imported once here: the children need not
import memory_api.app
import memory_api.http.logs
from memory_api.cli import main
from memory_api.page_unicode import unicode_classes_module
from memory_core import confusables

CLONE_NEWNS = 0x00020000
MS_REC, MS_PRIVATE = 0x4000, 0x40000
"""From ``<sched.h>`` and ``<sys/mount.h>`` (Linux)."""


def _own_mount_namespace() -> None:
    """Move this process into a mount namespace of its own whose mounts propagate nowhere, as
    ``unshare --mount`` does (``unshare(CLONE_NEWNS)``, then every mount made private).
    Raises OSError as the kernel refuses (it needs ``CAP_SYS_ADMIN``)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if (
        libc.unshare(CLONE_NEWNS) != 0
        or libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0
    ):
        errno = ctypes.get_errno()
        raise OSError(errno, os.strerror(errno))


def _child(argv: list[str], env: dict[str, str], log: str, *, mount_namespace: bool) -> None:
    """Become ``memory-api ARGV`` with ``env``, its output in ``log`` (in a mount namespace of
    its own when ``mount_namespace``); never returns."""
    code = 1
    try:
        os.setsid()
        null = os.open(os.devnull, os.O_RDONLY)
        sink = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(null, 0)
        os.dup2(sink, 1)
        os.dup2(sink, 2)
        os.closerange(3, 1024)
        if mount_namespace:
            _own_mount_namespace()
        os.environ.clear()
        os.environ.update(env)
        sys.argv = ["memory-api", *argv]
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:  # as an uncaught exception would end the process: its traceback
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        Path(log + ".exit").write_text(f"{code}\n", encoding="utf-8")
        os._exit(code)


IMPORTED = (aiohttp.web, memory_api.app, memory_api.http.logs)
"""What ``serve`` imports on its way to bind (its CLI's lazy imports among them)."""


def warm() -> None:
    """Compute what every service computes once per process on its first page load, so each
    child has it from the start: the page's Unicode classes module (a pass over every code
    point, 0.3 s of CPU at rest, over a second on a loaded machine: every page load imports
    it) and the confusables table the lint reads (:mod:`memory_core.confusables`). The same
    functions, cached as the service caches them: a child answers exactly what it would have
    rendered itself (``tests/api/test_ops.py`` and the browser tests check that answer)."""
    unicode_classes_module()
    confusables.skeleton("warm")


def run() -> None:
    """Serve requests from stdin until it closes: a fork (answered with the child's pid) or
    ``{"reap": pid}`` (no answer). An ended child stays a zombie until its owner, holding a
    pidfd of it, asks for it to be reaped: its pid is never reused before that (children left
    are reaped by init once the zygote ends). The zygote is :func:`warm` once its first child
    runs (a seed's two seconds or a service's start hide the rendering: the next fork waits
    for it)."""
    warmed = False
    for line in sys.stdin:
        request = json.loads(line)
        if "reap" in request:
            os.waitpid(request["reap"], 0)
            continue
        pid = os.fork()
        if pid == 0:
            namespace = bool(request.get("mount_namespace"))
            _child(request["argv"], request["env"], request["log"], mount_namespace=namespace)
        print(pid, flush=True)
        if not warmed:
            warm()
            warmed = True


if __name__ == "__main__":
    run()
