"""T-6: a UUID used as an id is no credential; one a token, key or secret label names is one.

A session's, a run's or a tenant's id is written as a UUID (``session 3f2a9c1e-…`` in a note
on a crash, ``originSessionId:`` in Claude Code's frontmatter, ``claude --resume <uuid>``): it
opens nothing, and a ``secret`` finding for it (an error) teaches people to ignore lint. A UUID
is a credential when a label says so: Heroku's API keys, many webhook secrets and session
tokens are UUIDs (``HEROKU_API_KEY=<uuid>``, ``session_token: <uuid>``).
"""

from __future__ import annotations

import uuid

import pytest
from memory_core.credentials import find_secrets
from memory_core.lint import lint_topic
from memory_core.topics import parse_topic

ID = str(uuid.UUID("3f2a9c1e-8b4d-4e6f-9a2b-1c3d5e7f9a0b"))
AS_AN_ID = [
    "session {}",
    "Session: {}",
    "- [Crash](crash.md) — session {} died at 03:10",
    "resumed with `claude --resume {}`",
    "session_id={}",
    'sessionId: "{}"',
    "X-Session-Id: {}",
    "run id {} (nightly)",
    "request id {}",
    "trace id: {}",
    "tenant {} has the old plan",
    "originSessionId: {}",
    "https://app.example.com/sessions/{}/events",
    "| session | {} |",
    "token id {}",
    "key id: {}",
    "primary key {}",
    "idempotency key {}",
]
LABELLED_SECRET = [
    "session_token: {}",
    "sessionToken={}",
    "HEROKU_API_KEY={}",
    "X-Api-Key: {}",
    "Authorization: Bearer {}",
    "webhook secret: {}",
    "client_secret={}",
    "password: {}",
]


@pytest.mark.parametrize("form", AS_AN_ID)
@pytest.mark.parametrize(
    "written", [ID, ID.upper(), ID.replace("-", "")], ids=["lower", "upper", "hex"]
)
def test_t6_a_uuid_used_as_an_id_is_no_secret(form: str, written: str) -> None:
    line = form.format(written)
    assert find_secrets(line) == []
    topic = parse_topic(
        f"---\nname: crash\ndescription: {line}\n---\n{line}\n".encode(), "crash.md"
    )
    assert [f for f in lint_topic(topic) if f.code == "secret"] == []


@pytest.mark.parametrize("form", LABELLED_SECRET)
def test_t6_a_uuid_a_credential_label_names_is_a_secret(form: str) -> None:
    assert [line for _, line in find_secrets(form.format(ID))] == [1]
