"""The plugin's public surface, its settings (P-2a) and its Session records."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import harness_memory
import msgspec
import pytest
from harness_memory.records import (
    RECORD_MAX_AGE_S,
    SessionMeta,
    read_record,
    record_path,
    write_record,
)
from harness_memory.settings import SettingsError, default_state_dir, load_settings


def test_public_names_are_exported_and_documented() -> None:
    assert sorted(harness_memory.__all__) == [
        "BadServiceAnswerError",
        "GuardDecision",
        "MemoryClient",
        "MemoryClientError",
        "ServiceRejectedError",
        "ServiceTimeoutError",
        "ServiceUnreachableError",
        "SessionMeta",
        "SessionStart",
        "check_write",
        "start_session",
        "start_session_sync",
    ]
    for name in harness_memory.__all__:
        assert getattr(harness_memory, name).__doc__, name


def test_p2a_flags_win_over_the_environment() -> None:
    environ = {
        "HARNESS_MEMORY_URL": "http://env:1",
        "HARNESS_MEMORY_PROJECT": "env-project",
        "HARNESS_MEMORY_AGENT": "env-agent",
        "HARNESS_MEMORY_TIMEOUT": "0.5",
        "HOME": "/home/ada",
    }
    settings = load_settings({"url": "http://flag:2", "project": None}, environ)
    assert settings.url == "http://flag:2"
    assert settings.project == "env-project"
    assert settings.agent == "env-agent"
    assert settings.timeout == 0.5
    assert settings.state_dir == Path("/home/ada/.claude/harness-memory")
    assert settings.memory_root is None
    assert settings.missing() == []


def test_settings_name_what_is_missing_and_default_the_timeout() -> None:
    settings = load_settings({}, {})
    assert settings.missing() == [
        "HARNESS_MEMORY_URL",
        "HARNESS_MEMORY_PROJECT",
        "HARNESS_MEMORY_AGENT",
    ]
    assert settings.timeout == 2.0


@pytest.mark.parametrize("value", ["soon", "0", "-1", "nan"])
def test_settings_refuse_a_timeout_that_is_not_a_positive_number(value: str) -> None:
    with pytest.raises(SettingsError, match="timeout"):
        load_settings({"timeout": value}, {})


def test_state_dir_follows_claude_config_dir() -> None:
    assert default_state_dir({"CLAUDE_CONFIG_DIR": "/cfg"}) == Path("/cfg/harness-memory")


def meta(session_id: str) -> SessionMeta:
    return SessionMeta(
        project="acme",
        agent="coder",
        workspace="/w",
        session_id=session_id,
        service_url="http://127.0.0.1:1",
        started_at="2026-11-29T22:00:00Z",
        duration_ms=1.0,
        status="failed-open",
        error="memory service unreachable",
        error_kind="unreachable",
        enabled=None,
        injected=False,
        template_has_memory=True,
        workspace_kind=None,
        key=None,
        workspace_memory_key="(none — memory is off)",
        directories=None,
        manifests=[],
        truncated=[],
        system_prompt="prompt",
    )


def test_records_round_trip_and_leave_no_temp_files(tmp_path: Path) -> None:
    path = write_record(tmp_path, "abc-123", meta("abc-123"))
    assert path == tmp_path / "sessions" / "abc-123.json"
    assert read_record(tmp_path, "abc-123") == meta("abc-123")
    assert [p.name for p in path.parent.iterdir()] == ["abc-123.json"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert msgspec.json.decode(path.read_bytes())["errorKind"] == "unreachable"


@pytest.mark.parametrize("session_id", ["../../etc/passwd", "a/b", ".hidden", "x" * 300, ""])
def test_records_of_odd_session_ids_stay_inside_the_state_dir(
    tmp_path: Path, session_id: str
) -> None:
    path = record_path(tmp_path, session_id)
    assert path.parent == tmp_path / "sessions"
    assert len(path.name) <= 133


def test_an_unreadable_record_reads_as_none(tmp_path: Path) -> None:
    assert read_record(tmp_path, "missing") is None
    path = record_path(tmp_path, "torn")
    path.parent.mkdir(parents=True)
    path.write_text("{half", encoding="utf-8")
    assert read_record(tmp_path, "torn") is None


def test_stale_records_are_pruned_when_a_new_one_is_written(tmp_path: Path) -> None:
    write_record(tmp_path, "old", meta("old"))
    write_record(tmp_path, "recent", meta("recent"))
    old = record_path(tmp_path, "old")
    long_ago = time.time() - RECORD_MAX_AGE_S - 60
    os.utime(old, (long_ago, long_ago))
    write_record(tmp_path, "new", meta("new"))
    assert not old.exists()
    assert read_record(tmp_path, "recent") is not None
