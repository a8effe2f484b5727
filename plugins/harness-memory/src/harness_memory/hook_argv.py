"""The hook command lines the installers write, read without ``argparse`` (H-5).

Every hook process starts with ``harness-memory hook HARNESS EVENT --flag value …``. Importing
``argparse``, building its parser and the ``gettext`` look-ups it makes for every help text cost
a hook process about a third of what starting Python does, for a command line that a program
wrote. :func:`plain_hook_args` reads exactly that plain form: the harness and the event first,
then known flags, each once, as ``--flag value`` or ``--flag=value``. Anything else (help, an
abbreviated or unknown flag, a flag given twice, a value that starts with ``-``, a part number
that is not a whole number from 1, ``--part`` past ``--parts``) returns None and the command
line goes to ``argparse`` (:mod:`harness_memory.cli_parser`), which answers it with its usual
errors and help. For the plain form both give the same values (tests/plugin/test_h5_hook_cost.py
checks it).
"""

from __future__ import annotations

from types import SimpleNamespace

__all__ = ["HOOK_EVENTS", "HOOK_SETTING_FLAGS", "PART_FLAGS", "plain_hook_args"]

HOOK_EVENTS: dict[str, tuple[str, ...]] = {
    "claude-code": ("session-start", "pre-tool-use", "post-tool-use", "session-end"),
    "codex": ("session-start", "pre-tool-use", "post-tool-use", "stop"),
    "gemini": ("session-start", "before-tool", "after-tool", "session-end"),
}
"""The harnesses ``hook`` adapts and the events (as the command line names them) of each."""

HOOK_SETTING_FLAGS: dict[str, str] = {
    "--url": "url",
    "--token": "token",
    "--project": "project",
    "--agent": "agent",
    "--timeout": "timeout",
    "--template-file": "template",
    "--state-dir": "state_dir",
    "--memory-root": "root",
    "--remote": "remote",
    "--token-file": "token_file",
}
"""Every hook's setting flags and the names their values take (``argparse``'s ``dest``)."""

PART_FLAGS: dict[str, str] = {"--part": "part", "--parts": "parts"}
"""Claude Code's SessionStart entry flags (whole numbers from 1, default 1)."""


def plain_hook_args(arguments: list[str]) -> SimpleNamespace | None:
    """The values of ``arguments`` (``sys.argv[1:]``) when they are a plain hook command line.

    The result has the attributes ``argparse`` would give (``command``, ``agent_kind``,
    ``event``, every setting flag's name, ``part`` and ``parts`` for Claude Code). None when
    the command line is not plain (see the module): ``argparse`` must read it.
    """
    if len(arguments) < 3 or arguments[0] != "hook":
        return None
    harness, event = arguments[1], arguments[2]
    if event not in HOOK_EVENTS.get(harness, ()):
        return None
    flags = HOOK_SETTING_FLAGS | (PART_FLAGS if harness == "claude-code" else {})
    values: dict[str, object] = {"command": "hook", "agent_kind": harness, "event": event}
    values |= dict.fromkeys(HOOK_SETTING_FLAGS.values())
    if harness == "claude-code":
        values |= {"part": 1, "parts": 1}
    given = _flag_values(arguments[3:], flags)
    if given is None:
        return None
    for name, value in given.items():
        if name in ("part", "parts"):
            if not (value.isdecimal() and value.isascii() and int(value) >= 1):
                return None
            values[name] = int(value)
        else:
            values[name] = value
    if harness == "claude-code" and int(str(values["part"])) > int(str(values["parts"])):
        return None
    return SimpleNamespace(**values)


def _flag_values(rest: list[str], flags: dict[str, str]) -> dict[str, str] | None:
    """``{dest: value}`` of ``--flag value`` / ``--flag=value`` pairs; None for anything else."""
    given: dict[str, str] = {}
    at = 0
    while at < len(rest):
        flag, equals, value = rest[at].partition("=")
        if not equals:
            if at + 1 >= len(rest):
                return None
            value = rest[at + 1]
            if value.startswith("-"):
                return None
            at += 1
        at += 1
        name = flags.get(flag)
        if name is None or name in given:
            return None
        given[name] = value
    return given
