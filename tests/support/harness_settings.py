"""A harness's own settings file, as a user has it, installed over and uninstalled (H-3, H-6).

The install and uninstall tests (``tests/plugin/test_h3_uninstall_*``, and the others that
install) each set up the same way: the user's settings file of one harness under a ``home``,
an ``install`` over it, perhaps a setting the user adds after it, then ``uninstall``. This is
that set-up, once: :func:`users_settings`, :func:`install`, :func:`run`, :func:`with_a_setting`
and :func:`parsed` to compare files as their harness reads them.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import tomlkit
from harness_memory.cli import main

__all__ = [
    "SETTINGS_FILE",
    "SETTINGS_FOLDER",
    "install",
    "parsed",
    "run",
    "settings",
    "users_settings",
    "with_a_setting",
]

SETTINGS_FOLDER = {"claude-code": ".claude", "codex": ".codex", "gemini": ".gemini"}
SETTINGS_FILE = {"claude-code": "settings.json", "codex": "config.toml", "gemini": "settings.json"}


def run(*argv: str, home: Path) -> str:
    """``harness-memory argv --home home`` with ``HOME`` there; what it said (it must exit 0)."""
    out = io.StringIO()
    assert main([*argv, "--home", str(home)], environ={"HOME": str(home)}, stdout=out) == 0
    return out.getvalue()


def install(harness: str, home: Path, *flags: str) -> str:
    """``install harness`` for agent ``coder`` of project ``acme`` (a data dir beside ``home``
    unless ``--remote`` is among ``flags``), no service asked; what it said."""
    words = ["install", harness, "--project", "acme", "--agent", "coder", "--no-check"]
    words += ["--executable", "/opt/am/bin/harness-memory", *flags]
    if "--remote" not in flags:
        root = home.parent / "data" / "agents" / "coder" / "agent_state" / "memory"
        words += ["--url", "http://127.0.0.1:9", "--memory-root", str(root)]
    return run(*words, home=home)


def settings(harness: str, home: Path) -> Path:
    """The harness's user settings file under ``home``."""
    return home / SETTINGS_FOLDER[harness] / SETTINGS_FILE[harness]


def users_settings(harness: str, home: Path, text: str) -> Path:
    """The harness's settings file under ``home``, holding the user's ``text``; its path."""
    path = settings(harness, home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def with_a_setting(harness: str, text: str, key: str, value: str) -> str:
    """``text`` (a settings file's) with the user's ``key`` set to the string ``value`` first:
    a TOML line for Codex CLI, the JSON object's first key for the others."""
    if harness == "codex":
        return f'{key} = "{value}"\n{text}'
    return f'{{"{key}": "{value}", {text[1:]}'


def parsed(harness: str, text: str) -> object:
    """The settings as their harness reads them, key order kept (a list of pairs per table)."""

    def pairs(value: object) -> object:
        if isinstance(value, dict):
            return [(key, pairs(item)) for key, item in value.items()]
        return value

    return pairs(tomlkit.parse(text).unwrap() if harness == "codex" else json.loads(text))
