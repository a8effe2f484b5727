"""V-2: a file's history follows it across any number of renames, and never says it is whole
when it is not.

A note added and then renamed 150 times (each rename one version, its text kept): its history,
paged (``before``) 120 versions at a time, lists all 151 versions, newest first, each under the
name it had then, the oldest the one that added it, and only the last page says no more follow.
(A bound of 100 renames once ended a page there with ``more: false``, and made a page ``before``
a version more than 100 renames down look for the wrong name and come back empty.) The history
is written with one ``git fast-import``, as the service records, so it is built in a moment.
"""

from __future__ import annotations

from pathlib import Path

from memory_api.store.history import reading
from memory_api.store.history.git import git, init_repository
from memory_api.store.history.repo import read_head
from memory_core.wire import FileVersion

RENAMES = 150
PAGE = 120
"""Versions a page holds: more than the 100 renames the walk once stopped at."""
TEXT = b"---\ndescription: deploys\n---\nship on Fridays\n"


def name(number: int) -> str:
    return f"note-{number:03d}.md"


def renamed_many_times(repository: Path) -> list[str]:
    """A history whose one note, ``note-000.md``, is renamed ``note-001.md`` … ``note-150.md``
    one version at a time; the versions, newest first."""
    init_repository(repository)
    stream = []
    for number in range(RENAMES + 1):
        change = f"D {name(number - 1)}\n" if number else ""
        message = f"version {number}\n\nSource: checkpoint\n".encode()
        stream.append(
            b"commit refs/heads/main\n"
            + f"author a <a@x> {1_800_000_000 + number} +0000\n".encode()
            + f"committer a <a@x> {1_800_000_000 + number} +0000\n".encode()
            + b"data %d\n%s\n" % (len(message), message)
            + f"{change}M 100644 inline {name(number)}\n".encode()
            + b"data %d\n%s\n" % (len(TEXT), TEXT)
        )
    git(repository, "fast-import", "--quiet", "--done", stdin=b"".join([*stream, b"done\n"]))
    assert read_head(repository) is not None
    return git(repository, "rev-list", "main").decode("ascii").split()


def shown(page: list[FileVersion]) -> list[tuple[str, str, str, str | None]]:
    return [(item.version, item.change, item.file or "", item.renamed_from) for item in page]


def whole_history(made: list[str]) -> list[tuple[str, str, str, str | None]]:
    """The history of the note under its last name: every rename, then the version adding it."""
    renamed = [(made[RENAMES - n], "renamed", name(n), name(n - 1)) for n in range(RENAMES, 0, -1)]
    return [*renamed, (made[-1], "added", name(0), None)]


def test_v2_a_files_history_pages_through_every_rename(tmp_path: Path) -> None:
    repository = tmp_path / "user.git"
    made = renamed_many_times(repository)

    pages: list[list[tuple[str, str, str, str | None]]] = []
    before: str | None = None
    more = True
    while more and len(pages) <= RENAMES // PAGE + 1:  # one page more than the history needs
        page, more = reading.file_history(repository, name(RENAMES), limit=PAGE, before=before)
        assert page, "a page said more follow, and the next one was empty"
        pages.append(shown(page))
        before = page[-1].version

    assert [item for page in pages for item in page] == whole_history(made)
    assert [len(page) for page in pages] == [PAGE, RENAMES + 1 - PAGE]
