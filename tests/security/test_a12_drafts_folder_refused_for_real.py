"""A-12, Q-2b, a permission fault of another folder of the data dir: the drafts folder another
account keeps to itself (``chmod 700``), with the kernel's own refusal (the service under
``setpriv`` without ``CAP_DAC_OVERRIDE``, as the unreadable-memory-files case runs it).

A new draft answered 503 "the data dir could not be used (Permission denied)", leaving an
operator to guess which part of it; a draft asked for answered 404 "it may have expired",
as if it were not there. Right: the refusal names the drafts folder and what to fix, and a
draft the service cannot look up is 503, never 404.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.security.test_q2b_unreadable_memory_files_for_real import AGENT, NOBODY, call
from tests.support.refused_account import refused_service
from tests.support.serve import ServedProcess


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    yield from refused_service(tmp_path, "giving a folder to another account needs root")


def test_a_drafts_folder_the_service_may_not_use_is_named_never_missing(
    served: ServedProcess,
) -> None:
    base = served.base_url
    assert call(base, "POST", "/api/projects/acme/agents", {"id": "coder", "name": "C"})[0] == 201
    status, kept = call(base, "POST", f"{AGENT}/drafts", {"prompt": "remember the deploy"})
    assert status == 201, kept
    drafts = served.data_dir / "drafts"
    os.chown(drafts, NOBODY, NOBODY)
    drafts.chmod(0o700)

    status, problem = call(base, "POST", f"{AGENT}/drafts", {"prompt": "and the rollback"})
    assert status == 503, problem
    assert problem["detail"].startswith(
        "the draft was not kept: the data dir's drafts folder cannot be written "
        "(Permission denied): an operator must give the account the service runs as write "
        "access to it"
    )
    status, problem = call(base, "GET", f"{AGENT}/drafts/{kept['id']}")
    assert status == 503, problem  # it is there: never "it may have expired"
    assert f"draft {kept['id']!r} cannot be looked up" in problem["detail"]
    assert "Permission denied" in problem["detail"]
