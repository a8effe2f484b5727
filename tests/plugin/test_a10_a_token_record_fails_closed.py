"""A-10, H-7: a token and the record of its service (``token.url``) are never paired with
another service, whichever path reads or writes them.

A reviewer with two services A and B found: a managed install checking the service with
``HARNESS_MEMORY_TOKEN_FILE`` sent a token recorded for B to A; ``token set`` wrote B's record
and, when the token write then failed, left it beside A's token (and said "nothing was
written"); uninstalling Claude Code's user hooks deleted the token the managed hooks read; a
refused install's hint re-ran the old install.
"""

from __future__ import annotations

import errno
import io
import stat
from pathlib import Path
from typing import Any

import pytest
from harness_memory.cli import main
from harness_memory.settings import TokenFileError

from tests.plugin.test_a10_a_token_keeps_its_recorded_service import (
    TOKEN,
    A,
    B,
    hook_token,
    installed,
    record,
    token_set,
)
from tests.plugin.test_a10_install_again_makes_the_token_file_private import install
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags
from tests.plugin.test_h7_token_files_kept import account, managed_install
from tests.plugin.test_h7_token_outside_work_trees import install as kept_install

__all__ = ["account"]  # the fixture

OTHER = "mem_0ther-Token-0815-fedcba"


def left_aside(
    monkeypatch: pytest.MonkeyPatch, home: Path, token_file: Path, url: str, token: str
) -> tuple[Path, str]:
    """``(the old token's place aside, what token set said)`` after a ``token set --url url``
    whose token write fails (a full disk) and whose record cannot be put back (read-only)."""
    from harness_memory import cli_token

    def full_disk(token: str, path: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    written = cli_token._replace_record
    calls: list[Path] = []

    def stuck_once_written(record_file: Path, data: bytes) -> None:
        calls.append(record_file)  # the new record is written; putting the old back fails
        if len(calls) > 1:
            raise OSError(errno.EROFS, "Read-only file system")
        written(record_file, data)

    monkeypatch.setattr(cli_token, "set_token", full_disk)
    monkeypatch.setattr(cli_token, "_replace_record", stuck_once_written)
    status, said = token_set(home, "--file", str(token_file), "--url", url, token=token)
    assert status == 2, said
    (aside,) = [p for p in token_file.parent.iterdir() if p.name.startswith(".token.aside-")]
    return aside, said


def hook_token_or_refused(token_file: Path, url: str) -> str | None:
    """The token a hook for ``url`` sends from ``token_file``; None for none or refused."""
    try:
        return hook_token(token_file, url)
    except TokenFileError:
        return None


def test_a10_a_managed_install_never_checks_with_a_token_file_recorded_for_another_service(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    home, token_file = installed(tmp_path, "codex", B)
    sent: list[Any] = []
    from harness_memory.installers import checks

    def check_service(*args: Any, **_: Any) -> list[str]:
        sent.append(args[3])  # the token the check would send
        return []

    monkeypatch.setattr(checks, "check_service", check_service)
    monkeypatch.setattr(checks, "check_root", lambda *args: [])
    managed = tmp_path / "managed"
    command = ["install", "claude-code", "--managed", str(managed), *flags(home, A)]
    environ = {"HOME": str(home), "HARNESS_MEMORY_TOKEN_FILE": str(token_file)}
    out = io.StringIO()

    status = main(command, environ=environ, stdout=out)

    assert sent == []  # B's token never sent to A
    assert status == 1, out.getvalue()
    assert f"given for the service at {B}, not {A}" in caplog.text
    assert not managed.exists() or not any(managed.iterdir())


def test_a10_token_set_failing_to_write_the_token_leaves_no_token_under_another_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, token_file = installed(tmp_path, "codex", A)  # the file holds A's token, record A
    from harness_memory import cli_token

    meanwhile: list[str | None] = []

    def full_disk(token: str, path: Path) -> None:
        meanwhile.append(hook_token_or_refused(path, B))  # a hook of B, while it is written
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(cli_token, "set_token", full_disk)

    status, said = token_set(home, "--file", str(token_file), "--url", B, token=OTHER)

    assert status == 2 and "No space left on device" in said, said
    assert meanwhile == [None]  # never A's token sent to B, not while it is replaced
    assert hook_token_or_refused(token_file, B) is None
    assert record(token_file) == f"{A}\n"  # the record put back as it was, the token too
    assert hook_token(token_file, A) == TOKEN and "nothing written" in said, said
    assert [p.name for p in token_file.parent.iterdir() if ".aside" in p.name] == []


def test_a10_token_set_moves_a_token_aside_under_a_name_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old token went to the fixed name ``.token.aside``, over what a run that stopped
    midway left there (the token it had moved aside, read by no hook but the user's to get
    back). Now each run makes a name of its own (``0600``), and says which when it is left."""
    home, token_file = installed(tmp_path, "codex", A)
    leftover = token_file.parent / ".token.aside"
    leftover.write_text("mem_leftover-Token-of-a-stopped-run\n", "utf-8")
    leftover.chmod(0o600)

    status, said = token_set(home, "--file", str(token_file), "--url", B, token=OTHER)

    assert status == 0, said
    assert leftover.read_text("utf-8") == "mem_leftover-Token-of-a-stopped-run\n"
    assert hook_token(token_file, B) == OTHER
    aside, said = left_aside(monkeypatch, home, token_file, A, TOKEN)
    assert f"the old token is in {aside}" in said, said
    assert aside.read_text("utf-8") == f"{OTHER}\n" and stat.S_IMODE(aside.stat().st_mode) == 0o600
    assert leftover.read_text("utf-8") == "mem_leftover-Token-of-a-stopped-run\n"


def test_a10_token_set_given_a_folder_writes_no_record(tmp_path: Path) -> None:
    home, folder = tmp_path / "home", tmp_path / "a-folder"
    folder.mkdir(parents=True)
    (home).mkdir()

    status, said = token_set(home, "--file", str(folder), "--url", B)

    assert status == 2, said
    assert "nothing written" in said, said
    assert not (tmp_path / "a-folder.url").exists()


def test_a10_an_install_for_another_service_never_pairs_a_token_with_the_other_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    home, token_file = installed(tmp_path, "codex", A)  # A's token, recorded for A
    from harness_memory.installers import files

    written = files.replace_bytes
    seen: list[tuple[str | None, str | None]] = []
    fail = [False]

    def watched(target: Path, data: bytes, *args: Any, **kwargs: Any) -> Any:
        if target.parent == token_file.parent:  # what hooks of A and of B read meanwhile
            seen.append(
                (hook_token_or_refused(token_file, A), hook_token_or_refused(token_file, B))
            )
            if fail[0] and target == token_file:
                raise OSError(errno.ENOSPC, "No space left on device")
        return written(target, data, *args, **kwargs)

    monkeypatch.setattr(files, "replace_bytes", watched)
    fail[0] = True
    status, said = install(home, "codex", *flags(home, B), environ={"HARNESS_MEMORY_TOKEN": OTHER})
    assert status == 1 and "No space left on device" in caplog.text, said
    assert hook_token(token_file, A) == TOKEN and record(token_file) == f"{A}\n"  # all back
    assert [p.name for p in token_file.parent.iterdir() if "kept" in p.name] == []

    fail[0] = False
    status, said = install(home, "codex", *flags(home, B), environ={"HARNESS_MEMORY_TOKEN": OTHER})
    assert status == 0, said
    assert hook_token(token_file, B) == OTHER and record(token_file) == f"{B}\n"
    assert seen and all(a in (TOKEN, None) and b in (OTHER, None) for a, b in seen), seen


def test_h7_uninstalling_claude_codes_user_hooks_keeps_the_token_the_managed_hooks_read(
    account: Path, tmp_path: Path
) -> None:
    managed = tmp_path / "managed"
    managed_install(account, managed)
    assert kept_install(account, "claude-code", TOKEN, {"HOME": str(account)})[0] == 0
    own = account / ".claude" / "harness-memory" / "token"
    assert own.read_text() == f"{TOKEN}\n" and own.with_name("token.url").is_file()
    out = io.StringIO()

    status = main(["uninstall", "claude-code", "--home", str(account)], environ={}, stdout=out)

    said = out.getvalue()
    assert status == 0, said
    assert own.read_text() == f"{TOKEN}\n" and own.with_name("token.url").is_file(), said
    assert f"kept {own}" in said and str(managed / "managed-settings.json") in said, said


def test_a10_a_refused_install_for_another_service_names_the_whole_install_to_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    home, _ = installed(tmp_path, "codex", A)
    from harness_memory.installers import checks

    refused = [checks.Finding(True, "the service refused the ids")]
    monkeypatch.setattr(checks, "check_service", lambda *args, **kwargs: refused)
    monkeypatch.setattr(checks, "check_root", lambda *args: [])
    given = flags(home, B)[:8]  # --memory-root R --url B --project acme --agent coder
    command = ["install", "codex", "--home", str(home), *given, "--timeout", "7"]

    assert main(command, environ={"HOME": str(home)}, stdout=io.StringIO()) == 1

    root = given[1]
    whole = (
        f"`HARNESS_MEMORY_TOKEN=… harness-memory install codex --url {B} --project acme "
        f"--agent coder --memory-root {root} --timeout 7 --home {home}`"
    )
    assert f"give {B}'s token: {whole}" in caplog.text, caplog.text


def test_a10_installing_again_makes_a_token_record_left_open_owner_only(tmp_path: Path) -> None:
    home, token_file = installed(tmp_path, "codex", A)
    served = token_file.with_name("token.url")
    served.chmod(0o644)

    status, said = install(home, "codex", *flags(home, A), environ={})

    assert status == 0, said
    assert stat.S_IMODE(served.stat().st_mode) == 0o600, said
    assert record(token_file) == f"{A}\n" and hook_token(token_file, A) == TOKEN


def test_a10_a_managed_install_refusing_its_token_file_names_token_set_for_that_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The refusal of a managed install given ``HARNESS_MEMORY_TOKEN_FILE=G`` recorded for B
    said `token set --managed --url A`, which writes the managed token, not G: the same
    install was refused again. It names ``--file G``; run as printed, the install passes."""
    import re
    import shlex

    home, token_file = installed(tmp_path, "codex", B)
    from harness_memory.installers import checks

    monkeypatch.setattr(checks, "check_service", lambda *args, **_: [])
    monkeypatch.setattr(checks, "check_root", lambda *args: [])
    managed = tmp_path / "managed"
    command = ["install", "claude-code", "--managed", str(managed), *flags(home, A)]
    environ = {"HOME": str(home), "HARNESS_MEMORY_TOKEN_FILE": str(token_file)}
    assert main(command, environ=environ, stdout=io.StringIO()) == 1

    (printed,) = re.findall(r"`(harness-memory token set [^`]*)`", caplog.text)
    assert f"--file {token_file} --url {A}" in printed, caplog.text
    assert token_set(home, *shlex.split(printed)[3:], token=OTHER)[0] == 0
    out = io.StringIO()
    assert main(command, environ=environ, stdout=out) == 0, out.getvalue() + caplog.text


def test_a10_a_token_moved_aside_is_owner_only_and_status_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A token ``token set`` moved aside (``.token.aside-XXXXXXXX``) and could not put back kept
    the old file's mode (``0644``: every user could read it) and was named nowhere after that
    run. It is ``0600``, and ``status`` names it, with what to do."""
    home, token_file = installed(tmp_path, "codex", A)
    token_file.chmod(0o644)
    aside, _ = left_aside(monkeypatch, home, token_file, B, OTHER)

    assert stat.S_IMODE(aside.stat().st_mode) == 0o600
    out = io.StringIO()
    main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    assert f"{aside}" in out.getvalue() and "token set" in out.getvalue(), out.getvalue()
