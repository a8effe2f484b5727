"""A-10, H-7: a token file records the service it was given for, beside it (``token.url``), and no
hook sends its token to another service.

A user install names the service next to its token file on every hook command line (``--url U
--token-file F``), so installing again can tell whether the token is that service's. The managed
hooks' token file, written by ``harness-memory token set`` in each account's home, recorded no
service: a managed install moved to another URL, or a user Claude Code install that reads the
same ``~/.claude/harness-memory/token`` for another service, sent it there. Both token files now
record the URL they were given for (the install's ``--url``; ``token set``'s ``--url``, else the
one service the installed hooks reading that file name), and a hook whose ``--url`` is another
service refuses the token, saying which command gives that service's.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.settings import TokenFileError, load_settings

from tests.plugin.helpers import HARNESS_MEMORY

TOKEN = "mem_s3cr3t-Token-4711-abcdef"
OLD = "http://127.0.0.1:9"
NEW = "http://127.0.0.2:9"


def token_set(home: Path, *flags: str) -> tuple[int, str]:
    out = io.StringIO()
    stdin = io.BytesIO(f"{TOKEN}\n".encode())
    status = main(["token", "set", *flags], environ={"HOME": str(home)}, stdin=stdin, stdout=out)
    return status, out.getvalue()


def hook_token(token_file: Path, url: str, *, managed: bool) -> str | None:
    """The token a hook with ``--url url`` reads from ``token_file`` (raises as it refuses)."""
    flags = {"url": url, "token_file": str(token_file)}
    flags |= {} if managed else {"state_dir": str(token_file.parent)}
    return load_settings(flags, {}, flags_only=True).bearer_token()


def test_a10_token_set_records_the_service_and_a_hook_of_another_refuses_the_token(
    tmp_path: Path,
) -> None:
    token_file = tmp_path / "account" / ".claude" / "harness-memory" / "token"

    status, said = token_set(tmp_path, "--file", str(token_file), "--url", OLD)

    assert status == 0, said
    assert (token_file.parent / "token.url").read_text("utf-8") == f"{OLD}\n"
    assert f"the token of the service at {OLD}" in said and TOKEN not in said
    assert hook_token(token_file, OLD + "/", managed=True) == TOKEN  # the same service
    with pytest.raises(TokenFileError) as refused:
        hook_token(token_file, NEW, managed=True)
    assert (
        f"it holds the token given for the service at {OLD}, not {NEW}: a token is never sent "
        f"to another service (A-10); run `harness-memory token set --managed --url {NEW}` with "
        f"{NEW}'s token (it reads it from stdin)"
    ) in str(refused.value)
    assert TOKEN not in str(refused.value)


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_a10_an_install_records_the_service_beside_its_token_and_uninstall_removes_it(
    tmp_path: Path, harness: str
) -> None:
    home, root = tmp_path / "home", tmp_path / "data" / "agents" / "coder" / "agent_state" / "m"
    root.mkdir(parents=True)
    flags = ["--home", str(home), "--no-check", "--memory-root", str(root), "--url", OLD]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    environ = {"HOME": str(home), "HARNESS_MEMORY_TOKEN": TOKEN}
    assert main(["install", harness, *flags], environ=environ, stdout=io.StringIO()) == 0
    folder = {"claude-code": ".claude", "codex": ".codex", "gemini": ".gemini"}[harness]
    token_file = home / folder / "harness-memory" / "token"

    assert (token_file.parent / "token.url").read_text("utf-8") == f"{OLD}\n"
    assert hook_token(token_file, OLD, managed=False) == TOKEN
    with pytest.raises(TokenFileError):
        hook_token(token_file, NEW, managed=False)

    uninstall = ["uninstall", harness, "--home", str(home)]
    assert main(uninstall, environ={"HOME": str(home)}, stdout=io.StringIO()) == 0
    assert not (token_file.parent / "token.url").exists()


def test_a10_token_set_records_the_service_of_the_hooks_that_read_the_file(
    tmp_path: Path,
) -> None:
    """Without ``--url`` the record is the service the installed hooks reading that file name:
    a new token given for Codex CLI's hooks by ``token set --file`` is theirs; a file no hook
    reads gets no record, and one left from an earlier token is taken away."""
    home, root = tmp_path / "home", tmp_path / "data" / "agents" / "coder" / "agent_state" / "m"
    root.mkdir(parents=True)
    flags = ["--home", str(home), "--no-check", "--memory-root", str(root), "--url", NEW]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    environ = {"HOME": str(home), "HARNESS_MEMORY_TOKEN": TOKEN + "-old"}
    assert main(["install", "codex", *flags], environ=environ, stdout=io.StringIO()) == 0
    token_file = home / ".codex" / "harness-memory" / "token"
    (token_file.parent / "token.url").write_text(f"{OLD}\n", encoding="utf-8")

    status, said = token_set(home, "--file", str(token_file))

    assert status == 0, said
    assert (token_file.parent / "token.url").read_text("utf-8") == f"{NEW}\n"
    assert hook_token(token_file, NEW, managed=False) == TOKEN
    alone = tmp_path / "elsewhere" / "token"
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "token.url").write_text(f"{OLD}\n", encoding="utf-8")
    assert token_set(home, "--file", str(alone))[0] == 0
    assert not (tmp_path / "elsewhere" / "token.url").exists()
