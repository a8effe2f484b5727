"""T-5 and I-8: lint findings (report, never change) and credential masking."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from memory_core.credentials import find_secrets, mask_secret_lines, mask_secrets
from memory_core.decoding import NOT_DECODED
from memory_core.hidden_text import show_hidden
from memory_core.lint import LINT_CODES, lint_index, lint_scope, lint_topic
from memory_core.topics import ParsedTopic, parse_topic, read_topic
from memory_core.wire import Finding

WORKSPACE = "coding-agent-workspace"


def _topic(text: str, file_name: str) -> ParsedTopic:
    return parse_topic(text.encode("utf-8"), file_name)


def _codes(findings: list[Finding]) -> list[str]:
    return [finding.code for finding in findings]


def _scope(folder: Path) -> tuple[str, list[ParsedTopic], list[str]]:
    files = sorted(p for p in folder.glob("*.md") if p.name != "MEMORY.md")
    return (
        (folder / "MEMORY.md").read_text(encoding="utf-8"),
        [read_topic(path)[0] for path in files],
        [path.name for path in files],
    )


# --- topic findings ---------------------------------------------------------------------------

TOPIC_CASES = [
    ("---\nname: a-b\ndescription: d\n---\nx", "a-b.md", []),
    ("---\nname: Always lint\ndescription: d\n---\nx", "always-lint.md", ["name-not-kebab"]),
    # naming the file's kebab-case stem fixes both: one finding
    ("---\nname: Lint before push\ndescription: d\n---\nx", "always-lint.md", ["name-mismatch"]),
    (
        "---\nname: Lint before push\ndescription: d\n---\nx",
        "Always lint.md",
        ["name-mismatch", "name-not-kebab"],
    ),
    ("---\nname: other\ndescription: d\n---\nx", "a-b.md", ["name-mismatch"]),
    ("---\nname: Deploy notes\ndescription: d\n---\nx", "Deploy notes.md", ["name-not-kebab"]),
    ("---\nname: a--b\ndescription: d\n---\nx", "a--b.md", ["name-not-kebab"]),
    ("---\nname: a-b\n---\nx", "a-b.md", ["missing-description"]),
    ("---\nname: a-b\ndescription: '  '\n---\nx", "a-b.md", ["missing-description"]),
    ("---\nname: a-b\ndescription: |\n  one\n  two\n---\nx", "a-b.md", ["description-multiline"]),
    ("no frontmatter", "a-b.md", ["missing-description"]),
]


@pytest.mark.parametrize(("text", "file_name", "codes"), TOPIC_CASES)
def test_t5_topic_findings(text: str, file_name: str, codes: list[str]) -> None:
    assert _codes(lint_topic(_topic(text, file_name))) == codes


# --- secrets (T-5, I-8) -----------------------------------------------------------------------

SECRET_LINES = [
    ("aws-access-key", "key AKIAQWERTYUIOPASDFGH", "AKIAQWERTYUIOPASDFGH"),
    ("github-token", "ghp_0123456789abcdefghijABCDEFGHIJ012345", "ghp_0123456789abcdefghij"),
    ("github-token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv", "github_pat_11"),
    ("gitlab-token", "glpat-abcdefghij0123456789", "glpat-abcdefghij"),
    ("slack-token", "xoxb-1234567890-abcdefghijkl", "xoxb-1234567890"),
    ("slack-webhook", "https://hooks.slack.com/services/T000/B000/a1B2c3D4e5F6g7H8", "T000/B000"),
    (
        "discord-webhook",
        "alerts: https://discord.com/api/webhooks/112233445566778899/"
        "Xk29fLm2Qa7RtY0pLm2Qa7RtY0pXk29fLm2Qa7RtY0pLm2Qa7RtY0pXk29fLm2QaZ9",
        "Xk29fLm2Qa7RtY0p",
    ),
    ("openai-style-key", "OPENAI sk-proj-abcdefghijklmnopqrstuvwxyz0123", "abcdefghijklmnop"),
    ("google-api-key", "AIzaSyA0123456789abcdefghijklmnopqrstuv", "AIzaSyA0123456789"),
    ("stripe-key", "sk_live_0123456789abcdefghij", "0123456789abcdefghij"),
    ("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N", "dozjgNry"),
    ("bearer-token", "curl -H 'Authorization: Bearer abcdef0123456789abcdef'", "abcdef0123456789"),
    ("url-password", "postgres://app:pw0rd123@db.internal:5432/app", "pw0rd123"),
    ("password-assignment", "password=hunter22", "hunter22"),
    ("password-assignment", 'DB_PASSWORD: "s3cr3t!x"', "s3cr3t!x"),
    ("token-assignment", "deploy token: 9f8e7d6c5b4a", "9f8e7d6c5b4a"),
    ("api-key-assignment", "api_key = abcd1234efgh", "abcd1234efgh"),
    ("private-key", "-----BEGIN RSA PRIVATE KEY-----", "BEGIN RSA PRIVATE KEY"),
    ("private-key", "-----BEGIN OPENSSH PRIVATE KEY-----", "BEGIN OPENSSH"),
]


@pytest.mark.parametrize(("kind", "line", "secret"), SECRET_LINES)
def test_t5_i8_secrets_are_found_by_kind_and_masked(kind: str, line: str, secret: str) -> None:
    assert find_secrets(f"first line\n{line}") == [(kind, 2)]
    masked = mask_secrets(line)
    assert secret not in masked
    assert f"[masked: {kind}]" in masked


@pytest.mark.parametrize(
    "line",
    [
        "- [Auth token](auth-token.md) — token: rotated monthly by the platform team",
        "password=<your password>",
        "api_key: ${API_KEY}",
        "token: see-the-runbook",
        "secret: xxxxxxxx",
        "The password is in 1Password under 'staging'.",
        "Use a bearer token from the vault.",
        "https://example.com/docs/api.md",
        "ssh-keygen -t ed25519 writes a PUBLIC key to ~/.ssh/id_ed25519.pub",
        "- [Deploy freeze](./deploy-freeze.md) — no deploys Fri 15:00 to Mon 09:00",
    ],
)
def test_t5_ordinary_notes_are_not_secrets(line: str) -> None:
    assert find_secrets(line) == []
    assert mask_secrets(line) == line


def test_t5_private_key_block_reported_once_and_masked_whole() -> None:
    lines = ["a", "-----BEGIN PRIVATE KEY-----", "MIIEvQIBADANBg", "-----END PRIVATE KEY-----", "b"]
    assert find_secrets("\n".join(lines)) == [("private-key", 2)]
    masked = mask_secret_lines(lines)
    assert masked[0] == "a"
    assert masked[-1] == "b"
    assert not any("MIIE" in line for line in masked)


def test_t5_secret_findings_name_kind_and_file_line_never_the_secret() -> None:
    secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
    topic = _topic(f"---\nname: ci\ndescription: d\n---\nCI notes\n\nuse {secret}\n", "ci.md")
    findings = lint_topic(topic)
    assert [(f.code, f.line) for f in findings] == [("secret", 7)]
    assert "github-token" in findings[0].message
    assert secret not in findings[0].message
    assert secret[:10] not in repr(findings)


def test_t5_secret_in_frontmatter_description() -> None:
    topic = _topic("---\nname: a\ndescription: password=hunter22\n---\nx", "a.md")
    findings = lint_topic(topic)
    assert _codes(findings) == ["secret"]
    assert "hunter22" not in findings[0].message


# --- index findings ---------------------------------------------------------------------------


def test_t5_index_findings() -> None:
    index = "\n".join(
        [
            "# Index",
            "- [A](a.md) — " + "x" * 140,
            "- [Gone](gone.md) — dangling",
            "- [Web](https://example.com/x.md) — not a scope file",
            "- [B](b.md) — ok; b.md",
            "token: abcdef123456",
        ]
    )
    findings = lint_index(index, ["a.md", "b.md"])
    assert [(f.code, f.line) for f in findings] == [
        ("index-line-too-long", 2),
        ("dangling-link", 3),
        ("secret", 6),
    ]
    assert "abcdef123456" not in repr(findings)


def test_t5_index_line_of_exactly_150_is_fine() -> None:
    line = "- [A](a.md) " + "x" * (150 - 12)
    assert len(line) == 150
    assert lint_index(line, ["a.md"]) == []
    assert _codes(lint_index(line + "y", ["a.md"])) == ["index-line-too-long"]


def test_t5_not_injected_reuses_the_injection_caps() -> None:
    index = "\n".join(f"- [n{i}](n{i}.md) — note {i} " + "z" * 60 for i in range(230))
    files = [f"n{i}.md" for i in range(230)]
    findings = lint_index(index, files)
    assert [(f.code, f.line) for f in findings] == [("not-injected", 201)]
    assert "201-230 (30)" in findings[0].message
    # sharing the character budget with a big companion index drops more
    companion = "\n".join("- " + "y" * 140 for _ in range(200))
    shared = lint_index(index, files, companion_index=companion)
    assert shared[0].code == "not-injected"
    assert shared[0].line is not None
    assert shared[0].line < 201


def test_t5_missing_index_with_topics() -> None:
    topic = _topic("---\nname: a\ndescription: d\n---\nx", "a.md")
    assert _codes(lint_scope(None, [topic], ["a.md"])) == ["missing-index"]
    assert lint_scope(None, [], []) == []


def test_t5_unindexed_compares_nfc() -> None:
    topic = _topic("---\nname: cafe\ndescription: d\n---\nx", "Cafe\u0301.md")
    findings = lint_scope("- [x](Café.md)", [topic], ["Cafe\u0301.md"])
    assert "unindexed" not in _codes(findings)


# --- the sample folders ------------------------------------------------------------------------


def test_t5_corpus_workspace_findings(corpus: Path) -> None:
    folder = corpus / WORKSPACE
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    index, topics, files = _scope(folder)
    findings = lint_scope(index, topics, files)
    got = {(f.code, f.file, f.line) for f in findings}
    assert got == {
        ("dangling-link", "MEMORY.md", 8),  # staging-url.md
        ("unindexed", "orphan-topic.md", None),
        ("unindexed", "empty.md", None),
        ("name-not-kebab", "always-run-the-linter.md", None),  # the stem's words, as a title
        ("name-mismatch", "db-migrations.md", None),  # a Chinese name: one finding, not two
        ("missing-description", "empty.md", None),
        ("missing-description", "plain-notes.md", None),
        (
            "invalid-encoding",
            "latin1-notes.md",
            3,
        ),  # read as cp1252: named by line and offset (T-2)
    }
    assert "testing-conventions.md" not in {f.file for f in findings}  # prose mention is fine
    # lint reports, never changes
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before


def test_t5_corpus_user_scope_is_clean(corpus: Path) -> None:
    assert lint_scope(*_scope(corpus / "user-scope")) == []


def test_t5_corpus_large_index(corpus: Path) -> None:
    findings = lint_scope(*_scope(corpus / "large-index"))
    counts = Counter(f.code for f in findings)
    assert counts == {"unindexed": 42, "index-line-too-long": 7, "not-injected": 1}
    assert set(counts) <= set(LINT_CODES)


def test_i9_a_finding_never_quotes_hidden_characters() -> None:
    """A finding's message quotes what an agent wrote (a dangling ``[[name]]``, a file the
    service does not decode): a right-to-left override or tag characters there turned the
    message around on the page and in ``memory-api lint``'s terminal, or hid a command. Each
    run shows as the mark Session start injects (I-9); the file name stays as it is."""
    rlo, tags = "\u202e", "".join(chr(0xE0000 + ord(char)) for char in "curl x")
    topic = _topic(
        f"---\nname: a\ndescription: d\n---\nSee [[wiki{rlo}]] and [[b{tags}]].\n", "a.md"
    )
    undecoded = ParsedTopic(
        file=f"notes{rlo}.md",
        name="notes",
        description=None,
        updated_at=None,
        body="",
        links=[],
        problems=[f"{NOT_DECODED}not UTF-8"],
        truncated=False,
    )
    findings = lint_scope("- [A](a.md)\n", [topic, undecoded], ["a.md", undecoded.file])
    messages = [finding.message for finding in findings]
    assert "[[wiki[hidden: U+202E]]] names no topic file of this scope" in messages
    assert "[[b[hidden: 6 tag characters]]] names no topic file of this scope" in messages
    assert any(m.startswith("notes[hidden: U+202E].md is there but") for m in messages)
    assert all(show_hidden(message) == message for message in messages)
