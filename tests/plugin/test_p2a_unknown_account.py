"""P-2a, P-3, H-7 for an account the password database does not know (a container's bare uid).

The managed install's hooks name no state dir: each user's Session records and token file are
in ``.claude/harness-memory`` of the home the password database gives the account. An account
it does not know has no home but ``$HOME``, which a repository's settings can set: there a
planted Session record would tell the write guard which scope to let through, and a planted
token file would be sent. So such an account keeps no state at all (fail closed): its hooks
write no record and read none, read no token file, and say why at Session start; ``token set``
refuses to write one without ``--file``, and ``status`` names it as a PROBLEM.

The processes run as a real uid with no ``/etc/passwd`` entry (``setpriv``; as root, keeping
only the capability to read and search files, so they can run the suite's Python).
"""

from __future__ import annotations

import io
import json
import os
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest
from harness_memory.cli import main
from memory_core.keys import workspace_memory_key

from tests.plugin.helpers import HARNESS_MEMORY, hook_fixture
from tests.support.serve import code_under_test

UNKNOWN_UID = 48213
URL = "http://127.0.0.1:9"


def as_unknown_account(
    *words: str, home: Path, stdin: bytes = b""
) -> subprocess.CompletedProcess[bytes]:
    """``harness-memory WORDS`` run as :data:`UNKNOWN_UID` with ``HOME`` set to ``home``."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.fail("this test runs a process as another uid: it needs root and setpriv")
    with pytest.raises(KeyError):
        pwd.getpwuid(UNKNOWN_UID)
    prefix = [setpriv, f"--reuid={UNKNOWN_UID}", f"--regid={UNKNOWN_UID}", "--clear-groups"]
    prefix += ["--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"]
    return subprocess.run(
        [*prefix, str(HARNESS_MEMORY), *words],
        input=stdin,
        capture_output=True,
        check=False,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin", **code_under_test()},
    )


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """``$HOME`` as a repository's settings could make it: the account may write there, and
    it holds a token file and a Session record of the repository's choosing."""
    home = tmp_path / "repository-home"
    state = home / ".claude" / "harness-memory"
    (state / "sessions").mkdir(parents=True)
    (state / "token").write_text("the-repositorys-token\n", encoding="utf-8")
    (state / "token").chmod(0o600)
    for path in [home, *home.rglob("*")]:
        os.chown(path, UNKNOWN_UID, UNKNOWN_UID)
    return home


def memory_root(tmp_path: Path) -> Path:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    (root / "user").mkdir(parents=True)
    return root


def managed_hook(harness: str, event: str, root: Path) -> list[str]:
    """A managed install's hook command line: its flags, no state dir, no token file."""
    flags = ["--url", URL, "--project", "acme", "--agent", "coder", "--memory-root", str(root)]
    return ["hook", harness, event, *flags, "--flags-only"]


def test_p2a_an_unknown_accounts_session_start_keeps_no_record_and_says_why(
    tmp_path: Path, home: Path
) -> None:
    root = memory_root(tmp_path)
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    hook_input = hook_fixture("codex_session_start.json", workspace=str(workspace))

    done = as_unknown_account(
        *managed_hook("codex", "session-start", root), home=home, stdin=hook_input
    )

    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)["systemMessage"]
    assert f"this account (uid {UNKNOWN_UID}) has no entry in the password database" in said
    assert "keep no Session records and read no token file for it" in said
    assert not any((home / ".claude" / "harness-memory" / "sessions").iterdir())


def test_p2a_an_unknown_accounts_guard_trusts_no_record_planted_under_home(
    tmp_path: Path, home: Path
) -> None:
    """A record in ``$HOME`` naming another Workspace's key as the Session's would let a
    write into that Workspace's scope through; the guard reads none and keeps the Session to
    its ``cwd``'s Workspace."""
    root = memory_root(tmp_path)
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    other_key = workspace_memory_key(tmp_path / "another-app")
    (root / other_key).mkdir()
    session = "6ae0bd3a-31ab-479d-8199-c610bd3ebf18"  # the fixture's
    record = home / ".claude" / "harness-memory" / "sessions" / f"{session}.json"
    planted = {"workspace": str(tmp_path / "another-app"), "key": other_key}
    planted["directories"] = {"memoryRoot": str(root)}  # type: ignore[assignment]
    record.write_text(json.dumps(planted), encoding="utf-8")
    target = root / other_key / "planted.md"
    hook_input = hook_fixture(
        "pre_tool_use_write.json", workspace=str(workspace), target=str(target)
    )

    done = as_unknown_account(
        *managed_hook("claude-code", "pre-tool-use", root), home=home, stdin=hook_input
    )

    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    own = root / workspace_memory_key(workspace) / "notes.md"
    allowed = hook_fixture("pre_tool_use_write.json", workspace=str(workspace), target=str(own))
    done = as_unknown_account(
        *managed_hook("claude-code", "pre-tool-use", root), home=home, stdin=allowed
    )
    assert done.returncode == 0 and done.stdout == b""  # its own Workspace's scope: allowed


def test_p2a_token_set_for_an_unknown_account_writes_nothing_without_file(home: Path) -> None:
    token = home / ".claude" / "harness-memory" / "token"

    done = as_unknown_account("token", "set", home=home, stdin=b"t0k\n")

    assert done.returncode == 2
    assert f"uid {UNKNOWN_UID}) has no entry in the password database" in done.stderr.decode()
    assert "or give --file PATH" in done.stderr.decode()
    assert token.read_text(encoding="utf-8") == "the-repositorys-token\n"


def test_p2a_status_names_an_unknown_account_under_a_managed_install_as_a_problem(
    tmp_path: Path, home: Path
) -> None:
    folder = tmp_path / "etc" / "claude-code"
    flags = ["--url", URL, "--project", "acme", "--agent", "coder", "--no-check"]
    flags += ["--memory-root", str(memory_root(tmp_path))]
    flags += ["--executable", str(HARNESS_MEMORY)]
    installed = main(
        ["install", "claude-code", "--managed", str(folder), "--home", str(tmp_path), *flags],
        environ={"HOME": str(tmp_path)},
        stdout=io.StringIO(),
    )
    assert installed == 0

    done = as_unknown_account("status", "--managed", str(folder), home=home)

    assert done.returncode == 1
    said = done.stdout.decode()
    assert (
        f"claude-code (managed): PROBLEM: this account (uid {UNKNOWN_UID}) has no entry in the "
        "password database" in said
    )
