"""V-2, Q-2b with the kernel's own refusal: a scope's history whose ``HEAD`` or ``objects``
folder the service may not read (another account's, mode ``0600`` / ``0700``).

git, refused its ``HEAD`` or ``objects``, says "fatal: not a git repository: '<host path>'".
The service took those words for damage: a 503 telling the operator to "restore it from a
backup or move it aside" (moving a whole history away over a permission), and quoting git's
line with the history's host path in the ``detail`` a client reads. Right: the same 503 as
every other history file the service may not read — the file named inside the history
(``user.git/HEAD``), the reason, what to do (give read access) — and never a host path.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.security.test_q2b_unreadable_memory_files_for_real import AGENT, NOBODY, call
from tests.security.test_v2_history_objects_unreadable_for_real import FILE, _recorded
from tests.support.refused_account import refused_service
from tests.support.serve import ServedProcess

READS = [
    f"{AGENT}/memory/scopes/user/changes",
    f"{FILE}/history",
    f"{AGENT}/memory/scopes/user/deleted",
]
"""Every read of a scope's history that runs git on it."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    yield from refused_service(tmp_path, "giving a file to another account needs root")


@pytest.mark.parametrize("refused", ["HEAD", "objects"])
def test_v2_a_history_the_kernel_refuses_is_named_unreadable_never_damaged(
    served: ServedProcess, refused: str
) -> None:
    _, history = _recorded(served)
    assert call(served.base_url, "DELETE", f"{FILE}")[0] == 200  # a deletion for `deleted`
    os.chown(history / refused, NOBODY, NOBODY)

    for path in READS:
        status, problem = call(served.base_url, "GET", path)

        assert status == 503, (path, problem)
        detail = problem["detail"]
        assert f"user.git/{refused}" in detail, (path, detail)
        assert "Permission denied" in detail, (path, detail)
        assert "read access" in detail, (path, detail)
        assert "damaged" not in detail and "move it aside" not in detail, (path, detail)
        assert str(served.data_dir) not in detail, (path, detail)


def test_v2_a_history_truly_damaged_is_named_so_without_its_host_path(
    served: ServedProcess,
) -> None:
    _, history = _recorded(served)
    (history / "HEAD").write_text("no ref at all\n", encoding="utf-8")  # readable, broken

    status, problem = call(served.base_url, "GET", f"{AGENT}/memory/scopes/user/changes")

    assert status == 503, problem
    detail = problem["detail"]
    assert "damaged" in detail and "move it aside" in detail, detail
    assert "user.git" in detail, detail
    assert str(served.data_dir) not in detail, detail


@pytest.mark.parametrize("refused", ["history", "history/user.git"])
def test_v2_a_history_folder_the_kernel_refuses_leaves_the_overview_up_and_is_named(
    served: ServedProcess, refused: str
) -> None:
    """The overview, which only sizes the histories, answered 503 "the data dir could not be
    used" with an incident (a PermissionError from looking for ``user.git/HEAD``), and every
    history read the same, naming nothing."""
    _, history = _recorded(served)
    os.chown(history.parent.parent / refused, NOBODY, NOBODY)

    status, overview = call(served.base_url, "GET", f"{AGENT}/memory")
    assert status == 200, overview
    assert [scope["key"] for scope in overview["scopes"]] == ["user"]
    assert overview["scopes"][0]["fileCount"] == 2
    status, summary = call(served.base_url, "GET", f"{AGENT}/memory/scopes/user")
    assert status == 200, summary

    for path in READS:
        status, problem = call(served.base_url, "GET", path)

        assert status == 503, (path, problem)
        detail = problem["detail"]
        assert "Permission denied" in detail and "read access" in detail, (path, detail)
        assert "incident" not in detail and "damaged" not in detail, (path, detail)
        assert str(served.data_dir) not in detail, (path, detail)
