"""Q-2, Q-2a, A-6: ``edit_file`` applies an edit without losing a write that races it.

The edit function runs between the read and the replacement, so a test's edit can play the
agent whose write lands in exactly that window; a thread plays a writer that opened the file
before the replacement and writes after it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from memory_core import file_edit, swap
from memory_core.errors import FileKeptChanging
from memory_core.file_edit import Edited, edit_file
from memory_core.hard_links import HARD_LINKED, NamedElsewhereError
from memory_core.line_merge import merge_lines


def drop(word: bytes) -> Callable[[bytes], bytes | None]:
    """A pure edit removing the lines holding ``word`` (None when there is none)."""

    def edit(raw: bytes) -> bytes | None:
        lines = raw.splitlines(keepends=True)
        kept = [line for line in lines if word not in line]
        return None if kept == lines else b"".join(kept)

    return edit


def racing(
    edit: Callable[[bytes], bytes | None], write: Callable[[], None], times: int = 1
) -> Callable[[bytes], bytes | None]:
    """``edit``, with ``write`` done during its first ``times`` calls (after the read)."""
    calls = 0

    def raced(raw: bytes) -> bytes | None:
        nonlocal calls
        calls += 1
        if calls <= times:
            write()
        return edit(raw)

    return raced


def leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.startswith("."))


def test_q2a_an_append_between_read_and_replace_is_kept(tmp_path: Path) -> None:
    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- [A](a.md)\n- [B](b.md)\n")

    def append() -> None:
        with index.open("ab") as handle:
            handle.write(b"- agent line\n")

    edited = edit_file(index, racing(drop(b"a.md"), append), merge=merge_lines)

    assert index.read_bytes() == b"- [B](b.md)\n- agent line\n"
    assert edited == Edited(
        before=b"- [A](a.md)\n- [B](b.md)\n- agent line\n", after=index.read_bytes()
    )
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("style", ["in place", "rename over"])
def test_q2a_a_whole_rewrite_between_read_and_replace_gets_the_edit_reapplied(
    tmp_path: Path, style: str
) -> None:
    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- [A](a.md)\n- [B](b.md)\n")
    rewritten = b"# Mine now\n- [B](b.md) edited\n- [A](a.md)\n"

    def rewrite() -> None:
        if style == "in place":
            index.write_bytes(rewritten)
        else:
            (tmp_path / ".tool.tmp").write_bytes(rewritten)
            (tmp_path / ".tool.tmp").replace(index)

    edit_file(index, racing(drop(b"a.md"), rewrite), merge=merge_lines)

    assert index.read_bytes() == b"# Mine now\n- [B](b.md) edited\n"
    assert leftovers(tmp_path) == []


def test_q2a_a_writer_that_opened_before_the_replace_and_writes_after_is_waited_for(
    tmp_path: Path,
) -> None:
    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- [A](a.md)\n- keep\n")
    handles: list[int] = []

    def open_for_later() -> None:
        fd = os.open(index, os.O_WRONLY | os.O_APPEND)
        handles.append(fd)

        def write_late() -> None:
            time.sleep(0.2)  # well after the replacement
            os.write(fd, b"- late line\n")
            os.close(fd)

        threading.Thread(target=write_late).start()

    edit_file(index, racing(drop(b"a.md"), open_for_later), merge=merge_lines)

    assert index.read_bytes() == b"- keep\n- late line\n"
    assert handles


def test_q2a_an_index_that_never_settles_is_a_named_error_and_keeps_every_write(
    tmp_path: Path,
) -> None:
    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- [A](a.md)\n")
    written: list[bytes] = []

    def rewrite() -> None:
        content = b"- [A](a.md)\n" + b"".join(written) + f"- rewrite {len(written)}\n".encode()
        written.append(f"- rewrite {len(written)}\n".encode())
        index.write_bytes(f"# version {len(written)}\n".encode() + content)  # never an append

    with pytest.raises(FileKeptChanging, match=r"MEMORY\.md kept changing"):
        edit_file(index, racing(drop(b"a.md"), rewrite, times=100), attempts=5)

    assert index.read_bytes() == b"# version 5\n- [A](a.md)\n" + b"".join(written)
    assert leftovers(tmp_path) == []


def test_q2a_a_file_held_open_for_writing_is_left_alone_with_a_named_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(file_edit, "IDLE_TIMEOUT", 0.05)
    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- [A](a.md)\n")
    with index.open("ab"), pytest.raises(FileKeptChanging, match="held open for writing"):
        edit_file(index, drop(b"a.md"))
    assert index.read_bytes() == b"- [A](a.md)\n"


def test_q2_without_an_atomic_exchange_the_edit_still_applies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(file_edit, "exchange", lambda first, second: False)
    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- [A](a.md)\n- b\n")
    index.chmod(0o640)

    edit_file(index, drop(b"a.md"))

    assert index.read_bytes() == b"- b\n"
    assert index.stat().st_mode & 0o777 == 0o640
    assert leftovers(tmp_path) == []


def test_q2a_without_leases_an_append_in_the_window_is_still_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(swap, "_try_lease", lambda fd: None)
    monkeypatch.setattr(file_edit, "hold_exclusive_lease", lambda fd: False)
    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- [A](a.md)\n")

    def append() -> None:
        with index.open("ab") as handle:
            handle.write(b"- agent\n")

    edit_file(index, racing(drop(b"a.md"), append))

    assert index.read_bytes() == b"- agent\n"


def test_q2_an_edit_that_changes_nothing_writes_nothing(tmp_path: Path) -> None:
    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- b\n")
    before = index.stat()

    assert edit_file(index, drop(b"a.md")) is None
    assert edit_file(tmp_path / "missing.md", drop(b"a.md")) is None
    assert index.stat().st_ino == before.st_ino


def test_a6_a_file_the_caller_saw_and_the_edit_finds_gone_is_said_gone_never_no_file(
    tmp_path: Path,
) -> None:
    """``must_exist``: the caller looked at the file (a delete's index), so its absence at the
    first read, or at the read after the swap found it gone (moved away between the edit's
    read and its replacement), is ``FileNotFoundError``, never ``None`` ("no file")."""
    with pytest.raises(FileNotFoundError):
        edit_file(tmp_path / "missing.md", drop(b"a.md"), must_exist=True)
    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- a.md\n- b.md\n")
    moved = tmp_path / "INDEX.txt"

    def move_away() -> None:
        index.rename(moved)

    with pytest.raises(FileNotFoundError):
        edit_file(index, racing(drop(b"a.md"), move_away), must_exist=True)
    assert moved.read_bytes() == b"- a.md\n- b.md\n"


def test_q2a_line_merge_keeps_every_added_line_and_lets_the_current_file_win_conflicts() -> None:
    base = b"- a\n- b\n"
    ours = b"- b\n- added by a late writer\n"
    theirs = b"- a edited\n- b\n- added by the agent\n"

    merged = merge_lines(base, ours, theirs)

    assert merged.count(b"- added by a late writer\n") == 1
    assert merged.count(b"- added by the agent\n") == 1
    assert b"- a edited\n" in merged


def test_q2_a_symlink_swapped_in_for_the_file_meanwhile_is_put_back_untouched(
    tmp_path: Path,
) -> None:
    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- [A](a.md)\n")
    elsewhere = tmp_path / "elsewhere.md"
    elsewhere.write_bytes(b"not the index\n")
    swapped = False

    def plant_symlink() -> None:
        nonlocal swapped
        if not swapped:
            swapped = True
            index.unlink()
            index.symlink_to(elsewhere)

    with pytest.raises(OSError, match=r"Too many levels|symbolic link"):
        edit_file(index, racing(drop(b"a.md"), plant_symlink))

    assert index.is_symlink()
    assert elsewhere.read_bytes() == b"not the index\n"
    assert leftovers(tmp_path) == []


def test_q2a_a_lease_break_reported_with_sigio_ends_no_process() -> None:
    """The kernel may report a lease break with SIGIO, whose default action ends a process."""
    script = (
        "import os, signal\n"
        "from memory_core.swap import shield_from_sigio\n"
        "signal.signal(signal.SIGIO, signal.SIG_DFL)  # as a fresh process has it\n"
        "assert shield_from_sigio()\n"
        "assert not shield_from_sigio()  # done once; an installed handling is kept\n"
        "os.kill(os.getpid(), signal.SIGIO)\n"
        "print('alive')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "alive"


def test_a7_a_memory_file_with_a_name_outside_its_folder_is_never_read_by_an_edit(
    tmp_path: Path,
) -> None:
    """``ln /outside/secret.txt scope/MEMORY.md``: the edit would copy the other file's text
    into memory. It is refused before the edit sees a byte (a ``NotRegularFileError``, as the
    callers answer a FIFO there); ``memory=False`` (an operator's ``agent.json``) edits it."""
    outside = tmp_path / "outside" / "secret.txt"
    outside.parent.mkdir()
    outside.write_bytes(b"TOP-SECRET\n")
    scope = tmp_path / "scope"
    scope.mkdir()
    os.link(outside, scope / "MEMORY.md")
    seen: list[bytes] = []

    def append_line(raw: bytes) -> bytes:
        seen.append(raw)
        return raw + b"- [A](a.md)\n"

    with pytest.raises(NamedElsewhereError) as refused:
        edit_file(scope / "MEMORY.md", append_line, merge=merge_lines)

    assert refused.value.strerror == HARD_LINKED
    assert seen == []
    assert (scope / "MEMORY.md").read_bytes() == outside.read_bytes() == b"TOP-SECRET\n"
    os.link(scope / "MEMORY.md", scope / ".MEMORY.md.tmp")  # its names all in its folder now
    outside.unlink()
    assert edit_file(scope / "MEMORY.md", append_line) is not None
    assert (scope / "MEMORY.md").read_bytes() == b"TOP-SECRET\n- [A](a.md)\n"
    config = tmp_path / "agent.json"
    os.link(scope / "MEMORY.md", config)
    assert edit_file(config, lambda raw: raw + b"x", memory=False) is not None


def _moved_at_the_write_check(
    monkeypatch: pytest.MonkeyPatch, path: Path, then: Callable[[], None]
) -> None:
    """``then`` (the agent's move) once, as the edit checks it may write ``path``: after its
    read and its edit, before its write."""
    check = file_edit._check_writable
    pending = [then]

    def checked(at: Path) -> None:
        if at == path and pending:
            pending.pop()()
        check(at)

    monkeypatch.setattr(file_edit, "_check_writable", checked)


def test_q2a_a_file_edited_then_moved_away_before_its_write_is_never_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without ``must_exist`` too: the edit ran on the file it read, so a file gone before the
    write is moved or removed meanwhile, ``FileNotFoundError``, never ``None`` ("no file" or
    "left alone"), which a caller takes for success with nothing written (review rv-del70)."""
    config = tmp_path / "agent.json"
    config.write_bytes(b'{"template": "a"}\n')

    def move_away() -> None:
        config.rename(tmp_path / "moved")

    _moved_at_the_write_check(monkeypatch, config, move_away)

    with pytest.raises(FileNotFoundError):
        edit_file(config, lambda raw: raw.replace(b"a", b"b"), memory=False)

    assert (tmp_path / "moved").read_bytes() == b'{"template": "a"}\n'
    assert not config.exists()


def test_q2a_a_file_swapped_for_a_dangling_link_before_its_write_is_changed_not_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moved away and a symlink to nowhere put in its place before the write check: the edit
    reads again and meets the link (``ELOOP``: never followed), never judges the mode of what
    the link names ("Permission denied: its mode…", review rv-del70)."""
    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- a.md\n- b.md\n")

    def swap_for_a_link() -> None:
        index.rename(tmp_path / "INDEX.txt")
        index.symlink_to("nowhere.md")

    _moved_at_the_write_check(monkeypatch, index, swap_for_a_link)

    with pytest.raises(OSError, match="symbolic links") as raised:
        edit_file(index, drop(b"a.md"))

    assert not isinstance(raised.value, file_edit.NotWritableHere)
    assert (tmp_path / "INDEX.txt").read_bytes() == b"- a.md\n- b.md\n"


def _agent_at_the_exchange(
    monkeypatch: pytest.MonkeyPatch, index: Path, after_swap_back: Callable[[], None]
) -> None:
    """The agent around the edit's first exchange: ``mv MEMORY.md idx.md; ln -s idx.md
    MEMORY.md`` just before it, ``mv idx.md MEMORY.md`` right after it (over the edit's copy);
    ``after_swap_back`` right after the edit's second exchange (its swap back)."""
    exchange = swap.exchange
    calls = [0]
    moved = index.parent / "idx.md"

    def raced(first: Path, second: Path) -> bool:
        calls[0] += 1
        if calls[0] == 1:
            index.rename(moved)
            index.symlink_to(moved.name)
            done = exchange(first, second)
            moved.rename(index)
            return done
        done = exchange(first, second)
        if calls[0] == 2:
            after_swap_back()
        return done

    monkeypatch.setattr(file_edit, "exchange", raced)


def test_q2a_an_index_moved_over_the_edit_s_copy_is_never_unlinked_by_the_swap_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The swap back takes the agent's own index to the edit's temp name (the agent moved it
    over the edit's copy): it is kept beside, unchanged, and the error says where."""
    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- [G](g.md) the agent's index\n")
    _agent_at_the_exchange(monkeypatch, index, lambda: None)

    with pytest.raises(FileKeptChanging, match=r"kept as MEMORY\.md\.not-edited-") as raised:
        edit_file(index, lambda raw: raw + b"- [F](f.md) restored\n", must_exist=True)

    kept = [path for path in tmp_path.iterdir() if path.name.startswith("MEMORY.md.not-edited-")]
    assert [path.name for path in kept] == [str(raised.value).split("kept as ")[1].split()[0]]
    assert kept[0].read_bytes() == b"- [G](g.md) the agent's index\n"
    assert index.is_symlink()
    assert leftovers(tmp_path) == []


def test_q2a_an_index_the_swap_back_took_goes_back_to_its_name_when_that_is_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As above, and the agent removes the link the swap back put at ``MEMORY.md``: its index
    goes back to its name, and the edit is applied to it."""
    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- [G](g.md) the agent's index\n")
    _agent_at_the_exchange(monkeypatch, index, index.unlink)

    edited = edit_file(index, lambda raw: raw + b"- [F](f.md) restored\n", must_exist=True)

    assert edited is not None
    assert index.read_bytes() == b"- [G](g.md) the agent's index\n- [F](f.md) restored\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["MEMORY.md"]
