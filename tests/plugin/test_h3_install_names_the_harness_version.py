"""H-3: ``harness-memory install`` names the harness version that will run its hooks.

The hooks' settings take the form of the version they are measured on (Codex CLI's
``hooks.json`` and trust entries, Gemini CLI's hook names). A newcomer's install said nothing
of the harness at all: with an older one that reads them otherwise, every Session would start
without memory or guard and nothing would say so. The install names the version of the harness
it finds on ``PATH`` beside the measured one: a warning when older, with the check that tells
(start a Session, then ``harness-memory status``).

It reads that version from the harness's npm package (the ``package.json`` above the file the
command links to) and runs nothing: a harness's ``--version`` may call home (Gemini CLI's took
6.6 s in a loopback-only namespace) and an install makes no network call. Every program these
tests put on ``PATH`` writes a marker file if it is ever run, and none is.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest
from harness_memory.cli import main
from harness_memory.hooks.claude_code import CLAUDE_CODE_VERSION
from harness_memory.hooks.codex import CODEX_VERSION
from harness_memory.hooks.gemini import GEMINI_VERSION
from harness_memory.installers.harness_version import PACKAGE_JSON_MAX_BYTES

from tests.plugin.claude_code_cli import claude_code_binary
from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.npm_cli import CODEX, GEMINI, npm_cli
from tests.support.npm_cache import CACHE


@dataclass(frozen=True, slots=True)
class Layout:
    """How npm lays a harness out, as the pinned CLIs in ``.cache/<folder>`` are on disk:
    ``node_modules/.bin/<command>`` is a symlink to ``../<package>/<program>``, the file named
    by the ``bin`` of ``<package>/package.json``."""

    harness: str
    product: str
    measured: str
    command: str
    package: str
    program: str
    folder: str


LAYOUTS = {
    "claude-code": Layout(
        "claude-code",
        "Claude Code",
        CLAUDE_CODE_VERSION,
        "claude",
        "@anthropic-ai/claude-code",
        "bin/claude.exe",  # the native binary itself, inside the npm package
        "claude-code",
    ),
    "codex": Layout(
        "codex", "Codex CLI", CODEX_VERSION, "codex", "@openai/codex", "bin/codex.js", "codex"
    ),
    "gemini": Layout(
        "gemini",
        "Gemini CLI",
        GEMINI_VERSION,
        "gemini",
        "@google/gemini-cli",
        "bundle/gemini.js",
        "gemini-cli",
    ),
}

ENSURE_CACHED: dict[str, Callable[[], Path]] = {
    "claude-code": claude_code_binary,
    "codex": lambda: npm_cli(CODEX),
    "gemini": lambda: npm_cli(GEMINI),
}
"""How each pinned CLI gets into ``.cache/``: npm, once, under a lock (tests.support.npm_cache)."""

CHECK = "start a Session and check that `harness-memory status` names it"


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


def never_run(program: Path, marker: Path) -> None:
    """Make ``program`` an executable that writes ``marker`` if it is ever started."""
    program.parent.mkdir(parents=True, exist_ok=True)
    program.write_text(f"#!/bin/sh\necho ran > '{marker}'\necho 9.9.9\n", encoding="utf-8")
    program.chmod(0o755)


def write_package(folder: Path, manifest: dict[str, object]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "package.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def npm_install(
    tmp_path: Path, layout: Layout, version: object, *, scope: str = "local"
) -> tuple[str, Path]:
    """``layout`` installed by npm into ``tmp_path`` with ``"version": version``: into a
    project's ``node_modules`` (``scope="local"``, as the cached CLIs) or globally
    (``scope="global"``: ``PREFIX/bin/<command>`` linking into ``PREFIX/lib/node_modules``).
    ``(PATH, the command on it)``; the program writes ``tmp_path/ran`` if started."""
    if scope == "local":
        modules = tmp_path / "prefix" / "node_modules"
        bin_folder, link_up = modules / ".bin", Path("..")
    else:
        modules = tmp_path / "prefix" / "lib" / "node_modules"
        bin_folder, link_up = tmp_path / "prefix" / "bin", Path("..", "lib", "node_modules")
    package = modules / layout.package
    never_run(package / layout.program, tmp_path / "ran")
    manifest: dict[str, object] = {
        "name": layout.package,
        "version": version,
        "bin": {layout.command: layout.program},
        "engines": {"node": ">=18"},
    }
    write_package(package, manifest)
    bin_folder.mkdir(parents=True, exist_ok=True)
    command = bin_folder / layout.command
    command.symlink_to(link_up / layout.package / layout.program)
    return f"{bin_folder}:/usr/bin:/bin", command


def older(version: str) -> str:
    major, minor, patch = (int(part) for part in version.split("."))
    return f"{major}.{minor - 1}.{patch}" if minor else f"{major - 1}.99.{patch}"


def newer(version: str) -> str:
    major, minor, _ = (int(part) for part in version.split("."))
    return f"{major}.{minor + 1}.0"


def unknown(layout: Layout, command: Path) -> str:
    return (
        f"{layout.harness}: {command}: version unknown (no {layout.package} package.json with "
        f"a version above the file it runs): the hooks are measured on {layout.product} "
        f"{layout.measured}; {CHECK}\n"
    )


def refuse(*args: object, **kwargs: object) -> NoReturn:
    raise AssertionError(f"the install started a program: {args[:1]}")


@pytest.mark.parametrize("scope", ["local", "global"])
@pytest.mark.parametrize("harness", LAYOUTS)
def test_h3_install_names_the_measured_version_read_from_the_npm_package(
    tmp_path: Path, harness: str, scope: str
) -> None:
    layout = LAYOUTS[harness]
    path, command = npm_install(tmp_path, layout, layout.measured, scope=scope)
    out = install(tmp_path, harness, path)
    assert (
        f"{harness}: {layout.product} {layout.measured} ({command}): the version these hooks "
        "are measured on\n"
    ) in out
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize("harness", LAYOUTS)
def test_h3_install_warns_of_an_older_harness_and_says_how_to_check(
    tmp_path: Path, harness: str
) -> None:
    layout = LAYOUTS[harness]
    old = older(layout.measured)
    path, command = npm_install(tmp_path, layout, old)
    for dry_run in ([], ["--dry-run"]):
        out = install(tmp_path, harness, path, *dry_run)
        assert (
            f"{harness}: WARNING: {layout.product} {old} ({command}) is older than "
            f"{layout.measured}, the version these hooks are measured on: it may not run them "
            "(no memory, no write guard, and nothing says so); update it, then "
            f"{CHECK}\n"
        ) in out
    assert not (tmp_path / "ran").exists()


def test_h3_install_names_a_newer_harness_and_the_check(tmp_path: Path) -> None:
    path, command = npm_install(tmp_path, LAYOUTS["codex"], newer(CODEX_VERSION), scope="global")
    out = install(tmp_path, "codex", path)
    assert (
        f"codex: Codex CLI {newer(CODEX_VERSION)} ({command}) is newer than {CODEX_VERSION}, the "
        f"version these hooks are measured on: {CHECK}\n"
    ) in out
    assert not (tmp_path / "ran").exists()


def test_h3_a_prerelease_comes_before_its_release(tmp_path: Path) -> None:
    """``0.61.0-nightly.1`` is older than ``0.61.0`` (semver); ``0.62.0-preview.0`` newer."""
    layout = LAYOUTS["gemini"]
    before = f"{GEMINI_VERSION}-nightly.20260101"
    path, command = npm_install(tmp_path / "before", layout, before)
    assert f"gemini: WARNING: Gemini CLI {before} ({command}) is older than" in install(
        tmp_path, "gemini", path, "--dry-run"
    )
    after = f"{newer(GEMINI_VERSION)}-preview.0"
    path, command = npm_install(tmp_path / "after", layout, after)
    assert f"gemini: Gemini CLI {after} ({command}) is newer than {GEMINI_VERSION}" in install(
        tmp_path, "gemini", path, "--dry-run"
    )


def test_h3_a_nameless_package_json_on_the_way_is_passed_over(tmp_path: Path) -> None:
    """A bundle's own ``{"type": "module"}`` between the program and its package is no package:
    the walk goes on up to the one named ``@google/gemini-cli``."""
    layout = LAYOUTS["gemini"]
    path, command = npm_install(tmp_path, layout, GEMINI_VERSION)
    bundle = tmp_path / "prefix" / "node_modules" / layout.package / "bundle"
    (bundle / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    out = install(tmp_path, "gemini", path, "--dry-run")
    assert f"gemini: Gemini CLI {GEMINI_VERSION} ({command}): the version these hooks" in out


@pytest.mark.parametrize(
    "version",
    [None, 2.1, "latest", "v0.171.0", f"{CODEX_VERSION}\n\x1b[2J", {"major": 0}],
    ids=["null", "a-number", "a-tag", "v-prefixed", "control-characters", "an-object"],
)
def test_h3_a_version_npm_never_writes_is_said_unknown(tmp_path: Path, version: object) -> None:
    layout = LAYOUTS["codex"]
    path, command = npm_install(tmp_path, layout, version)
    assert unknown(layout, command) in install(tmp_path, "codex", path, "--dry-run")
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize(
    "text",
    ["not json {", f'["{CODEX_VERSION}"]', " " * PACKAGE_JSON_MAX_BYTES + '{"version": "0.1.0"}'],
    ids=["not-json", "a-json-list", "too-big"],
)
def test_h3_a_package_json_of_another_shape_is_said_unknown(tmp_path: Path, text: str) -> None:
    """Any ``package.json`` on the way that is no JSON object, read at most
    ``PACKAGE_JSON_MAX_BYTES`` bytes of, ends the walk: version unknown, never a guess."""
    layout = LAYOUTS["codex"]
    path, command = npm_install(tmp_path, layout, CODEX_VERSION)
    package = tmp_path / "prefix" / "node_modules" / layout.package
    (package / "package.json").write_text(text, encoding="utf-8")
    assert unknown(layout, command) in install(tmp_path, "codex", path, "--dry-run")


@pytest.mark.parametrize("kind", ["a-folder", "a-fifo", "a-dangling-link"])
def test_h3_a_package_json_that_is_no_file_is_said_unknown(tmp_path: Path, kind: str) -> None:
    """Opened without waiting: a FIFO named ``package.json`` never blocks the install."""
    layout = LAYOUTS["claude-code"]
    path, command = npm_install(tmp_path, layout, CLAUDE_CODE_VERSION)
    manifest = tmp_path / "prefix" / "node_modules" / layout.package / "package.json"
    manifest.unlink()
    if kind == "a-folder":
        manifest.mkdir()
    elif kind == "a-fifo":
        os.mkfifo(manifest)
    else:
        manifest.symlink_to(tmp_path / "nowhere")
    assert unknown(layout, command) in install(tmp_path, "claude-code", path, "--dry-run")


def test_h3_a_native_binary_says_the_version_is_unknown_and_the_check(tmp_path: Path) -> None:
    """A program in no npm package (Claude Code's own installer links ``~/.local/bin/claude``
    to ``~/.local/share/claude/versions/<version>``, a native binary): its version is not
    guessed, not even from a file name, and nothing is run to learn it."""
    layout = LAYOUTS["claude-code"]
    binary = tmp_path / "home" / ".local" / "share" / "claude" / "versions" / CLAUDE_CODE_VERSION
    never_run(binary, tmp_path / "ran")
    command = tmp_path / "home" / ".local" / "bin" / "claude"
    command.parent.mkdir(parents=True)
    command.symlink_to(binary)
    out = install(tmp_path, "claude-code", f"{command.parent}:/usr/bin:/bin")
    assert unknown(layout, command) in out
    assert not (tmp_path / "ran").exists()


def test_h3_a_package_of_another_name_is_not_the_harness(tmp_path: Path) -> None:
    """The platform package's binary (``@anthropic-ai/claude-code-linux-x64/claude``) put on
    PATH itself: its ``package.json`` names another package and the walk stops at
    ``node_modules``, above which lies the project that installed it."""
    layout = LAYOUTS["claude-code"]
    project = tmp_path / "project"
    write_package(project, {"name": layout.package, "version": CLAUDE_CODE_VERSION})
    platform = project / "node_modules" / "@anthropic-ai" / "claude-code-linux-x64"
    never_run(platform / "claude", tmp_path / "ran")
    write_package(platform, {"name": f"{layout.package}-linux-x64", "version": "2.1.332"})
    out = install(tmp_path, "claude-code", f"{platform}:/usr/bin:/bin", "--dry-run")
    assert unknown(layout, platform / "claude") in out
    assert not (tmp_path / "ran").exists()


def test_h3_install_without_the_harness_on_path_says_when_its_hooks_run(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    out = install(tmp_path, "claude-code", str(empty))
    assert (
        "claude-code: no `claude` on PATH here: the hooks run once Claude Code is installed "
        "(`npm install -g @anthropic-ai/claude-code`; they are measured on Claude Code "
        f"{CLAUDE_CODE_VERSION})\n"
    ) in out


@pytest.mark.parametrize("harness", LAYOUTS)
def test_h3_the_cached_real_clis_are_laid_out_as_read_and_name_their_version(
    tmp_path: Path, harness: str
) -> None:
    """The pinned CLIs as npm installed them in ``.cache/`` (read, never run): the link and
    ``bin`` the layouts above copy, and the version the install names from them."""
    layout = LAYOUTS[harness]
    bin_folder = CACHE / layout.folder / "node_modules" / ".bin"
    manifest = CACHE / layout.folder / "node_modules" / layout.package / "package.json"
    ENSURE_CACHED[harness]()  # as the E2E tests do: installed from npm once, never skipped on CI
    assert (bin_folder / layout.command).readlink() == Path("..", layout.package, layout.program)
    said = json.loads(manifest.read_text(encoding="utf-8"))
    assert said["bin"] == {layout.command: layout.program}
    with pytest.MonkeyPatch.context() as patch:  # a dry run starts no program of its own
        patch.setattr(subprocess, "Popen", refuse)
        out = install(tmp_path, harness, f"{bin_folder}:/usr/bin:/bin", "--dry-run")
    assert (
        f"{harness}: {layout.product} {said['version']} ({bin_folder / layout.command}): "
    ) in out
