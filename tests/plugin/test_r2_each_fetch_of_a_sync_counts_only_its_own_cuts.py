"""R-2, K-7: each version a sync takes counts the files its own cuts explain, no others.

A sync may take two versions of a scope: the one its push made, then, after this machine's disk
renamed names too long for it (``_fit_names``), the one the push of those renames made
(``_send_fitted``). Each time the files the service only renamed to a cut of what this machine
sent (its disk takes shorter names) are no change made elsewhere, and are taken out of the
count of files received. The cuts of the first version were taken out again at the second: a
sync whose second version brought one file from elsewhere said "received -1 files"
(``receivedFiles: -1``). Here two versions of one run, on a real git repository: the first only
cuts a name (nothing received), the second cuts another and brings one new file (one received),
and the run notes both cuts.
"""

from __future__ import annotations

from pathlib import Path

from harness_memory.remote import RemoteCopy, _ScopeRun
from memory_core import layout
from memory_core.scope_merge import fitted_name

FIRST = "deploy-notes-" + "é" * 90 + ".md"  # 196 bytes of UTF-8
SECOND = "release-notes-" + "ü" * 90 + ".md"
TEXT = "---\ndescription: how we ship\n---\nship on Fridays\n"


def _cut(name: str) -> str:
    cut = fitted_name(name, 143, ())  # as a disk of eCryptfs's 143-byte names keeps it
    assert cut is not None and cut != name
    return cut


def _commit(run: _ScopeRun, files: dict[str, str]) -> str:
    """A commit (no parent) holding ``files`` (name → text)."""
    entries = "".join(
        f"100644 blob {run.git('hash-object', '-w', '--stdin', stdin=text.encode())}\t{name}\0"
        for name, text in sorted(files.items())
    )
    tree = run.git("mktree", "-z", stdin=entries.encode())
    return run.git("commit-tree", tree, "-m", "a version")


def _run(tmp_path: Path) -> _ScopeRun:
    copy = RemoteCopy(
        url="http://127.0.0.1:9",
        token=None,
        project="acme",
        agent="a1",
        state_dir=tmp_path / "state",
        timeout=5.0,
    )
    scope = tmp_path / "scope"
    scope.mkdir()
    run = _ScopeRun(copy, "user", scope, tmp_path / "git")
    run.git("init", "-q", "--initial-branch=main")
    return run


def test_r2_the_second_version_of_a_sync_does_not_take_out_the_first_one_s_cuts(
    tmp_path: Path,
) -> None:
    run = _run(tmp_path)
    sent_first = _commit(
        run, {FIRST: TEXT, layout.INDEX_FILE: f"- [Deploys]({FIRST}) how we ship\n"}
    )
    taken_first = _commit(
        run,
        {_cut(FIRST): TEXT, layout.INDEX_FILE: f"- [Deploys]({_cut(FIRST)}) how we ship\n"},
    )
    held = {_cut(FIRST): TEXT, layout.INDEX_FILE: f"- [Deploys]({_cut(FIRST)}) how we ship\n"}
    sent_second = _commit(run, {**held, SECOND: "release on Mondays\n"})
    taken_second = _commit(
        run, {**held, _cut(SECOND): "release on Mondays\n", "new.md": "from the desk\n"}
    )

    # the two names of the cut and the index pointed there: all 3 files of the move
    assert run._files_between(sent_first, taken_first) == 3
    assert run._service_cuts(sent_first, taken_first) == 3
    # the cut's two names; new.md was made elsewhere
    assert run._files_between(sent_second, taken_second) == 3
    assert run._service_cuts(sent_second, taken_second) == 2
    assert run.cuts == {FIRST: _cut(FIRST), SECOND: _cut(SECOND)}


def test_r2_a_version_with_no_cut_after_one_with_a_cut_explains_none_of_its_files(
    tmp_path: Path,
) -> None:
    """The reviewer's case: the second version brings one file and cuts nothing."""
    run = _run(tmp_path)
    sent = _commit(run, {FIRST: TEXT, "other.md": "kept\n"})
    taken = _commit(run, {_cut(FIRST): TEXT, "other.md": "kept\n"})
    later = _commit(run, {_cut(FIRST): TEXT, "other.md": "kept\n", "new.md": "from the desk\n"})

    assert run._service_cuts(sent, taken) == 2
    assert run._files_between(taken, later) == 1
    assert run._service_cuts(taken, later) == 0
    assert run.cuts == {FIRST: _cut(FIRST)}
