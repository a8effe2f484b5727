"""The commands ``harness-memory`` tells its user to run, named as that user can run them.

Beside ``make run`` the program is ``.venv/bin/harness-memory`` (and ``memory-api`` is
``.venv/bin/memory-api``): a bare ``harness-memory`` in
"run `harness-memory install codex` again" is a command the shell does not find (or finds
another install of). :func:`program_as_typed` is the program as the user started it, and
:class:`AsTyped` writes every command in backticks that starts with the bare name (the one
form all the messages use) with that program in its place.

A hook's messages (a Session-start notice, a refusal's reason) reach the user and the model
inside a Session: :func:`typed_answer` names the program there as the installed hook command
starts it (an absolute path, as :func:`program_as_typed` finds it in the hook's ``argv[0]``),
and leaves the injected memory text (``additionalContext``) as it was written. Which command a
message names (`` `harness-memory install codex --managed` again``) is chosen where it is built,
by :class:`~harness_memory.advice.Hooks`; nothing here rewrites it.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

__all__ = [
    "MESSAGE_KEYS",
    "WHERE_THE_SERVICE_RUNS",
    "AsTyped",
    "as_typed",
    "program_as_typed",
    "typed_answer",
]

NAME = "harness-memory"
"""The console script's name, as every message writes a command."""


def program_as_typed(environ: Mapping[str, str], argv0: str | None = None) -> str:
    """``harness-memory`` when that name on ``environ``'s ``PATH`` runs this very program,
    else the path the user started it by (``argv0``, default ``sys.argv[0]``): beside ``make
    run`` that is ``.venv/bin/harness-memory``. Not started as the console script (``python
    -m``, a test): the bare name."""
    typed = sys.argv[0] if argv0 is None else argv0
    if Path(typed).name != NAME:
        return NAME
    on_path = shutil.which(NAME, path=environ.get("PATH", ""))
    if on_path is not None and Path(on_path).resolve() == Path(typed).resolve():
        return NAME
    return typed


SERVICE = "memory-api"
"""The service's console script, installed beside ``harness-memory`` by ``make run``."""

WHERE_THE_SERVICE_RUNS = "where the service runs: "
"""What a message puts before a ``memory-api`` command to be run on the service's machine (a
remote install's, R-1): :func:`as_typed` leaves it the bare name, as this machine's
``memory-api`` would work in this machine's data dir, which that service never reads."""


_ASSIGNMENT = r"[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|[^\s`']+)"
"""A shell variable set for one command, its value bare or single-quoted (as ``shlex.quote``
writes it): ``CODEX_HOME=/p/.codex`` or ``CODEX_HOME='/a b/.codex'``."""


def as_typed(text: str, program: str) -> str:
    """``text`` with each command in backticks that starts with ``harness-memory`` (`` `harness-
    memory status` ``) starting with ``program`` instead (a path with a space quoted), and each
    that starts with ``memory-api`` with the ``memory-api`` beside ``program`` when there is one
    (beside ``make run``: ``.venv/bin/memory-api``, on no ``PATH`` either; the plugin's wheel
    alone has none, and the bare name stays; ``./harness-memory``'s is ``./memory-api``), but
    one said to run :data:`WHERE_THE_SERVICE_RUNS`. A command run in a subshell under a umask
    (`` `(umask 077; memory-api token create …)` ``, which keeps its output file private)
    counts as starting with the program it runs, and so does one run with variables set
    (`` `CODEX_HOME=/p/.codex harness-memory uninstall codex` ``)."""
    if program == NAME:
        return text
    import shlex

    typed_program = shlex.quote(program)
    text = re.sub(
        f"`((?:{_ASSIGNMENT} +)*){re.escape(NAME)} ",
        lambda found: f"`{found.group(1)}{typed_program} ",
        text,
    )
    beside = program[: program.rfind(os.sep) + 1] + SERVICE  # as written: a ./ kept
    if f"{SERVICE} " in text and Path(beside).is_file():
        here = re.compile(
            f"(?<!{re.escape(WHERE_THE_SERVICE_RUNS)})`(\\(umask [0-7]+; )?{re.escape(SERVICE)} "
        )
        typed = shlex.quote(beside)
        text = here.sub(lambda found: f"`{found.group(1) or ''}{typed} ", text)
    return text


MESSAGE_KEYS = frozenset({"systemMessage", "reason", "permissionDecisionReason", "stopReason"})
"""The members of a hook answer (Claude Code, Codex CLI, Gemini CLI; nested in
``hookSpecificOutput`` too) whose text is a message of ours, not memory."""


def typed_answer(answer: Any, program: str) -> Any:
    """The hook ``answer`` (its JSON object) with the commands of its messages
    (:data:`MESSAGE_KEYS`) :func:`as_typed`; every other member, the memory text among them, as
    it is (A-10). The messages name the hook's own commands already (built for its harness and
    install: :class:`~harness_memory.advice.Hooks`); only the program's name changes here."""
    if program == NAME or not isinstance(answer, dict):
        return answer
    return {
        key: as_typed(value, program)
        if key in MESSAGE_KEYS and isinstance(value, str)
        else typed_answer(value, program)
        for key, value in answer.items()
    }


class AsTyped:
    """A text stream that writes to ``stream`` with its commands :func:`as_typed`."""

    def __init__(self, stream: IO[str], program: str) -> None:
        self.stream = stream
        self.program = program

    def write(self, text: str) -> int:
        """Write ``text``, its commands as typed; the count of characters given."""
        self.stream.write(as_typed(text, self.program))
        return len(text)

    def flush(self) -> None:
        """Flush ``stream``."""
        self.stream.flush()
