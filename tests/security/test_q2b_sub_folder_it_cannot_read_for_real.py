"""Q-2b, T-5b, with the kernel's own refusal: a sub-folder of a scope the service cannot read.

Found with a variant of case ``unreadable-memory-files``: the agent keeps notes in a folder of
its scope (``notes/``) that its own account made private (``chmod 700``, another uid). The
index's links into it, ``[Guide](notes/guide.md)`` and ``[[deploy-plan]]``, were reported as
``dangling-link`` ("not in this scope's folder", "not in this scope"): the files are there,
and the service only cannot look. Now such a link says it was not looked up, and why: which
folder the service cannot read; a folder that is there and empty for the service still makes a
plain dangling link.

As root the service runs under ``setpriv`` without ``CAP_DAC_OVERRIDE`` and
``CAP_DAC_READ_SEARCH`` (:func:`~tests.support.refused_account.refused_service`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from memory_core import layout

from tests.support.refused_account import refused_service, request_json
from tests.support.serve import ServedProcess

NOBODY = 65534
HOME = "/api/projects/acme/agents/coder"
TOPIC = "---\nname: {0}\ndescription: about {0}\nupdated_at: 2026-11-20\n---\nbody\n"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    """A service refused like any other account, with the agent ``coder``."""
    for served in refused_service(tmp_path, "giving a folder to another account needs root"):
        body = {"id": "coder", "name": "C"}
        assert request_json(served.base_url, "POST", "/api/projects/acme/agents", None, body)[0]
        yield served


def _scope(served: ServedProcess, private: bool) -> Path:
    user = layout.scope_dir(served.data_dir, "coder", "user")
    notes = user / "notes"
    notes.mkdir()
    for name in ("guide", "deploy-plan"):
        (notes / f"{name}.md").write_text(TOPIC.format(name), encoding="utf-8")
    (user / "ok-topic.md").write_text(TOPIC.format("ok-topic"), encoding="utf-8")
    (user / layout.INDEX_FILE).write_text(
        "- [OK](ok-topic.md) — ok\n- [Guide](notes/guide.md) — the guide\n"
        "- [[deploy-plan]] — the plan\n- [Gone](notes/gone.md) — never there\n",
        encoding="utf-8",
    )
    if private:
        for path in (notes, *notes.iterdir()):
            os.chown(path, NOBODY, NOBODY)
        notes.chmod(0o700)
    return user


def _links(served: ServedProcess) -> dict[int, str]:
    status, view = request_json(served.base_url, "GET", f"{HOME}/memory/scopes/user/index")
    assert status == 200, view
    findings: list[dict[str, Any]] = view["findings"]
    return {f["line"]: f["message"] for f in findings if f["code"] == "dangling-link"}


def test_q2b_links_into_a_sub_folder_the_service_cannot_read_are_not_looked_up_never_absent(
    served: ServedProcess,
) -> None:
    _scope(served, private=True)

    said = _links(served)

    assert said == {
        line: f"links to {target!r}, which was not found: the service cannot read the folder "
        "'notes' (its owner, mode or ACL)"
        for line, target in ((2, "notes/guide.md"), (3, "deploy-plan.md"), (4, "notes/gone.md"))
    }


def test_q2b_links_into_a_sub_folder_it_reads_resolve_or_dangle_plainly(
    served: ServedProcess,
) -> None:
    _scope(served, private=False)

    assert _links(served) == {4: "links to 'notes/gone.md', which is not in this scope's folder"}


def test_q2b_a_link_through_a_symlinked_folder_to_another_accounts_folder_is_never_looked_through(
    served: ServedProcess, tmp_path: Path
) -> None:
    """A-7: ``lnk`` leads out of the memory root to a folder another account keeps to itself;
    the service never follows it to look, so the link is one into no folder of the scope, not
    one "through a folder the service cannot read"."""
    user = _scope(served, private=False)
    elsewhere = tmp_path / "another-account"
    elsewhere.mkdir()
    (elsewhere / "x.md").write_text(TOPIC.format("x"), encoding="utf-8")
    for path in (elsewhere, elsewhere / "x.md"):
        os.chown(path, NOBODY, NOBODY)
    elsewhere.chmod(0o700)
    (user / "lnk").symlink_to(elsewhere, target_is_directory=True)
    with (user / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.write("- [X](lnk/x.md) — through a symlink\n")

    assert _links(served)[5] == "links to 'lnk/x.md', which is not in this scope's folder"
