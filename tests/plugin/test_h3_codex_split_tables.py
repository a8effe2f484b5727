"""H-3: a ``config.toml`` whose tables a user split by hand (``[hooks.state."…"]`` entries with
another table between them, which TOML allows) is installed into and uninstalled from like any
other: our trust entries go, the user's table between them stays, and no traceback."""

from __future__ import annotations

import io
import tomllib
from pathlib import Path

from harness_memory.cli import main

from tests.plugin.helpers import HARNESS_MEMORY


def run(home: Path, verb: str) -> tuple[int, str]:
    root = home.parent / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    flags = ["codex", "--home", str(home), "--memory-root", str(root)]
    if verb == "install":
        flags += ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
        flags += ["--executable", str(HARNESS_MEMORY)]
    out = io.StringIO()
    status = main([verb, *flags], environ={"HOME": str(home)}, stdout=out)
    return status, out.getvalue()


def split_by_hand(config: Path, profile: str) -> None:
    """A table of the user's (``profile``) written between two of the install's trust entries."""
    text = config.read_text(encoding="utf-8")
    second = text.index('[hooks.state."', text.index('[hooks.state."') + 1)
    config.write_text(
        text[:second] + f'[profiles.{profile}]\nmodel = "o3"\n\n' + text[second:], encoding="utf-8"
    )


def test_h3_reinstall_and_uninstall_with_trust_entries_split_by_another_table(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    config = home / ".codex" / "config.toml"
    run(home, "install")
    split_by_hand(config, "fast")

    installed, said = run(home, "install")

    assert installed == 0, said
    again = tomllib.loads(config.read_text(encoding="utf-8"))
    assert again["profiles"] == {"fast": {"model": "o3"}}
    assert len(again["hooks"]["state"]) == 3

    split_by_hand(config, "slow")
    uninstalled, said = run(home, "uninstall")

    assert uninstalled == 0, said
    assert tomllib.loads(config.read_text(encoding="utf-8")) == {
        "profiles": {"fast": {"model": "o3"}, "slow": {"model": "o3"}}
    }
