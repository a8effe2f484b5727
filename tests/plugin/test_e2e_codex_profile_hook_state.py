"""H-7 with the real Codex CLI: a profile file's ``[hooks.state]`` counts in Sessions started
with its ``--profile``.

Codex CLI 0.171 reads the trust and switches of hooks from its user layers, a profile file
``$CODEX_HOME/NAME.config.toml`` laid over ``config.toml`` field by field (openai/codex
``codex-rs/hooks/src/config_rules.rs``, ``hook_states_from_stack``). A profile file saying
``enabled = false`` for our SessionStart hook: a ``--profile quiet`` Session gets no memory,
one with another profile gets it once (the profile's second user layer reads ``hooks.json``
no second time), and ``status`` names the switch for ``--profile quiet``
(``test_h3_codex_layers_status_reads.py`` has the in-process cases).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from memory_core.keys import workspace_memory_key

from tests.plugin.harness_run import run_codex, workspace_with_key
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h3_codex_project_hooks import harness_memory
from tests.support.codex_turns import developer_and_user_text

pytestmark = pytest.mark.e2e


def switched_off_in(profile: str, codex_home: Path) -> None:
    """The profile file ``profile`` switching our SessionStart hook off, as ``/hooks`` would
    write it there."""
    key = f"{codex_home.resolve() / 'hooks.json'}:session_start:0:0"
    text = f'[hooks.state."{key}"]\nenabled = false\n' if profile == "quiet" else "\n"
    (codex_home / f"{profile}.config.toml").write_text(text, encoding="utf-8")


async def test_codex_a_profile_files_hook_state_switches_our_session_start_off(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    injections: dict[str, int] = {}
    for profile in ("quiet", "loud"):
        run_dir = tmp_path / profile  # short: the loopback's socket paths
        run_dir.mkdir()
        codex_home = run_dir / "home" / ".codex"
        workspace = workspace_with_key(run_dir)[0]
        fake, status, _, err = await run_codex(
            [],
            shared_service,
            shared_memory_root,
            workspace,
            run_dir,
            agent=new_agent,
            exec_flags=["--profile", profile],
            after_install=partial(switched_off_in, profile, codex_home),
        )
        assert status == 0, err[-3000:]
        first = developer_and_user_text(fake.session_turns()[0])
        injections[profile] = first.count(
            f"- Workspace Memory Key: {workspace_memory_key(workspace)}"
        )
        code, said = harness_memory("status", run_dir / "home", workspace)
        named = [line for line in said.splitlines() if "`--profile quiet`" in line]
        assert bool(named) is (profile == "quiet"), said
        assert not named or named[0].startswith("codex: PROBLEM: switched off"), named
        assert code == 1 or profile != "quiet", said

    assert injections == {"quiet": 0, "loud": 1}
