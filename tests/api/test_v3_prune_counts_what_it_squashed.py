"""V-3: a retention run reports the versions *it* squashed (``Pruned.squashed``), never a base
an earlier run made again.

A squashed base stands for versions an earlier cut already squashed (and reported); a later
cut that folds it into its new base squashes only the versions recorded since. The new base
still counts every version it stands for (``Squashed-Versions``), so the history says how much
it lost in all while each run says what it did: two cuts in a row on one line, and on two
machines' lines joined by a merge (:mod:`tests.api.test_v3_history_with_merges`).
"""

from __future__ import annotations

from pathlib import Path

from memory_api.store.history.git import git, init_repository
from memory_api.store.history.maintenance import Retention, apply_retention
from memory_api.store.history.repo import read_head

from tests.api.test_v3_history_with_merges import (
    CLOCK,
    inline,
    squashed_versions,
    two_machines,
    version,
)


def add_versions(repository: Path, first: int, count: int) -> None:
    """``count`` versions on one line on top of ``main`` (none yet: a first one), each editing
    ``a.md``, numbered from ``first``."""
    head = read_head(repository)
    stream = [f"reset refs/heads/main\nfrom {head}\n\n".encode()] if head else []
    for number in range(first, first + count):
        parents = [number - 1] if number > first else []
        stream.append(version(number, f"v{number}", number, parents, inline("a.md", f"{number}")))
    git(repository, "fast-import", "--quiet", "--done", stdin=b"".join([*stream, b"done\n"]))


def test_v3_a_second_prune_counts_only_the_versions_recorded_since_the_first(
    tmp_path: Path,
) -> None:
    repository = tmp_path / "user.git"
    init_repository(repository)
    add_versions(repository, 1, 10)
    first = apply_retention(repository, Retention(max_versions=6))
    assert (first.kept, first.squashed, first.bases) == (6, 4, 1)
    add_versions(repository, 11, 3)

    second = apply_retention(repository, Retention(max_versions=6))

    # the base and v5, v6, v7 go: the base's four versions were the first run's
    assert (second.kept, second.squashed, second.bases) == (6, 3, 1)
    assert squashed_versions(repository) == ["Squashed-Versions: 7"]


def test_v3_a_second_prune_of_two_machines_lines_counts_only_what_it_squashed(
    tmp_path: Path,
) -> None:
    repository = tmp_path / "user.git"
    two_machines(repository)
    first = apply_retention(repository, Retention(max_age_days=1), CLOCK + 125 + 86400)
    assert (first.kept, first.squashed, first.bases) == (3, 3, 2)

    second = apply_retention(repository, Retention(max_versions=1))

    # machine two's version and the merge go; the two bases stood for the first run's three
    assert (second.kept, second.squashed, second.bases) == (1, 2, 1)
    assert squashed_versions(repository) == ["Squashed-Versions: 5"]
