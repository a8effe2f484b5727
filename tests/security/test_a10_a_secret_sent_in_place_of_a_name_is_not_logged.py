"""A-10, A-11: a bearer secret a client puts where a name goes never reaches the log.

The access line quotes the path as sent and the harness's session id, so a client that swapped
its arguments (its token where the project id goes: ``/api/projects/mem_…/agents``) or sent
its token as the session id wrote the secret into the log, for anyone reading it to use. Each
secret of the service's own shape (``mem_`` and 43 URL-safe characters) is masked by the log's
handler in every record (an error line, a traceback too), before any cut; the rest of the line
stays as sent. A session id holding one is refused: the history would keep it.
"""

from __future__ import annotations

import asyncio
import logging
import random
import string
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from memory_api.app import create_app
from memory_api.bearer import hide_secrets, holds_secret, new_secret
from memory_api.http.logs import (
    ACCESS_LOGGER,
    AccessLogger,
    SecretMaskFilter,
    configure_logging,
    log_quote,
)
from memory_api.routes.memory import SESSION_ID_LOG_CHARS
from memory_api.settings import Settings
from memory_api.store import agents
from memory_api.word_shape import reads_as_words
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import AGENT, PROJECT, expect_problem, memory_url, ok_json


@pytest.fixture
async def logged(aiohttp_client: AiohttpClient, data_dir: Path) -> TestClient[Any, None]:
    """A client of a service whose access lines go to the ``memory_api.access`` logger."""
    server = TestServer(create_app(Settings(data_dir=data_dir)))
    await server.start_server(
        access_log_class=AccessLogger, access_log=logging.getLogger(ACCESS_LOGGER)
    )
    return await aiohttp_client(server)


async def _access_line(caplog: pytest.LogCaptureFixture, method: str) -> logging.LogRecord:
    """The access record of the request by ``method`` (written once its answer is sent)."""
    for _ in range(100):
        found = [r for r in caplog.records if r.name == ACCESS_LOGGER]
        if found and found[-1].getMessage().startswith(method):
            return found[-1]
        await asyncio.sleep(0.01)
    raise AssertionError(f"no access line of a {method}")


async def test_a10_a_secret_in_the_path_is_masked_in_the_access_line(
    logged: TestClient[Any, None], masked_caplog: pytest.LogCaptureFixture
) -> None:
    caplog = masked_caplog
    secret = new_secret()

    with caplog.at_level(logging.INFO, logger=ACCESS_LOGGER):
        answer = await logged.get(f"/api/projects/{secret}/agents")
        assert answer.status == 400
        record = await _access_line(caplog, "GET")

    assert secret not in caplog.text
    assert record.__dict__["path"] == "/api/projects/mem_[masked]/agents"
    assert "GET /api/projects/mem_[masked]/agents 400" in record.getMessage()


async def test_a10_a_secret_sent_as_the_session_id_is_refused_and_not_logged(
    logged: TestClient[Any, None], masked_caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    caplog = masked_caplog
    await _started_agent(logged)
    secret = new_secret()

    with caplog.at_level(logging.INFO, logger=ACCESS_LOGGER):
        answer = await logged.post(
            f"{memory_url()}/session-start",
            json={"workspace": str(tmp_path), "sessionId": f"run-{secret}"},
        )
        assert answer.status == 400
        await _access_line(caplog, "POST")

    assert secret not in caplog.text


def test_a10_a_logged_session_id_is_masked_before_it_is_cut() -> None:
    """The access line's session id is cut at 128 characters: cut first, a secret straddling
    the cut kept 40 of its 43 characters, too few for the mask, and was logged."""
    secret = new_secret()

    quoted = log_quote("s" * 84 + secret, SESSION_ID_LOG_CHARS)

    assert quoted == repr("s" * 84 + "mem_[masked]")


@pytest.fixture
def masked_caplog(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """``caplog`` whose handler masks records as the service's own log handler does
    (:func:`~memory_api.http.logs.configure_logging` installs :class:`SecretMaskFilter`)."""
    caplog.handler.addFilter(SecretMaskFilter())
    return caplog


async def _started_agent(logged: TestClient[Any, None]) -> None:
    created = await logged.post(f"/api/projects/{PROJECT}/agents", json={"id": AGENT, "name": "A"})
    assert created.status == 201


async def test_a10_a_secret_across_the_session_ids_cut_is_not_logged(
    logged: TestClient[Any, None], masked_caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """The logged session id is cut at 128 characters: a secret straddling the cut, no longer
    43 characters after ``mem_``, was not masked and 40 of its 43 characters were logged."""
    await _started_agent(logged)
    secret = new_secret()

    with masked_caplog.at_level(logging.INFO, logger=ACCESS_LOGGER):
        await logged.post(
            f"{memory_url()}/session-start",
            json={"workspace": str(tmp_path), "sessionId": "s" * 84 + secret},
        )
        await _access_line(masked_caplog, "POST")

    assert secret[4:20] not in masked_caplog.text


async def test_a10_a_secret_percent_encoded_in_the_path_is_masked(
    logged: TestClient[Any, None], masked_caplog: pytest.LogCaptureFixture
) -> None:
    """The path is logged as sent: a secret with a character percent-encoded (``%41`` for
    ``A``) is the same secret to the service, and is masked as one."""
    secret = new_secret()
    sent = "%6D" + secret[1:4] + "".join(f"%{ord(c):02X}" for c in secret[4:6]) + secret[6:]

    with masked_caplog.at_level(logging.INFO, logger=ACCESS_LOGGER):
        answer = await logged.get(f"/api/projects/{sent}/agents")
        assert answer.status == 400
        record = await _access_line(masked_caplog, "GET")

    assert secret[6:] not in masked_caplog.text
    assert record.getMessage().startswith("GET /api/projects/mem_[masked]/agents 400")


async def test_a10_a_secret_in_the_path_of_a_failed_request_is_masked_in_its_error_line(
    logged: TestClient[Any, None],
    masked_caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await _started_agent(logged)
    secret = new_secret()

    def failing(raw: bytes, agent_id: str) -> None:
        raise OSError(5, "Input/output error", f"/data/{secret}.md")

    monkeypatch.setattr(agents, "_parse", failing)
    with masked_caplog.at_level(logging.INFO):
        answer = await logged.get(f"{memory_url()}/scopes/user/files/{secret}.md")

    assert answer.status == 503
    assert "data dir error in GET" in masked_caplog.text
    assert secret not in masked_caplog.text


def test_a10_the_configured_log_masks_secrets_in_messages_and_tracebacks(
    capsys: pytest.CaptureFixture[str], restore_logging: None
) -> None:
    secret = new_secret()
    configure_logging("text", "INFO")
    try:
        raise OSError(5, "Input/output error", f"/data/{secret}.md")
    except OSError:
        logging.getLogger("memory_api").exception("failed in GET /files/%s.md", secret)

    err = capsys.readouterr().err
    assert secret not in err
    assert "failed in GET /files/mem_[masked].md" in err
    assert "Input/output error: '/data/mem_[masked].md'" in err


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("project_mem_search_index_rebuild_after_the_schema_change_v2.md", None),
        ("notes/mem_" + "x" * 43 + ".md", "notes/mem_[masked].md"),
        ("run-mem_" + "x" * 43, "run-mem_[masked]"),
        ("project_mem_" + "x" * 43 + ".md", None),
        ("sss" + "mem_" + "xY" * 22, "sssmem_[masked]"),
        # MCP tool names (Claude Code's PostToolUse covers mcp__.*): words, no secret (V-1)
        ("mcp__claude-mem__get_recent_context_for_the_current_project", None),
        ("mcp__mem__createOrUpdateMemoryTopicFileInProjectScope", None),
        ("mcp__claude-mem__list_all_tasks_in_the_current_workspace_v2", None),
        # ALL-CAPS words (SCREAMING_SNAKE_CASE) are words too; upper-cased random text is not
        ("mcp__claude-mem__GET_RECENT_CONTEXT_FOR_THE_CURRENT_PROJECT", None),
        ("claude-mem_SEARCH_OBSERVATIONS_BY_PROJECT_AND_DATE_RANGE", None),
        ("run-mem_" + "X" * 43, "run-mem_[masked]"),
        ("run-mem_RRN9L7JMST40KCHYRCKVHVOBLNCHYIUOCOMZKWCZNMS", "run-mem_[masked]"),
        # a secret glued after such a name is still one
        (
            "mcp__claude-mem__get_recent_context_for_the_current_project" + "mem_" + "xY" * 22,
            "mcp__claude-mem__get_recent_context_for_the_current_projectmem_[masked]",
        ),
    ],
)
def test_a10_mem_inside_an_ordinary_name_is_no_secret(text: str, shown: str | None) -> None:
    """``mem_`` inside a word (after a letter, a digit or ``_``) starts a secret only when
    what follows mixes lower and upper case, as a random secret does; an ordinary name stays,
    and so does one made of words after ``-mem_`` or ``_mem_`` (an MCP tool's name)."""
    assert hide_secrets(text) == (text if shown is None else shown)
    assert holds_secret(text) == (shown is not None)


def test_a10_every_fresh_secret_is_a_secret_wherever_it_stands() -> None:
    """What reads as words is no secret; a fresh secret reads so at most once in 16 million
    (memory_api.word_shape): 100,000 of them, alone, after ``-`` and glued after a word."""
    for _ in range(100_000):
        secret = new_secret()
        assert hide_secrets(f"run-{secret}/x") == "run-mem_[masked]/x", secret
    assert all(holds_secret(f"mcp__t-{new_secret()}") for _ in range(1_000))
    assert all(holds_secret(f"tool{new_secret()}") for _ in range(1_000))


ONE_CASE_ALPHABETS = {
    "A-Z": string.ascii_uppercase,
    "A-Z 0-9": string.ascii_uppercase + string.digits,
    "upper hex": "0123456789ABCDEF",
    "base32": string.ascii_uppercase + "234567",
    "a-z": string.ascii_lowercase,
    "lower hex": "0123456789abcdef",
}
"""Alphabets an operator's own token (``MEMORY_API_TOKENS``) may be drawn from, all of one case:
outside the bound of fresh secrets (random over all 64 URL-safe characters). Before the rule
for one-case text, 20,000 random 43-character samples read as words 903 times (A-Z), 823 (a-z),
121 (upper hex), 152 (lower hex); now none of them (nor of A-Z 0-9, base32)."""


@pytest.mark.parametrize("alphabet", sorted(ONE_CASE_ALPHABETS))
def test_a10_random_text_of_one_case_never_reads_as_words(alphabet: str) -> None:
    """Scoring ALL-CAPS text in lower case let 4.5 % of A-Z-only secrets pass as words, left
    unmasked in the log; a one-case text reads as words only as words between separators."""
    letters = ONE_CASE_ALPHABETS[alphabet]
    draw = random.Random(f"a10 {alphabet}")  # noqa: S311 - the same samples every run
    samples = ["".join(draw.choices(letters, k=43)) for _ in range(2_000)]

    assert [sample for sample in samples if reads_as_words(sample)] == []
    assert all(hide_secrets(f"run-mem_{sample}") == "run-mem_[masked]" for sample in samples)


async def test_a10_an_mcp_tool_name_made_of_words_is_kept_as_the_tool(
    logged: TestClient[Any, None],
) -> None:
    """A tool name made of words (``mcp__claude-mem__get_recent_context_for_the_current_
    project``) was refused as a bearer token, so such a write was never versioned (V-1)."""
    await _started_agent(logged)
    for tool in (
        "mcp__claude-mem__get_recent_context_for_the_current_project",
        "mcp__mem__createOrUpdateMemoryTopicFileInProjectScope",
        "mcp__claude-mem__GET_RECENT_CONTEXT_FOR_THE_CURRENT_PROJECT",
    ):
        await ok_json(await logged.post(f"{memory_url()}/versions", json={"tool": tool}))


@pytest.mark.parametrize(
    ("route", "field", "split"),
    [
        ("session-start", "sessionId", ""),
        ("session-start", "sessionId", "\x00"),
        ("versions", "sessionId", ""),
        ("versions", "harness", "\x01"),
    ],
)
async def test_a10_a_secret_sent_as_a_session_id_is_refused_not_kept_in_the_history(
    logged: TestClient[Any, None], tmp_path: Path, route: str, field: str, split: str
) -> None:
    """A session id (a harness's, a tool's name) is kept in the scope's history (a version's
    ``Session-Id``, its ``author.sessionId``, copied to every machine syncing it): one holding a
    bearer secret is refused (400, saying why) before anything is kept, and so is one that
    holds it once its control characters are dropped, as the history keeps it."""
    await _started_agent(logged)
    secret = new_secret()
    body = {"workspace": str(tmp_path)} if route == "session-start" else {}
    sent = secret[:20] + split + secret[20:]

    answer = await logged.post(f"{memory_url()}/{route}", json={**body, field: sent})

    await expect_problem(answer, 400, f"{field} looks like a bearer token")
    changes = await logged.get(f"{memory_url()}/scopes/user/changes")
    assert secret[20:] not in await changes.text()


def test_a10_a_library_s_bad_format_is_its_logging_error_never_an_exception_in_the_caller(
    capsys: pytest.CaptureFixture[str], restore_logging: None
) -> None:
    """A record whose message cannot be formatted (one argument for two ``%s``) is logging's
    own error ("--- Logging error ---"), as without the filter: it never raises in the code
    that logged it, and the arguments it prints have their secrets masked."""
    secret = new_secret()
    configure_logging("text", "INFO")
    logging.getLogger("aiohttp.server").info("%s %s", secret)
    err = capsys.readouterr().err
    assert "--- Logging error ---" in err
    assert secret not in err


def test_a10_secrets_in_list_and_mapping_fields_are_masked_in_json_lines(
    capsys: pytest.CaptureFixture[str], restore_logging: None
) -> None:
    """A field a caller added that holds a list or a mapping is written by the JSON log as
    JSON: each secret in it is masked, as in a text field."""
    secret = new_secret()
    configure_logging("json", "INFO")
    extra = {"paths": [f"/files/{secret}.md", 3], "headers": {"x-id": (secret,), secret: "k"}}
    logging.getLogger("memory_api").info("listed", extra=extra)
    err = capsys.readouterr().err
    assert secret not in err
    assert err.count("mem_[masked]") == 3
