"""Which ``harness-memory`` the hooks run, and whether it outlives the checkout it came from.

Every hook command starts with the absolute path of a ``harness-memory`` console script. One
from an editable install (``pip install -e``, ``make install``) imports the package from the
source checkout, so ``make clean`` or moving the checkout breaks every Session's hooks. An
install from the wheels (``make wheels``, then ``pipx install`` / ``uv tool install``) does not.
:func:`choose_executable` prefers a script that outlives the checkout — the one on ``PATH``,
then the one beside the running Python — and says which it took and why.
:func:`compile_bytecode` byte-compiles the packages its hooks import in that script's
environment, so that no hook process compiles their sources at its start (H-5).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from memory_core import json_text

from harness_memory.installers.detail import Detail

__all__ = [
    "HOOK_PACKAGES",
    "OUTLIVE_THE_CHECKOUT",
    "PLAIN_VENV",
    "REPOSITORY_ENV_STILL",
    "Executable",
    "checkout_of",
    "choose_executable",
    "compile_bytecode",
    "describe_executable",
    "describe_python",
    "import_command",
    "interpreter_of",
    "isolated_interpreter",
    "isolation_note",
]

HOOK_PACKAGES = ("harness_memory", "memory_core", "msgspec", "frontmatter", "yaml")
"""The packages a hook process imports (``frontmatter`` and ``yaml``: the offline fallback's)."""

_COMPILE = """\
import compileall, importlib.util, sys
ok = True
for name in sys.argv[1:]:
    spec = importlib.util.find_spec(name)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        ok = compileall.compile_dir(folder, quiet=2) and ok
sys.exit(0 if ok else 3)
"""
"""Run by the hooks' own Python, isolated as they run it (``-I``): compile each named
package's modules whose bytecode is missing or out of date (``compileall`` writes it whatever
``PYTHONDONTWRITEBYTECODE`` says); exit status 3 when one could not be written."""
_NOT_ALL_WRITTEN = 3


PLAIN_VENV = "~/.local/share/agent-memory-harness"
"""Where the plain-Python way puts the plugin's venv: beside, never at, the service's default
data dir (``~/.local/share/agent-memory``, which ``memory-api`` would fill with agents and
tokens: a venv there mixed the two, and removing one removed the other)."""

OUTLIVE_THE_CHECKOUT = (
    "To outlive the checkout: `make wheels`, then `pipx install dist/agent_memory_harness-*.whl "
    "--pip-args='--no-index --find-links dist'`, or with only Python (no pipx): `python3 -m venv "
    f"{PLAIN_VENV} && {PLAIN_VENV}/bin/pip install --no-index --find-links dist "
    "agent-memory-harness` (the plugin README: Install without the checkout); then run this "
    f"install again with that harness-memory (e.g. {PLAIN_VENV}/bin/harness-memory install …)"
)
"""How an editable install's note says to install one that outlives the checkout: the plugin
README's ways, pipx and a plain venv (a machine with only Python has neither pipx nor uv)."""


@dataclass(frozen=True, slots=True)
class Executable:
    """The command the hooks run, and what the install says about it (``note``); ``checkout``
    is the source checkout it depends on, or None when it outlives any checkout."""

    command: str
    note: str
    checkout: Path | None = None
    brief: str | None = None
    """``note`` as an install without ``--verbose`` says it (None: ``note`` itself)."""

    @property
    def interpreter(self) -> Path | None:
        """The Python the hooks start :attr:`command` with (:func:`isolated_interpreter`)."""
        return isolated_interpreter(self.command)


def interpreter_of(script: Path) -> Path | None:
    """The Python a ``harness-memory`` console script runs, or None when the file cannot be
    read or names none.

    That is its ``#!`` line or, for a script whose Python's path is too long for ``#!`` or
    holds a space, the Python its ``#!/bin/sh`` second line execs (pip's and uv's
    ``'''exec' "PYTHON" "$0" "$@"``).
    """
    try:
        with script.open("rb") as handle:
            head = handle.read(4096).decode("utf-8", "replace").splitlines()[:2]
    except OSError:
        return None
    if not head or not head[0].startswith("#!") or not head[0][2:].strip():
        return None
    first = head[0][2:].strip().split()[0]
    if first in ("/bin/sh", "/usr/bin/sh"):
        execs = _SH_EXEC_RE.match(head[1]) if len(head) == 2 else None
        return Path(execs.group("python")) if execs else None
    return Path(first)


_SH_EXEC_RE = re.compile(r"""'''exec' (?P<q>["'])(?P<python>/[^"']+)(?P=q) "\$0" "\$@"$""")
"""The second line of a console script whose ``#!`` is ``/bin/sh`` (pip, uv)."""
_PYTHON_NAME_RE = re.compile(r"python[0-9.]*[a-z]*(?:-dbg)?")
"""The file name of a CPython program (``python``, ``python3``, ``python3.12``, ``python3.13t``,
``python3.12-dbg``): one that takes ``-I -X utf8``."""


def isolated_interpreter(command: str) -> Path | None:
    """The absolute Python a hook command names before the ``harness-memory`` script
    ``command``, to run it isolated (``python -I -X utf8``:
    :data:`~harness_memory.installers.spec.ISOLATED`); None when ``command`` is not an absolute
    path or its Python cannot be told (no ``#!``, ``#!/usr/bin/env python3``: found on
    ``PATH``), or the program its ``#!`` names is no Python by name (``#!/bin/bash``: a wrapper
    that execs the real script, as Nix's are; ``/bin/bash -I`` fails, and every hook with it).

    A repository's settings can set the environment of a Session's hooks (Claude Code's
    ``.claude/settings.json`` ``env``, Gemini CLI's ``.env``). Run as ``PYTHON -I SCRIPT``, the
    hook's Python reads no ``PYTHON*`` variable (``PYTHONPATH`` holding a ``harness_memory``
    package of the repository's, which would replace the write guard; ``PYTHONHOME``, which
    stops it), no user site-packages, and puts neither the script's folder nor the working
    directory on ``sys.path`` (P-2a, P-3). An editable install's ``.pth`` still works.
    """
    if not Path(command).is_absolute():
        return None
    python = interpreter_of(Path(command))
    if python is None or not python.is_absolute():
        return None
    return python if _PYTHON_NAME_RE.fullmatch(python.name) else None


def checkout_of(script: Path) -> Path | None:
    """The source checkout an installed ``harness-memory`` script imports from, or None.

    The script's ``#!`` names its environment's Python; that environment's ``harness_memory``
    distribution records an editable install in ``direct_url.json`` (PEP 660). A script whose
    environment cannot be read this way is taken to stand on its own.
    """
    interpreter = interpreter_of(script)
    if interpreter is None:
        return None
    environment = interpreter.parent.parent
    for record in environment.glob("lib/python*/site-packages/agent_memory_harness-*.dist-info"):
        try:
            direct = json_text.loads((record / "direct_url.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(direct, dict) and direct.get("dir_info", {}).get("editable"):
            url = urllib.parse.urlsplit(str(direct.get("url", "")))
            return Path(urllib.request.url2pathname(url.path)) if url.scheme == "file" else None
    return None


def describe_executable(command: str) -> str | None:
    """A problem with a hook's ``command`` (its first word), or None when it can run."""
    path = Path(command)
    if not path.is_file():
        return f"{command} does not exist"
    if not os.access(path, os.X_OK):
        return f"{command} is not executable"
    return None


def describe_python(python: str) -> str | None:
    """A problem with the Python a hook command starts ``harness-memory`` with (``PYTHON -I -X
    utf8 SCRIPT``), or None when it can run it: missing, not executable, or no CPython program
    by name (``/bin/bash -I`` is refused, and the hook with it)."""
    problem = describe_executable(python)
    if problem is None and not _PYTHON_NAME_RE.fullmatch(Path(python).name):
        return f"starts harness-memory with {python}, which is no Python (it refuses -I)"
    return problem


def choose_executable(explicit: str | None, environ: dict[str, str] | None = None) -> Executable:
    """The ``harness-memory`` the hooks should run.

    ``explicit`` (``--executable``) is taken as given, made absolute. Otherwise the first of
    the script on ``PATH`` and the one beside the running Python that does not depend on a
    source checkout; when both do, the one beside the running Python, with a note on how to
    install one that outlives the checkout.
    """
    if explicit:
        given = str(Path(explicit).absolute()) if os.sep in explicit else explicit
        command = given if os.sep in given else shutil.which(given) or given
        checkout = checkout_of(Path(command)) if os.sep in command else None
        return Executable(command, f"hooks run {command} (--executable)", checkout)
    path = (environ or {}).get("PATH", os.environ.get("PATH", ""))
    beside = Path(sys.executable).parent / "harness-memory"
    candidates: list[tuple[Path, str]] = []
    on_path = shutil.which("harness-memory", path=path)
    if on_path:
        candidates.append((Path(on_path).absolute(), "found on PATH"))
    if beside.is_file():
        candidates.append((beside, "beside the running Python"))
    for script, where in candidates:
        if checkout_of(script) is None:
            return Executable(str(script), f"hooks run {script} ({where}; outlives any checkout)")
    if not candidates:
        return Executable("harness-memory", "hooks run harness-memory from PATH (none found now)")
    script, where = candidates[-1]
    checkout = checkout_of(script)
    stops = (
        f"hooks run {script} ({where}), an editable install of the checkout {checkout}: "
        "`make clean`, moving or deleting the checkout stops memory and the write guard, and "
        "then every call of the tools the guard sees (Bash, Write, Edit…) is refused: before "
        f"deleting it, run `{script} uninstall HARNESS`; once it is gone, `harness-memory "
        "uninstall HARNESS` from any other install (a fresh clone's .venv/bin/harness-memory) "
        "takes the hooks out."
    )
    return Executable(
        str(script),
        f"{stops} {OUTLIVE_THE_CHECKOUT}",
        checkout,
        f"{stops} To outlive it: --verbose, or the plugin README's Install without the checkout",
    )


REPOSITORY_ENV_STILL = (
    "a repository's settings can still set LD_PRELOAD or LD_LIBRARY_PATH (code of its own "
    "loaded into the shell and the Python that run every hook), and the PATH on which the "
    'write guard (for `cd "$(git rev-parse --show-toplevel)"`) and remote mode find git '
    "(plugin README: What a repository's environment can still do)"
)
"""What a repository's settings ``env`` (or Gemini CLI's ``.env``) can still do to the hooks:
the dynamic loader reads its variables before any word of the hook command runs."""


def isolation_note(chosen: Executable) -> str:
    """What the install says about the environment the hooks' Python runs in (P-2a): isolated
    by ``-I`` (a :class:`~harness_memory.installers.detail.Detail`: ``install --verbose``), or
    a warning when the command's Python cannot be told (then a repository's ``PYTHONPATH``
    reaches it)."""
    if chosen.interpreter is not None:
        return Detail(
            f"hooks start it as {chosen.interpreter} -I -X utf8 …: no PYTHON* variable a "
            "repository's settings set (PYTHONPATH, PYTHONHOME…), no user site-packages and no "
            f"locale (LC_ALL, LOCPATH) reach their Python; {REPOSITORY_ENV_STILL}"
        )
    return (
        f"WARNING: cannot tell which Python runs {chosen.command} (no first line naming a "
        "Python by absolute path): its hooks start it directly, so a repository's settings can "
        "set its PYTHONPATH (a harness_memory package of their own in place of the write guard) or "
        "PYTHONHOME; give --executable a harness-memory script whose first line names its "
        "Python"
    )


def compile_bytecode(command: str, packages: tuple[str, ...] = HOOK_PACKAGES) -> str:
    """Byte-compile ``packages`` where the Python of the ``harness-memory`` script ``command``
    imports them from; what was done, as a sentence for the install's output (done: a
    :class:`~harness_memory.installers.detail.Detail`, said by ``install --verbose``; not all
    done: said always).

    A hook process whose modules lack up-to-date bytecode compiles their sources at every start
    when it cannot write its cache (``PYTHONDONTWRITEBYTECODE`` set, a read-only environment):
    1.8-1.9x the instructions of a write guard or a Session start (H-5). pip and pipx compile at
    install; ``uv tool install`` (without ``--compile-bytecode``) and editable installs do not.
    Never raises: a Python that cannot be found or run, or a folder that cannot be written, is
    said in the sentence.
    """
    interpreter = isolated_interpreter(command)
    if interpreter is None:
        return f"bytecode not compiled: cannot tell which Python runs {command}"
    try:
        done = subprocess.run(  # noqa: S603  (our own program, run by the hooks' own Python)
            [str(interpreter), "-I", "-c", _COMPILE, *packages],
            capture_output=True,
            check=False,
            timeout=600,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bytecode not compiled: {interpreter}: {error}"
    if done.returncode not in (0, _NOT_ALL_WRITTEN):
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        return f"bytecode not compiled: {interpreter} could not run the compile: {said[0]}"
    if done.returncode == _NOT_ALL_WRITTEN:
        return (
            f"bytecode of {', '.join(packages)} could not all be written ({interpreter}): a hook "
            "that cannot write its cache compiles those sources at every start (about twice its "
            "time)"
        )
    return Detail(f"bytecode of {', '.join(packages)} compiled for {interpreter} (H-5)")


def import_command(harness: str, memory_root: Path | None, environ: dict[str, str]) -> str:
    """How an install names ``memory-api memory import --from HARNESS``, the command that brings
    a harness's own memory over (P-5), so that it names a ``memory-api`` that exists (H-3).

    The plugin's wheel (the plugin README's venv of its own) installs no ``memory-api``. One
    beside the running Python (``make run``'s ``.venv/bin``: the install's output names it as
    typed, :func:`~harness_memory.as_typed.as_typed`) or on ``environ``'s ``PATH`` keeps the
    bare name; else the one in ``.venv/bin`` of the checkout whose ``.data`` holds
    ``memory_root`` (``<checkout>/.data/agents/<agent>/agent_state/memory``), by absolute
    path; else the bare name, said to be the service's command, run where it is installed.
    Returns the command in backticks, with that sentence when there is one."""
    words = f"memory import --from {harness} --workspace PATH --project P --agent A"
    beside = Path(sys.executable).parent / "memory-api"
    if beside.is_file() or shutil.which("memory-api", path=environ.get("PATH", "")):
        return f"`memory-api {words}`"
    if memory_root is not None and len(memory_root.parents) > 4:
        data_dir = memory_root.parents[3]
        checkout = data_dir.parent / ".venv" / "bin" / "memory-api"
        if data_dir.name == ".data" and checkout.is_file():
            return f"`{shlex.quote(str(checkout))} {words}`"
    return (
        f"`memory-api {words}`, the service's command (this install has no memory-api: run it "
        "from the service's install, e.g. the .venv/bin/memory-api of its checkout)"
    )
