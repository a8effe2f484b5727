"""``harness-memory``: Session start from a shell and coding-agent hook adapters (P-4).

::

    harness-memory session-start --url URL --project P --agent A --workspace DIR \\
        [--token T | --token-file PATH] [--template-file FILE] [--session-id ID] [--timeout S]
        [--format json|text]
        [--draft ID]
    harness-memory draft show --url URL --project P --agent A [--format text|json] ID
    harness-memory hook claude-code session-start [--part K --parts N]
                                                    < hook JSON   > hook answer JSON (or nothing)
    harness-memory hook claude-code pre-tool-use    < hook JSON   > hook answer JSON (or nothing)
    harness-memory hook claude-code post-tool-use   < hook JSON   (records memory writes, V-1)
    harness-memory hook codex session-start|pre-tool-use|post-tool-use   (the same, Codex CLI)
    harness-memory hook gemini session-start|before-tool|after-tool     (the same, Gemini CLI)
    harness-memory hook claude-code|gemini session-end, hook codex stop   (remote mode: send back)
    harness-memory sync [--workspace DIR] [--status] [--format json|text]  (harness_memory.cli_sync)
    harness-memory install|uninstall claude-code|codex|gemini …   (harness_memory.cli_install)
    harness-memory token set [--file PATH | --managed] < token      (harness_memory.cli_token)

Every flag falls back to its ``HARNESS_MEMORY_*`` variable (see :mod:`harness_memory.settings`),
except in a hook given ``--flags-only`` (as installed), which reads none, the token's neither
(it reads the ``--token-file``).
Exit status of ``session-start``: 0 when the Session started (memory or the draft may have failed
open because the service is down or slow, P-2: a warning goes to stderr), 1 when it started
without memory because the service refused the request or could not be asked for it (a wrong or
revoked token: 401; an agent or project it does not hold: 404; a malformed id or Workspace
path: :data:`REFUSED_KINDS`; the prompt is still printed, the reason goes to stderr; in remote
mode a sync the service refused so, the prompt carrying the local copy as it was), 2 for a
usage error (a draft id that is not 32 lowercase hex digits included).
Every command but a hook whose output's reader left (``| head -1``) does its work to the end,
then, if it succeeded, ends quietly by ``SIGPIPE`` (a shell's 141), as ``git`` does
(:mod:`memory_core.closed_reader`); one that failed keeps its exit status (``sync | true``: 1).
``draft show`` exits 1 when the draft cannot be fetched (expired, unknown, service down). Hook
adapters always exit 0 so a memory problem never blocks the harness; malformed hook input is
logged and answered with nothing, but for a pre-tool event with a memory root known (configured,
or a Session's record in the state dir) or a state dir another account could change, where the
write guard denies the call it cannot read (P-3).

With ``--draft`` the text output is the system prompt, then the line :data:`DRAFT_SEPARATOR`,
then the draft's prompt verbatim (the Session's first user message); JSON gains
``initialPrompt``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import importlib
import io
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn, cast

from memory_core.errors import InvalidId
from memory_core.keys import check_draft_id

from harness_memory.cli_install import INSTALL_HELP, add_install_flags, run_install
from harness_memory.cli_sync import SYNC_HELP, add_sync_flags
from harness_memory.cli_token import TOKEN_HELP, add_token_flags, run_token
from harness_memory.cli_words import CommandLine, name_by_choices
from harness_memory.guard_view import holds_a_record
from harness_memory.hooks.claude_code import decode_input
from harness_memory.settings import (
    ENV_PREFIX,
    HarnessSettings,
    MissingSettingsError,
    SettingsError,
    TemplateUnreadableError,
    TokenFileError,
    load_settings,
)
from harness_memory.state_trust import UNTRUSTED_SAID, untrusted_state

if TYPE_CHECKING:
    from harness_memory.session import SessionStart

__all__ = ["DRAFT_SEPARATOR", "HOOKS", "build_parser", "main", "run"]

DRAFT_SEPARATOR = "----- initial prompt (draft {draft_id}) -----"
"""The line between the system prompt and the draft's prompt in ``session-start`` text output."""
REFUSED_KINDS = frozenset({"rejected", "invalid-id", "invalid-workspace"})
"""The ``errorKind`` values of a ``session-start`` the service refused, or that could not be
asked for what it was given (a token it does not take, an agent it does not hold, an id or a
Workspace path no service takes): something the person running it must fix, so the command
exits :data:`REFUSED_STATUS`. A service down or slow (``unreachable``, ``timeout``) is P-2's
fail open: exit 0. The hook adapters never look at this: they exit 0 whatever happened."""
REFUSED_STATUS = 1
"""``session-start``'s exit status when the Session started without memory because of
:data:`REFUSED_KINDS` (the prompt is still printed, memory off)."""
REFUSED_SAID = (
    "the Session started without memory, and the prompt printed carries none: the warning "
    "above says why and what to fix (exit status 1)"
)
REFUSED_FROM_COPY_SAID = (
    "the Session started with this machine's local copy of its memory as it was, not synced: "
    "the service refused the sync; the warning above says why and what to fix (exit status 1)"
)
"""What a refused ``session-start`` says in remote mode (R-1) when the prompt carries the local
copy's memory (``status`` ``offline``): the refusal exits 1 all the same."""

HOOKS: dict[str, dict[str, str]] = {
    "claude-code": {
        "session-start": "harness_memory.hooks.claude_code_start:session_start",
        "pre-tool-use": "harness_memory.hooks.claude_code_guard:pre_tool_use",
        "post-tool-use": "harness_memory.hooks.claude_code_post:post_tool_use",
        "session-end": "harness_memory.hooks.sync:session_end",
    },
    "codex": {
        "session-start": "harness_memory.hooks.codex:session_start",
        "pre-tool-use": "harness_memory.hooks.codex:pre_tool_use",
        "post-tool-use": "harness_memory.hooks.codex:post_tool_use",
        "stop": "harness_memory.hooks.sync:session_end",
    },
    "gemini": {
        "session-start": "harness_memory.hooks.gemini:session_start",
        "before-tool": "harness_memory.hooks.gemini:before_tool",
        "after-tool": "harness_memory.hooks.gemini:after_tool",
        "session-end": "harness_memory.hooks.sync:session_end",
    },
}
"""Harness → hook event (as the command line names it) → the adapter answering it, imported when
its hook runs: every hook is a process of its own, and a write guard has no use for the Session
start's HTTP client (H-5)."""
_HARNESS_NAMES = {"claude-code": "Claude Code", "codex": "Codex CLI", "gemini": "Gemini CLI"}

_SETTING_FLAGS = (
    "url",
    "token",
    "token_file",
    "project",
    "agent",
    "timeout",
    "template",
    "state_dir",
    "root",
    "remote",
    "url_id_not_secret",
)
"""The setting flags' names (``argparse`` dests), as :func:`load_settings` takes them."""


def run() -> NoReturn:
    """The ``harness-memory`` console script: :func:`main` on the process's own arguments and
    streams, then exit with its status.

    Every object is frozen (:func:`gc.freeze`) before the exit, so the interpreter's last
    garbage collections skip the objects the imports made: about 7 % of a hook process's work
    (H-5), spent on memory the exit returns anyway.

    A hook answers its harness in UTF-8 whatever ``PYTHONIOENCODING`` says: a Workspace's
    settings can set the environment its hooks run in (Claude Code's ``env``), and with
    ``ascii`` every Session start whose memory held a non-ASCII character crashed, the Session
    left without memory (P-2a).
    """
    if sys.argv[1:2] == ["hook"] and isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf-8", errors="strict")
    status = main()
    gc.freeze()
    sys.exit(status)


def main(
    argv: Sequence[str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    stdin: IO[bytes] | None = None,
    stdout: IO[str] | None = None,
) -> int:
    """Run the command line; returns the exit status. Streams default to the process's own.

    Warnings and errors of the modules go to stderr: through a ``harness-memory: LEVEL:``
    handler for every command but ``hook``, whose process loads ``logging`` only when something
    is said (H-5), and then shows the message alone (``logging``'s last-resort handler), under
    the hook's command in the harness's log."""
    env = os.environ if environ is None else environ
    out = sys.stdout if stdout is None else stdout
    umask = os.umask(0o022)  # as memory_core.atomic.no_files_for_others_to_write (H-5: no
    os.umask(umask | 0o022 if not umask & 0o002 else umask)  # import of it in a hook process)
    line = sys.argv[1:] if argv is None else argv
    args = build_parser(line).parse_args(line)
    # A usage error shows the usage of the command it is about (`harness-memory install
    # [--memory-root ROOT] …`), not the bare list of commands.
    parser: argparse.ArgumentParser = args.command_parser
    flags = {name: getattr(args, name, None) for name in _SETTING_FLAGS}
    whose = None  # sync: the harness whose installed hooks give the token
    if args.command == "sync":
        flags, whose = _with_installed_remote(flags, env)
    try:
        settings = _hooks_settings(args, flags, env, whose)
    except SettingsError as error:
        parser.error(str(error))
    from memory_core.closed_reader import ReaderMayLeave, run_on_standard_output

    hook = args.command == "hook"
    program = "harness-memory"
    if args.command in _SAYING_COMMANDS or args.command in _WARNING_COMMANDS:
        from harness_memory.as_typed import program_as_typed

        program = program_as_typed(env)
    if not hook:
        _log_to_stderr(program)
    _say_unused_root(
        args.command, flags, {} if getattr(args, "flags_only", False) else env, settings
    )

    def command(stream: ReaderMayLeave) -> int:
        said = cast("IO[str]", stream)
        # over the stream that sees a reader leave; a Session's prompt is memory: never rewritten
        if program != "harness-memory" and args.command in _SAYING_COMMANDS:
            from harness_memory.as_typed import AsTyped

            said = cast("IO[str]", AsTyped(said, program))
        return _command(parser, args, settings, env, stdin, said)

    # `… | head -1`: the work is done, then the process ends quietly; a hook exits 0 all the same
    return run_on_standard_output(command, out, end_when_left=not hook)


_SAYING_COMMANDS = frozenset({"install", "uninstall", "status", "token", "sync"})
"""The commands whose output tells the user commands to run (`` `harness-memory install codex`
again``): written with the program as the user typed it (:mod:`harness_memory.as_typed`)."""

_WARNING_COMMANDS = frozenset({"session-start", "draft"})
"""The commands run by hand whose warnings (stderr) tell the user commands to run (`` `harness-
memory install` again with a token it takes``), named as typed too; what they print on stdout
is a Session's prompt or a draft, memory text that stays as it was written."""


def _command(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    settings: HarnessSettings,
    env: Mapping[str, str],
    stdin: IO[bytes] | None,
    out: IO[str],
) -> int:
    """Run the command ``args`` names, writing what it says to ``out``; its exit status. A
    hook's messages name the program as its installed command starts it
    (:func:`~harness_memory.as_typed.typed_answer`), looked up only for an answer (H-5)."""
    if args.command in ("install", "uninstall", "status"):
        return run_install(parser, args, env, out)
    if args.command == "token":
        return run_token(parser, args, env, sys.stdin.buffer if stdin is None else stdin, out)
    if args.command == "session-start":
        return _session_start(parser, args, settings, out)
    if args.command == "draft":
        return _draft_show(parser, args, settings, out)
    if args.command == "sync":
        from harness_memory.cli_sync import run_sync

        return run_sync(parser, args, settings, out)
    if args.agent_kind == "claude-code" and args.part > args.parts:
        parser.error(f"--part {args.part} is past --parts {args.parts}")
    raw = (sys.stdin.buffer if stdin is None else stdin).read()
    answer = _hook(args, raw, settings)
    if answer is not None:
        from harness_memory.as_typed import program_as_typed, typed_answer

        answer = typed_answer(answer, program_as_typed(env))
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
    return 0


def _hooks_settings(
    args: argparse.Namespace,
    flags: Mapping[str, str | None],
    environ: Mapping[str, str],
    whose: str | None = None,
) -> HarnessSettings:
    """The settings of ``args``'s command (:func:`load_settings`), for a hook with its harness
    (:attr:`HarnessSettings.harness`: its messages name its commands, A-10), and for a
    ``sync`` by hand using the token of ``whose`` installed hooks with theirs. Raises
    :class:`SettingsError`."""
    settings = load_settings(flags, environ, flags_only=getattr(args, "flags_only", False))
    kind = getattr(args, "agent_kind", None) if args.command == "hook" else whose
    if kind not in _HARNESS_NAMES:
        return settings
    import msgspec

    return msgspec.structs.replace(settings, harness=kind)


def _with_installed_remote(
    flags: dict[str, str | None], environ: Mapping[str, str]
) -> tuple[dict[str, str | None], str | None]:
    """``(flags, whose)`` for ``sync``: when neither a flag nor a variable names the copy (URL,
    project, agent, state dir), the settings of the installed remote-mode hooks (R-1,
    :func:`~harness_memory.installers.remote_hooks.installed_remote_settings`), so a ``sync`` by
    hand syncs the copy the hooks use; a token given by flag or variable wins over theirs.
    ``whose``: the harness whose hooks' token is used (a refusal names its install, A-10),
    else None."""
    from harness_memory.installers.remote_hooks import installed_remote_settings

    def given(*names: str) -> bool:
        return any(flags.get(name) or environ.get(ENV_PREFIX + name.upper()) for name in names)

    if given("url", "project", "agent", "state_dir"):
        return flags, None
    installed = installed_remote_settings(Path(environ.get("HOME") or Path.home()), environ)
    if installed is None:
        return flags, None
    whose = installed.pop("harness", None)
    if given("token", "token_file"):
        whose = None
        installed = {k: v for k, v in installed.items() if k not in ("token", "token_file")}
    return {**flags, **{k: v for k, v in installed.items() if not given(k)}}, whose


def _say_unused_root(
    command: str,
    flags: Mapping[str, str | None],
    environ: Mapping[str, str],
    settings: HarnessSettings,
) -> None:
    """Warn (stderr) of a ``--memory-root`` or ``HARNESS_MEMORY_ROOT`` that ``command`` does not
    use (R-1): ``sync`` syncs the local copy under the state dir whatever the root says, and a
    Session start or hook in remote mode takes that copy as its root
    (:func:`~harness_memory.installers.remote_hooks.unused_root`, as ``install`` and ``status``
    warn). ``environ`` is what the command reads: none for a hook given ``--flags-only`` (its
    Session start names the variables it ignored). Nothing is imported unless a root was given
    (H-5)."""
    given = flags.get("root") or environ.get(ENV_PREFIX + "ROOT")
    remote = command == "sync" or (settings.remote and command in ("session-start", "hook"))
    if not given or not remote or settings.state_dir is None:
        return
    if not (settings.project and settings.agent):
        return  # the command says what is missing
    import logging

    from harness_memory.installers.remote_hooks import unused_root
    from harness_memory.settings import remote_memory_root

    copy = remote_memory_root(settings.state_dir, settings.project, settings.agent)
    sync = command == "sync" and not settings.remote  # local mode: not called remote mode
    said = unused_root(environ, copy, flag=flags.get("root"), sync=sync)
    if said is not None:
        logging.getLogger("harness_memory").warning("%s: %s", command, said)


def _log_to_stderr(program: str = "harness-memory") -> None:
    """Show the modules' warnings and errors on stderr as ``harness-memory: LEVEL: message``,
    unless the caller (a test, an embedding program) has configured logging already; the
    commands they name start with ``program`` (:func:`~harness_memory.as_typed.as_typed`)."""
    import logging

    from harness_memory.as_typed import as_typed

    class _Typed(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            return as_typed(super().format(record), program)

    if not logging.getLogger().handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(_Typed("harness-memory: %(levelname)s: %(message)s"))
        logging.basicConfig(level=logging.WARNING, handlers=[handler])


def _hook(args: argparse.Namespace, raw: bytes, settings: HarnessSettings) -> Any:
    """Run one hook adapter on the hook's stdin bytes: its JSON answer, or None for none."""
    try:
        hook = decode_input(raw)
    except ValueError as error:
        name = _HARNESS_NAMES[args.agent_kind]
        _say(f"harness-memory: hook input is not the JSON {name} sends: {error}")
        return _unjudged(
            args.event,
            settings,
            f"the tool call could not be read ({error}); send the call with plain arguments",
        )
    module, _, function = HOOKS[args.agent_kind][args.event].partition(":")
    adapter = getattr(importlib.import_module(module), function)
    if (args.agent_kind, args.event) == ("claude-code", "session-start"):
        return adapter(hook, settings, part=args.part, parts=args.parts)
    if args.event not in _PRE_TOOL_EVENTS:
        return adapter(hook, settings)
    try:
        with _judging_time(GUARD_TIME_S):
            return adapter(hook, settings)
    except GuardOutOfTime:
        _say(f"harness-memory: the write guard ran out of time ({GUARD_TIME_S:g} s)")
        return _unjudged(
            args.event,
            settings,
            f"the guard could not judge this call within {GUARD_TIME_S:g} s (a command this "
            "long or this involved); split it into shorter commands, or write a file's text "
            "with the harness's file tool",
        )
    except Exception as error:  # a guard that fails must not let the call run unjudged (P-3)
        _say(f"harness-memory: the write guard failed: {error!r}")
        return _unjudged(
            args.event,
            settings,
            f"the guard failed while judging this call ({type(error).__name__})",
        )


GUARD_TIME_S = 20.0
"""The most seconds the write guard judges one tool call before refusing it (P-3): well inside
the 30 s the install gives Codex CLI's and Gemini CLI's hooks (and Claude Code's own default),
since a hook the harness kills for its time lets the call through (Claude Code: "a timed-out
command hook doesn't block the tool call"). An everyday command is judged in well under a
second; a model's command of tens of kilobytes of statements may take longer on a busy
machine (the guard's readers are linear, but not cheap per word)."""


class GuardOutOfTime(BaseException):
    """The write guard's time (:data:`GUARD_TIME_S`) ran out while it judged a call. A
    ``BaseException``, so no reader's ``except Exception`` takes it for a fault of its own."""


@contextlib.contextmanager
def _judging_time(seconds: float) -> Iterator[None]:
    """Raise :class:`GuardOutOfTime` in the block once ``seconds`` (wall) have passed, by
    ``SIGALRM``; no limit where no signal handler may be set (a thread other than the main
    one: an embedder calling :func:`main` from a worker)."""
    try:
        previous = signal.signal(signal.SIGALRM, _out_of_time)
    except ValueError:  # not the main thread
        yield
        return
    earlier = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, *earlier)  # an embedder's own alarm, if any
        signal.signal(signal.SIGALRM, previous)


def _out_of_time(signum: int, frame: object) -> None:
    """``SIGALRM``'s handler while the guard judges a call (:func:`_judging_time`)."""
    raise GuardOutOfTime


def _say(line: str) -> None:
    """``line`` on stderr, when there is one: with stderr closed (``2>&-``) ``print`` would
    write it to stdout, before the hook's JSON answer."""
    if sys.stderr is not None:
        print(line, file=sys.stderr)


_PRE_TOOL_EVENTS = frozenset({"pre-tool-use", "before-tool"})
"""The events whose answer allows or denies a tool call: the write guard's (P-3)."""


def _unjudged(event: str, settings: HarnessSettings, why: str) -> Any:
    """The answer to a tool call the guard could not judge (``why``: its input unreadable, or
    the guard failed): :func:`_unread_tool_call`'s deny for a pre-tool event wherever the guard
    protects something (a memory root configured, a Session's record in the state dir, or a
    state dir another account could change: :func:`~harness_memory.state_trust.untrusted_state`,
    whose reason names the folder and the fix); None otherwise (P-3: a read error never widens
    access, so a state dir whose emptiness another account may have made is no "nothing to
    guard")."""
    if event not in _PRE_TOOL_EVENTS:
        return None
    state = settings.state_dir
    if state is not None and (untrusted := untrusted_state(state)) is not None:
        return _unread_tool_call(event, f"{why}; and {UNTRUSTED_SAID}: {untrusted}")
    if settings.memory_root is None and (state is None or not holds_a_record(state)):
        return None
    return _unread_tool_call(event, why)


def _unread_tool_call(event: str, why: str) -> Any:
    """The write guard's answer to a tool call it could not judge (its hook input unreadable,
    or the guard failed), with a memory root configured (P-3): a deny saying ``why``, in the
    harness's shape, for a pre-tool event (no answer lets the call run unjudged: a tool
    argument nested past the JSON parser's depth once carried a write into another scope, and
    a guard that raised exited 1, which Claude Code takes as no objection); None for every
    other event, which fails open."""
    reason = f"Agent Memory write guard: {why}"
    if event == "before-tool":  # Gemini CLI
        return {"decision": "deny", "reason": reason}
    if event == "pre-tool-use":  # Claude Code, Codex CLI
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }
    return None


def _session_start(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    settings: HarnessSettings,
    out: IO[str],
) -> int:
    import msgspec
    from memory_core.rules import utf8_length

    from harness_memory.session import start_from_settings

    workspace = args.workspace or str(Path.cwd())
    if utf8_length(workspace) is None:  # no JSON or text on stdout could carry it (A-9, K-5)
        named = "--workspace" if args.workspace else "the working folder"
        parser.error(
            f"{named} {os.fsencode(workspace)!r} is not UTF-8 (a folder named in another "
            "encoding): the memory service takes a Workspace path as UTF-8 text; rename the "
            "folder or start the Session in another"
        )
    try:
        result = start_from_settings(
            settings,
            workspace=workspace,
            session_id=args.session_id,
            draft_id=args.draft,
        )
    except TokenFileError as error:
        parser.error(str(error))
    except MissingSettingsError as error:
        parser.error(f"missing {_flags(error.names)}")
    except TemplateUnreadableError as error:
        parser.error(str(error))
    if args.format == "json":
        out.write(msgspec.json.format(msgspec.json.encode(result).decode(), indent=2) + "\n")
    else:
        _write_text(result, out)
    meta = result.session_meta
    if meta.error_kind in REFUSED_KINDS:
        import logging

        said = REFUSED_FROM_COPY_SAID if meta.status == "offline" else REFUSED_SAID
        logging.getLogger("harness_memory").error("%s", said)
        return REFUSED_STATUS
    return 0


def _flags(names: list[str]) -> str:
    """The missing settings' variables (``HARNESS_MEMORY_PROJECT``) as their flags, each with
    the variable it falls back to: ``--project (HARNESS_MEMORY_PROJECT)``."""
    return ", ".join(f"--{name.removeprefix(ENV_PREFIX).lower()} ({name})" for name in names)


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
    import logging

    import msgspec

    from harness_memory.client import MemoryClient
    from harness_memory.errors import MemoryClientError

    try:
        url, project, agent = settings.required()
    except MissingSettingsError as error:
        parser.error(f"missing {_flags(error.names)}")
    try:
        token, source = settings.bearer_token(), settings.token_source
        client = MemoryClient(url, token=token, timeout=settings.timeout, token_source=source)
        draft = client.get_draft(project, agent, args.draft_id)
    except (MemoryClientError, InvalidId, TokenFileError) as error:
        logging.getLogger("harness_memory").error("cannot fetch draft %s: %s", args.draft_id, error)
        return 1
    if args.format == "json":
        out.write(msgspec.json.format(msgspec.json.encode(draft).decode(), indent=2) + "\n")
    else:
        _write_line(draft.prompt, out)
    return 0


# --- the parser ---------------------------------------------------------------------------------


def build_parser(line: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The ``harness-memory`` argument parser (P-4, H-3, A-12).

    Given the command ``line`` it will read, only the command its first word names (for
    ``hook``, the harness its second word names) gets a parser and its arguments: :func:`main`
    reads one command, and each other command's parser (argparse looks up the translations of
    its headings for each) and flags were about a tenth of a hook process's work (H-5). Every
    command and harness is still named in the usage lines, so a usage error reads the same, and
    a line whose word names none (``--help``, a typo, nothing) gets them all: the help that
    lists them is printed only for such a line.
    """
    parser = CommandLine(
        prog="harness-memory", description="Agent Memory for a harness: Session start and hooks."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    builders: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
        "session-start": (
            "start a Session's memory and print the system prompt",
            _add_session_start,
        ),
        "draft": ("drafts of the chat bridge", _add_draft),
        "hook": (
            "hook adapters for coding agents",
            functools.partial(_add_hook, only=line[1] if len(line) > 1 else None),
        ),
        "sync": (SYNC_HELP, lambda sync: add_sync_flags(sync, _add_setting_flags)),
        "token": (TOKEN_HELP, add_token_flags),
        **{
            verb: (help_text, functools.partial(add_install_flags, verb=verb))
            for verb, help_text in INSTALL_HELP.items()
        },
    }
    every = not line or line[0] not in builders
    for name, (help_text, build) in builders.items():
        if every or line[0] == name:
            command = commands.add_parser(name, help=help_text)
            build(command)
            command.set_defaults(command_parser=command)
    name_by_choices(commands, every=builders)
    return parser


def _draft_id(value: str) -> str:
    """argparse type of a draft id: checked before any request (A-12), a usage error if bad."""
    try:
        return check_draft_id(value)
    except InvalidId as error:
        raise argparse.ArgumentTypeError(str(error)) from error


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
    parser.add_argument(
        "--token",
        help="bearer token; on a command line every user of the machine can read it (ps): "
        "prefer --token-file or the variable [HARNESS_MEMORY_TOKEN]",
    )
    parser.add_argument(
        "--token-file",
        metavar="PATH",
        help="a file (mode 0600) holding the bearer token, read when no token is given "
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
        help="on: remote mode: memory is a local copy under the state dir, synced with "
        "the service over git [HARNESS_MEMORY_REMOTE]",
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
            help="memory root for the write guard and the offline fallback; in remote mode (and "
            "for sync) the local copy's, and a warning says this one is not used "
            "[HARNESS_MEMORY_ROOT]",
        )


def _add_session_start(start: argparse.ArgumentParser) -> None:
    _add_setting_flags(start, hook=False)
    start.add_argument("--workspace", default=None, help="the Workspace directory (default: cwd)")
    start.add_argument("--session-id", default=None, help="the harness's Session id")
    start.add_argument(
        "--draft",
        type=_draft_id,
        default=None,
        metavar="ID",
        help="start from this draft: its pinned Workspace wins over --workspace and its "
        "prompt is printed after the system prompt",
    )
    start.add_argument(
        "--format",
        choices=("json", "text"),
        default="text",
        help="text: the system prompt (then the draft's prompt); json: prompt, key, "
        "initialPrompt, sections and the session_meta record",
    )


def _add_draft(drafts: argparse.ArgumentParser) -> None:
    draft_commands = drafts.add_subparsers(dest="draft_command", required=True)
    show = draft_commands.add_parser("show", help="print a draft's prompt")
    name_by_choices(draft_commands)
    _add_setting_flags(show, hook=False, draft=True)
    show.set_defaults(command_parser=show)
    show.add_argument("draft_id", type=_draft_id, metavar="ID", help="the draft id")
    show.add_argument(
        "--format",
        choices=("json", "text"),
        default="text",
        help="text: the prompt, verbatim (a final newline added if it lacks one); "
        "json: the whole draft (workspace, expiry, …)",
    )


def _add_hook(hook: argparse.ArgumentParser, *, only: str | None = None) -> None:
    """The ``hook`` command's harnesses, each with its events and flags; with ``only`` one of
    them, the others named without their arguments (:func:`build_parser`)."""
    agents = hook.add_subparsers(dest="agent_kind", required=True)
    for harness, events in HOOKS.items():
        if only in HOOKS and only != harness:
            continue
        adapter = agents.add_parser(harness, help=f"{harness} hooks (JSON on stdin and stdout)")
        event = adapter.add_argument(
            "event", choices=list(events), help="the hook event the harness runs this for"
        )
        name_by_choices(event)
        adapter.set_defaults(command_parser=adapter)
        if harness == "claude-code":
            adapter.add_argument(
                "--part",
                type=_positive,
                default=1,
                help="session-start: which piece this hook entry answers (1…N), default 1",
            )
            adapter.add_argument(
                "--parts",
                type=_positive,
                default=1,
                help="session-start: how many SessionStart hook entries carry the injection, "
                "default 1",
            )
        _add_setting_flags(adapter, hook=True)
        adapter.add_argument(
            "--url-id-not-secret",
            action="store_const",
            const="on",
            help="the id in --url's path is no secret (what install was told): a refusal names "
            "the URL whole, so the command it prints runs as printed",
        )
        adapter.add_argument(
            "--flags-only",
            action="store_true",
            help="read no HARNESS_MEMORY_* variable, the token's neither (--token-file; "
            "without --state-dir, the account's ~/.claude/harness-memory and its token file): "
            "a repository's settings can set the Session's environment (what install writes)",
        )
    name_by_choices(agents, every=HOOKS)
