"""``harness-memory``: Session start from a shell and coding-agent hook adapters (P-4).

::

    harness-memory session-start --url URL --project P --agent A --workspace DIR \\
        [--token T] [--template-file FILE] [--session-id ID] [--timeout S] [--format json|text]
        [--draft ID]
    harness-memory draft show --url URL --project P --agent A [--format text|json] ID
    harness-memory hook claude-code session-start   < hook JSON   > hook answer JSON
    harness-memory hook claude-code pre-tool-use    < hook JSON   > hook answer JSON (or nothing)

Every flag falls back to its ``HARNESS_MEMORY_*`` variable (see :mod:`harness_memory.settings`).
Exit status: 0 when the Session started (memory or the draft may have failed open: a warning
goes to stderr), 2 for a usage error (a draft id that is not 32 lowercase hex digits included).
``draft show`` exits 1 when the draft cannot be fetched (expired, unknown, service down). Hook
adapters always exit 0 so a memory problem never blocks Claude Code.

With ``--draft`` the text output is the system prompt, then the line :data:`DRAFT_SEPARATOR`,
then the draft's prompt verbatim (the Session's first user message); JSON gains
``initialPrompt``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import msgspec
from memory_core.errors import InvalidId
from memory_core.keys import check_draft_id
from memory_core.wire import Draft

from harness_memory.cli_install import add_install_commands, run_install
from harness_memory.client import MemoryClient, MemoryClientError
from harness_memory.hooks import claude_code
from harness_memory.hooks.dispatch import HOOK_EVENTS, run_hook
from harness_memory.session import SessionStart, start_session
from harness_memory.settings import ENV_PREFIX, HarnessSettings, SettingsError, load_settings

__all__ = ["DRAFT_SEPARATOR", "build_parser", "main"]

DRAFT_SEPARATOR = "----- initial prompt (draft {draft_id}) -----"
"""The line between the system prompt and the draft's prompt in ``session-start`` text output."""

logger = logging.getLogger("harness_memory")

_SETTING_FLAGS = ("url", "token", "project", "agent", "timeout", "template", "state_dir", "root")


def _draft_id(value: str) -> str:
    """argparse type of a draft id: checked before any request (A-12), a usage error if bad."""
    try:
        return check_draft_id(value)
    except InvalidId as error:
        raise argparse.ArgumentTypeError(str(error)) from error


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


def build_parser() -> argparse.ArgumentParser:
    """Build the ``harness-memory`` argument parser."""
    parser = argparse.ArgumentParser(
        prog="harness-memory", description="Agent Memory for a harness: Session start and hooks."
    )
    commands = parser.add_subparsers(dest="command", required=True)

    start = commands.add_parser(
        "session-start", help="start a Session's memory and print the system prompt"
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
        "initialPrompt and the session_meta record",
    )

    drafts = commands.add_parser("draft", help="drafts of the chat bridge (A-12)")
    draft_commands = drafts.add_subparsers(dest="draft_command", required=True)
    show = draft_commands.add_parser("show", help="print a draft's prompt")
    _add_setting_flags(show, hook=False, draft=True)
    show.add_argument("draft_id", type=_draft_id, metavar="ID", help="the draft id")
    show.add_argument(
        "--format",
        choices=("json", "text"),
        default="text",
        help="text: the prompt, verbatim (a final newline added if it lacks one); "
        "json: the whole draft (workspace, expiry, …)",
    )

    hook = commands.add_parser("hook", help="hook adapters for coding agents")
    agents = hook.add_subparsers(dest="agent_kind", required=True)
    claude = agents.add_parser("claude-code", help="Claude Code hooks (JSON on stdin and stdout)")
    claude.add_argument("event", choices=("session-start", "pre-tool-use"))
    _add_setting_flags(claude, hook=True)
    for name, events in HOOK_EVENTS.items():
        if name == "claude-code":
            continue
        adapter = agents.add_parser(name, help=f"{name} hooks (JSON on stdin and stdout)")
        adapter.add_argument("event", choices=tuple(events))
        _add_setting_flags(adapter, hook=True)
    add_install_commands(commands)
    return parser


def _settings(args: argparse.Namespace, environ: Mapping[str, str]) -> HarnessSettings:
    flags = {name: getattr(args, name, None) for name in _SETTING_FLAGS}
    return load_settings(flags, environ)


def main(
    argv: Sequence[str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    stdin: IO[bytes] | None = None,
    stdout: IO[str] | None = None,
) -> int:
    """Run the command line; returns the exit status. Streams default to the process's own."""
    logging.basicConfig(level=logging.WARNING, format="harness-memory: %(levelname)s: %(message)s")
    parser = build_parser()
    args = parser.parse_args(argv)
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
        return run_install(parser, args, env, out)
    raw = (sys.stdin.buffer if stdin is None else stdin).read()
    if args.agent_kind != "claude-code":
        answer = run_hook(args.agent_kind, args.event, raw, settings)
    else:
        answer = _run_hook(args.event, raw, settings)
    if answer is not None:
        out.write(msgspec.json.encode(answer).decode() + "\n")
    return 0


def _session_start(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    settings: HarnessSettings,
    out: IO[str],
) -> int:
    url, project, agent = _required(parser, settings)
    try:
        template = settings.read_template()
    except (OSError, UnicodeDecodeError) as error:
        parser.error(f"cannot read the template file: {error}")
    result = asyncio.run(
        start_session(
            service_url=url,
            token=settings.token,
            project=project,
            agent=agent,
            workspace=args.workspace or str(Path.cwd()),
            template=template,
            session_id=args.session_id,
            timeout_s=settings.timeout,
            draft_id=args.draft,
        )
    )
    if args.format == "json":
        out.write(msgspec.json.format(msgspec.json.encode(result).decode(), indent=2) + "\n")
    else:
        _write_text(result, out)
    return 0


def _required(parser: argparse.ArgumentParser, settings: HarnessSettings) -> tuple[str, str, str]:
    """URL, project and agent, or a usage error naming the missing flags."""
    url, project, agent = settings.url, settings.project, settings.agent
    if not (url and project and agent):
        missing = ", ".join(
            f"--{name.removeprefix(ENV_PREFIX).lower()}" for name in settings.missing()
        )
        parser.error(f"missing {missing} (or the HARNESS_MEMORY_* variables)")
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
    url, project, agent = _required(parser, settings)

    async def fetch() -> Draft:
        async with MemoryClient(url, token=settings.token, timeout=settings.timeout) as client:
            return await client.get_draft(project, agent, args.draft_id)

    try:
        draft = asyncio.run(fetch())
    except (MemoryClientError, InvalidId) as error:
        logger.error("cannot fetch draft %s: %s", args.draft_id, error)
        return 1
    if args.format == "json":
        out.write(msgspec.json.format(msgspec.json.encode(draft).decode(), indent=2) + "\n")
    else:
        _write_line(draft.prompt, out)
    return 0


def _run_hook(event: str, raw: bytes, settings: HarnessSettings) -> dict[str, Any] | None:
    """Run one Claude Code hook adapter; a malformed input is logged and answered with nothing."""
    try:
        hook = claude_code.decode_input(raw)
    except msgspec.DecodeError as error:
        logger.warning("hook input is not the JSON Claude Code sends: %s", error)
        return None
    if event == "session-start":
        return asyncio.run(claude_code.session_start(hook, settings))
    return claude_code.pre_tool_use(hook, settings)
