"""R-1, R-2: what the service never takes from a push stays on the machine that wrote it.

The service takes only a scope's memory files from a push (``MEMORY.md``, ``.workspace``, topic
file names, regular files within their caps) and names the rest in its outcomes. The copy then
fetches ``main``, which never holds such an entry: sent along, the fetch removed it from the
machine too, so a note over 1 MiB, a ``notes.txt`` or a symlink an agent left in its copy was
gone from every side. Such an entry is never sent: it stays in the copy, each sync says so with
what to do, nothing waits for it, and the memories written beside it still reach the service
and the other machine.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from memory_core.scope_files import TOPIC_CAP, sync_refusal

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import append, machine, served_root, synced

__all__ = ["served_root"]  # the fixture, used by name


def _over_the_cap(path: Path) -> None:
    path.write_bytes(b"---\ndescription: big\n---\n" + b"a" * TOPIC_CAP)


def _not_a_memory_name(path: Path) -> None:
    path.write_text("a note under no memory file's name\n", encoding="utf-8")


def _symlink(path: Path) -> None:
    target = path.parent.parent / "elsewhere.md"
    target.write_text("---\ndescription: elsewhere\n---\nelsewhere\n", encoding="utf-8")
    path.symlink_to(target)


ENTRIES: dict[str, tuple[str, Callable[[Path], None], str]] = {
    "over-its-cap": ("big.md", _over_the_cap, f"it is larger than {TOPIC_CAP} bytes"),
    "no-memory-name": ("notes.txt", _not_a_memory_name, "it is no memory file"),
    "symlink": ("linked.md", _symlink, "it is no regular file"),
}


@pytest.mark.parametrize("kind", list(ENTRIES))
def test_r2_an_entry_no_scope_takes_stays_in_the_copy_and_is_said_never_lost(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path, kind: str
) -> None:
    name, make, why = ENTRIES[kind]
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    desktop = machine(shared_service, new_agent, tmp_path, "desktop")
    synced(laptop)
    scope = laptop.memory_root / "user"
    make(scope / name)
    written: Path | bytes = (
        (scope / name).readlink() if kind == "symlink" else (scope / name).read_bytes()
    )
    append(scope / "uv.md", "---\ndescription: use uv\n---\nuse uv\n")
    append(scope / "MEMORY.md", "- [Uv](uv.md) use uv\n")

    [first] = synced(laptop)
    [second] = synced(laptop)  # fetches main, which never holds the entry

    kept = (scope / name).readlink() if kind == "symlink" else (scope / name).read_bytes()
    assert kept == written
    for result in (first, second):
        [said] = [line for line in result.outcomes if line.startswith(name)]
        assert said.startswith(f"{name} stays on this machine only, never sent to the service")
        assert why in said and "to sync it" in said  # what happened, and the next step
    assert not second.waiting
    assert not any(scope.waiting for scope in laptop.status())
    assert not os.path.lexists(served_root / "user" / name)
    assert (served_root / "user" / "uv.md").read_text(encoding="utf-8").endswith("use uv\n")
    synced(desktop)
    assert not os.path.lexists(desktop.memory_root / "user" / name)
    assert (desktop.memory_root / "user" / "uv.md").exists()


def test_r2_a_memory_grown_over_its_cap_keeps_both_texts(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    """A memory the service holds, grown on a machine over its cap: the service keeps the last
    text it took, the machine the one written, and the sync says why it went no further."""
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    synced(laptop)
    note = laptop.memory_root / "user" / "notes.md"
    append(note, "---\ndescription: notes\n---\nfirst\n")
    synced(laptop)
    _over_the_cap(note)
    grown = note.read_bytes()

    [result] = synced(laptop)

    assert note.read_bytes() == grown
    assert any(line.startswith("notes.md stays on this machine only") for line in result.outcomes)
    assert (served_root / "user" / "notes.md").read_text(encoding="utf-8").endswith("first\n")


def test_r1_the_service_and_the_copy_refuse_by_one_rule() -> None:
    """The outcome the service gives a push and the one the copy gives itself read alike."""
    assert sync_refusal("uv.md", regular=True, size=TOPIC_CAP) is None
    refused = sync_refusal("uv.md", regular=True, size=TOPIC_CAP + 1)
    assert refused is not None and refused.why == f"it is larger than {TOPIC_CAP} bytes"
    assert sync_refusal("MEMORY.md", regular=True, size=TOPIC_CAP + 1) is None  # 16 MiB cap
    link = sync_refusal("uv.md", regular=False, size=None)
    assert link is not None and link.why == "it is no regular file"


@pytest.mark.parametrize("kind", ["over-its-cap", "symlink"])
def test_r2_a_memory_kept_unsent_here_and_edited_elsewhere_keeps_both_and_syncs_on(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path, kind: str
) -> None:
    """A memory grown over its cap (or made a symlink) on the laptop while the desktop edited
    it: the laptop's move to the service's version was refused (``Entry 'notes.md' not
    uptodate. Cannot merge``) at every sync from then on. The laptop's text is kept under a
    name of its own, said in the outcome; the file takes the desktop's edit; the syncs go on."""
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    desktop = machine(shared_service, new_agent, tmp_path, "desktop")
    synced(laptop)
    append(laptop.memory_root / "user" / "notes.md", "---\ndescription: notes\n---\nfirst\n")
    synced(laptop)
    synced(desktop)
    note = laptop.memory_root / "user" / "notes.md"
    written: Path | bytes
    if kind == "symlink":
        note.unlink()
        _symlink(note)
        written = note.readlink()
    else:
        _over_the_cap(note)
        written = note.read_bytes()
    append(desktop.memory_root / "user" / "notes.md", "from the desktop\n")
    synced(desktop)

    [result] = synced(laptop)

    aside = laptop.memory_root / "user" / "notes-this-machine.md"
    assert (aside.readlink() if kind == "symlink" else aside.read_bytes()) == written
    [said] = [line for line in result.outcomes if line.startswith("notes.md was changed")]
    assert "kept as notes-this-machine.md (on this machine only)" in said
    assert note.read_text(encoding="utf-8").endswith("first\nfrom the desktop\n")
    append(desktop.memory_root / "user" / "MEMORY.md", "- [Later](later.md) later\n")
    synced(desktop)
    synced(laptop)
    assert "- [Later](later.md) later\n" in (laptop.memory_root / "user" / "MEMORY.md").read_text(
        encoding="utf-8"
    )
