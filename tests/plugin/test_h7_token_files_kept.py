"""H-7: an install or ``token set`` removes a token file only where the plugin writes tokens,
and never one that installed hooks still read.

The install record names a token file kept outside the state folder (``tokenFile``); an install
removed whatever regular file it named, so a record in a dotfiles work tree holding
``"tokenFile": "~/.ssh/id_ed25519"`` made the next install delete that key. And Claude Code's
user install and the managed hooks share ``~/.claude/harness-memory/token``: a user install in a
work tree removed it as stale though ``token set`` had written it for the managed hooks, while
``token set`` removed the file user-level hooks name with ``--token-file`` and said "the hooks
now read …", untrue for them.
"""

from __future__ import annotations

import io
import json
import os
import pwd
from pathlib import Path

import pytest
from harness_memory.cli import main

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.test_h7_token_outside_work_trees import install, memory_root
from tests.support.real_git import git

TOKEN = "s3cr3t-Token-4711-kept"
KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nnot really\n-----END OPENSSH PRIVATE KEY-----\n"
RECORD_OF = {"claude-code": ".claude", "codex": ".codex", "gemini": ".gemini"}


def plant_record(home: Path, harness: str, named: Path) -> None:
    state = home / RECORD_OF[harness] / "harness-memory"
    state.mkdir(parents=True)
    (state / "install.json").write_text(json.dumps({"previous": {}, "tokenFile": str(named)}))


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize("token", [TOKEN, None])
def test_h7_an_install_removes_no_file_a_planted_record_names_elsewhere(
    tmp_path: Path, harness: str, token: str | None
) -> None:
    home = tmp_path / "home"
    key = home / ".ssh" / "id_ed25519"
    key.parent.mkdir(parents=True)
    key.write_text(KEY)
    plant_record(home, harness, key)
    root = memory_root(tmp_path)
    flags = ["--home", str(home), "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    flags += ["--no-check", *(["--token", token] if token else [])]
    out = io.StringIO()
    assert main(["install", harness, *flags], environ={"HOME": str(home)}, stdout=out) == 0
    assert key.read_text() == KEY
    assert str(key) not in out.getvalue()
    uninstall = ["uninstall", harness, "--home", str(home), "--memory-root", str(root)]
    assert main(uninstall, environ={"HOME": str(home)}) == 0
    assert key.read_text() == KEY


@pytest.fixture
def account(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The account's home as the password database gives it (moved under ``tmp_path``)."""
    home = tmp_path / "account"
    entry = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*entry[:5], str(home), entry[6]))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: moved)
    home.mkdir()
    return home


def token_set(token: str) -> str:
    out = io.StringIO()
    stdin = io.BytesIO(f"{token}\n".encode())
    assert main(["token", "set"], environ={}, stdin=stdin, stdout=out) == 0
    return out.getvalue()


def managed_install(account: Path, folder: Path) -> None:
    root = memory_root(account.parent)
    flags = ["--home", str(account), "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    argv = ["install", "claude-code", "--managed", str(folder), *flags, "--no-check"]
    assert main(argv, environ={"HOME": str(account)}) == 0


def test_h7_a_user_install_keeps_the_token_file_the_managed_hooks_read(
    account: Path, tmp_path: Path
) -> None:
    """``token set`` wrote ``~/.claude/harness-memory/token`` for the managed hooks; ``~/.claude``
    became a repository; a user-level Claude Code install, keeping its own token outside the
    work tree, removed that file as stale, and the managed hooks lost their token."""
    managed = tmp_path / "managed"
    managed_install(account, managed)
    token_set("managed-Token-4711")
    own = account / ".claude" / "harness-memory" / "token"
    git(account / ".claude", "init", "-q")

    status, said = install(account, "claude-code", TOKEN, {"HOME": str(account)})

    assert status == 0
    assert own.read_text() == "managed-Token-4711\n"
    assert f"kept {own}" in said and str(managed / "managed-settings.json") in said
    assert "`harness-memory token set --managed`" in said
    # token set then moves the managed hooks' token out, and nothing reads the old file now
    moved = token_set("managed-Token-4712")
    outside = account / ".config" / "harness-memory" / "tokens" / "managed"
    assert outside.read_text() == "managed-Token-4712\n"
    assert not own.exists() and f"removed {own}" in moved


def test_h7_token_set_keeps_the_token_file_user_hooks_name(account: Path) -> None:
    """A user-level install named ``~/.claude/harness-memory/token`` with ``--token-file``;
    ``token set``, its state folder now in a work tree, removed that file and said "the hooks
    now read …", untrue for those hooks: they were left without a token."""
    assert install(account, "claude-code", TOKEN, {"HOME": str(account)})[0] == 0
    own = account / ".claude" / "harness-memory" / "token"
    assert own.read_text() == f"{TOKEN}\n"
    git(account / ".claude", "init", "-q")

    said = token_set("managed-Token-4711")

    assert own.read_text() == f"{TOKEN}\n"
    assert f"kept {own}" in said and "now read" not in said
    assert str(account / ".claude" / "settings.json") in said
    assert "`harness-memory install claude-code`" in said
    # installing again moves the user hooks' token out; the old file is then removed
    status, again = install(account, "claude-code", TOKEN, {"HOME": str(account)})
    assert status == 0 and not own.exists(), again


def test_h7_token_set_removes_a_token_file_in_a_work_tree_no_hook_names(account: Path) -> None:
    own = account / ".claude" / "harness-memory" / "token"
    token_set("managed-Token-4711")
    git(account / ".claude", "init", "-q")
    said = token_set("managed-Token-4712")
    assert not own.exists() and f"removed {own}" in said
