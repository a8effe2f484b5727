"""The real Codex CLI with ``CODEX_HOME`` naming a link (a dotfiles folder): it canonicalises
``CODEX_HOME`` and keys ``[hooks.state]`` by the folder the link leads to, so trust keyed by the
link's own path never matches and the hooks never run (no memory, and a write into another
Workspace's scope lands). The install keys them as Codex does; Codex's own ``enabled = false``
on the SessionStart hook keeps it off (``status`` names it:
``test_h7_status_names_codex_hooks_it_skips.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.fake_model_apis import FakeResponses
from tests.plugin.harness_run import (
    CODEX_CONFIG,
    CODEX_SANDBOX,
    PROMPT,
    TOPIC,
    install,
    other_scope,
    run_in_loopback,
    workspace_with_key,
)
from tests.plugin.npm_cli import CODEX, npm_cli
from tests.plugin.real_service import RealService
from tests.support.codex_turns import add_file, developer_and_user_text
from tests.support.serve import code_under_test

pytestmark = pytest.mark.e2e


CHANGES = {
    "install": (True, False),
    "keyed-by-the-link": (False, True),
    "session-start-switched-off": (False, False),
}
"""What is done after the install → (memory injected, the write into another scope lands):
nothing; the trust keyed by the link's path (as the install keyed it before); Codex's own
``enabled = false`` on the SessionStart hook alone (the guard still runs)."""


@pytest.mark.parametrize("change", list(CHANGES))
async def test_codex_runs_the_hooks_installed_through_a_linked_codex_home(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    change: str,
) -> None:
    home = tmp_path / "home"
    real = home / "dotfiles" / "codex"
    real.mkdir(parents=True)
    link = home / "codexhome"
    link.symlink_to(real)
    config = real / "config.toml"
    config.write_text(CODEX_CONFIG, encoding="utf-8")
    env = {"CODEX_HOME": str(link)}
    install("codex", home, shared_service, shared_memory_root, agent=new_agent, env=env)
    text = config.read_text(encoding="utf-8")
    source = f"{real.resolve()}/hooks.json"
    if change == "keyed-by-the-link":
        config.write_text(text.replace(source, f"{link}/hooks.json"), encoding="utf-8")
    elif change == "session-start-switched-off":
        header = f'[hooks.state."{source}:session_start:0:0"]\n'
        config.write_text(text.replace(header, f"{header}enabled = false\n"), encoding="utf-8")
    workspace, key = workspace_with_key(tmp_path)
    planted = other_scope(shared_memory_root, tmp_path) / "planted.md"
    fake = FakeResponses(turns=[[add_file("call_other", planted, TOPIC)]])

    status, _out, err, _ = await run_in_loopback(
        [str(npm_cli(CODEX)), "exec", *CODEX_SANDBOX, PROMPT],
        app_factory=fake.app,
        service=shared_service,
        cwd=workspace,
        env={
            "HOME": str(home),
            "CODEX_HOME": str(link),
            "STAND_IN_API_KEY": "sk-test-dummy",
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "NO_COLOR": "1",
            **code_under_test(),
        },
        files=[config],
    )

    assert status == 0, err[-3000:]
    injected = f"- Workspace Memory Key: {key}" in developer_and_user_text(fake.session_turns()[0])
    assert (injected, planted.exists()) == CHANGES[change]
