"""A-10, H-3, H-7: an install given its settings and no token keeps the installed hooks' token.

``harness-memory install codex --memory-root R --url U --project P --agent A`` run again with
no token (no ``--token``, ``--token-file`` or ``HARNESS_MEMORY_TOKEN``) removed the token file
the installed hooks read ("removed …/token"; the service then refused every hook, 401), while
an older release's ``--token`` on the hook command lines was kept by the same command. Both are
kept now, and only for the service the installed hooks name: a token is never sent to, or
written for, another URL. A dry run's ``next:`` command, which spells out the installed
settings as flags, does what the dry run showed.
"""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

import pytest
from harness_memory.cli import main
from memory_core import layout

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.real_service import RealService
from tests.plugin.test_a10_install_again_makes_the_token_file_private import (
    TOKEN,
    hooks_read,
    install,
    installed,
    mode,
)

URL = "http://127.0.0.1:9"
EXECUTABLE = ["--executable", str(HARNESS_MEMORY)]


def flags(home: Path, url: str = URL) -> list[str]:
    root = home.parent / "data" / "agents" / "coder" / "agent_state" / "m"
    words = ["--memory-root", str(root), "--url", url, "--project", "acme", "--agent", "coder"]
    return [*words, "--executable", str(HARNESS_MEMORY)]


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_a10_installing_again_with_the_same_flags_keeps_the_token_file(
    tmp_path: Path, harness: str
) -> None:
    home, token_file = installed(tmp_path, harness)
    status, said = install(home, harness, *flags(home), environ={})
    assert status == 0, said
    assert "removed" not in said, said
    assert hooks_read(token_file) == TOKEN
    assert "nothing to change (already installed)" in said, said


@pytest.mark.parametrize("url", [URL + "/", "HTTP://127.0.0.1:9"])
def test_a10_the_same_service_written_otherwise_keeps_the_token_file(
    tmp_path: Path, url: str
) -> None:
    home, token_file = installed(tmp_path, "codex")
    status, said = install(home, "codex", *flags(home, url), environ={})
    assert status == 0, said
    assert hooks_read(token_file) == TOKEN


def test_a10_a_dry_runs_next_command_does_what_the_dry_run_showed(tmp_path: Path) -> None:
    home, token_file = installed(tmp_path, "codex")
    token_file.chmod(0o644)
    status, said = install(home, "codex", "--dry-run", environ={})
    assert status == 0, said
    assert f"(mode of {token_file}: 0644 -> 0600: it will hold the bearer token)" in said
    assert "remove" not in said, said
    words = shlex.split(said.rsplit("next: ", 1)[1])
    assert words[1:3] == ["install", "codex"]
    status, done = install(home, "codex", *words[3:], environ={})
    assert status == 0, done
    assert "removed" not in done, done
    assert mode(token_file) == 0o600
    assert hooks_read(token_file) == TOKEN


def test_a10_a_token_is_not_kept_for_another_service(tmp_path: Path) -> None:
    """Installed for A, installed again with ``--url`` B and no token: B is not given A's
    token; the install is one without a token (its check says what to do)."""
    home, token_file = installed(tmp_path, "gemini")
    other = "http://127.0.0.2:9"
    status, said = install(home, "gemini", *flags(home, other), environ={})
    assert status == 0, said
    assert not token_file.exists()
    settings = (home / ".gemini" / "settings.json").read_text("utf-8")
    assert other in settings and "--token" not in settings


@pytest.mark.parametrize("harness", ["codex", "gemini"])
def test_h7_an_older_releases_token_is_not_kept_for_another_service(
    tmp_path: Path, harness: str
) -> None:
    from tests.plugin.test_h3_install_again import SETTINGS, _hooks_before_the_token_file

    home = tmp_path / "home"
    root = Path(flags(home)[1])
    root.mkdir(parents=True)
    path = home / SETTINGS[harness]
    path.parent.mkdir(parents=True)
    path.write_text(_hooks_before_the_token_file(harness, home, (URL, TOKEN), root), "utf-8")
    other = "http://127.0.0.2:9"
    status, said = install(home, harness, *flags(home, other), environ={})
    assert status == 0, said
    assert TOKEN not in said + path.read_text("utf-8")
    assert not (path.parent / "harness-memory" / "token").exists()
    assert "installed before" not in said
    commands = json.dumps(json.loads(path.read_text("utf-8")))
    assert other in commands


def test_a10_a_claude_code_env_token_is_not_kept_for_another_service(tmp_path: Path) -> None:
    """An older Claude Code install kept its token in the settings' ``env``: moved into the
    token file for the service its hooks name, dropped for another."""
    home, token_file = installed(tmp_path, "claude-code")
    path = home / ".claude" / "settings.json"
    document = json.loads(path.read_text("utf-8"))
    document["env"] = {"HARNESS_MEMORY_TOKEN": TOKEN}
    path.write_text(json.dumps(document), "utf-8")
    token_file.unlink()
    status, said = install(home, "claude-code", *flags(home, "http://127.0.0.2:9"), environ={})
    assert status == 0, said
    assert not token_file.exists()
    assert TOKEN not in path.read_text("utf-8")


def test_h7_the_service_check_of_another_service_is_not_sent_the_old_token(
    tmp_path: Path,
    shared_service: RealService,
    new_agent: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Older Codex hooks carry ``--token T`` for service A; ``install codex --url B`` with no
    token asked B with A's token and said it "refused the token from the token of the hooks
    installed before". B is asked with none, and says what to give it."""
    from tests.plugin.test_h3_install_again import SETTINGS, _hooks_before_the_token_file

    home = tmp_path / "home"
    root = layout.memory_root(shared_service.data_dir, new_agent)
    path = home / SETTINGS["codex"]
    path.parent.mkdir(parents=True)
    path.write_text(_hooks_before_the_token_file("codex", home, (URL, TOKEN), root), "utf-8")
    words = ["install", "codex", "--url", shared_service.url, "--project", "acme"]
    words += ["--agent", new_agent, "--memory-root", str(root), "--home", str(home)]
    out = io.StringIO()
    status = main([*words, *EXECUTABLE], environ={"HOME": str(home)}, stdout=out)
    said = out.getvalue() + caplog.text
    assert status == 1, said
    assert "installed before" not in said
    assert "needs a bearer token and none was given" in said
