"""V-3: a history whose versions are not one line (two machines' lines joined by a merge, as a
history made elsewhere and brought in by an export ``--with-history`` may hold) loses no version
and keeps their order, carried by a bundle and cut by the operator's retention.

The history: ``a.md`` and ``c.md`` added (two versions), then machine one edits ``a.md`` while
machine two, from the same version, adds ``b.md`` and deletes ``c.md``; a merge joins both
lines, and a last version edits ``b.md``. Carried by a bundle into a scope with no history, its
changes read exactly as before (ids, order, files). Retention counts and dates every version,
not only the first-parent line: keeping the newest four keeps both machines' versions, each with
its own summary, time and files, and squashes the two oldest (the line alone counted five and
cut nothing); keeping those younger than machine two's keeps it, on a base of its own holding
the files it stood on, and the merge still joins it (the line alone kept the merge and the last
version, and machine two's change read as the merge's). Each squashed version is counted by one
base only (``Squashed-Versions``), a base of an earlier cut as the versions it stood for; two
lines cut at versions alike in files and time stand on one base, so no merge stands twice on
one commit.
"""

from __future__ import annotations

from pathlib import Path

from memory_api.store.history import reading
from memory_api.store.history.bundles import bundle_bytes, take_bundle
from memory_api.store.history.git import git, init_repository
from memory_api.store.history.maintenance import Retention, apply_retention

CLOCK = 1_800_000_000
Shown = tuple[str, str, list[tuple[str, str]]]


def version(mark: int, summary: str, when: int, parents: list[int], changes: str) -> bytes:
    """Version ``:mark`` as ``git fast-import`` input, on the versions ``parents`` (marks), with
    the file commands ``changes``."""
    message = f"{summary}\n\nSource: checkpoint\n"
    lines = [
        f"commit refs/heads/{'two' if summary == 'machine two' else 'main'}",
        f"mark :{mark}",
        f"author {summary} <x@x> {CLOCK + when} +0000",
        f"committer {summary} <x@x> {CLOCK + when} +0000",
        f"data {len(message)}\n{message}",
        *(f"{'merge' if number else 'from'} :{parent}" for number, parent in enumerate(parents)),
    ]
    return ("\n".join(lines) + "\n" + changes).encode()


def inline(name: str, text: str) -> str:
    return f"M 100644 inline {name}\ndata {len(text)}\n{text}\n"


def two_machines(repository: Path) -> None:
    """The history of the module docstring, in ``repository`` (created)."""
    init_repository(repository)
    stream = [
        version(1, "first", 0, [], inline("a.md", "a1")),
        version(2, "second", 10, [1], inline("c.md", "c1")),
        version(3, "machine one", 100, [2], inline("a.md", "a2")),
        version(4, "machine two", 150, [2], inline("b.md", "b1") + "D c.md\n"),
        version(5, "merge", 200, [3, 4], inline("b.md", "b1") + "D c.md\n"),
        version(6, "last", 300, [5], inline("b.md", "b2")),
        b"done\n",
    ]
    git(repository, "fast-import", "--quiet", "--done", stdin=b"".join(stream))
    git(repository, "update-ref", "-d", "refs/heads/two")


def changes(repository: Path) -> list[Shown]:
    """The scope's changes, newest first: summary, recorded time, files changed."""
    found, more = reading.scope_changes(repository, limit=50)
    assert not more
    return [
        (item.summary, item.author.recorded_at, sorted((f.file, f.change) for f in item.files))
        for item in found
    ]


def test_v3_a_bundle_carries_a_history_with_a_merge_whole_and_in_order(tmp_path: Path) -> None:
    original, copy = tmp_path / "original.git", tmp_path / "copy.git"
    two_machines(original)
    data = bundle_bytes(original)
    assert data is not None

    assert take_bundle(copy, data) == 6

    ids = ["rev-list", "--date-order", "--parents", "main"]
    assert git(copy, *ids) == git(original, *ids)
    assert changes(copy) == changes(original)


def test_v3_retention_keeps_both_machines_versions_above_the_cut(tmp_path: Path) -> None:
    repository = tmp_path / "user.git"
    two_machines(repository)
    before = changes(repository)
    assert [summary for summary, _, _ in before] == [
        "last", "merge", "machine two", "machine one", "second", "first",
    ]  # fmt: skip

    pruned = apply_retention(repository, Retention(max_versions=4))

    assert (pruned.kept, pruned.squashed) == (4, 2)
    after = changes(repository)
    assert after[:4] == before[:4]
    assert after[4][0].endswith("(squashed by retention)")
    assert len(after) == 5
    assert git(repository, "rev-list", "--count", "--merges", "main").strip() == b"1"
    listed = git(repository, "ls-tree", "--name-only", "main").split()
    assert listed == [b"a.md", b"b.md"]


def test_v3_retention_by_age_keeps_a_merged_version_of_that_age(tmp_path: Path) -> None:
    repository = tmp_path / "user.git"
    two_machines(repository)
    before = changes(repository)
    younger_than_machine_one = CLOCK + 125 + 86400  # machine two's version is a day old then

    pruned = apply_retention(repository, Retention(max_age_days=1), younger_than_machine_one)

    assert (pruned.kept, pruned.squashed) == (3, 3)
    after = changes(repository)
    assert after[:3] == before[:3]  # last, merge, machine two: b.md added, c.md deleted
    # each line has a base of its own, holding its files: machine one's, the second version's
    assert [summary for summary, _, _ in after[3:]] == [
        "History up to 2027-01-15 (squashed by retention)"
    ] * 2
    assert [time for _, time, _ in after[3:]] == [before[3][1], before[4][1]]
    assert git(repository, "rev-list", "--count", "--merges", "main").strip() == b"1"


def squashed_versions(repository: Path) -> list[str]:
    """The ``Squashed-Versions`` count of each squashed base of the branch, newest first."""
    out = git(
        repository, "log", "--date-order", "--format=%(trailers:key=Squashed-Versions)", "main"
    )
    return [line for line in out.decode().splitlines() if line]


def test_v3_each_squashed_version_is_counted_once_across_the_bases(tmp_path: Path) -> None:
    repository = tmp_path / "user.git"
    two_machines(repository)

    pruned = apply_retention(repository, Retention(max_age_days=1), CLOCK + 125 + 86400)

    # machine one's base stands for it alone; the second version's, for it and the first
    assert squashed_versions(repository) == ["Squashed-Versions: 1", "Squashed-Versions: 2"]
    assert pruned.squashed == 3
    # cut again to the newest version: the new base counts what the old bases stood for
    assert apply_retention(repository, Retention(max_versions=1)).squashed == 2
    assert squashed_versions(repository) == ["Squashed-Versions: 5"]


def test_v3_a_merge_of_two_alike_squashed_lines_stands_on_one_base(tmp_path: Path) -> None:
    repository = tmp_path / "user.git"
    init_repository(repository)
    stream = [  # two versions alike but for their authors on one, then a merge of both
        version(1, "first", 0, [], inline("a.md", "a0")),
        version(2, "machine one", 10, [1], inline("a.md", "a1")),
        version(3, "machine two", 10, [1], inline("a.md", "a1")),
        version(4, "merge", 100, [2, 3], inline("b.md", "b1")),
        b"done\n",
    ]
    git(repository, "fast-import", "--quiet", "--done", stdin=b"".join(stream))
    git(repository, "update-ref", "-d", "refs/heads/two")

    pruned = apply_retention(repository, Retention(max_age_days=1), CLOCK + 50 + 86400)

    assert (pruned.kept, pruned.squashed, pruned.bases) == (1, 3, 1)
    listed = git(repository, "rev-list", "--parents", "main").decode().splitlines()
    assert [len(line.split()) for line in listed] == [2, 1]  # the merge on the one base
    assert squashed_versions(repository) == ["Squashed-Versions: 3"]
    assert [summary for summary, _, _ in changes(repository)] == [
        "merge",
        "History up to 2027-01-15 (squashed by retention)",
    ]
