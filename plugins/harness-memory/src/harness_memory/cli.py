"""``harness-memory``: Session start from a shell and coding-agent hook adapters (P-4).

::

    harness-memory session-start --url URL --project P --agent A --workspace DIR \\
        [--token T] [--template-file FILE] [--session-id ID] [--timeout S] [--format json|text]
        [--draft ID]
    harness-memory draft show --url URL --project P --agent A [--format text|json] ID
    harness-memory hook claude-code session-start [--part K --parts N]
                                                    < hook JSON   > hook answer JSON (or nothing)
    harness-memory hook claude-code pre-tool-use    < hook JSON   > hook answer JSON (or nothing)

Every flag falls back to its ``HARNESS_MEMORY_*`` variable (see :mod:`harness_memory.settings`).
Exit status: 0 when the Session started (memory or the draft may have failed open: a warning
goes to stderr), 2 for a usage error (a draft id that is not 32 lowercase hex digits included).
``draft show`` exits 1 when the draft cannot be fetched (expired, unknown, service down). Hook
adapters always exit 0 so a memory problem never blocks Claude Code.

With ``--draft`` the text output is the system prompt, then the line :data:`DRAFT_SEPARATOR`,
then the draft's prompt verbatim (the Session's first user message); JSON gains
``initialPrompt``.

Each command imports only what it needs (H-5): the PreToolUse guard runs before every file
write, so it must cost little more than starting Python; no path loads aiohttp or asyncio.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from harness_memory import logs
from harness_memory.settings import ENV_PREFIX, HarnessSettings, SettingsError, load_settings

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    import logging
    from typing import IO, Any, TypeAlias

    _Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]

    from harness_memory.session import SessionStart

__all__ = ["DRAFT_SEPARATOR", "build_parser", "main"]

DRAFT_SEPARATOR = "----- initial prompt (draft {draft_id}) -----"
"""The line between the system prompt and the draft's prompt in ``session-start`` text output."""

_LOG_FORMAT = "harness-memory: %(levelname)s: %(message)s"


def _logger() -> logging.Logger:
    """The CLI's logger, set up on first use: a guard that logs nothing never imports logging."""
    return logs.logger("harness_memory")


_SETTING_FLAGS = ("url", "token", "project", "agent", "timeout", "template", "state_dir", "root")


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
    parser.add_argument("--project", help="project id [HARNESS_MEMORY_PROJECT]")
    parser.add_argument("--agent", help="agent id [HARNESS_MEMORY_AGENT]")
    parser.add_argument(
        "--timeout",
        help="seconds for each request to the service, default 2 [HARNESS_MEMORY_TIMEOUT]",
    )
    if draft:
        return
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


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Build the ``harness-memory`` argument parser.

    With ``command`` (the first argument) naming a known command, only that command's parser is
    built: a hook process must not pay for the others (H-5); help for the program needs all.
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
        "hook": _add_hook,
        "install": _add_install,
        "uninstall": _add_install,
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


def _add_hook(commands: _Subparsers) -> None:
    hook = commands.add_parser(
        "hook", formatter_class=_Formatter, help="hook adapters for coding agents"
    )
    agents = hook.add_subparsers(dest="agent_kind", required=True)
    claude = agents.add_parser(
        "claude-code",
        formatter_class=_Formatter,
        help="Claude Code hooks (JSON on stdin and stdout)",
    )
    claude.add_argument("event", choices=("session-start", "pre-tool-use"))
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
    for name, events in (
        ("codex", ("session-start", "pre-tool-use")),
        ("gemini", ("session-start", "before-tool")),
    ):
        adapter = agents.add_parser(
            name, formatter_class=_Formatter, help=f"{name} hooks (JSON on stdin and stdout)"
        )
        adapter.add_argument("event", choices=events)
        _add_setting_flags(adapter, hook=True)


def _settings(args: argparse.Namespace, environ: Mapping[str, str]) -> HarnessSettings:
    flags = {name: getattr(args, name, None) for name in _SETTING_FLAGS}
    return load_settings(flags, environ)


def _without_typing_extensions() -> None:
    """Let a hook process's msgspec use the standard ``typing`` module (H-5).

    msgspec imports ``typing_extensions`` when it is installed, and that imports ``inspect`` and
    ``ast``: about 50 ms, most of what a SessionStart hook process costs beyond Python itself.
    On Python 3.11+ msgspec's fallback (``typing.get_type_hints``, ``typing.Required``) reads our
    types identically, so a hook process marks the module missing before msgspec loads. A process
    that already imported it (tests calling :func:`main` in-process) keeps it.
    """
    sys.modules.setdefault("typing_extensions", None)  # type: ignore[arg-type]


def main(
    argv: Sequence[str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    stdin: IO[bytes] | None = None,
    stdout: IO[str] | None = None,
) -> int:
    """Run the command line; returns the exit status. Streams default to the process's own."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    logs.log_to_stderr(_LOG_FORMAT)  # set up when the first message is logged (H-5)
    parser = build_parser(arguments[0] if arguments else None)
    args = parser.parse_args(arguments)
    env = os.environ if environ is None else environ
    out = sys.stdout if stdout is None else stdout
    try:
        settings = _settings(args, env)
    except SettingsError as error:
        parser.error(str(error))
    if args.command == "session-start":
        return _session_start(parser, args, settings, out)
    if args.command == "draft":
        return _draft_show(parser, args, settings, out)
    if args.command in ("install", "uninstall"):
        from harness_memory.cli_install import run_install

        return run_install(parser, args, env, out)
    if args.agent_kind == "claude-code" and args.part > args.parts:
        parser.error(f"--part {args.part} is past --parts {args.parts}")
    _without_typing_extensions()
    raw = (sys.stdin.buffer if stdin is None else stdin).read()
    if args.agent_kind == "claude-code":
        answer = _run_hook(args, raw, settings)
    else:
        from harness_memory.hooks.dispatch import run_hook

        answer = run_hook(args.agent_kind, args.event, raw, settings)
    if answer is not None:
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
    return 0


def _session_start(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    settings: HarnessSettings,
    out: IO[str],
) -> int:
    from harness_memory.startup import (
        MissingSettingsError,
        TemplateUnreadableError,
        start_from_settings,
    )

    try:
        result = start_from_settings(
            settings,
            workspace=args.workspace or str(Path.cwd()),
            session_id=args.session_id,
            draft_id=args.draft,
        )
    except MissingSettingsError as error:
        parser.error(f"missing {_flags(error.names)} (or the HARNESS_MEMORY_* variables)")
    except TemplateUnreadableError as error:
        parser.error(str(error))
    if args.format == "json":
        import msgspec

        out.write(msgspec.json.format(msgspec.json.encode(result).decode(), indent=2) + "\n")
    else:
        _write_text(result, out)
    return 0


def _flags(names: list[str]) -> str:
    return ", ".join(f"--{name.removeprefix(ENV_PREFIX).lower()}" for name in names)


def _required(parser: argparse.ArgumentParser, settings: HarnessSettings) -> tuple[str, str, str]:
    """URL, project and agent, or a usage error naming the missing flags."""
    url, project, agent = settings.url, settings.project, settings.agent
    if not (url and project and agent):
        parser.error(f"missing {_flags(settings.missing())} (or the HARNESS_MEMORY_* variables)")
    return url, project, agent


def _write_line(text: str, out: IO[str]) -> None:
    out.write(text if text.endswith("\n") else text + "\n")


def _write_text(result: SessionStart, out: IO[str]) -> None:
    """The system prompt; with a fetched draft, the separator line and the draft's prompt."""
    _write_line(result.system_prompt, out)
    if result.initial_prompt is not None:
        draft_id = result.session_meta.draft_id or ""
        out.write(DRAFT_SEPARATOR.format(draft_id=draft_id) + "\n")
        _write_line(result.initial_prompt, out)


def _draft_show(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    settings: HarnessSettings,
    out: IO[str],
) -> int:
    """Print one draft (A-12); 1 with the reason on stderr when it cannot be fetched."""
    from memory_core.errors import InvalidId

    from harness_memory.errors import MemoryClientError
    from harness_memory.transport import ServiceClient

    url, project, agent = _required(parser, settings)
    try:
        client = ServiceClient(url, token=settings.token, timeout=settings.timeout)
        draft = client.get_draft(project, agent, args.draft_id)
    except (MemoryClientError, InvalidId) as error:
        _logger().error("cannot fetch draft %s: %s", args.draft_id, error)
        return 1
    if args.format == "json":
        import msgspec

        out.write(msgspec.json.format(msgspec.json.encode(draft).decode(), indent=2) + "\n")
    else:
        _write_line(draft.prompt, out)
    return 0


def _run_hook(
    args: argparse.Namespace, raw: bytes, settings: HarnessSettings
) -> dict[str, Any] | None:
    """Run one Claude Code hook adapter; a malformed input is logged and answered with nothing."""
    from harness_memory.hooks import claude_code

    try:
        hook = claude_code.decode_input(raw)
    except ValueError as error:
        _logger().warning("hook input is not the JSON Claude Code sends: %s", error)
        return None
    if args.event == "pre-tool-use":
        return claude_code.pre_tool_use(hook, settings)
    from harness_memory.hooks.claude_code_start import session_start

    return session_start(hook, settings, part=args.part, parts=args.parts)
