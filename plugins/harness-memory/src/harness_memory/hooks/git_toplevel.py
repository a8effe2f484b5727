"""The folder ``cd "$(git rev-parse --show-toplevel)"`` enters, asked of git itself (P-3).

A command opening with it (``cd "$(git rev-parse --show-toplevel)" && make > build.log``) is the
usual way an agent gets to the repository's top before it writes there. Read as text, the folder
is known only at run time (``core.worktree`` can point it anywhere, another scope included), so
every relative write after it was refused. Git answers the same question the same way before
the command runs as when it runs, provided nothing has run before it that could change the
answer: the guard asks git only for a substitution in the command's first simple command with
only literal words before it (``cd "$(git …)"``, ``rm -f "$(git …)/build.log"``, ``cp x
"$(git …)/docs/"``: the words of one command are expanded before it runs, and no assignment or
other expansion comes first), in the folder the shell starts in and with the harness's
environment, as the shell will, or that follows only a
``cd`` into a literal folder (``cd src && cd "$(git …)"``; Gemini CLI's ``run_shell_command``
reaches the guard so, its ``dir_path`` as that folder), asked in that folder (once asked in
the harness's folder instead: over-refused, and a repository there could have answered for
another one's ``core.worktree``); the folder git prints, with the path glued after it, is then
judged like any folder a ``cd`` names or path a word spells (another scope's folder is refused,
and so is a relative write from it). Git runs at most :data:`GIT_TIMEOUT` seconds; when it
fails, is slow or prints no single absolute folder, the ``cd`` stays unknown and relative
writes after it stay refused. Measured on a loaded 2-CPU machine (load 6.5): 2.8 ms median, 13
ms at most over 30 runs, and 3 ms to import ``subprocess``, only for such a command.

A script the command runs asks the same of git (:func:`toplevel`, from ``named_scripts``, which
may import this module: it sits a layer below it) for its own ``cd "$(git rev-parse
--show-toplevel)"`` when nothing before it could change the answer.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from harness_memory.hooks.shell_words import split_words

__all__ = ["GIT_TIMEOUT", "toplevel", "with_toplevel"]

GIT_TIMEOUT = 2.0
"""Seconds git may take to say the repository's top folder; past them the folder is taken as
unknown and relative writes after it are refused. Git answers in ~3 ms at rest (H-5's 100 ms
for the hook holds there); on a busy machine it took over 50 ms, the old limit, and an everyday
command (``cd "$(git rev-parse --show-toplevel)" && make > build.log``) was refused for the
machine's load: a hook a little late is not felt, a refusal of such a command is. The limit
only guards against a git that hangs."""
_OPENING_RE = (
    r"^\s*(?:cd\s+(?P<folder>(?:'[^']*'|\"'\"|[\w@%+=:,./-])+)\s*&&\s*)?"
    r"(?P<cd>(?:[\w@%+:,./-]+[ \t]+)+?|[A-Za-z_][A-Za-z0-9_]*=)"
    r"(?P<q>\"?)\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\)(?P<tail>[\w@%+:,./-]*)(?P=q)"
    r"(?P<after>[\w@%+:,./-]*)(?=[\s;&|<>)]|$)"
)
"""``"$(git rev-parse --show-toplevel)"`` (quoted or not, a path glued after it: ``…)/src"``,
``…)"/build``) in the command's first simple command, only literal words before it (``cd``,
``rm -f``, ``cp note.md``; no assignment, no other expansion, which could change git's
answer before it runs), or the value the command's first word assigns when that assignment is
a statement of its own (``ROOT="$(git …)"; cd "$ROOT"``: the variable holds what git prints,
never split; never a prefix, ``ROOT=$(git …) cp a "$ROOT/x"``, whose command's words bash
expands before it assigns: :data:`_STATEMENT_END_RE`); a single-quoted one is no
substitution and is left alone. It may follow
``cd FOLDER &&`` with a literal folder (plain or single-quoted as :func:`shlex.quote` writes
it: how Gemini CLI's ``dir_path`` reaches the guard), where git is then asked."""


def with_toplevel(command: str, folder: str, environ: Mapping[str, str]) -> str:
    """``command`` with ``"$(git rev-parse --show-toplevel)"`` in its first simple command
    (:data:`_OPENING_RE`: ``cd "$(git …)"``, ``rm "$(git …)/x"``) run in ``folder`` (or in the
    literal folder a ``cd FOLDER &&`` before it enters, from ``folder``) replaced by the folder
    git prints, with the path glued after it, quoted; ``command`` unchanged when it opens
    otherwise, the folder before it holds ``..``, git gives no answer, or an unquoted answer
    holds white space or a pattern character (bash would split or expand it). Never raises."""
    if "--show-toplevel" not in command:  # what every match holds: no pattern compiled (H-5)
        return command
    found = re.match(_OPENING_RE, command)
    if found is None:
        return command
    if found.group("cd").endswith("=") and not re.compile(_STATEMENT_END_RE).match(
        command, found.end()
    ):
        return command  # ``ROOT=$(git …) cp a "$ROOT/x"``: cp's words are expanded first
    if found.group("folder") is not None:
        entered = split_words(found.group("folder"))  # linear in a long folder (H-5)
        if len(entered) != 1 or ".." in entered[0].split("/") or entered[0].startswith("-"):
            return command  # bash's cd reads .. by the name, the kernel by the folder
        if not entered[0].startswith("/") and environ.get("CDPATH"):
            return command  # a relative folder bash may look for along CDPATH
        folder = os.path.join(folder, entered[0])  # noqa: PTH118 (an absolute one wins)
    top = toplevel(folder, environ)
    if top is None or (not found.group("q") and re.search(_SPLIT_RE, top)):
        return command
    import shlex  # only here: its import compiles a pattern every shell guard paid for (H-5)

    place = shlex.quote(top + found.group("tail") + found.group("after"))
    before, after = command[: found.end("cd")], command[found.end() :]
    return f"{before}{place}{after}"


_STATEMENT_END_RE = r"[ \t]*(?:;(?!;)|&&|\|\||\n|$)"
"""The end of an assignment that is a statement of its own (``ROOT=$(git …);``, ``… &&``,
a newline): the value reaches the commands after it. Before a command's name it is that
command's prefix: bash expands the command's words before it assigns, and keeps the
variable's value after it; in a pipeline or run in the background, a subshell's."""
_SPLIT_RE = r"[\s*?\[]"
"""What bash splits an unquoted substitution's output at, or expands it by."""


def toplevel(folder: str, environ: Mapping[str, str]) -> str | None:
    """What ``git rev-parse --show-toplevel`` prints run in ``folder`` with ``environ``: one
    absolute folder; None when git fails, takes longer than :data:`GIT_TIMEOUT` or prints
    anything else (for :func:`with_toplevel`, and for a script's ``cd`` there:
    ``named_scripts``). Never raises."""
    import subprocess  # only for such a command (H-5)

    if "\x00" in folder or not folder.startswith("/"):
        return None
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],  # noqa: S607 (git from the harness's PATH, as the shell finds it)
            cwd=folder,
            env=dict(environ),
            capture_output=True,
            timeout=GIT_TIMEOUT,
            check=False,
        )
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
    lines = done.stdout.split(b"\n")
    if done.returncode != 0 or len(lines) != 2 or lines[1] or not lines[0].startswith(b"/"):
        return None
    return os.fsdecode(lines[0])
