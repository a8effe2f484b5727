"""V-2: a scope's changes ``since`` a time, and ``after`` a version, when the processes that
recorded its versions disagree about the time (replicas on one data dir, a machine's merge).

``since`` answers every version whose recorded time (the committer date, the recording
process's clock) is that time or later, wherever it stands in the history: a version dated
earlier by a clock running behind does not hide the ones below it, as git's own ``--since``
would (it stops its walk at the first version older than the date). ``after`` — the newest
version a client has seen — is the cursor that does not depend on any clock: every version
recorded since is answered, whatever its date, and none of those seen.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_api.store.history import reading
from memory_api.store.history.git import init_repository
from memory_api.store.history.repo import Change, commit_changes

CLOCK = 1_800_000_000
"""Seconds since the epoch of the "right" clock in these histories."""


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    made = tmp_path / "user.git"
    init_repository(made)
    return made


def record(repository: Path, parent: str | None, number: int, when: int) -> str:
    """A version changing ``note.md``, recorded at ``when`` by the recording process's clock."""
    data = f"version {number}\n".encode()
    return commit_changes(
        repository,
        parent,
        [Change("note.md", data)],
        author="a <a@x>",
        author_time=when,
        commit_time=when,
        message=f"version {number}\n\nSource: checkpoint\n",
    )


def versions(repository: Path, *, since: int | None = None, after: str | None = None) -> list[str]:
    """The ids of the scope's changes ``since`` a time or ``after`` a version, newest first."""
    found, _ = reading.scope_changes(repository, limit=50, since=since, after=after)
    return [version.version for version in found]


def test_v2_since_answers_every_version_recorded_then_or_later_whatever_stands_above_it(
    repository: Path,
) -> None:
    old = record(repository, None, 0, CLOCK - 3600)
    first = record(repository, old, 1, CLOCK + 10)  # replica A, right clock
    behind = record(repository, first, 2, CLOCK - 600)  # replica B, ten minutes behind
    last = record(repository, behind, 3, CLOCK + 20)  # replica A again

    assert versions(repository, since=CLOCK) == [last, first]
    assert versions(repository, since=CLOCK - 600) == [last, behind, first]
    assert versions(repository, since=CLOCK + 21) == []


def test_v2_since_pages_with_before_and_says_when_more_follow(repository: Path) -> None:
    made = [record(repository, None, 0, CLOCK)]
    for number in range(1, 6):
        skew = -900 if number % 2 else 0  # every other version from a clock behind
        made.append(record(repository, made[-1], number, CLOCK + number + skew))
    recorded_since = [version for version in reversed(made) if version in made[0::2]]

    page, more = reading.scope_changes(repository, limit=2, since=CLOCK)
    assert [version.version for version in page] == recorded_since[:2]
    assert more
    rest, more = reading.scope_changes(repository, limit=2, since=CLOCK, before=page[-1].version)
    assert [version.version for version in rest] == recorded_since[2:]
    assert not more


def test_v2_after_a_version_answers_what_was_recorded_since_whatever_its_date(
    repository: Path,
) -> None:
    seen = record(repository, None, 0, CLOCK)
    behind = record(repository, seen, 1, CLOCK - 3600)  # dated before the one seen
    ahead = record(repository, behind, 2, CLOCK + 3600)

    assert versions(repository, after=seen) == [ahead, behind]
    assert versions(repository, after=ahead) == []
