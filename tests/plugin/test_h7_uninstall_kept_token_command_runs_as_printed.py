"""H-7, A-10: the command ``uninstall`` prints for a token it keeps (given for another service
with ``token set --url``) removes it and what the hooks made around it, the state folder's
``.gitignore`` and the folder, and runs as printed: in a plain home and in a settings folder
moved by ``CODEX_HOME`` or ``GEMINI_CLI_HOME``.

A reviewer ran the printed ``rm TOKEN TOKEN.url``: the ``.gitignore`` and the folder stayed.
"""

from __future__ import annotations

import io
import os
import pwd
import re
import subprocess
from pathlib import Path

import pytest
from harness_memory.cli import main

from tests.plugin.test_a10_a_token_keeps_its_recorded_service import A, B, token_set
from tests.plugin.test_a10_install_again_makes_the_token_file_private import install
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags

MOVED = {"codex": "CODEX_HOME", "gemini": "GEMINI_CLI_HOME"}


def state_folder(home: Path, harness: str, environ: dict[str, str]) -> Path:
    if harness == "codex" and "CODEX_HOME" in environ:
        return Path(environ["CODEX_HOME"]) / "harness-memory"
    if harness == "gemini" and "GEMINI_CLI_HOME" in environ:
        return Path(environ["GEMINI_CLI_HOME"]) / ".gemini" / "harness-memory"
    return home / {"codex": ".codex", "gemini": ".gemini"}[harness] / "harness-memory"


def printed_command(said: str, token_file: Path) -> str:
    """The command the sentence on ``token_file`` says removes it."""
    sentence = next(line for line in said.splitlines() if f"left {token_file}:" in line)
    (command,) = re.findall(r"remove it yourself: `([^`]*)`", sentence)
    return str(command)


@pytest.mark.parametrize(
    ("harness", "moved"), [("codex", False), ("codex", True), ("gemini", True)]
)
def test_h7_the_printed_command_removes_the_kept_token_its_gitignore_and_its_folder(
    tmp_path: Path, harness: str, moved: bool
) -> None:
    home = tmp_path / "home"
    Path(flags(home)[1]).mkdir(parents=True)
    environ = {MOVED[harness]: str(tmp_path / "moved")} if moved else {}
    Path(environ.get(MOVED[harness], home)).mkdir(parents=True, exist_ok=True)
    token_environ = {"HARNESS_MEMORY_TOKEN": "s3cr3t-Token-4711-a", **environ}
    status, said = install(home, harness, *flags(home, A), environ=token_environ)
    assert status == 0, said
    state = state_folder(home, harness, environ)
    token_file = state / "token"
    status, said = token_set(home, "--file", str(token_file), "--url", B)
    assert status == 0, said
    out = io.StringIO()
    argv = ["uninstall", harness, "--home", str(home)]
    assert main(argv, environ={"HOME": str(home), **environ}, stdout=out) == 0, out.getvalue()
    assert token_file.is_file() and (state / ".gitignore").is_file(), out.getvalue()

    command = printed_command(out.getvalue(), token_file)
    bare = {"HOME": str(home), "PATH": os.environ["PATH"]}
    subprocess.run(["sh", "-c", command], check=True, env=bare, cwd=tmp_path)

    assert not state.exists(), command


def test_h7_a_managed_uninstalls_printed_command_removes_the_token_set_managed_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``uninstall --managed`` names the token ``token set --managed`` wrote in the account's
    home, which nothing reads then; its command printed ``rm TOKEN``, and the ``token.url``,
    the ``.gitignore`` and the folder stayed."""
    account = tmp_path / "account"
    entry = pwd.getpwuid(os.getuid())
    monkeypatch.setattr(
        pwd, "getpwuid", lambda uid: pwd.struct_passwd((*entry[:5], str(account), entry[6]))
    )
    folder, home = tmp_path / "image" / "codex", tmp_path / "home"
    Path(flags(home)[1]).mkdir(parents=True)
    managed = ["codex", "--managed", str(folder), "--home", str(home)]
    assert (
        main(["install", *managed, *flags(home, A)[:-2], "--no-check"], environ={"HOME": str(home)})
        == 0
    )
    token = io.BytesIO(b"s3cr3t-Token-4711-managed\n")
    assert (
        main(["token", "set", "--managed", "--url", A], environ={"HOME": str(home)}, stdin=token)
        == 0
    )
    state = account / ".claude" / "harness-memory"
    out = io.StringIO()
    assert main(["uninstall", *managed], environ={"HOME": str(home)}, stdout=out) == 0

    (command,) = re.findall(r"`(rm [^`]*)` removes it", out.getvalue())
    bare = {"HOME": str(home), "PATH": os.environ["PATH"]}
    subprocess.run(["sh", "-c", command], check=True, env=bare, cwd=tmp_path)

    assert not state.exists(), command
