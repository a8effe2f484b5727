"""A-10, H-7: a token recorded for one service (``token.url``) is never sent to, nor relabelled
for, another: not by an install that reuses or is given it, not by ``token set``.

A reviewer ran two services, A and B. An install reusing the hooks' token file (or given one
with ``--token-file``) compared the hooks' old ``--url`` with the new one and never read the
record: with the record saying B, ``install codex --url A`` sent B's token to A in its check,
and with ``--no-check`` rewrote the record to A, after which every Session sent B's token to A.
A file read by hooks of two services lost its record silently at ``token set`` (every Session
then sent the token to the other service); a user's own ``PATH.url`` was deleted by ``token set
--file PATH``; and a token written into ``token.url`` was printed whole as "the service".
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest
from harness_memory.cli import main
from harness_memory.settings import TokenFileError, load_settings

from tests.plugin.test_a10_install_again_makes_the_token_file_private import install
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags

TOKEN = "mem_s3cr3t-Token-4711-abcdef"
A = "http://127.0.0.1:9"
B = "http://127.0.0.2:9"


def installed(tmp_path: Path, harness: str, url: str, token: str = TOKEN) -> tuple[Path, Path]:
    """``(home, token file)`` of ``harness`` installed for ``url`` with ``token``."""
    home = tmp_path / "home"
    Path(flags(home)[1]).mkdir(parents=True, exist_ok=True)
    status, said = install(
        home, harness, *flags(home, url), environ={"HARNESS_MEMORY_TOKEN": token}
    )
    assert status == 0, said
    folder = {"codex": ".codex", "gemini": ".gemini", "claude-code": ".claude"}[harness]
    return home, home / folder / "harness-memory" / "token"


def token_set(home: Path, *extra: str, token: str = TOKEN) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    stdin = io.BytesIO(f"{token}\n".encode())
    try:
        with contextlib.redirect_stderr(err):
            status = main(
                ["token", "set", *extra], environ={"HOME": str(home)}, stdin=stdin, stdout=out
            )
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    return status, out.getvalue() + err.getvalue()


def hook_token(token_file: Path, url: str) -> str | None:
    flags_ = {"url": url, "token_file": str(token_file), "state_dir": str(token_file.parent)}
    return load_settings(flags_, {}, flags_only=True).bearer_token()


def record(token_file: Path) -> str:
    return (token_file.parent / "token.url").read_text("utf-8")


def read_by_gemini_too(home: Path, token_file: Path) -> None:
    """Point the installed Gemini CLI hooks at Codex CLI's token file (``--token-file``)."""
    settings = home / ".gemini" / "settings.json"
    text = settings.read_text("utf-8").replace(
        str(home / ".gemini" / "harness-memory" / "token"), str(token_file)
    )
    assert str(token_file) in text
    settings.write_text(text, "utf-8")


def test_a10_an_install_reusing_a_token_recorded_for_another_service_never_sends_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, token_file = installed(tmp_path, "codex", A)
    (token_file.parent / "token.url").write_text(f"{B}\n", "utf-8")  # token set --url B's
    sent: list[Any] = []
    from harness_memory.installers import checks

    def check_service(*args: Any, **kwargs: Any) -> list[Any]:
        sent.append(args[3])
        return []

    monkeypatch.setattr(checks, "check_service", check_service)
    monkeypatch.setattr(checks, "check_root", lambda *args: [])  # the service's check alone
    command = ["install", "codex", "--home", str(home), *flags(home, A)]
    out = io.StringIO()
    assert main(command, environ={"HOME": str(home)}, stdout=out) == 0, out.getvalue()
    assert sent == [None]  # B's token is not sent to A by the check
    assert f"it holds the token given for the service at {B}" in out.getvalue()
    assert f"`harness-memory token set --url`), not {A}" in out.getvalue()
    assert record(token_file) == f"{B}\n"  # kept, never relabelled nor removed


def test_a10_an_unchecked_install_never_relabels_a_token_recorded_for_another_service(
    tmp_path: Path,
) -> None:
    home, token_file = installed(tmp_path, "codex", A)
    (token_file.parent / "token.url").write_text(f"{B}\n", "utf-8")

    status, said = install(home, "codex", environ={})  # again, with the hooks' settings

    assert status == 0, said
    assert f"given for the service at {B} (`harness-memory token set --url`), not {A}" in said
    assert record(token_file) == f"{B}\n"  # kept, never relabelled nor removed
    status, said = install(home, "codex", *flags(home, A), environ={})
    assert record(token_file) == f"{B}\n" and token_file.read_text("utf-8") == f"{TOKEN}\n"


def test_a10_an_install_given_a_token_file_recorded_for_another_service_refuses_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    home, token_file = installed(tmp_path, "codex", B)
    settings = (home / ".codex" / "config.toml").read_text("utf-8")

    status, said = install(
        home, "gemini", *flags(home, A), "--token-file", str(token_file), environ={}
    )

    assert status == 1, said
    assert f"it holds the token given for the service at {B}, not {A}" in caplog.text
    assert "HARNESS_MEMORY_TOKEN=… harness-memory install gemini" in caplog.text
    assert not (home / ".gemini" / "harness-memory" / "token").exists()
    assert record(token_file) == f"{B}\n" and settings == (
        home / ".codex" / "config.toml"
    ).read_text("utf-8")


def test_a10_token_set_on_a_file_hooks_of_two_services_read_asks_for_url(tmp_path: Path) -> None:
    home, token_file = installed(tmp_path, "codex", A)
    installed(tmp_path, "gemini", B)
    read_by_gemini_too(home, token_file)

    status, said = token_set(home, "--file", str(token_file), token=TOKEN + "-new")

    assert status == 2, said
    assert "--url" in said and A in said and B in said, said
    assert record(token_file) == f"{A}\n" and hook_token(token_file, A) == TOKEN
    status, said = token_set(home, "--file", str(token_file), "--url", A, token=TOKEN + "-new")
    assert status == 0, said
    assert record(token_file) == f"{A}\n" and hook_token(token_file, A) == TOKEN + "-new"
    assert f"the hooks in {home / '.gemini' / 'settings.json'} name the service at {B}" in said


def test_a10_an_install_overwriting_a_token_other_hooks_read_for_another_service_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    home, token_file = installed(tmp_path, "codex", A)
    installed(tmp_path, "gemini", A)
    read_by_gemini_too(home, token_file)

    status, said = install(
        home, "codex", *flags(home, B), environ={"HARNESS_MEMORY_TOKEN": TOKEN + "-b"}
    )

    assert status == 0, said
    said += caplog.text
    assert str(home / ".gemini" / "settings.json") in said and f"service at {A}" in said, said
    assert "refuse" in said
    with pytest.raises(TokenFileError):
        hook_token(token_file, A)  # B's token never goes to A


def test_a10_token_set_keeps_a_url_file_it_never_wrote(tmp_path: Path) -> None:
    token_file = tmp_path / "mine" / "token"
    token_file.parent.mkdir()
    (token_file.parent / "token.url").write_text("my own notes\nsecond line\n", "utf-8")

    status, said = token_set(tmp_path, "--file", str(token_file))

    assert status == 2, said
    assert str(token_file.parent / "token.url") in said and "nothing written" in said
    assert (token_file.parent / "token.url").read_text("utf-8") == "my own notes\nsecond line\n"
    assert not token_file.exists()


def test_a10_a_token_never_lands_in_a_record_nor_is_echoed_from_one(tmp_path: Path) -> None:
    home, token_file = installed(tmp_path, "codex", A)
    served = token_file.parent / "token.url"

    status, said = token_set(home, "--file", str(served), token=TOKEN + "-other")

    assert status == 2 and record(token_file) == f"{A}\n", said
    assert TOKEN not in said
    served.write_text(f"{TOKEN}\n", "utf-8")  # as an earlier release let it
    with pytest.raises(TokenFileError) as refused:
        hook_token(token_file, A)
    assert TOKEN not in str(refused.value) and "not a service record" in str(refused.value)
    out = io.StringIO()
    main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    assert TOKEN not in out.getvalue()


def test_a10_a_secret_of_the_services_shape_is_never_a_service(tmp_path: Path) -> None:
    """``--url`` holding a token (pasted in the wrong place) is refused without saying it back,
    and a record holding one is no record of ours, never shown."""
    secret = "mem_" + "Zq8vK2pL9xW4rT7nB3mC6hJ1dF5gS0aE" + "yU4iO8kP2lQ"
    token_file = tmp_path / "mine" / "token"
    for url in (secret, f"http://127.0.0.1:9/{secret}"):
        status, said = token_set(tmp_path, "--file", str(token_file), "--url", url)
        assert status == 2 and "secret of the service's shape" in said, said
        assert secret not in said and not token_file.exists()
    token_file.parent.mkdir()
    token_file.write_text(f"{TOKEN}\n", "utf-8")
    token_file.chmod(0o600)
    (token_file.parent / "token.url").write_text(f"http://127.0.0.1:9/{secret}\n", "utf-8")
    with pytest.raises(TokenFileError) as refused:
        hook_token(token_file, A)
    said = str(refused.value)
    assert secret not in said and "is not a service record harness-memory wrote" in said


def test_a10_token_set_writes_no_token_whose_record_it_cannot_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record is written first: when it cannot be, the old token stays, no temp file is
    left; in a folder made for the token, the new token is removed again."""
    from memory_core import atomic

    written = atomic.write_temp_beside

    def full_for_records(path: Path, data: bytes, **kwargs: Any) -> Path:
        if path.name.endswith(".url"):
            raise OSError(28, "No space left on device")
        return written(path, data, **kwargs)

    home, token_file = installed(tmp_path, "codex", A)
    monkeypatch.setattr(atomic, "write_temp_beside", full_for_records)
    status, said = token_set(home, "--file", str(token_file), "--url", B, token=TOKEN + "-b")
    assert status == 2 and "No space left on device" in said, said
    assert hook_token(token_file, A) == TOKEN and record(token_file) == f"{A}\n"
    assert sorted(p.name for p in token_file.parent.iterdir() if p.name.startswith(".")) == [
        p.name for p in token_file.parent.iterdir() if p.name == ".gitignore"
    ]
    fresh = tmp_path / "fresh" / "token"
    status, said = token_set(home, "--file", str(fresh), "--url", B)
    assert status == 2 and not fresh.exists(), said
