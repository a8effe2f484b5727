"""K-6a: the service's watch of its mount table (:mod:`memory_api.mount_watch`) never holds a
Session start up while it reads the table, and a failure to open the table is no failure for
the life of the process."""

from __future__ import annotations

import errno
import os
import threading

import pytest
from memory_api.mount_watch import MountWatch
from memory_core.mount_table import MountTree

SIGNAL_S = 60
"""How long a test waits for a thread's own signal before it calls the wait a failure."""


def test_k6a_a_session_start_never_waits_for_the_table_being_parsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Session start asks :meth:`MountWatch.changes` on the event loop; a worker thread may
    be parsing a table of 20,000 mounts meanwhile (some 150 ms), which held the loop."""
    watch = MountWatch()
    parsing, release, asked = threading.Event(), threading.Event(), threading.Event()
    parse = MountTree.parse

    def held_parse(text: str) -> MountTree:
        parsing.set()
        release.wait(2 * SIGNAL_S)  # past the wait for the Session start below
        return parse(text)

    monkeypatch.setattr(MountTree, "parse", held_parse)
    reader = threading.Thread(target=watch.tree)
    reader.start()
    try:
        assert parsing.wait(SIGNAL_S)

        def session_start() -> None:
            watch.changes()
            asked.set()

        start = threading.Thread(target=session_start)
        start.start()
        assert asked.wait(SIGNAL_S), "changes() waited for the parse"
        start.join()
    finally:
        release.set()
        reader.join()
    assert watch.tree() is not None


def test_k6a_a_table_that_could_not_be_opened_once_is_opened_at_the_next_ask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One ``EMFILE`` (every descriptor in use for a moment) had switched the table off for the
    process: a bind mount within one filesystem could no longer be told apart."""
    watch = MountWatch()
    real_open = os.open
    failed: list[str] = []

    def open_once_failing(path: str, flags: int, mode: int = 0o777) -> int:
        if path == watch.path and not failed:
            failed.append(path)
            raise OSError(errno.EMFILE, os.strerror(errno.EMFILE), path)
        return real_open(path, flags, mode)

    monkeypatch.setattr(os, "open", open_once_failing)
    assert watch.tree() is None
    assert watch.tree() is not None
    assert failed == [watch.path]


def test_k6a_no_table_on_this_system_is_asked_once() -> None:
    """Where there is no ``/proc`` the watch gives up at once and for good: devices decide."""
    watch = MountWatch("/nonexistent/proc/self/mountinfo")
    assert watch.tree() is None
    assert watch.changes() == 0
    assert watch._tried
