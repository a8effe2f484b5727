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
from pathlib import Path

import pytest
from harness_memory.cli import main

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.test_h7_token_outside_work_trees import git, install, memory_root

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
