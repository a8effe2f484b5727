"""Q-2 atomic writes, Q-4 cross-process locks and a cache that notices changes on disk."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path

import pytest
from memory_api.store.containment import read_regular
from memory_api.store.locks import Locks, LockTimeoutError, lock_name
from memory_api.store.topic_cache import TopicCache
from memory_core.atomic import atomic_write_bytes
from memory_core.swap import hold_exclusive_lease, release_lease
from memory_core.topics import parse_topic


def test_q2_atomic_write_replaces_content_and_sets_mode(tmp_path: Path) -> None:
    target = tmp_path / "MEMORY.md"
    target.write_bytes(b"old\n")

    atomic_write_bytes(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert target.stat().st_mode & 0o777 == 0o644

    atomic_write_bytes(target, b"newer\n", mode=0o600)
    assert target.read_bytes() == b"newer\n"
    assert target.stat().st_mode & 0o777 == 0o600
    assert [path.name for path in tmp_path.iterdir()] == ["MEMORY.md"]


def test_q2_failed_write_leaves_the_old_file_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "MEMORY.md"
    target.write_bytes(b"old\n")

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="No space"):
        atomic_write_bytes(target, b"half")

    assert target.read_bytes() == b"old\n"
    assert [path.name for path in tmp_path.iterdir()] == ["MEMORY.md"]


def test_q2_temp_names_are_unique_hidden_and_short_enough(tmp_path: Path) -> None:
    long_name = "数" * 80 + ".md"  # 243 bytes of UTF-8
    atomic_write_bytes(tmp_path / long_name, b"x")
    assert (tmp_path / long_name).read_bytes() == b"x"


@pytest.mark.parametrize("parts", [("..", "x"), ("a/b",), ("",), ("Index",), ()])
def test_lock_names_are_never_paths(parts: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="not a lock name"):
        lock_name(*parts)


def test_q4_sync_holders_in_threads_exclude_each_other(tmp_path: Path) -> None:
    locks = Locks(tmp_path / "locks")
    counter = tmp_path / "counter"
    counter.write_text("0")

    def bump() -> None:
        for _ in range(50):
            with locks.hold_sync(lock_name("agent", "coder")):
                value = int(counter.read_text())
                counter.write_text(str(value + 1))

    threads = [threading.Thread(target=bump) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert counter.read_text() == "200"


async def test_q4_cancelled_waiter_leaves_no_lock_behind(tmp_path: Path) -> None:
    """A request cancelled while it waits (client gone) never leaves the lock held: the thread
    that waits for it takes it, runs the work and lets it go."""
    locks, other = Locks(tmp_path / "locks"), Locks(tmp_path / "locks", timeout=5)
    held, release = threading.Event(), threading.Event()

    def hold_until_released() -> bool:
        held.set()
        return release.wait(5)

    holding = asyncio.create_task(locks.run_held("agent.coder", hold_until_released))
    assert await asyncio.to_thread(held.wait, 5)
    waiting = asyncio.create_task(other.run_held("agent.coder", lambda: "late"))
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    release.set()
    assert await holding is True

    assert await other.run_held("agent.coder", lambda: "taken") == "taken"
    locks.close()
    other.close()


async def test_q4_locked_work_in_one_thread_excludes_other_processes_and_in_process_waiters(
    tmp_path: Path,
) -> None:
    """run_held: the file lock, the work and the release in one thread of the locks' pool."""
    first, second = Locks(tmp_path / "locks"), Locks(tmp_path / "locks")
    counter = tmp_path / "counter"
    counter.write_text("0")
    threads: set[str] = set()

    def bump() -> int:
        threads.add(threading.current_thread().name)
        value = int(counter.read_text()) + 1
        time.sleep(0.001)  # a lost update would show if two ran at once
        counter.write_text(str(value))
        return value

    name = lock_name("index", "coder", "user")
    results = await asyncio.gather(
        *(((first, second)[n % 2]).run_held(name, bump) for n in range(40))
    )

    assert counter.read_text() == "40"
    assert sorted(results) == list(range(1, 41))
    assert all(thread.startswith("memory-held") for thread in threads)
    first.close()
    second.close()


async def test_q4_locked_work_waits_for_the_lock_and_times_out_as_a_503(tmp_path: Path) -> None:
    holder, waiter = Locks(tmp_path / "locks"), Locks(tmp_path / "locks", timeout=0.05)
    with holder.hold_sync("agent.coder"), pytest.raises(LockTimeoutError) as caught:
        await waiter.run_held("agent.coder", lambda: pytest.fail("granted twice"))
    assert caught.value.status == 503
    assert "busy" in caught.value.detail

    with pytest.raises(ZeroDivisionError):  # what the work raises, and the lock is let go
        await waiter.run_held("agent.coder", lambda: 1 // 0)
    assert await holder.run_held("agent.coder", lambda: "taken") == "taken"
    waiter.close()
    holder.close()


def test_q4_cache_sees_a_file_changed_by_another_process(tmp_path: Path) -> None:
    cache = TopicCache()
    path = tmp_path / "a.md"
    path.write_text("---\ndescription: first\n---\nbody\n")
    first, _ = cache.load(path, "a.md")

    path.write_text("---\ndescription: other\n---\nbody\n")  # same size, in place
    os.utime(path, ns=(1, 1))  # and a different mtime
    second, _ = cache.load(path, "a.md")
    replacement = tmp_path / "b.tmp"
    replacement.write_text("---\ndescription: third\n---\nbody\n")
    replacement.replace(path)  # an atomic replace: new inode
    third, _ = cache.load(path, "a.md", path.stat())

    assert [first.description, second.description, third.description] == [
        "first",
        "other",
        "third",
    ]


def test_q4_cache_hit_returns_what_a_fresh_parse_would(tmp_path: Path) -> None:
    cache = TopicCache(max_entries=1)
    one, two = tmp_path / "one.md", tmp_path / "two.md"
    one.write_text("---\nname: one\n---\n1\n")
    two.write_text("---\nname: two\n---\n2\n")

    for path in (one, two, one, one):
        topic, info = cache.load(path, path.name, path.stat())
        raw, _ = read_regular(path, 10_000)
        assert topic == parse_topic(raw, path.name)
        assert info.st_size == len(raw)


def test_q2a_a_read_during_a_safe_edits_lease_waits_instead_of_failing(tmp_path: Path) -> None:
    """A reader (non-blocking open, so a FIFO never hangs it) meets the edit's brief lease."""
    target = tmp_path / "MEMORY.md"
    target.write_bytes(b"- line\n")
    fd = os.open(target, os.O_RDWR)
    assert hold_exclusive_lease(fd)

    def finish_edit() -> None:
        time.sleep(0.05)
        release_lease(fd)
        os.close(fd)

    editing = threading.Thread(target=finish_edit)
    editing.start()
    raw, _ = read_regular(target, 100)
    editing.join()

    assert raw == b"- line\n"
