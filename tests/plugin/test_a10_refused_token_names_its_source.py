"""A-10, P-2a: a refused token is said as refused, with the place it came from.

A Session start whose token the service refuses (401) fails open (P-2); its message used to tell
the user to "give this service's token in HARNESS_MEMORY_TOKEN or a --token-file" even when they
had just given one. Now it says that the token sent was refused and names where it came from —
``--token``, ``--token-file PATH``, ``HARNESS_MEMORY_TOKEN``, ``HARNESS_MEMORY_TOKEN_FILE PATH`` —
and only a request that sent no token is told where to give one.
"""

from __future__ import annotations

import io
import json
import os
import pwd
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.errors import unauthorized_hint
from harness_memory.settings import MANAGED_TOKEN_SET

from tests.plugin.helpers import hook_fixture
from tests.plugin.real_service import RealService

REFUSED = (
    "memory service answered 401: the bearer token is not known to this service (revoked or "
    "mistyped) (the service refused the token from {source}: it is wrong, or was revoked; give "
    "one this service takes; installed hooks: give a token it takes in HARNESS_MEMORY_TOKEN "
    "and run `harness-memory install HARNESS` again (HARNESS: claude-code, codex or gemini))"
)


def session_start(service: RealService, *flags: str, environ: dict[str, str]) -> str:
    """The ``error`` of a ``harness-memory session-start`` for acme/coder (json out)."""
    out = io.StringIO()
    args = ["session-start", "--url", service.url, "--project", "acme", "--agent", "coder"]
    status = main([*args, *flags, "--format", "json"], environ=environ, stdout=out)
    assert status == 1  # the Session starts without memory, and says it was refused (P-4)
    meta = json.loads(out.getvalue())["sessionMeta"]
    assert meta["status"] == "failed-open"
    error: str = meta["error"]
    return error


def a_token_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "token"
    path.write_text(text + "\n", encoding="utf-8")
    path.chmod(0o600)
    return path


@pytest.mark.usefixtures("memory_root")
def test_a10_a_refused_token_is_said_with_where_it_came_from(
    real_service: RealService, tmp_path: Path
) -> None:
    wrong = "not-the-token-0123"
    home = {"HOME": str(tmp_path)}
    given = session_start(real_service, "--token", wrong, environ=home)
    assert given == REFUSED.format(source="--token")

    from_env = session_start(real_service, environ={**home, "HARNESS_MEMORY_TOKEN": wrong})
    assert from_env == REFUSED.format(source="HARNESS_MEMORY_TOKEN")

    path = a_token_file(tmp_path, wrong)
    from_file = session_start(real_service, "--token-file", str(path), environ=home)
    assert from_file == REFUSED.format(source=f"--token-file {path}")

    variable = {**home, "HARNESS_MEMORY_TOKEN_FILE": str(path)}
    assert session_start(real_service, environ=variable) == REFUSED.format(
        source=f"HARNESS_MEMORY_TOKEN_FILE {path}"
    )


@pytest.mark.usefixtures("memory_root")
def test_a10_a_request_without_a_token_is_told_where_to_give_one(
    real_service: RealService, tmp_path: Path
) -> None:
    said = session_start(real_service, environ={"HOME": str(tmp_path)})
    assert said.endswith(f"({NO_TOKEN_SENT})")


NO_TOKEN_SENT = (
    "no token was sent: give this service's token in a --token-file (`harness-memory install` "
    "keeps yours in harness-memory/token beside the harness's settings, "
    "~/.claude/harness-memory/token for Claude Code) or, without --flags-only, in "
    "HARNESS_MEMORY_TOKEN; installed hooks: give a token it takes in HARNESS_MEMORY_TOKEN and "
    "run `harness-memory install HARNESS` again (HARNESS: claude-code, codex or gemini)"
)


def test_a10_the_advice_for_no_token_holds_under_flags_only() -> None:
    """``--flags-only`` reads no ``HARNESS_MEMORY_TOKEN``: a 401's advice to give the token
    there did nothing for a hook run with it (README's hand-wired example)."""
    assert unauthorized_hint(None) == f" ({NO_TOKEN_SENT})"


SESSION_START = {
    "claude-code": ("session-start", "session_start.json"),
    "codex": ("session-start", "codex_session_start.json"),
    "gemini": ("session-start", "gemini_session_start.json"),
}


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_a10_a_hook_refused_names_its_own_install_and_where_the_token_goes(
    shared_service: RealService, new_agent: str, tmp_path: Path, harness: str
) -> None:
    """A hook sending no token (or an old one) told the user to "run `harness-memory install`
    again", which argparse refuses (the harness is required). The hook knows its harness: it
    names that install, and gives the token in ``HARNESS_MEMORY_TOKEN``."""
    event, fixture = SESSION_START[harness]
    flags = ["--url", shared_service.url, "--project", "acme", "--agent", new_agent]
    flags += ["--state-dir", str(tmp_path / "state"), "--flags-only"]
    out = io.StringIO()
    stdin = io.BytesIO(hook_fixture(fixture, workspace=str(tmp_path)))
    status = main(["hook", harness, event, *flags], environ={}, stdin=stdin, stdout=out)
    assert status == 0
    said = json.loads(out.getvalue())["systemMessage"]
    assert "no token was sent" in said, said
    assert (
        "installed hooks: give a token it takes in HARNESS_MEMORY_TOKEN and run "
        f"`harness-memory install {harness}` again"
    ) in said
    assert "`harness-memory install` again" not in said


def managed_hook_answer(
    service: RealService,
    agent: str,
    tmp_path: Path,
    harness: str,
    monkeypatch: pytest.MonkeyPatch,
) -> dict[str, object]:
    """The answer of ``harness``'s managed Session-start hook (``--flags-only``, no
    ``--state-dir``) for acme/``agent`` on ``service``, sending no token, in an account whose
    home is ``tmp_path/account``."""
    entry = pwd.getpwuid(os.getuid())
    account = pwd.struct_passwd((*entry[:5], str(tmp_path / "account"), entry[6]))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: account)
    event, fixture = SESSION_START[harness]
    flags = ["--url", service.url, "--project", "acme", "--agent", agent]
    out = io.StringIO()
    stdin = io.BytesIO(hook_fixture(fixture, workspace=str(tmp_path)))
    argv = ["hook", harness, event, *flags, "--flags-only"]
    assert main(argv, environ={}, stdin=stdin, stdout=out) == 0
    answer: dict[str, object] = json.loads(out.getvalue())
    return answer


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_a10_a_managed_hook_refused_names_token_set_managed(
    shared_service: RealService,
    new_agent: str,
    tmp_path: Path,
    harness: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The managed hooks (``--flags-only`` and no ``--state-dir``: the account's own folder)
    read the token ``harness-memory token set --managed`` writes; ``install HARNESS`` again
    exits 2 there, or adds user-level hooks beside the managed ones. A 401 names the former."""
    answer = managed_hook_answer(shared_service, new_agent, tmp_path, harness, monkeypatch)
    said = answer["systemMessage"]
    assert isinstance(said, str), answer
    assert "no token was sent" in said, said
    assert f"managed hooks: run {MANAGED_TOKEN_SET} to give them a token it takes" in said
    assert f"install {harness}` again" not in said, said
