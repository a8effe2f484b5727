"""V-3: the operator's retention run again (a nightly job) with the same limits leaves a history
it already cut as it is, and a run after one that was killed halfway finishes what it left.

The history is the one of :mod:`tests.api.test_v3_history_with_merges` (two machines' lines
joined by a merge): cut by age, it holds two squashed bases, one per line the cut crossed. A
second run with the same limits squashes nothing: every version, id, count and machine ref
stays as the first run left it. A run killed after it moved the branch leaves its own ref
(``refs/heads/retention``) and the machines' refs, which still name the squashed versions and
so keep them; the next run removes both (not the ref of a machine synced since), so what was
squashed is gone for good. One killed before it moved the branch leaves a history of its own,
which the next run drops.
"""

from __future__ import annotations

from pathlib import Path

from memory_api.store.history.git import git, git_succeeds, init_repository
from memory_api.store.history.maintenance import Retention, apply_retention

from tests.api.test_v3_history_with_merges import CLOCK, inline, two_machines, version

A_DAY_AFTER_MACHINE_ONE = CLOCK + 125 + 86400
AGE = Retention(max_age_days=1)


def refs(repository: Path) -> list[str]:
    """Every ref of ``repository`` and the version it names, sorted."""
    return git(repository, "for-each-ref", "--format=%(refname) %(objectname)").decode().split("\n")


def every_version(repository: Path) -> bytes:
    """Every version of the branch: id, parents and message, newest first."""
    return git(repository, "log", "--date-order", "--format=%H %P%n%B", "main")


def test_v3_a_second_prune_with_the_same_limits_leaves_the_history_as_it_is(
    tmp_path: Path,
) -> None:
    repository = tmp_path / "user.git"
    two_machines(repository)
    assert apply_retention(repository, AGE, A_DAY_AFTER_MACHINE_ONE).squashed == 3
    git(repository, "update-ref", "refs/machines/laptop", "main")  # the laptop's next push
    before, refs_before = every_version(repository), refs(repository)

    again = apply_retention(repository, AGE, A_DAY_AFTER_MACHINE_ONE)

    assert (again.kept, again.squashed) == (5, 0)
    assert every_version(repository) == before
    assert refs(repository) == refs_before


def test_v3_a_prune_finishes_one_killed_after_it_moved_the_branch(tmp_path: Path) -> None:
    repository = tmp_path / "user.git"
    two_machines(repository)
    old_head = git(repository, "rev-parse", "main").decode().strip()
    git(repository, "update-ref", "refs/old", old_head)  # its objects outlive this cut
    apply_retention(repository, AGE, A_DAY_AFTER_MACHINE_ONE)
    git(repository, "update-ref", "-d", "refs/old")
    # what a prune killed right after it moved the branch leaves: its own ref on the new head,
    # and the machines' refs naming a squashed version, which keep the squashed objects
    git(repository, "update-ref", "refs/heads/retention", "main")
    git(repository, "update-ref", "refs/machines/laptop", old_head)
    git(repository, "update-ref", "refs/taken/laptop", old_head)
    git(repository, "update-ref", "refs/machines/desktop", "main")  # synced since: kept
    head = git(repository, "rev-parse", "main")

    again = apply_retention(repository, AGE, A_DAY_AFTER_MACHINE_ONE)

    assert again.squashed == 0
    assert git(repository, "rev-parse", "main") == head
    assert [line.split()[0] for line in refs(repository) if line] == [
        "refs/heads/main",
        "refs/machines/desktop",
    ]
    assert not git_succeeds(repository, "cat-file", "-e", old_head)  # gone for good


def test_v3_a_prune_drops_what_one_killed_before_it_moved_the_branch_wrote(
    tmp_path: Path,
) -> None:
    repository = tmp_path / "user.git"
    two_machines(repository)
    apply_retention(repository, AGE, A_DAY_AFTER_MACHINE_ONE)
    git(repository, "update-ref", "refs/machines/laptop", "main")  # on a version kept
    # what a prune killed before it moved the branch leaves: its ref on a history of its own
    someone = [("user.name", "retention"), ("user.email", "r@x")]
    written = git(repository, "commit-tree", "main^{tree}", "-m", "cut", config=someone)
    git(repository, "update-ref", "refs/heads/retention", written.decode().strip())
    before = every_version(repository)

    again = apply_retention(repository, AGE, A_DAY_AFTER_MACHINE_ONE)

    assert again.squashed == 0
    assert every_version(repository) == before
    assert [line.split()[0] for line in refs(repository) if line] == [
        "refs/heads/main",
        "refs/machines/laptop",
    ]
    assert not git_succeeds(repository, "cat-file", "-e", written.decode().strip())


def test_v3_a_base_whose_count_is_no_ascii_number_is_an_ordinary_version(tmp_path: Path) -> None:
    """A history taken from a bundle may hold any trailer: ``Squashed-Versions: ²`` (a digit
    to ``str.isdigit`` that ``int`` refuses) stopped the run, and every scope after it."""
    repository = tmp_path / "user.git"
    init_repository(repository)
    message = "History\n\nSource: squash\nSquashed-Versions: \u00b2\n".encode()
    root = b"commit refs/heads/main\nmark :1\nauthor a <a@a> %d +0000\n" % CLOCK
    root += b"committer a <a@a> %d +0000\ndata %d\n%s\n" % (CLOCK, len(message), message)
    stream = [root + inline("a.md", "a1").encode()]
    stream += [version(n, f"v{n}", n * 10, [n - 1], inline("a.md", f"a{n}")) for n in (2, 3, 4)]
    git(repository, "fast-import", "--quiet", "--done", stdin=b"".join([*stream, b"done\n"]))

    pruned = apply_retention(repository, Retention(max_versions=2))

    assert (pruned.kept, pruned.squashed, pruned.problem) == (2, 2, None)
