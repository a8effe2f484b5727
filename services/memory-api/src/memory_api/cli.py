"""The ``memory-api`` command line: serve, agents, tokens and the demo (A-1, A-10, Q-1).

::

    memory-api serve [--host H] [--port P]
    memory-api agent create --project P --id A --name N [--template-file F]
    memory-api agent list [--project P]
    memory-api token create --name N [--project P ...]     # prints the secret once
    memory-api token list
    memory-api token revoke --name N
    memory-api demo seed --corpus DIR
    memory-api memory import SOURCE --project P --agent A (--workspace PATH | --user) [--dry-run]
    memory-api memory import --from claude-code --workspace PATH --project P --agent A
    memory-api memory import ARCHIVE.tar.gz --project P --agent A     # each scope to its key
    memory-api memory export --project P --agent A [--scope KEY ...] -o FILE.tar.gz

Configuration comes from the environment (see :mod:`memory_api.settings`); the data dir is
``MEMORY_API_DATA_DIR``. Exit codes: 0 done, 1 refused (a conflict, an unknown agent, a bad
id), 2 bad usage or configuration.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import errno
import gc
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from aiohttp import web
from memory_core.errors import InvalidId
from memory_core.swap import shield_from_sigio
from memory_core.template import read_template_file
from memory_core.wire import AgentCreate

from memory_api.app import create_app
from memory_api.demo import seed_demo
from memory_api.errors import ServiceError
from memory_api.http.auth import BindRefused, bind_decision
from memory_api.http.logs import ACCESS_LOGGER, AccessLogger, configure_logging
from memory_api.routes.agents import agent_summaries
from memory_api.settings import Settings, SettingsError
from memory_api.store.agents import AgentStore
from memory_api.stores import build_stores, prepare_data_dir
from memory_api.transfer.console import import_progress, print_export, print_import
from memory_api.transfer.exporter import export_scopes
from memory_api.transfer.runner import Target, offered_scopes, run_import
from memory_api.transfer.sources import SourceError

__all__ = ["build_parser", "main"]

logger = logging.getLogger("memory_api")

SHUTDOWN_TIMEOUT = 8.0
"""Seconds that in-flight requests get to finish on SIGTERM/SIGINT (under Docker's 10 s)."""

Command = Callable[[Settings, argparse.Namespace], int]


def _agent_store(settings: Settings) -> AgentStore:
    prepare_data_dir(settings.data_dir)
    return build_stores(settings).agents


def _serve(settings: Settings, args: argparse.Namespace) -> int:
    settings = dataclasses.replace(
        settings,
        host=args.host if args.host is not None else settings.host,
        port=args.port if args.port is not None else settings.port,
    )
    configure_logging(settings.log_format, settings.log_level)
    tokens = build_stores(settings).tokens
    try:
        decision = bind_decision(settings.host, bool(tokens.entries()))
    except BindRefused as error:
        logger.error("%s", error)
        return 2
    logger.info("%s", decision)
    logger.info("data dir: %s", settings.data_dir)
    logger.info("web page: %s", page_url(settings.host, settings.port))
    try:
        _run_app(settings)
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            raise
        logger.error(
            "port %s on %s is already in use (another memory-api?). Stop that process or pick "
            "another port: MEMORY_API_PORT=%s make run (or memory-api serve --port %s)",
            settings.port,
            settings.host,
            settings.port + 1,
            settings.port + 1,
        )
        return 1
    return 0


def _run_app(settings: Settings) -> None:
    """Serve one application on ``settings.host``:``settings.port`` until SIGTERM or SIGINT
    (A-11): aiohttp's ``run_app`` then closes the listener at once and gives the requests in
    flight :data:`SHUTDOWN_TIMEOUT` seconds to finish.

    What exists once the app is built (every module, class and function: most of the objects
    the collector tracks) is moved out of the collector's reach with ``gc.freeze()``: a full
    collection then walks only what requests made since, not the whole heap. Without it one
    took 12–32 ms under load (timed with ``gc.callbacks``), stalling every request in flight.
    """
    app = create_app(settings)
    gc.collect()  # nothing that is already garbage gets frozen
    gc.freeze()
    web.run_app(
        app,
        host=settings.host,
        port=settings.port,
        access_log_class=AccessLogger,
        access_log=logging.getLogger(ACCESS_LOGGER),
        shutdown_timeout=SHUTDOWN_TIMEOUT,
        print=lambda message: logger.info("%s", message.strip()),
    )


def page_url(host: str, port: int, fragment: str = "") -> str:
    """The address of the web page served on ``host``:``port`` (a wildcard host → loopback).

    >>> page_url("127.0.0.1", 8765, "/projects/demo/agents/demo/memory")
    'http://127.0.0.1:8765/#/projects/demo/agents/demo/memory'
    """
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host  # noqa: S104 - shown, not bound
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/" + (f"#{fragment}" if fragment else "")


def _agent_create(settings: Settings, args: argparse.Namespace) -> int:
    template = None
    if args.template_file is not None:
        template = read_template_file(Path(args.template_file))  # bounded, never blocks
    body = AgentCreate(id=args.id, name=args.name, template=template)
    record = asyncio.run(_agent_store(settings).create(args.project, body))
    print(
        f"created agent {record.id!r} ({record.name}) in project {record.project!r} "
        f"under {settings.data_dir}"
    )
    return 0


def _agent_list(settings: Settings, args: argparse.Namespace) -> int:
    agents = asyncio.run(agent_summaries(_agent_store(settings), args.project or None))
    if not agents:
        print("no agents" + (f" in project {args.project!r}" if args.project else ""))
        return 0
    print(f"{'PROJECT':<20} {'AGENT':<20} {'MEMORY':<6} {'MEMORIES':>8}  NAME")
    for agent in agents:
        state = "on" if agent.memory_enabled else "off"
        print(
            f"{agent.project:<20} {agent.id:<20} {state:<6} {agent.memory_count:>8}  {agent.name}"
        )
    return 0


def _token_create(settings: Settings, args: argparse.Namespace) -> int:
    store = build_stores(settings).tokens
    projects = tuple(args.project) if args.project else None
    entry, secret = store.create(args.name, projects)
    reach = "every project" if entry.projects is None else ", ".join(entry.projects)
    print(
        f"created token {entry.name!r} for {reach}; it is shown only now, keep it safe:",
        file=sys.stderr,
    )
    print(secret)
    return 0


def _token_list(settings: Settings, args: argparse.Namespace) -> int:
    entries = build_stores(settings).tokens.entries()
    if not entries:
        print("no tokens: the service is open and binds to loopback only")
        return 0
    for entry in entries:
        reach = "*" if entry.projects is None else ",".join(entry.projects)
        print(f"{entry.name:<24} {reach:<30} {entry.created_at or 'env'}")
    return 0


def _token_revoke(settings: Settings, args: argparse.Namespace) -> int:
    build_stores(settings).tokens.revoke(args.name)
    print(f"revoked token {args.name!r}")
    return 0


def _demo_seed(settings: Settings, args: argparse.Namespace) -> int:
    report = asyncio.run(seed_demo(_agent_store(settings), Path(args.corpus)))
    verb = "created" if report.agent_created else "kept"
    print(
        f"{verb} agent 'demo' in project 'demo' under {settings.data_dir}: "
        f"{report.copied} files copied, {report.kept} already there"
    )
    for key, path in report.scopes.items():
        print(f"  {key:<28} {path}")
    memory_tab = page_url(settings.host, settings.port, "/projects/demo/agents/demo/memory")
    print(f"once `memory-api serve` runs, its Memory tab is at {memory_tab}")
    return 0


def _memory_import(settings: Settings, args: argparse.Namespace) -> int:
    store = _agent_store(settings)
    asyncio.run(store.get(args.project, args.agent))  # the agent exists in that project
    try:
        sources = offered_scopes(args.source, args.source_kind, args.workspace, args.archive_scope)
        for source in sources if args.source_kind else []:
            print(f"Claude Code's memory of {args.workspace}: {source.label}", file=sys.stderr)
    except SourceError as error:
        print(f"memory-api: {error}", file=sys.stderr)
        return 1
    if args.user:
        target = Target("user")
    elif args.workspace is not None:
        target = Target("workspace", args.workspace)
    elif any(source.key is not None for source in sources):
        target = Target("archived")
    else:
        print("memory-api: name the target scope: --user or --workspace PATH", file=sys.stderr)
        return 2
    total = sum(len(source.files) for source in sources)
    with import_progress(total, "importing") as advance:
        reports = run_import(
            settings.data_dir,
            args.agent,
            target,
            sources,
            locks=store.locks,
            dry_run=args.dry_run,
            advance=advance,
        )
    print_import(reports)
    return 0


def _memory_export(settings: Settings, args: argparse.Namespace) -> int:
    store = _agent_store(settings)
    asyncio.run(store.get(args.project, args.agent))
    report = export_scopes(
        settings.data_dir, args.project, args.agent, Path(args.output), args.scope or None
    )
    print_export(report)
    return 0


def _add_memory_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    memory = commands.add_parser("memory", help="import and export memory").add_subparsers(
        dest="action", required=True, metavar="ACTION"
    )
    imp = memory.add_parser(
        "import",
        help="import a memory folder or an export archive into a scope (P-5)",
        description="Never overwrites: a taken name keeps the newcomer as NAME-imported.md.",
    )
    imp.add_argument(
        "source", nargs="?", help="a memory folder (MEMORY.md + topic files) or .tar.gz"
    )
    imp.add_argument("--project", required=True, help="project id")
    imp.add_argument("--agent", required=True, help="agent id")
    target = imp.add_mutually_exclusive_group()
    target.add_argument("--workspace", help="into the Workspace scope of this path")
    target.add_argument("--user", action="store_true", help="into the user scope")
    imp.add_argument(
        "--from",
        dest="source_kind",
        choices=["claude-code"],
        help="find the coding agent's own memory folder of --workspace",
    )
    imp.add_argument("--archive-scope", help="import only this scope of an export archive")
    imp.add_argument(
        "--dry-run", action="store_true", help="report what would change; write nothing"
    )
    imp.set_defaults(func=_memory_import)
    exp = memory.add_parser("export", help="write the agent's scopes to a .tar.gz archive")
    exp.add_argument("--project", required=True, help="project id")
    exp.add_argument("--agent", required=True, help="agent id")
    exp.add_argument("--scope", action="append", help="only this scope key (repeat); default: all")
    exp.add_argument("-o", "--output", required=True, help="the archive to write (FILE.tar.gz)")
    exp.set_defaults(func=_memory_export)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser; each leaf command sets ``func`` to its handler."""
    parser = argparse.ArgumentParser(
        prog="memory-api",
        description="Agent Memory service. Data dir: $MEMORY_API_DATA_DIR.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", help="serve the API and the web page")
    serve.add_argument("--host", help="address to bind (default $MEMORY_API_HOST or 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default $MEMORY_API_PORT or 8765)")
    serve.set_defaults(func=_serve)

    agent = commands.add_parser("agent", help="create and list agents").add_subparsers(
        dest="action", required=True, metavar="ACTION"
    )
    create = agent.add_parser("create", help="create an agent with its user scope")
    create.add_argument("--project", required=True, help="project id")
    create.add_argument("--id", required=True, help="agent id (a-z, 0-9, _ and -)")
    create.add_argument("--name", required=True, help="display name")
    create.add_argument("--template-file", help="UTF-8 file holding the system-prompt template")
    create.set_defaults(func=_agent_create)
    listing = agent.add_parser("list", help="list agents with their memory counts")
    listing.add_argument("--project", help="only this project")
    listing.set_defaults(func=_agent_list)

    token = commands.add_parser("token", help="manage bearer tokens").add_subparsers(
        dest="action", required=True, metavar="ACTION"
    )
    token_create = token.add_parser("create", help="create a token and print its secret once")
    token_create.add_argument("--name", required=True, help="token name (who uses it)")
    token_create.add_argument(
        "--project", action="append", help="limit to this project (repeat); default: all"
    )
    token_create.set_defaults(func=_token_create)
    token.add_parser("list", help="list token names and reach").set_defaults(func=_token_list)
    revoke = token.add_parser("revoke", help="delete a token file")
    revoke.add_argument("--name", required=True)
    revoke.set_defaults(func=_token_revoke)

    demo = commands.add_parser("demo", help="demo data").add_subparsers(
        dest="action", required=True, metavar="ACTION"
    )
    seed = demo.add_parser("seed", help="create the demo agent and copy a corpus (idempotent)")
    seed.add_argument("--corpus", required=True, help="folder with user-scope/ etc.")
    seed.set_defaults(func=_demo_seed)
    _add_memory_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (see the module docstring)."""
    shield_from_sigio()  # index edits take file leases (memory_core.swap)
    args = build_parser().parse_args(argv)
    command: Command = args.func
    try:
        settings = Settings.from_env()
        return command(settings, args)
    except SettingsError as error:
        print(f"memory-api: configuration error: {error}", file=sys.stderr)
        return 2
    except (ServiceError, InvalidId) as error:
        detail = error.detail if isinstance(error, ServiceError) else str(error)
        print(f"memory-api: {detail}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as error:
        print(f"memory-api: {error}", file=sys.stderr)
        return 1
