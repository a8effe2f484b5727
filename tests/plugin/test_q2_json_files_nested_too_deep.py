"""Q-2: a JSON file the plugin reads that nests deeper than Python's parser goes is a damaged
file, named with what to do, never a ``RecursionError`` traceback.

``agent.json`` (read by the hooks when the service is down), a sync copy's state file (read by
``harness-memory sync --status``) and a harness's settings (read by ``install`` to keep the
user's layout) were read with ``json.loads``, whose ``RecursionError`` no ``except ValueError``
took: a file of 200 000 ``[`` crashed the Session start hook and the CLI with a traceback.
Every such reader goes through :func:`memory_core.json_text.loads`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_memory.installers.json_layout import DEFAULT, layout_of
from harness_memory.offline import OfflineUnavailableError, session_start_from_files
from harness_memory.remote import CopyUnreadable

from tests.plugin.test_r1_hostile_service import stand_in
from tests.plugin.test_r1_status_of_unreadable_copy import _synced

__all__ = ["stand_in"]  # the fixture, used by name

DEEP = "[" * 200_000
"""A JSON text nested far past Python's recursion limit (200 KB)."""


def test_q2_offline_agent_settings_nested_too_deep_are_named_as_unreadable(
    tmp_path: Path,
) -> None:
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    (memory_root / "user").mkdir(parents=True)
    (tmp_path / "app" / "agents" / "coder" / "agent.json").write_text(DEEP, encoding="utf-8")
    workspace = tmp_path / "shop-api"
    workspace.mkdir()

    with pytest.raises(OfflineUnavailableError) as raised:
        session_start_from_files(
            memory_root, project="acme", agent="coder", workspace=str(workspace)
        )
    assert str(raised.value) == (
        f"{tmp_path / 'app' / 'agents' / 'coder' / 'agent.json'} is not valid JSON (arrays or "
        "objects nested too deep to be read (keep them under some 900 levels)): correct it by "
        "hand or restore it"
    )


def test_q2_a_sync_state_nested_too_deep_is_named_as_unreadable(
    stand_in: tuple[str, Path], tmp_path: Path
) -> None:
    url, work = stand_in
    copy = _synced(url, work, tmp_path, written=False)
    (copy.sync_dir / "sync-state.json").write_text(DEEP, encoding="utf-8")

    with pytest.raises(CopyUnreadable) as raised:
        copy.status()
    assert str(raised.value) == (
        f"the sync state {copy.sync_dir / 'sync-state.json'} cannot be read (not JSON: arrays "
        "or objects nested too deep to be read (keep them under some 900 levels)): when each "
        "scope last synced is not known; `harness-memory sync` writes it anew"
    )
    assert copy.sync_scope("user").ok  # as it says
    [scope] = copy.status()
    assert scope.last_sync is not None


def test_q2_settings_nested_too_deep_are_laid_out_as_the_default() -> None:
    assert layout_of('{"a": ' + DEEP) is DEFAULT
