"""P-3: a variable a startup file of the harness's shell may set is unknown to the guard.

Codex CLI runs each command as ``bash -lc``: ``~/.profile`` (or ``~/.bash_profile``,
``~/.bash_login``), which an earlier command of the agent may have written, sets variables
before the command's first word, and the hook's own environment does not show them. The guard
read ``out=${OUTD:-dist}; mkdir -p "$out"; echo x > "$out/p.md"`` as writing ``dist/p.md``;
with ``export OUTD=<another scope>`` in ``~/.profile`` bash wrote into that Workspace's memory
scope. A variable such a file may set (an ``export``, an assignment, ``set -a``, a file it
sources, ``read``, a ``for`` loop) is now read as known only at run time, and every variable
when the file runs code the guard cannot read (``eval`` of a file's text, a file sourced by a
name built at run time, a name built at run time). Claude Code's Bash tool runs after a
snapshot of functions, aliases and ``PATH`` (no variable), Gemini CLI as ``bash -c`` (no
profile): their verdicts stay as they were.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.support.guard_cases import Layout, fill, refusals_by_every_harness

COMMAND = 'out=${{OUTD:-dist}}; mkdir -p "$out"; echo x > "$out/p.md"'
"""The command every case runs: a default the login shell's profile may decide."""

PROFILES = [
    (".profile", "export OUTD={other}\n"),
    (".profile", "OUTD={other}\n"),
    (".bash_profile", "set -a\nOUTD={other}\nset +a\n"),
    (".bash_login", "if true; then\n  export OUTD='{other}'\nfi\n"),
    (".profile", ". ~/.outd\n"),
    (".profile", 'for OUTD in "{other}"; do :; done\n'),
    (".profile", "read -r OUTD < ~/.outd-path\n"),
    (".profile", 'eval "$(cat ~/.outd)"\n'),
    (".profile", 'n=OUTD; export "$n={other}"\n'),
    (".profile", 'f=~/.outd; . "$f"\n'),
    (".profile", "printf -v OUTD %s {other}\n"),
    (".profile", "declare -n r=OUTD; r={other}\n"),
]
"""A login profile setting ``OUTD`` to another scope, as written or through code the guard
cannot read (``~/.outd`` exports it; ``~/.outd-path`` holds the path)."""


def _profile(where: Layout, name: str, text: str) -> str:
    """Write the profile ``name`` holding ``text`` (filled) and its helper files; the other
    scope's path."""
    other = str(where.root / where.other)
    (where.data / ".outd").write_text(f"export OUTD={other}\n", encoding="utf-8")
    (where.data / ".outd-path").write_text(f"{other}\n", encoding="utf-8")
    (where.data / name).write_text(text.format(other=other), encoding="utf-8")
    return other


def _login_shell(where: Layout, command: str) -> None:
    """Run ``command`` as Codex CLI does (``bash -lc``) with the layout's home."""
    environment = {"PATH": os.environ["PATH"], "HOME": str(where.data)}
    subprocess.run(["bash", "-lc", command], cwd=where.workspace, env=environment, check=True)


@pytest.mark.parametrize(("name", "text"), PROFILES)
def test_p3_a_variable_the_login_profile_may_set_is_unknown_for_codex(
    where: Layout, name: str, text: str
) -> None:
    other = _profile(where, name, text)
    command = fill(COMMAND, where)

    reasons = refusals_by_every_harness(where, command)

    assert reasons["codex"] is not None, reasons
    assert reasons["codex"].startswith("Agent Memory write guard: "), reasons
    assert reasons["claude-code"] is None and reasons["gemini"] is None, reasons
    _login_shell(where, command)
    assert (where.root / where.other / "p.md").exists(), f"bash -lc wrote nothing in {other}"


@pytest.mark.parametrize(
    "profile",
    [
        "",
        'export EDITOR=vim\nPATH="$HOME/bin:$PATH"\n[ -f ~/.bashrc ] && . ~/.bashrc\n',
        'if [ -n "$BASH_VERSION" ]; then\n  if [ -f "$HOME/.bashrc" ]; then\n'
        '    . "$HOME/.bashrc"\n  fi\nfi\nexport LANG=C.UTF-8\n',
        'eval "$(dircolors -b)"\nexport PATH="$HOME/.local/bin:$PATH"\n',
    ],
)
def test_p3_a_profile_setting_other_variables_leaves_the_default_decided(
    where: Layout, profile: str
) -> None:
    (where.data / ".bashrc").write_text("HISTSIZE=1000\nalias ll='ls -l'\n", encoding="utf-8")
    (where.data / ".profile").write_text(profile, encoding="utf-8")
    command = fill(COMMAND, where)

    assert refusals_by_every_harness(where, command) == dict.fromkeys(
        ("claude-code", "codex", "gemini")
    )
    _login_shell(where, command)
    assert (where.workspace / "dist" / "p.md").read_text(encoding="utf-8") == "x\n"


def test_p3_the_environment_a_profile_sets_is_unknown_in_any_word(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not only a default: ``$OUTD`` itself, set by the hook's environment to ``dist``, is what
    the profile makes it for ``bash -lc``."""
    _profile(where, ".profile", "export OUTD={other}\n")
    monkeypatch.setenv("OUTD", "dist")
    command = fill('mkdir -p "$OUTD"; echo x > "$OUTD/q.md"', where)

    reasons = refusals_by_every_harness(where, command)

    assert reasons["codex"] is not None, reasons
    assert reasons["claude-code"] is None and reasons["gemini"] is None, reasons
    _login_shell(where, command)
    assert (where.root / where.other / "q.md").exists()
