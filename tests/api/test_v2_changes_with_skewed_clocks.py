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

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from memory_api.store.history import clocks, reading
from memory_api.store.history.git import git, init_repository
from memory_api.store.history.maintenance import Retention, apply_retention, maintain
from memory_api.store.history.repo import COMMITTER, Change, commit_changes, read_head

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


def record_many(repository: Path, parent: str, times: list[int]) -> str:
    """Versions changing ``bulk.md`` on top of ``parent``, one per recorded time in ``times``,
    in one ``fast-import`` run; returns the newest."""
    stream = []
    for number, when in enumerate(times):
        message = f"bulk {number}\n\nSource: checkpoint\n".encode()
        data = f"bulk {number}\n".encode()
        stream += [
            b"commit refs/heads/main\n",
            f"author a <a@x> {when} +0000\n".encode(),
            f"committer {COMMITTER} {when} +0000\n".encode(),
            b"data %d\n%s\n" % (len(message), message),
            f"from {parent}\n".encode() if number == 0 else b"",
            b"M 100644 inline bulk.md\n",
            b"data %d\n%s\n" % (len(data), data),
        ]
    git(repository, "fast-import", "--quiet", "--done", stdin=b"".join(stream) + b"done\n")
    head = read_head(repository)
    assert head is not None
    return head


def test_v2_a_version_dated_behind_after_the_bound_was_kept_hides_nothing_below_it(
    repository: Path,
) -> None:
    old = record(repository, None, 0, CLOCK)
    first = record(repository, old, 1, CLOCK + 10)
    assert versions(repository, since=CLOCK + 5) == [first]  # the bound is kept here: 0
    behind = record(repository, first, 2, CLOCK - 3600)  # a replica an hour behind
    last = record(repository, behind, 3, CLOCK + 30)

    assert versions(repository, since=CLOCK + 5) == [last, first]
    assert versions(repository, since=CLOCK - 3600) == [last, behind, first, old]


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"{not json",
        b'{"to": "main", "latest": 0, "behind": 0}',
        b'{"to": "%s", "latest": 0, "behind": -5}',
        b'{"to": "%s", "latest": "x", "behind": 0}',
    ],
)
def test_v2_a_missing_or_damaged_bound_is_measured_again(repository: Path, damage: bytes) -> None:
    old = record(repository, None, 0, CLOCK - 3600)
    first = record(repository, old, 1, CLOCK + 10)
    behind = record(repository, first, 2, CLOCK - 600)
    last = record(repository, behind, 3, CLOCK + 20)
    bound = repository / clocks.INDEX_FILE
    bound.write_bytes(damage.replace(b"%s", last.encode()))

    assert versions(repository, since=CLOCK) == [last, first]
    bound.unlink()
    assert versions(repository, since=CLOCK) == [last, first]


def test_v2_after_retention_rewrote_the_history_versions_dated_behind_are_still_seen(
    repository: Path,
) -> None:
    made = [record(repository, None, 0, CLOCK - 7200)]
    for number, when in enumerate([CLOCK + 10, CLOCK + 20, CLOCK - 600, CLOCK + 30], start=1):
        made.append(record(repository, made[-1], number, when))
    maintain(repository)  # keeps the bound of these versions
    assert len(versions(repository, since=CLOCK)) == 3

    apply_retention(repository, Retention(max_versions=4))  # new ids, the same times

    found, _ = reading.scope_changes(repository, limit=50, since=CLOCK)
    assert [version.summary for version in found] == ["version 4", "version 2", "version 1"]
    found, _ = reading.scope_changes(repository, limit=50, since=CLOCK - 600)
    assert [version.summary for version in found] == [f"version {n}" for n in (4, 3, 2, 1)]


@pytest.fixture
def versions_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many versions each ``git rev-list`` and ``git log`` of a look listed (the bound's
    walk and the look's own)."""
    counts: list[int] = []
    real: Callable[..., bytes] = git

    def counted(repository: Path, *args: str, **kwargs: Any) -> bytes:
        out = real(repository, *args, **kwargs)
        if args[0] == "rev-list":
            counts.append(len(out.splitlines()))
        elif args[0] == "log":
            counts.append(out.count(b"\x1e"))
        return out

    monkeypatch.setattr("memory_api.store.history.reading.git", counted)
    monkeypatch.setattr("memory_api.store.history.clocks.git", counted)
    monkeypatch.setattr("memory_api.store.history.repo.git", counted)
    return counts


def test_v2_since_reads_the_versions_recorded_since_not_the_whole_history(
    repository: Path, versions_read: list[int]
) -> None:
    """2,000 versions, one every minute, every 100th from a clock 10 minutes behind; then 5
    more. A look at the last 5 minutes reads those versions and the few dated within the
    bound below them, never the 2,000."""
    start = CLOCK - 200_000
    times = [start + 60 * n - (600 if n % 100 == 99 else 0) for n in range(2000)]
    older = record_many(repository, record(repository, None, 0, start - 60), times)
    maintain(repository)  # the bound is kept as the service keeps it: 600 s
    now = start + 60 * 2000
    newest = record_many(repository, older, [now + 60 * n for n in range(5)])
    versions_read.clear()

    found, more = reading.scope_changes(repository, limit=50, since=now)

    assert len(found) == 5 and found[0].version == newest and not more
    assert sum(versions_read) <= 5 + 5 + 5 + 600 // 60 + 2  # bound, walk, page; the bound's span
    versions_read.clear()
    found, more = reading.scope_changes(repository, limit=3, since=now)
    assert len(found) == 3 and more
    assert sum(versions_read) <= 5 + 3
