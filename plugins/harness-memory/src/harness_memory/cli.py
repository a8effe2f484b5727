"""``harness-memory``: Session start from a shell and coding-agent hook adapters (P-4).

::

    harness-memory session-start --url URL --project P --agent A --workspace DIR \\
        [--token T] [--template-file FILE] [--session-id ID] [--timeout S] [--format json|text]
        [--draft ID]
    harness-memory draft show --url URL --project P --agent A [--format text|json] ID
    harness-memory sync [--workspace DIR] [--status] [--format json|text]  (remote mode, R-1)
    harness-memory hook claude-code session-start [--part K --parts N]
                                                    < hook JSON   > hook answer JSON (or nothing)
    harness-memory hook claude-code pre-tool-use    < hook JSON   > hook answer JSON (or nothing)
    harness-memory hook claude-code post-tool-use|session-end  (remote mode: send writes back)
    harness-memory hook codex session-start|pre-tool-use|post-tool-use|stop   (Codex CLI)
    harness-memory hook gemini session-start|before-tool|after-tool|session-end (Gemini CLI)

Every flag falls back to its ``HARNESS_MEMORY_*`` variable (see :mod:`harness_memory.settings`).
Exit status: 0 when the Session started (memory or the draft may have failed open: a warning
goes to stderr), 2 for a usage error (a draft id that is not 32 lowercase hex digits included).
``draft show`` exits 1 when the draft cannot be fetched (expired, unknown, service down). Hook
adapters always exit 0 so a memory problem never blocks Claude Code.

With ``--draft`` the text output is the system prompt, then the line :data:`DRAFT_SEPARATOR`,
then the draft's prompt verbatim (the Session's first user message); JSON gains
``initialPrompt``.

Each command imports only what it needs (H-5): the PreToolUse guard runs before every file
write, so it must cost little more than starting Python; no path loads aiohttp or asyncio, and
a hook command line as the installers write it is read without ``argparse``
(:mod:`harness_memory.hook_argv`; :mod:`harness_memory.cli_parser` reads every other).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from harness_memory import logs
from harness_memory.hook_argv import HOOK_SETTING_FLAGS, plain_hook_args
from harness_memory.settings import ENV_PREFIX, HarnessSettings, SettingsError, load_settings

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    import argparse
    import logging
    from types import SimpleNamespace
    from typing import IO, Any

    from harness_memory.session import SessionStart

__all__ = ["DRAFT_SEPARATOR", "build_parser", "main"]

DRAFT_SEPARATOR = "----- initial prompt (draft {draft_id}) -----"
"""The line between the system prompt and the draft's prompt in ``session-start`` text output."""

_LOG_FORMAT = "harness-memory: %(levelname)s: %(message)s"


def _logger() -> logging.Logger:
    """The CLI's logger, set up on first use: a guard that logs nothing never imports logging."""
    return logs.logger("harness_memory")


def build_parser(command: str | None = None, harness: str | None = None) -> argparse.ArgumentParser:
    """The command line's ``argparse`` parser (:func:`harness_memory.cli_parser.build_parser`)."""
    from harness_memory.cli_parser import build_parser as build

    return build(command, harness)


def _settings(
    args: argparse.Namespace | SimpleNamespace, environ: Mapping[str, str]
) -> HarnessSettings:
    flags = {name: getattr(args, name, None) for name in HOOK_SETTING_FLAGS.values()}
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
    env = os.environ if environ is None else environ
    out = sys.stdout if stdout is None else stdout
    plain = plain_hook_args(arguments)  # a hook process skips argparse (H-5)
    if plain is not None:
        try:
            return _hook(plain, _settings(plain, env), stdin, out)
        except SettingsError:
            pass  # argparse reports it as a usage error
    parser = build_parser(*arguments[:2])
    args = parser.parse_args(arguments)
    try:
        settings = _settings(args, env)
    except SettingsError as error:
        parser.error(str(error))
    if args.command == "session-start":
        return _session_start(parser, args, settings, out)
    if args.command == "draft":
        return _draft_show(parser, args, settings, out)
    if args.command == "sync":
        from harness_memory.cli_sync import run_sync

        ids = _required(parser, settings)
        return run_sync(
            settings,
            ids,
            workspace=args.workspace,
            status=args.status,
            output_format=args.format,
            out=out,
        )
    if args.command in ("install", "uninstall", "status"):
        from harness_memory.cli_install import run_install

        return run_install(parser, args, env, out)
    if args.agent_kind == "claude-code" and args.part > args.parts:
        parser.error(f"--part {args.part} is past --parts {args.parts}")
    return _hook(args, settings, stdin, out)


def _hook(
    args: argparse.Namespace | SimpleNamespace,
    settings: HarnessSettings,
    stdin: IO[bytes] | None,
    out: IO[str],
) -> int:
    """Answer one hook: its JSON from ``stdin``, its answer's JSON (or nothing) to ``out``; 0."""
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
    args: argparse.Namespace | SimpleNamespace, raw: bytes, settings: HarnessSettings
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
    if args.event in ("post-tool-use", "session-end"):
        from harness_memory.hooks.sync import sync_scopes

        return sync_scopes(hook, settings)
    from harness_memory.hooks.claude_code_start import session_start

    return session_start(hook, settings, part=args.part, parts=args.parts)
