"""The ``harness-memory`` command line's ``argparse`` parser (P-4, H-3, A-12).

:func:`build_parser` builds it for :func:`harness_memory.cli.main`, only as far as the command
at hand needs (H-5). A plain hook command line, as the installers write it, never comes here
(:mod:`harness_memory.hook_argv` reads it); any other, and every usage error and help text, does.
"""

from __future__ import annotations

import argparse
import os

from harness_memory.hook_argv import HOOK_EVENTS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    from typing import TypeAlias

    _Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["build_parser"]


def _draft_id(value: str) -> str:
    """argparse type of a draft id: checked before any request (A-12), a usage error if bad."""
    from memory_core.errors import InvalidId
    from memory_core.keys import check_draft_id

    try:
        return check_draft_id(value)
    except InvalidId as error:
        raise argparse.ArgumentTypeError(str(error)) from error


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter with the width from ``COLUMNS`` (default 100).

    argparse builds a formatter for every ``add_argument`` and, given no width, asks
    ``shutil.get_terminal_size()``; importing ``shutil`` loads ``bz2`` and ``lzma`` and costs a
    hook process more than the rest of its imports together (H-5).
    """

    def __init__(self, prog: str) -> None:
        columns = os.environ.get("COLUMNS", "")
        super().__init__(prog, width=(int(columns) if columns.isdigit() else 100) - 2)


def _positive(value: str) -> int:
    """argparse type of a part number or count: a whole number from 1."""
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1, got {value!r}")
    return number


def _add_setting_flags(parser: argparse.ArgumentParser, *, hook: bool, draft: bool = False) -> None:
    """Flags that override the ``HARNESS_MEMORY_*`` variables of the same name."""
    parser.add_argument("--url", help="memory service root URL [HARNESS_MEMORY_URL]")
    parser.add_argument("--token", help="bearer token [HARNESS_MEMORY_TOKEN]")
    parser.add_argument(
        "--token-file",
        help="a 0600 file holding the bearer token, read when no token is given "
        "[HARNESS_MEMORY_TOKEN_FILE]",
    )
    parser.add_argument("--project", help="project id [HARNESS_MEMORY_PROJECT]")
    parser.add_argument("--agent", help="agent id [HARNESS_MEMORY_AGENT]")
    parser.add_argument(
        "--timeout",
        help="seconds for each request to the service, default 2 [HARNESS_MEMORY_TIMEOUT]",
    )
    if draft:
        return
    parser.add_argument(
        "--remote",
        choices=("on", "off"),
        help="on: memory is a local copy under the state dir, synced with the service over "
        "git (R-1) [HARNESS_MEMORY_REMOTE]",
    )
    parser.add_argument(
        "--template-file",
        dest="template",
        help="system prompt template; default: {{MEMORY}} plus an Environment section "
        "[HARNESS_MEMORY_TEMPLATE]",
    )
    if hook:
        parser.add_argument(
            "--state-dir",
            help="where Session records are kept, default ~/.claude/harness-memory "
            "[HARNESS_MEMORY_STATE_DIR]",
        )
        parser.add_argument(
            "--memory-root",
            dest="root",
            help="memory root for the write guard when no Session record exists "
            "[HARNESS_MEMORY_ROOT]",
        )


def build_parser(command: str | None = None, harness: str | None = None) -> argparse.ArgumentParser:
    """Build the ``harness-memory`` argument parser.

    With ``command`` (the first argument) naming a known command, only that command's parser is
    built: a hook process must not pay for the others (H-5); help for the program needs all.
    Likewise for ``hook``, ``harness`` (the second argument) naming a harness builds only its
    hook parser.
    """
    parser = argparse.ArgumentParser(
        formatter_class=_Formatter,
        prog="harness-memory",
        description="Agent Memory for a harness: Session start and hooks.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    builders = {
        "session-start": _add_session_start,
        "draft": _add_draft,
        "hook": lambda commands: _add_hook(commands, harness),
        "sync": _add_sync,
        "install": _add_install,
        "uninstall": _add_install,
        "status": _add_install,
    }
    built = set()
    for name, build in builders.items():
        if (command not in builders or command == name) and build not in built:
            build(commands)
            built.add(build)
    return parser


def _add_install(commands: _Subparsers) -> None:
    from harness_memory.cli_install import add_install_commands

    add_install_commands(commands)


def _add_session_start(commands: _Subparsers) -> None:
    start = commands.add_parser(
        "session-start",
        formatter_class=_Formatter,
        help="start a Session's memory and print the system prompt",
    )
    _add_setting_flags(start, hook=False)
    start.add_argument("--workspace", default=None, help="the Workspace directory (default: cwd)")
    start.add_argument("--session-id", default=None, help="the harness's Session id")
    start.add_argument(
        "--draft",
        type=_draft_id,
        default=None,
        metavar="ID",
        help="start from this draft (A-12): its pinned Workspace wins over --workspace and its "
        "prompt is printed after the system prompt",
    )
    start.add_argument(
        "--format",
        choices=("json", "text"),
        default="text",
        help="text: the system prompt (then the draft's prompt); json: prompt, key, "
        "initialPrompt, sections and the session_meta record",
    )


def _add_sync(commands: _Subparsers) -> None:
    sync = commands.add_parser(
        "sync",
        formatter_class=_Formatter,
        help="remote mode (R-1): sync the local copy of a Session's scopes with the service",
    )
    _add_setting_flags(sync, hook=True)
    sync.add_argument("--workspace", default=None, help="the Workspace directory (default: cwd)")
    sync.add_argument(
        "--status",
        action="store_true",
        help="sync nothing: per scope, the last sync, what waits to go back, merge outcomes",
    )
    sync.add_argument("--format", choices=("json", "text"), default="text")


def _add_draft(commands: _Subparsers) -> None:
    drafts = commands.add_parser(
        "draft", formatter_class=_Formatter, help="drafts of the chat bridge (A-12)"
    )
    draft_commands = drafts.add_subparsers(dest="draft_command", required=True)
    show = draft_commands.add_parser(
        "show", formatter_class=_Formatter, help="print a draft's prompt"
    )
    _add_setting_flags(show, hook=False, draft=True)
    show.add_argument("draft_id", type=_draft_id, metavar="ID", help="the draft id")
    show.add_argument(
        "--format",
        choices=("json", "text"),
        default="text",
        help="text: the prompt, verbatim (a final newline added if it lacks one); "
        "json: the whole draft (workspace, expiry, …)",
    )


def _add_hook(commands: _Subparsers, harness: str | None = None) -> None:
    hook = commands.add_parser(
        "hook", formatter_class=_Formatter, help="hook adapters for coding agents"
    )
    agents = hook.add_subparsers(dest="agent_kind", required=True)
    if harness in HOOK_EVENTS:
        _add_hook_harness(agents, harness)
        return
    for name in HOOK_EVENTS:
        _add_hook_harness(agents, name)


def _add_hook_harness(agents: _Subparsers, harness: str) -> None:
    """The parser of ``hook HARNESS EVENT``, with the setting flags (and Claude Code's parts)."""
    if harness != "claude-code":
        adapter = agents.add_parser(
            harness, formatter_class=_Formatter, help=f"{harness} hooks (JSON on stdin and stdout)"
        )
        adapter.add_argument("event", choices=HOOK_EVENTS[harness])
        _add_setting_flags(adapter, hook=True)
        return
    claude = agents.add_parser(
        "claude-code",
        formatter_class=_Formatter,
        help="Claude Code hooks (JSON on stdin and stdout)",
    )
    claude.add_argument("event", choices=HOOK_EVENTS["claude-code"])
    claude.add_argument(
        "--part",
        type=_positive,
        default=1,
        help="session-start: which piece this hook entry answers (1…N), default 1",
    )
    claude.add_argument(
        "--parts",
        type=_positive,
        default=1,
        help="session-start: how many SessionStart hook entries carry the injection, default 1",
    )
    _add_setting_flags(claude, hook=True)
