"""``harness-memory install|uninstall HARNESS`` on the command line (H-3).

::

    harness-memory install codex --url URL --project P --agent A --memory-root DIR \\
        [--token T] [--timeout S] [--executable PATH] [--dry-run]
    harness-memory uninstall codex --memory-root DIR [--dry-run]

Exit status 0 on success (also when nothing had to change), 1 when a settings file cannot be
read or understood (named on stderr; nothing is written), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

__all__ = ["add_install_commands", "run_install"]

logger = logging.getLogger("harness_memory")


_HARNESSES = ("claude-code", "codex", "gemini")


def add_install_commands(commands: Any) -> None:
    """Add ``install`` and ``uninstall`` to the command line's subcommands."""
    for verb in ("install", "uninstall"):
        parser = commands.add_parser(
            verb, help=f"{verb} the hooks in a harness's own user settings (H-3)"
        )
        parser.add_argument("harness", choices=_HARNESSES)
        parser.add_argument(
            "--memory-root", dest="root", help="the memory root [HARNESS_MEMORY_ROOT]"
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="print the change, write nothing"
        )
        parser.add_argument("--home", default=None, help="the home directory (default: $HOME)")
        if verb == "uninstall":
            continue
        parser.add_argument("--url", help="memory service root URL [HARNESS_MEMORY_URL]")
        parser.add_argument("--project", help="project id [HARNESS_MEMORY_PROJECT]")
        parser.add_argument("--agent", help="agent id [HARNESS_MEMORY_AGENT]")
        parser.add_argument("--token", help="bearer token written for the hooks")
        parser.add_argument("--timeout", type=float, help="seconds for each request to the service")
        parser.add_argument("--executable", help="the harness-memory command the hooks run")


def run_install(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    environ: Mapping[str, str],
    out: IO[str],
) -> int:
    """Carry out ``install``/``uninstall`` as the module says; returns the exit status."""
    from harness_memory.installers import InstallOptions, SettingsFileError, default_executable, run

    install = args.command == "install"
    root = args.root or environ.get("HARNESS_MEMORY_ROOT")
    values = {
        name: getattr(args, name, None) or environ.get(f"HARNESS_MEMORY_{name.upper()}")
        for name in ("url", "project", "agent")
    }
    missing = [f"--{name}" for name, value in values.items() if install and not value]
    if not root:
        missing.insert(0, "--memory-root")
    if missing:
        parser.error(
            f"{args.command} {args.harness}: missing {', '.join(missing)}"
            " (or the HARNESS_MEMORY_* variables)"
        )
    home = Path(args.home or environ.get("HOME") or Path.home())
    options = InstallOptions(
        executable=getattr(args, "executable", None) or default_executable(),
        url=values["url"] or "",
        project=values["project"] or "",
        agent=values["agent"] or "",
        memory_root=Path(str(root)).absolute(),
        home=home,
        token=getattr(args, "token", None),
        timeout=getattr(args, "timeout", None),
    )
    try:
        run(args.harness, options, environ, install=install, dry_run=args.dry_run, out=out)
    except SettingsFileError as error:
        logger.error("%s %s: %s (nothing was changed)", args.command, args.harness, error)
        return 1
    except OSError as error:
        logger.error("%s %s: cannot write: %s", args.command, args.harness, error)
        return 1
    return 0
