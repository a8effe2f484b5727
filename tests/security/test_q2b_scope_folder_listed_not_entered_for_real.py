"""Q-2b, a variant of case ``unreadable-memory-files``: a scope folder the service may list but
not enter (another account's, mode ``0744``: read without search permission for the rest).

Its names can be read, but no file in it can be opened or even ``lstat``-ed. The listing showed
no topic file and no finding for them (only ``MEMORY.md`` was named unreadable), the overview
did not call the scope unreadable, search said nothing of the files it could not search, and
``memory export`` blamed its own archive ("could not be written (Permission denied)"). Right:
the folder is one that cannot be read, said as for a folder that cannot be listed at all.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_core import layout

from tests.security.test_q2b_unreadable_memory_files import DENIED, make_case
from tests.security.test_q2b_unreadable_memory_files_for_real import AGENT, NOBODY, call
from tests.support.refused_account import refused_prefix, refused_service
from tests.support.serve import ServedProcess, venv_bin


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    yield from refused_service(tmp_path, "giving a folder to another account needs root")


def test_a_scope_folder_listed_but_not_entered_is_one_the_service_cannot_read(
    served: ServedProcess, tmp_path: Path
) -> None:
    base = served.base_url
    assert call(base, "POST", "/api/projects/acme/agents", {"id": "coder", "name": "C"})[0] == 201
    user = layout.scope_dir(served.data_dir, "coder", "user")
    make_case(user)
    os.chown(user, NOBODY, NOBODY)
    user.chmod(0o744)

    status, problem = call(base, "GET", f"{AGENT}/memory/scopes/user/files")
    assert status == 503, problem  # never 200 with no file and the index alone named
    assert f"scope 'user' cannot be listed: the service {DENIED}" in problem["detail"]
    status, overview = call(base, "GET", f"{AGENT}/memory")
    assert status == 200 and overview["scopes"][0]["unreadable"] == DENIED, overview
    status, found = call(base, "GET", f"{AGENT}/memory/search?q=body")
    assert status == 200 and found["hits"] == [], found
    assert [item["file"] for item in found["unreadable"]] == ["user/"]
    status, started = call(
        base, "POST", f"{AGENT}/memory/session-start", {"workspace": str(tmp_path)}
    )
    assert status == 200 and "the user memory index could not be read" in started["memory"]

    archive = tmp_path / "coder.tar.gz"
    export = [venv_bin("memory-api"), "memory", "export", "--project", "acme", "--agent"]
    done = subprocess.run(
        [*refused_prefix(), *export, "coder", "-o", str(archive)],
        env=served.env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert f"scope 'user' cannot be listed: the service {DENIED}" in done.stderr
    assert "could not be written" not in done.stderr  # the archive is not at fault
    assert not archive.exists()
    assert json.dumps(found).count(str(user)) == 0
