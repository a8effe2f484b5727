"""R-1, R-2: a file renamed only in Unicode normalisation form reaches every copy as a rename.

macOS writes a file name in NFD (``café.md`` as ``cafe`` + U+0301), Linux and Windows keep the
NFC a keyboard types; a person or a tool renaming one into the other makes two names that are
one file on a normalising disk (APFS, NTFS) and two on a case-insensitive one that does not
normalise (exFAT) or an ordinary Linux disk. Such a rename must travel as a rename: the
service and every copy end with the new name alone, its text and its index line, never both
names (one machine would keep one text and send it back as an edit of the other), nor the
new name kept apart as a twin of the old (``café-laptop.md``), and nothing waits after.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from harness_memory.remote import RemoteCopy

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import append, machine, served_root, synced
from tests.support.case_insensitive_disk import case_insensitive_disk

NFC = unicodedata.normalize("NFC", "café.md")
NFD = unicodedata.normalize("NFD", "café.md")
assert NFC != NFD and NFC.encode() != NFD.encode()

RENAMES = [(NFD, NFC), (NFC, NFD)]
"""(old name, new name): macOS's form to the keyboard's, and back."""
IDS = ["nfd-to-nfc", "nfc-to-nfd"]
EACH_FORM = pytest.mark.parametrize("renaming", RENAMES, ids=IDS, indirect=True)
"""A test run for each rename of :data:`RENAMES`."""
__all__ = ["served_root"]  # the fixture, used by name


@dataclass(frozen=True)
class Renaming:
    """One agent on the worker's shared service whose user scope (``user``) holds ``old`` and
    the index line linking it; ``new`` is what a test renames it to. Copies of it are made
    under ``tmp_path``."""

    service: RealService
    agent: str
    tmp_path: Path
    user: Path
    old: str
    new: str

    def machine(self, name: str) -> RemoteCopy:
        """A copy named ``name`` (``laptop``, ``desktop``), nothing synced yet."""
        return machine(self.service, self.agent, self.tmp_path, name)

    def synced_machine(self, name: str) -> RemoteCopy:
        """A copy named ``name``, synced once."""
        copy = self.machine(name)
        synced(copy)
        return copy

    @contextmanager
    def on_exfat(self) -> Iterator[RemoteCopy]:
        """A copy on an exFAT disk, synced once, for the ``with`` block; checks first that the
        disk folds letter case (``É`` and ``é`` are one name) and keeps the two Unicode forms
        apart (exFAT does not normalise)."""
        with case_insensitive_disk(self.tmp_path, private=True) as disk:
            (disk / "Été.md").write_text("one file\n", encoding="utf-8")
            assert (disk / "été.md").read_text(encoding="utf-8") == "one file\n"
            assert not (disk / unicodedata.normalize("NFD", "Été.md")).exists()
            (disk / "Été.md").unlink()
            copy = machine(self.service, self.agent, disk, "desktop")
            synced(copy)
            yield copy

    def rename(self, scope: Path) -> None:
        """``old`` renamed ``new`` in ``scope``, its text edited and its index line pointed
        there."""
        _rename(scope, self.old, self.new)

    def holds_only_the_new_name(self, scope: Path) -> None:
        """``scope`` holds ``new`` alone beside its index, with the renamed text and line."""
        _holds_only_the_new_name(scope, self.new)


@pytest.fixture
def renaming(
    request: pytest.FixtureRequest,
    shared_service: RealService,
    new_agent: str,
    served_root: Path,
    tmp_path: Path,
) -> Renaming:
    """The :class:`Renaming` of ``request.param`` (old name, new name)."""
    old, new = request.param
    user = _served(served_root, old)
    return Renaming(shared_service, new_agent, tmp_path, user, old, new)


def _served(served_root: Path, old: str) -> Path:
    """The service's user scope holding ``old`` and the index line linking it."""
    user = served_root / "user"
    append(user / "MEMORY.md", f"- [Café]({old}) where the coffee is\n")
    append(user / old, "old text\n")
    return user


def _rename(scope: Path, old: str, new: str) -> None:
    """``old`` renamed ``new`` in ``scope``, its text edited and its index line pointed there."""
    (scope / old).rename(scope / new)
    (scope / new).write_text("renamed text\n", encoding="utf-8")
    index = scope / "MEMORY.md"
    index.write_text(
        index.read_text(encoding="utf-8").replace(f"({old})", f"({new})"), encoding="utf-8"
    )


def _holds_only_the_new_name(scope: Path, new: str) -> None:
    names = sorted(path.name for path in scope.iterdir())
    assert names == sorted(["MEMORY.md", new]), [name.encode() for name in names]
    assert (scope / new).read_text(encoding="utf-8") == "renamed text\n"
    index = (scope / "MEMORY.md").read_text(encoding="utf-8")
    assert index == f"- [Café]({new}) where the coffee is\n", index.encode()


def _nothing_left(copy: RemoteCopy) -> None:
    """One more sync of ``copy`` sends nothing and leaves nothing waiting."""
    [again] = synced(copy)
    assert not again.sent and not again.waiting


@EACH_FORM
def test_r2_a_rename_only_in_unicode_form_reaches_the_service_and_every_copy(
    renaming: Renaming,
) -> None:
    laptop = renaming.synced_machine("laptop")
    desktop = renaming.synced_machine("desktop")

    renaming.rename(laptop.memory_root / "user")
    [sent] = synced(laptop)
    [taken] = synced(desktop)

    assert sent.sent and not sent.waiting and sent.outcomes == []  # no twin kept apart
    assert not taken.waiting
    for scope in (renaming.user, laptop.memory_root / "user", desktop.memory_root / "user"):
        renaming.holds_only_the_new_name(scope)
    _nothing_left(laptop)


@EACH_FORM
def test_r2_a_unicode_form_rename_reaches_a_copy_on_a_case_insensitive_disk(
    renaming: Renaming,
) -> None:
    laptop = renaming.synced_machine("laptop")
    with renaming.on_exfat() as desktop:
        renaming.rename(laptop.memory_root / "user")
        synced(laptop)

        [taken] = synced(desktop)

        assert not taken.waiting
        renaming.holds_only_the_new_name(desktop.memory_root / "user")
        _nothing_left(desktop)
    renaming.holds_only_the_new_name(renaming.user)


@EACH_FORM
def test_r2_a_unicode_form_rename_made_on_a_case_insensitive_disk_reaches_the_service(
    renaming: Renaming,
) -> None:
    laptop = renaming.machine("laptop")
    with renaming.on_exfat() as desktop:
        renaming.rename(desktop.memory_root / "user")

        [sent] = synced(desktop)

        assert sent.sent and not sent.waiting and sent.outcomes == []
        renaming.holds_only_the_new_name(desktop.memory_root / "user")
        _nothing_left(desktop)
    renaming.holds_only_the_new_name(renaming.user)
    synced(laptop)
    renaming.holds_only_the_new_name(laptop.memory_root / "user")


@pytest.mark.parametrize(
    "renaming", [(unicodedata.normalize("NFD", "Café.md"), NFC)], ids=["Cafe-nfd-to-cafe-nfc"],
    indirect=True,
)  # fmt: skip
def test_r2_a_rename_in_both_letter_case_and_unicode_form_on_a_case_insensitive_disk(
    renaming: Renaming,
) -> None:
    """``Café.md`` in NFD renamed ``café.md`` in NFC: one name on APFS, two on exFAT."""
    laptop = renaming.machine("laptop")
    with renaming.on_exfat() as desktop:
        synced(laptop)
        renaming.rename(desktop.memory_root / "user")

        [sent] = synced(desktop)
        [taken] = synced(laptop)

        assert sent.sent and not sent.waiting and sent.outcomes == []
        assert not taken.waiting
        for scope in (renaming.user, desktop.memory_root / "user", laptop.memory_root / "user"):
            renaming.holds_only_the_new_name(scope)


@EACH_FORM
def test_r2_a_unicode_form_rename_sent_by_the_post_write_hook_then_its_index_line(
    renaming: Renaming,
) -> None:
    """Each write is sent at once (send-only, no fetch between): the file under its new name
    first, its index line in a later send."""
    old, new = renaming.old, renaming.new
    laptop = renaming.synced_machine("laptop")
    scope = laptop.memory_root / "user"
    (scope / old).rename(scope / new)
    (scope / new).write_text("renamed text\n", encoding="utf-8")
    [first] = laptop.sync(None, send_only=True)
    (scope / "MEMORY.md").write_text(f"- [Café]({new}) where the coffee is\n", encoding="utf-8")
    [second] = laptop.sync(None, send_only=True)
    synced(laptop)

    assert first.ok and first.sent and first.outcomes == []
    assert second.ok and second.sent and second.outcomes == []
    for held in (renaming.user, scope):
        renaming.holds_only_the_new_name(held)


@EACH_FORM
def test_r2_an_edit_of_the_old_form_on_a_case_insensitive_disk_is_kept_apart_never_lost(
    renaming: Renaming,
) -> None:
    """One machine renames the file into the other form while a copy on exFAT edits it under
    its old one: the edit is kept (R-2), under a name of its own that no disk folds into the
    new one, reported, and every copy ends alike with nothing waiting."""
    laptop = renaming.synced_machine("laptop")
    with renaming.on_exfat() as desktop:
        renaming.rename(laptop.memory_root / "user")
        synced(laptop)
        (desktop.memory_root / "user" / renaming.old).write_text(
            "edited on exFAT\n", encoding="utf-8"
        )

        [merged] = synced(desktop)
        [again] = synced(desktop)
        synced(laptop)

        assert not merged.waiting and not again.waiting and not again.sent
        held = {}
        for scope in (renaming.user, laptop.memory_root / "user", desktop.memory_root / "user"):
            names = sorted(path.name for path in scope.iterdir())
            held[str(scope)] = {name: (scope / name).read_bytes() for name in names}
        first, *others = held.values()
        assert all(other == first for other in others), held
        texts = sorted(first.values())
        assert b"renamed text\n" in texts and b"edited on exFAT\n" in texts
        folded = [unicodedata.normalize("NFC", name).casefold() for name in first]
        assert len(set(folded)) == len(folded), list(first)  # no two names one file on a Mac


@EACH_FORM
def test_r2_a_unicode_form_rename_an_agent_made_on_the_service_reaches_a_case_insensitive_disk(
    renaming: Renaming,
) -> None:
    with renaming.on_exfat() as desktop:
        renaming.rename(renaming.user)  # in the scope folder itself, as an agent there writes

        [taken] = synced(desktop)

        assert not taken.waiting and taken.outcomes == []
        renaming.holds_only_the_new_name(desktop.memory_root / "user")
        renaming.holds_only_the_new_name(renaming.user)
