"""H-7: an install keeps the trust of our hooks current in the profile files that hold it.

Codex CLI 0.171 lays a profile file's ``[hooks.state]`` over ``config.toml``'s field by field
in Sessions started with ``--profile NAME`` (openai/codex ``hooks/src/config_rules.rs``,
``hook_states_from_stack``): a ``trusted_hash`` of ours copied there goes stale when an
install changes our hooks (``--timeout 7``), and holds over the fresh one in
``config.toml``. ``status`` says to install again; so the install brings (only) those entries
of ours there up to date, the user's layout and comments kept, and an uninstall takes them out.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.plugin.test_h7_status_names_codex_hooks_it_skips import FLAGS, cli, install

MINE = '# my work profile\nmodel = "o3"  # pinned\n\n'


def test_installing_again_brings_a_profile_files_trust_of_ours_up_to_date(
    tmp_path: Path,
) -> None:
    home, _ = install(tmp_path, "codex")
    config = (home / ".codex" / "config.toml").read_text(encoding="utf-8")
    tables = "".join(re.findall(r'\[hooks\.state\."[^"]+"\]\ntrusted_hash = "[^"]+"\n', config))
    assert tables.count("trusted_hash") >= 3, config
    profile = home / ".codex" / "work.config.toml"
    profile.write_text(MINE + tables, encoding="utf-8")
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    again = ["install", "codex", *FLAGS, "--memory-root", str(root), "--timeout", "7"]
    assert cli(home, *again)[0] == 0

    said = cli(home, "status")[1]

    assert "--profile work" not in said, said
    text = profile.read_text(encoding="utf-8")
    assert text.startswith(MINE), text
    assert re.findall(r"\[hooks\.state\.[^\]]+\]", text) == re.findall(
        r"\[hooks\.state\.[^\]]+\]", tables
    ), text

    assert cli(home, "uninstall", "codex")[0] == 0

    assert profile.read_text(encoding="utf-8").rstrip("\n") == MINE.rstrip("\n")
