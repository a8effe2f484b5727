"""Q-2b, case ``unreadable-memory-files`` with the kernel's own refusal: the real service, files
owned by another account with mode 0600 (what an agent running under its own uid leaves).

As root the service runs under ``setpriv`` without ``CAP_DAC_OVERRIDE`` and
``CAP_DAC_READ_SEARCH``, as the case's ``make_input.sh`` says: it is then refused like any
other user. Every answer must name the files it cannot read, never call them absent.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from memory_api.errors import READ_ACCESS_FIX
from memory_core import layout

from tests.plugin.helpers import hook_fixture, run_cli
from tests.security.test_q2b_unreadable_memory_files import DENIED, codes, make_case
from tests.support.refused_account import (
    offline_session_meta,
    refused_prefix,
    refused_service,
    request_json,
)
from tests.support.serve import ServedProcess, venv_bin

NOBODY = 65534
FOLDER_DENIED = "cannot read its scope folder (Permission denied)"


def call(base: str, method: str, path: str, body: object = None) -> tuple[int, Any]:
    """One request without a token (the service has none): status and decoded JSON."""
    return request_json(base, method, path, None, body)


AGENT = "/api/projects/acme/agents/coder"


def _private(path: Path) -> None:
    """Make ``path`` another account's, readable by it alone (``chown 65534; chmod 600``)."""
    os.chown(path, NOBODY, NOBODY)
    path.chmod(0o600)


WHY_ROOT = "giving a file to another account needs root"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    """A refused service of this test's own: its tests read the agents list as one agent's, or
    an agent's ``agent.json``."""
    yield from refused_service(tmp_path, WHY_ROOT)


@pytest.fixture(scope="module")
def shared_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedProcess]:
    """One refused service for the tests that each work on an agent of their own on it
    (:func:`own_agent`; one start instead of one per test): no test reads or changes another's
    agent."""
    yield from refused_service(tmp_path_factory.mktemp("unreadable"), WHY_ROOT)


_AGENT_NUMBERS = itertools.count(1)


@pytest.fixture
def own_agent(shared_served: ServedProcess) -> str:
    """The id of an agent (``coder-<n>`` of project ``acme``) made for this test alone on
    :func:`shared_served`, with an empty user scope."""
    agent = f"coder-{next(_AGENT_NUMBERS)}"
    body = {"id": agent, "name": "C"}
    assert call(shared_served.base_url, "POST", "/api/projects/acme/agents", body)[0] == 201
    return agent


def test_unreadable_memory_files_for_real_are_listed_named_and_never_nothing_saved(
    shared_served: ServedProcess, own_agent: str, tmp_path: Path
) -> None:
    served, home = shared_served, f"/api/projects/acme/agents/{own_agent}"
    base = served.base_url
    user = layout.scope_dir(served.data_dir, own_agent, "user")
    make_case(user)
    _private(user / "private-topic.md")

    status, listing = call(base, "GET", f"{home}/memory/scopes/user/files")
    assert status == 200, listing
    rows = {row["file"]: row for row in listing["files"]}
    assert rows["private-topic.md"]["problems"] == [f"unreadable: the service {DENIED}"]
    found = codes(listing["findings"])
    assert found["unreadable"] == ["private-topic.md"]
    assert "dangling-link" not in found
    status, problem = call(base, "GET", f"{home}/memory/scopes/user/files/private-topic.md")
    assert status == 503 and DENIED in problem["detail"], problem

    _private(user / layout.INDEX_FILE)
    status, view = call(base, "GET", f"{home}/memory/scopes/user/index")
    assert status == 200 and view["exists"] is True, view
    found = codes(view["findings"])
    assert found["unreadable"] == [layout.INDEX_FILE, "private-topic.md"]
    assert "missing-index" not in found
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    status, started = call(
        base, "POST", f"{home}/memory/session-start", {"workspace": str(workspace)}
    )
    assert status == 200, started
    assert "Nothing saved yet: the user memory index" not in started["memory"]
    assert "the user memory index could not be read" in started["memory"]
    assert started["manifests"][0]["unreadable"] == DENIED

    # the harness tells the user too, not only the model (Codex's hook: its systemMessage)
    env = {
        "HARNESS_MEMORY_URL": base,
        "HARNESS_MEMORY_PROJECT": "acme",
        "HARNESS_MEMORY_AGENT": own_agent,
        "HARNESS_MEMORY_STATE_DIR": str(tmp_path / "state"),
        "HARNESS_MEMORY_ROOT": str(layout.memory_root(served.data_dir, own_agent)),
        "HOME": str(tmp_path / "home"),
    }
    stdin = hook_fixture("codex_session_start.json", workspace=str(workspace))
    done = asyncio.run(run_cli("hook", "codex", "session-start", stdin=stdin, env=env))
    assert done.returncode == 0, done.stderr
    answer = done.json()
    assert "the user memory index could not be read" in answer["systemMessage"]
    assert DENIED in answer["systemMessage"]
    assert "could not be read" in answer["hookSpecificOutput"]["additionalContext"]


def test_unreadable_memory_files_for_real_a_scope_folder_it_may_not_enter_is_never_nothing_saved(
    shared_served: ServedProcess, own_agent: str, tmp_path: Path
) -> None:
    """A Workspace scope folder another account keeps to itself (``chmod 700``): the service
    cannot even look for its ``MEMORY.md``, so Session start says its index could not be read,
    never that nothing is saved there, and that it is the folder it cannot read: whether
    ``MEMORY.md`` is there cannot be told (the note said "MEMORY.md is there", and the harness
    told the user to make ``MEMORY.md`` readable, while the folder was what refused)."""
    served, home = shared_served, f"/api/projects/acme/agents/{own_agent}"
    base = served.base_url
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    start = {"workspace": str(workspace)}
    status, first = call(base, "POST", f"{home}/memory/session-start", start)
    assert status == 200, first
    scope = Path(first["directories"]["workspace"])
    (scope / layout.INDEX_FILE).write_text("- [A](a.md) — the agent's\n", encoding="utf-8")
    (scope / "a.md").write_text("---\nname: a\ndescription: the agent's\n---\nb\n", "utf-8")
    os.chown(scope, NOBODY, NOBODY)
    scope.chmod(0o700)

    status, started = call(base, "POST", f"{home}/memory/session-start", start)

    assert status == 200, started
    assert "Nothing saved yet: the Workspace memory index" not in started["memory"]
    label = f"the Workspace memory index ({first['key']})"
    assert (
        f"{label} could not be read: Agent Memory cannot read its scope folder (Permission "
        "denied), so whether MEMORY.md is there cannot be told."
    ) in started["memory"]
    assert "could not be read: MEMORY.md is there" not in started["memory"]
    manifest = next(m for m in started["manifests"] if m["scope"] == first["key"])
    assert manifest["unreadable"] == FOLDER_DENIED
    env = {
        "HARNESS_MEMORY_URL": base,
        "HARNESS_MEMORY_PROJECT": "acme",
        "HARNESS_MEMORY_AGENT": own_agent,
        "HARNESS_MEMORY_ROOT": str(layout.memory_root(served.data_dir, own_agent)),
        "HOME": str(tmp_path / "home"),
    }
    stdin = hook_fixture("codex_session_start.json", workspace=str(workspace))
    done = asyncio.run(run_cli("hook", "codex", "session-start", stdin=stdin, env=env))
    assert done.returncode == 0, done.stderr
    told = done.json()["systemMessage"]  # what the harness shows the user
    assert "(Agent Memory cannot read its scope folder (Permission denied), so whether" in told
    assert "let Agent Memory read that scope folder (its owner and mode)" in told
    assert "(MEMORY.md is there" not in told and "make MEMORY.md a plain file" not in told

    key = first["key"]
    status, view = call(base, "GET", f"{home}/memory/scopes/{key}/index")
    assert status == 200, view
    assert view["exists"] is False  # never claimed: whether it is there cannot be told
    [index_finding] = [f for f in view["findings"] if f["file"] == layout.INDEX_FILE]
    assert index_finding["code"] == "unreadable"
    assert index_finding["message"].startswith(
        f"the service {FOLDER_DENIED}, so whether MEMORY.md is there cannot be told"
    )
    assert "MEMORY.md is there but" not in json.dumps(view)
    status, problem = call(base, "GET", f"{home}/memory/scopes/{key}/files/a.md")
    assert status == 503 and DENIED in problem["detail"], problem  # never "no topic file"
    status, found = call(base, "GET", f"{home}/memory/search?q=agent")
    assert status == 200, found
    [unsearched] = found["unreadable"]
    assert unsearched["file"] == f"{key}/"
    assert f"scope {key!r} cannot be listed: the service {DENIED}" in unsearched["message"]

    os.chown(scope, os.getuid(), os.getgid())  # the folder readable again: searched again
    status, found = call(base, "GET", f"{home}/memory/search?q=agent")
    assert status == 200 and found["unreadable"] == [], found
    assert [hit["file"] for hit in found["hits"]] == ["a.md"]


def test_unreadable_memory_files_for_real_offline_the_harness_says_so_too(tmp_path: Path) -> None:
    """H-4: with the service down the harness reads the files itself; an index it may not read
    is injected as could-not-be-read, never as "nothing saved yet"."""
    if os.geteuid() != 0:
        pytest.skip("giving a file to another account needs root")
    root = layout.memory_root(tmp_path / "data", "coder")
    make_case(root / "user")
    _private(root / "user" / layout.INDEX_FILE)

    meta = offline_session_meta(root, tmp_path)

    assert "the user memory index could not be read" in meta["systemPrompt"]
    assert "Nothing saved yet: the user memory index" not in meta["systemPrompt"]
    assert meta["manifests"][0]["unreadable"] == DENIED


def test_unreadable_memory_files_for_real_offline_a_scope_folder_it_may_not_enter(
    tmp_path: Path,
) -> None:
    """H-4 reads the files itself: a user scope folder another account keeps to itself (``chmod
    700``) is said to be the folder it cannot read, whether ``MEMORY.md`` is there unknown, as
    the service says it (it said "MEMORY.md is there")."""
    if os.geteuid() != 0:
        pytest.skip("giving a folder to another account needs root")
    root = layout.memory_root(tmp_path / "data", "coder")
    make_case(root / "user")
    os.chown(root / "user", NOBODY, NOBODY)
    (root / "user").chmod(0o700)

    meta = offline_session_meta(root, tmp_path)

    assert (
        "the user memory index could not be read: Agent Memory cannot read its scope folder "
        "(Permission denied), so whether MEMORY.md is there cannot be told."
    ) in meta["systemPrompt"]
    assert meta["manifests"][0]["unreadable"] == FOLDER_DENIED


def test_unreadable_memory_files_for_real_a_delete_that_could_not_be_undone_is_refused(
    shared_served: ServedProcess,
    own_agent: str,
) -> None:
    """V-1, A-6: the history cannot keep the content of a topic file the service may not read,
    so deleting it could never be undone: the delete is refused (503 naming why), the file
    and its index line stay, and no "recently deleted" entry offers a restore that would not
    bring it back. A file it can read is deleted as before."""
    served, home = shared_served, f"/api/projects/acme/agents/{own_agent}"
    base = served.base_url
    user = layout.scope_dir(served.data_dir, own_agent, "user")
    make_case(user)
    _private(user / "private-topic.md")
    index = (user / layout.INDEX_FILE).read_bytes()

    status, problem = call(base, "DELETE", f"{home}/memory/scopes/user/files/private-topic.md")

    assert status == 503, problem
    assert problem["detail"].startswith(
        "'private-topic.md' was not deleted: the history cannot keep its content as it is now "
        "(cannot be read (Permission denied)), so the delete could not be undone; nothing changed"
    )
    assert str(user) not in problem["detail"]
    assert (user / "private-topic.md").exists()
    assert (user / layout.INDEX_FILE).read_bytes() == index
    status, deleted = call(base, "GET", f"{home}/memory/scopes/user/deleted")
    assert (status, deleted["files"]) == (200, [])

    status, done = call(base, "DELETE", f"{home}/memory/scopes/user/files/ok-topic.md")
    assert status == 200 and done["restoreVersion"], done
    status, deleted = call(base, "GET", f"{home}/memory/scopes/user/deleted")
    assert [item["file"] for item in deleted["files"]] == ["ok-topic.md"]


def test_unreadable_memory_files_for_real_a_restore_never_replaces_what_it_could_not_keep(
    shared_served: ServedProcess,
    own_agent: str,
) -> None:
    """V-2, Q-2b: a topic file recorded once, then rewritten by an agent the service may not
    read: its history says it is there (never "deleted", which would offer a restore as an
    undo) and that what it holds is in no version; a restore of the older version is refused
    (503 naming why), and the agent's text stays."""
    served, home = shared_served, f"/api/projects/acme/agents/{own_agent}"
    base = served.base_url
    user = layout.scope_dir(served.data_dir, own_agent, "user")
    make_case(user)
    topic = user / "private-topic.md"
    status, recorded = call(base, "POST", f"{home}/memory/scopes/user/checkpoint")
    assert status == 200, recorded
    old = recorded["scopes"][0]["version"]
    topic.write_text("---\nname: p\ndescription: newer\n---\nthe agent's newest text\n")
    _private(topic)
    newest = topic.read_bytes()

    status, history = call(base, "GET", f"{home}/memory/scopes/user/files/private-topic.md/history")
    assert status == 200, history
    assert (history["exists"], history["unrecorded"]) == (True, True)
    assert history["unrecordable"] == f"the service {DENIED}"  # as its listing row says
    status, problem = call(
        base,
        "POST",
        f"{home}/memory/scopes/user/files/private-topic.md/restore",
        {"version": old},
    )

    assert status == 503, problem
    assert problem["detail"].startswith(
        "'private-topic.md' was not replaced: the history cannot keep its content as it is now "
        "(cannot be read (Permission denied)), so the restore could not be undone"
    )
    assert topic.read_bytes() == newest


def test_unreadable_memory_files_for_real_a_checkpoint_records_the_rest_and_names_what_it_cannot(
    shared_served: ServedProcess,
    own_agent: str,
) -> None:
    """V-1, Q-2b: a checkpoint of a scope holding a topic file the service may not read records
    every file it can read and names the one it could not, with why and what an operator must
    do: never a calm "nothing changed" (no version, no files) while that file holds text no
    version does. The checkpoint of every scope names it the same way."""
    served, home = shared_served, f"/api/projects/acme/agents/{own_agent}"
    base = served.base_url
    user = layout.scope_dir(served.data_dir, own_agent, "user")
    make_case(user)
    status, first = call(base, "POST", f"{home}/memory/scopes/user/checkpoint")
    assert status == 200 and first["scopes"][0]["version"], first
    assert "unrecordable" not in first["scopes"][0]  # every file taken: nothing to name
    topic = user / "private-topic.md"
    topic.write_text("---\nname: p\ndescription: newer\n---\nthe agent's newest text\n")
    _private(topic)
    unkept = [
        {
            "file": "private-topic.md",
            "why": f"cannot be read (Permission denied): {READ_ACCESS_FIX}",
        }
    ]

    status, recorded = call(base, "POST", f"{home}/memory/scopes/user/checkpoint")

    assert status == 200, recorded
    [scope] = recorded["scopes"]
    assert (scope["version"], scope["files"]) == (None, [])  # nothing it can read changed
    assert scope["unrecordable"] == unkept
    (user / "new-topic.md").write_text("---\nname: n\ndescription: new\n---\nnew\n")
    status, recorded = call(base, "POST", f"{home}/memory/checkpoint")
    assert status == 200, recorded
    [scope] = recorded["scopes"]
    assert scope["version"] and scope["files"] == [{"file": "new-topic.md", "change": "added"}]
    assert scope["unrecordable"] == unkept


def test_unreadable_memory_files_for_real_a_scope_it_may_not_enter_has_no_deleted_files_claimed(
    shared_served: ServedProcess,
    own_agent: str,
) -> None:
    """V-2, Q-2b: in a scope folder another account keeps to itself (``chmod 700``) the service
    cannot tell which files are there now: its recently deleted files are not listed as if none
    were there (503 saying why), and a file's history never says the file is gone, which
    would offer a restore as an undo. The versions themselves still read."""
    served, home = shared_served, f"/api/projects/acme/agents/{own_agent}"
    base = served.base_url
    user = layout.scope_dir(served.data_dir, own_agent, "user")
    make_case(user)
    assert call(base, "DELETE", f"{home}/memory/scopes/user/files/private-topic.md")[0] == 200
    os.chown(user, NOBODY, NOBODY)
    user.chmod(0o700)

    unlisted = f"scope 'user' cannot be listed: the service {DENIED}: {READ_ACCESS_FIX}"
    for method, path in (("GET", "deleted"), ("POST", "checkpoint")):
        status, problem = call(base, method, f"{home}/memory/scopes/user/{path}")
        assert (status, problem["detail"]) == (503, unlisted), path
    status, problem = call(base, "POST", f"{home}/memory/checkpoint")  # its only scope
    assert (status, problem["detail"]) == (503, unlisted)
    status, problem = call(base, "GET", f"{home}/memory/scopes/user/files/ok-topic.md/history")
    assert status == 503, problem
    assert problem["detail"] == (
        f"scope 'user' cannot be listed: the service {DENIED}; whether 'ok-topic.md' is there "
        f"cannot be told: {READ_ACCESS_FIX}"
    )
    status, changes = call(base, "GET", f"{home}/memory/scopes/user/changes")
    assert status == 200 and changes["versions"], changes


def _export(served: ServedProcess, archive: Path) -> subprocess.CompletedProcess[str]:
    """``memory-api memory export`` of agent coder into ``archive``, refused like the service."""
    export = [venv_bin("memory-api"), "memory", "export", "--project", "acme", "--agent"]
    return subprocess.run(
        [*refused_prefix(), *export, "coder", "-o", str(archive)],
        env=served.env, capture_output=True, text=True, check=False,
    )  # fmt: skip


def _problem(base: str, method: str, path: str, body: object = None) -> tuple[int, str]:
    status, problem = call(base, method, path, body)
    return status, str(problem.get("detail", ""))


def _an_unreadable_index_then_scope_folder(
    served: ServedProcess, user: Path, version: str, tmp_path: Path
) -> None:
    """The middle of the test below: an unreadable ``MEMORY.md``, then a scope folder the
    service may not enter (503 where one file is needed, 200 naming it where many are)."""
    base = served.base_url
    archive = tmp_path / "coder.tar.gz"
    _private(user / layout.INDEX_FILE)
    status, detail = _problem(base, "DELETE", f"{AGENT}/memory/scopes/user/files/ok-topic.md")
    assert status == 503 and "'ok-topic.md' was not deleted" in detail, detail
    assert "MEMORY.md could not be read or replaced (Permission denied)" in detail
    assert "an operator must give the account the service runs as" in detail
    assert (user / "ok-topic.md").exists()

    os.chown(user, NOBODY, NOBODY)
    user.chmod(0o700)
    for method, path, body in (
        ("GET", f"{AGENT}/memory/scopes/user/files", None),
        ("GET", f"{AGENT}/memory/scopes/user/files/ok-topic.md", None),
    ):
        status, detail = _problem(base, method, path, body)
        assert status == 503, (method, path, detail)
        assert f"cannot be listed: the service {DENIED}" in detail and "'user'" in detail
        assert READ_ACCESS_FIX in detail
    for method, path, body in (
        ("DELETE", f"{AGENT}/memory/scopes/user/files/ok-topic.md", None),
        ("POST", f"{AGENT}/memory/scopes/user/files/ok-topic.md/restore", {"version": version}),
        ("POST", f"{AGENT}/memory/scopes/user/checkpoint", None),
        ("GET", f"{AGENT}/memory/scopes/user/deleted", None),
    ):
        status, detail = _problem(base, method, path, body)
        assert status == 503, (method, path, detail)  # the history's routes say it as the rest
        assert f"scope 'user' cannot be listed: the service {DENIED}" in detail, (path, detail)
        assert READ_ACCESS_FIX in detail, (method, path, detail)
    done = _export(served, archive)
    assert done.returncode == 1, done.stderr
    assert f"scope 'user' cannot be listed: the service {DENIED}" in done.stderr
    assert not archive.exists()
    for method, path, body, why in (
        ("GET", f"{AGENT}/memory", None, DENIED),
        ("GET", f"{AGENT}/memory/search?q=topic", None, DENIED),
        # the index in a folder it cannot read: the folder is what refused
        ("POST", f"{AGENT}/memory/session-start", {"workspace": str(tmp_path)}, FOLDER_DENIED),
    ):
        status, answer = call(base, method, path, body)
        assert status == 200 and why in json.dumps(answer), (method, path, answer)


def test_unreadable_memory_files_for_real_get_one_status_on_every_route(
    served: ServedProcess, tmp_path: Path
) -> None:
    """Q-2b: a memory file (or scope folder, or ``agent.json``) that is there but cannot be
    read gets one answer on every route that needs it: 503 problem+json naming the file and
    what an operator must do, never a 404 nor a 500. Routes that answer about many files
    (listing, index, search, overview, Session start, a file's history) answer 200 and name
    it there. ``memory export`` stops naming it, with no archive written."""
    base = served.base_url
    assert call(base, "POST", "/api/projects/acme/agents", {"id": "coder", "name": "C"})[0] == 201
    user = layout.scope_dir(served.data_dir, "coder", "user")
    make_case(user)
    status, recorded = call(base, "POST", f"{AGENT}/memory/scopes/user/checkpoint")
    assert status == 200, recorded
    version = recorded["scopes"][0]["version"]
    _private(user / "private-topic.md")
    topic = f"{AGENT}/memory/scopes/user/files/private-topic.md"

    status, detail = _problem(base, "GET", topic)
    assert status == 503
    assert "'private-topic.md'" in detail and DENIED in detail
    assert READ_ACCESS_FIX in detail and str(user) not in detail
    for method, path, body in (
        ("DELETE", topic, None),
        ("POST", f"{topic}/restore", {"version": version}),
    ):
        status, detail = _problem(base, method, path, body)
        assert status == 503 and "'private-topic.md'" in detail, (method, path, detail)
        assert "cannot be read (Permission denied)" in detail, detail
        assert READ_ACCESS_FIX in detail, (method, path, detail)
    for method, path, body in (  # about many files: each names it where it says why
        ("GET", f"{AGENT}/memory/scopes/user/files", None),
        ("GET", f"{AGENT}/memory/scopes/user/index", None),
        ("GET", f"{AGENT}/memory/search?q=topic", None),
    ):
        status, answer = call(base, method, path, body)
        assert status == 200, (method, path, answer)
        [named] = codes(answer.get("findings") or answer["unreadable"])["unreadable"]
        assert named.endswith("private-topic.md"), (path, named)
    status, overview = call(base, "GET", f"{AGENT}/memory")
    assert status == 200 and overview["scopes"][0]["lintCounts"]["unreadable"] == 1, overview
    status, history = call(base, "GET", f"{topic}/history")
    assert status == 200 and (history["exists"], history["unrecorded"]) == (True, True)
    start = {"workspace": str(tmp_path)}
    assert call(base, "POST", f"{AGENT}/memory/session-start", start)[0] == 200

    archive = tmp_path / "coder.tar.gz"
    done = _export(served, archive)
    assert done.returncode == 1, done.stderr
    assert "file 'user/private-topic.md' is there, but the service" in done.stderr
    assert READ_ACCESS_FIX in done.stderr
    assert not archive.exists()

    _an_unreadable_index_then_scope_folder(served, user, version, tmp_path)

    _private(served.data_dir / "agents" / "coder" / "agent.json")
    for method, path in (("GET", f"{AGENT}/config"), ("GET", f"{AGENT}/memory")):
        status, detail = _problem(base, method, path)
        assert status == 503, (method, path, detail)
        assert detail == (
            "the stored settings of agent 'coder' (agents/coder/agent.json in the data dir) "
            "cannot be read (Permission denied): "
            f"{READ_ACCESS_FIX}"
        )


def test_unreadable_memory_files_for_real_an_unreadable_user_scope_is_named_in_the_agents_list(
    served: ServedProcess,
) -> None:
    """A user scope folder another account keeps to itself (``chmod 700``) holding notes: the
    agent's row in the agents list says it could not be counted (Q-2b), never a plain 0, and
    ``memory-api agent list`` says so too and exits 1."""
    base = served.base_url
    assert call(base, "POST", "/api/projects/acme/agents", {"id": "coder", "name": "C"})[0] == 201
    user = layout.memory_root(served.data_dir, "coder") / "user"
    (user / "a.md").write_text("---\nname: a\ndescription: the agent's\n---\nb\n", "utf-8")
    os.chown(user, NOBODY, NOBODY)
    user.chmod(0o700)

    status, listed = call(base, "GET", "/api/projects/acme/agents")

    assert status == 200, listed
    [coder] = listed["agents"]
    assert coder["memoryCount"] == 0
    assert "scope folder cannot be listed by the service" in coder["unreadable"]
    assert "'user'" in coder["unreadable"]
    words = [*refused_prefix(), venv_bin("memory-api"), "agent", "list"]
    ran = subprocess.run(words, env=served.env, capture_output=True, text=True, check=False)
    assert ran.returncode == 1, ran
    assert "0+" in ran.stdout.splitlines()[1].split()
    assert "agent coder: 1 scope folder cannot be listed by the service" in ran.stderr


def test_unreadable_memory_files_for_real_a_scope_folder_it_may_enter_but_not_list_says_so(
    shared_served: ServedProcess, own_agent: str, tmp_path: Path
) -> None:
    """A scope folder another account keeps with mode ``0711`` (what an agent's ``umask 066``
    makes): the service may open the files in it by name but not list it. Its index is read
    and injected, a named topic file reads; only the listing is refused. The finding says just
    that (the folder's files are not listed, counted or searched; its index is still injected),
    never "nothing in it is … injected", and what a user can do about it."""
    served, home = shared_served, f"/api/projects/acme/agents/{own_agent}"
    base = served.base_url
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    start = {"workspace": str(workspace)}
    status, first = call(base, "POST", f"{home}/memory/session-start", start)
    assert status == 200, first
    key, scope = first["key"], Path(first["directories"]["workspace"])
    (scope / layout.INDEX_FILE).write_text("- [A](a.md) — the agent's\n", encoding="utf-8")
    (scope / "a.md").write_text("---\nname: a\ndescription: the agent's\n---\nb\n", "utf-8")
    os.chown(scope, NOBODY, NOBODY)
    scope.chmod(0o711)

    status, started = call(base, "POST", f"{home}/memory/session-start", start)
    assert status == 200 and "- [A](a.md) — the agent's" in started["memory"], started
    status, topic = call(base, "GET", f"{home}/memory/scopes/{key}/files/a.md")
    assert status == 200 and topic["description"] == "the agent's", topic

    status, view = call(base, "GET", f"{home}/memory/scopes/{key}/index")
    assert status == 200, view
    [folder] = [f for f in view["findings"] if f["code"] == "unreadable"]
    assert folder["file"] == "" and folder["severity"] == "error"
    message = folder["message"]
    assert "cannot list it (Permission denied)" in message, message
    assert "its index is still read and injected" in message, message
    assert "nothing in it is listed, searched or injected" not in message
    assert "its topic files are not listed, counted or searched" in message
    assert "read access to the folder" in message and "chmod" in message, message
    status, overview = call(base, "GET", f"{home}/memory")
    [summary] = [s for s in overview["scopes"] if s["key"] == key]
    assert summary["unreadable"] == "cannot list it (Permission denied)", summary
