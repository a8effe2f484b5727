"""Which ``harness-memory`` the hooks run, and whether it outlives the checkout it came from.

Every hook command starts with the absolute path of a ``harness-memory`` console script. One
from an editable install (``pip install -e``, ``make install``) imports the package from the
source checkout, so ``make clean`` or moving the checkout breaks every Session's hooks. An
install from the wheels (``make wheels``, then ``pipx install`` / ``uv tool install``) does not.
:func:`choose_executable` prefers a script that outlives the checkout — the one on ``PATH``,
then the one beside the running Python — and says which it took and why.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Executable", "checkout_of", "choose_executable", "describe_executable"]


@dataclass(frozen=True, slots=True)
class Executable:
    """The command the hooks run, and what the install says about it (``note``); ``checkout``
    is the source checkout it depends on, or None when it outlives any checkout."""

    command: str
    note: str
    checkout: Path | None = None


def checkout_of(script: Path) -> Path | None:
    """The source checkout an installed ``harness-memory`` script imports from, or None.

    The script's ``#!`` names its environment's Python; that environment's ``harness_memory``
    distribution records an editable install in ``direct_url.json`` (PEP 660). A script whose
    environment cannot be read this way is taken to stand on its own.
    """
    try:
        with script.open("rb") as handle:
            first = handle.readline(4096).decode("utf-8", "replace")
    except OSError:
        return None
    if not first.startswith("#!"):
        return None
    interpreter = Path(first[2:].strip().split()[0]) if first[2:].strip() else None
    if interpreter is None:
        return None
    environment = interpreter.parent.parent
    for record in environment.glob("lib/python*/site-packages/agent_memory_harness-*.dist-info"):
        try:
            direct = json.loads((record / "direct_url.json").read_text(encoding="utf-8"))
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
    return Executable(
        str(script),
        f"hooks run {script} ({where}), an editable install of the checkout {checkout}: "
        "`make clean` or moving the checkout stops memory and the write guard (the guard then "
        "refuses every write it would check). To outlive the checkout: `make wheels`, then "
        "`pipx install dist/agent_memory_harness-*.whl --pip-args='--no-index --find-links dist'` "
        "(the plugin README: Install without the checkout), and run this install again",
        checkout,
    )
