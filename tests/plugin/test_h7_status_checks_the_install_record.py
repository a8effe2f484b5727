"""H-7: ``status`` checks the install record; install and uninstall say how to get past a bad one.

The install record (``<settings folder>/harness-memory/install.json``) holds what the install
switched and which files it made, for the uninstall to put back. Made unreadable (a torn
write, an editor, a disk), ``install`` and ``uninstall`` both refused with "fix it and run the
command again", which no user can do (nobody knows what it held), while ``status`` said all was
well (exit 0). Now ``status`` says the PROBLEM (exit 1) and every refusal says the way out:
move the record aside, after which the uninstall takes the hooks out and leaves what the earlier
install switched as it is.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness_memory.cli import main

from tests.plugin.helpers import HARNESS_MEMORY

FOLDER = {"claude-code": ".claude", "codex": ".codex", "gemini": ".gemini"}
"""The settings folder each harness's install writes into a new home."""

BROKEN = {"torn": "{garbage", "not-an-object": "[]\n", "a-folder": None}
"""What the record is made: a torn text, JSON that is no object, or a folder."""


def cli(home: Path, *argv: str) -> tuple[int, str]:
    """The exit status and output of ``argv`` with ``home``."""
    out = io.StringIO()
    status = main([*argv, "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    return status, out.getvalue()


def installed(tmp_path: Path, harness: str, broken: str | None) -> tuple[Path, Path]:
    """A home with ``harness``'s hooks whose record is made ``broken``; home and record."""
    home = tmp_path / "home"
    root = tmp_path / "memory"
    root.mkdir()
    flags = ["--memory-root", str(root), "--url", "http://127.0.0.1:9", "--project", "p"]
    flags += [
        "--agent",
        "a",
        "--executable",
        str(HARNESS_MEMORY),
        "--no-check",
        "--token",
        "t0ken-0123456789ab",
    ]
    assert cli(home, "install", harness, *flags)[0] == 0
    record = home / FOLDER[harness] / "harness-memory" / "install.json"
    record.unlink()
    if broken is None:
        record.mkdir()
    else:
        record.write_text(broken, encoding="utf-8")
    return home, record


@pytest.mark.parametrize("harness", sorted(FOLDER))
@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_h7_status_says_a_record_it_cannot_read_is_a_problem(
    tmp_path: Path, harness: str, kind: str
) -> None:
    home, record = installed(tmp_path, harness, BROKEN[kind])
    status, said = cli(home, "status")
    [line] = [line for line in said.splitlines() if str(record) in line]
    assert status == 1
    assert line.startswith(f"{harness}: PROBLEM: ")
    assert "move it aside" in line


@pytest.mark.parametrize("harness", sorted(FOLDER))
def test_h7_uninstall_over_a_torn_record_says_the_way_out_and_it_works(
    tmp_path: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    home, record = installed(tmp_path, harness, BROKEN["torn"])
    assert cli(home, "uninstall", harness)[0] == 1
    assert f"{record} is not valid JSON" in caplog.text and "move it aside" in caplog.text
    record.rename(record.with_name("install.json.broken"))
    status, said = cli(home, "uninstall", harness)
    assert status == 0, said
    hooks = home / FOLDER[harness] / ("hooks.json" if harness == "codex" else "settings.json")
    assert "harness-memory" not in hooks.read_text(encoding="utf-8")
