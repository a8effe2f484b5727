"""H-3: ``harness-memory install`` names the harness version that will run its hooks.

The hooks' settings take the form of the version they are measured on (Codex CLI's
``hooks.json`` and trust entries, Gemini CLI's hook names). A newcomer's install said nothing
of the harness at all: with an older one that reads them otherwise, every Session would start
without memory or guard and nothing would say so. The install runs ``CMD --version`` of the
harness it finds on ``PATH`` and names it beside the measured version: a warning when older,
with the check that tells (start a Session, then ``harness-memory status``).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.hooks.claude_code import CLAUDE_CODE_VERSION
from harness_memory.hooks.codex import CODEX_VERSION
from harness_memory.hooks.gemini import GEMINI_VERSION

from tests.plugin.helpers import HARNESS_MEMORY

HARNESSES = {
    "claude-code": ("claude", "Claude Code", CLAUDE_CODE_VERSION, "{} (Claude Code)"),
    "codex": ("codex", "Codex CLI", CODEX_VERSION, "codex-cli {}"),
    "gemini": ("gemini", "Gemini CLI", GEMINI_VERSION, "{}"),
}
"""Each harness: its command, product name, measured version and how its ``--version`` says it
(as the pinned CLIs print it)."""


def install(tmp_path: Path, harness: str, path: str, *extra: str) -> str:
    home, root = tmp_path / "home", tmp_path / "memory"
    root.mkdir(exist_ok=True)
    flags = ["--home", str(home), "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    out = io.StringIO()
    environ = {"HOME": str(home), "PATH": path}
    assert (
        main(["install", harness, *flags, "--no-check", *extra], environ=environ, stdout=out) == 0
    )
    return out.getvalue()


def harness_on_path(tmp_path: Path, command: str, script: str) -> tuple[str, Path]:
    """A folder holding ``command``, a shell script of ``script``; ``(PATH, the program)``."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    program = folder / command
    program.write_text(f"#!/bin/sh\n{script}\n", encoding="utf-8")
    program.chmod(0o755)
    return f"{folder}:/usr/bin:/bin", program


def older(version: str) -> str:
    major, minor, patch = (int(part) for part in version.split("."))
    return f"{major}.{minor - 1}.{patch}" if minor else f"{major - 1}.99.{patch}"


def newer(version: str) -> str:
    major, minor, _ = (int(part) for part in version.split("."))
    return f"{major}.{minor + 1}.0"


@pytest.mark.parametrize("harness", HARNESSES)
def test_h3_install_names_the_measured_version_found_on_path(tmp_path: Path, harness: str) -> None:
    command, product, measured, said = HARNESSES[harness]
    path, program = harness_on_path(tmp_path, command, f"echo '{said.format(measured)}'")
    out = install(tmp_path, harness, path)
    assert (
        f"{harness}: {product} {measured} ({program}): the version these hooks are measured on\n"
        in out
    )


@pytest.mark.parametrize("harness", HARNESSES)
def test_h3_install_warns_of_an_older_harness_and_says_how_to_check(
    tmp_path: Path, harness: str
) -> None:
    command, product, measured, said = HARNESSES[harness]
    old = older(measured)
    path, program = harness_on_path(tmp_path, command, f"echo '{said.format(old)}'")
    for dry_run in ([], ["--dry-run"]):
        out = install(tmp_path, harness, path, *dry_run)
        assert (
            f"{harness}: WARNING: {product} {old} ({program}) is older than {measured}, the "
            "version these hooks are measured on: it may not run them (no memory, no write "
            "guard, and nothing says so); update it, then start a Session and check that "
            "`harness-memory status` names it\n"
        ) in out


def test_h3_install_names_a_newer_harness_and_the_check(tmp_path: Path) -> None:
    path, program = harness_on_path(tmp_path, "codex", f"echo 'codex-cli {newer(CODEX_VERSION)}'")
    out = install(tmp_path, "codex", path)
    assert (
        f"codex: Codex CLI {newer(CODEX_VERSION)} ({program}) is newer than {CODEX_VERSION}, the "
        "version these hooks are measured on: start a Session and check that `harness-memory "
        "status` names it\n"
    ) in out


@pytest.mark.parametrize("script", ["echo 'no version here'", "echo 9.9.9; exit 3"])
def test_h3_install_says_when_the_harness_tells_no_version(tmp_path: Path, script: str) -> None:
    path, program = harness_on_path(tmp_path, "gemini", script)
    out = install(tmp_path, "gemini", path)
    assert (
        f"gemini: {program} did not say its version (`gemini --version`): the hooks are "
        f"measured on Gemini CLI {GEMINI_VERSION}; start a Session and check that "
        "`harness-memory status` names it\n"
    ) in out


def test_h3_install_without_the_harness_on_path_says_when_its_hooks_run(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    out = install(tmp_path, "claude-code", str(empty))
    assert (
        "claude-code: no `claude` on PATH here: the hooks run once Claude Code is installed "
        f"(they are measured on Claude Code {CLAUDE_CODE_VERSION})\n"
    ) in out
