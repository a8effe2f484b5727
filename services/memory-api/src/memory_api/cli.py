"""The ``memory-api`` command line: serve, agents, tokens and the demo (A-1, A-10, Q-1).

::

    memory-api serve [--host H] [--port P]                 # one process: replicas serve more
    memory-api agent create --project P --id A --name N [--template-file F]
    memory-api agent list [--project P]
    memory-api token create --name N [--project P ...]     # prints the secret once
    memory-api token list
    memory-api token revoke --name N [--reopen]           # the last one only with --reopen
    memory-api demo seed --corpus DIR
    memory-api memory import SOURCE --project P --agent A (--workspace PATH | --user) [--dry-run]
    memory-api memory import --from HARNESS (--workspace PATH | --user) --project P --agent A
    memory-api memory import FOLDER --from memory-tool (--workspace PATH | --user) ...
    memory-api memory import ARCHIVE.tar.gz --project P --agent A     # each scope to its key
    memory-api memory export --project P --agent A [--scope KEY ...] [--with-history] -o FILE
    memory-api memory forget --project P --agent A (--workspace PATH | --scope KEY) [--dry-run]
    memory-api history prune [--project P] [--agent A]   # the operator's retention (V-3)

Where a command works (:mod:`memory_api.command_place`): ``agent`` goes through the running
service when one answers (``--url`` / ``MEMORY_API_URL``, else ``MEMORY_API_HOST`` and
``MEMORY_API_PORT``), so the service shows what it did; with a named data dir (``--data-dir`` /
``MEMORY_API_DATA_DIR``) a command works in that data dir; with neither, a command that writes
refuses rather than write into a data dir no service uses. Every command says where it worked.

Each command imports what it needs when it runs: ``agent create`` never loads the web
application. Exit codes: 0 done, 1 refused (a conflict, an unknown agent, a bad id), 2 bad usage
or configuration (no data dir named, no service answering), 130 interrupted (Ctrl-C: every file
is written whole or not at all, so the same command run again finishes the work);
a command whose output's reader left (``| head -1``) does its work to the end, then, if it
succeeded, ends quietly by ``SIGPIPE`` (a shell's 141), as ``git`` does (one that failed keeps
its status) (:mod:`memory_core.closed_reader`); ``serve``
never does: what it logs after its reader left goes nowhere, and a clean stop exits 0.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import gc
import logging
import os
import sys
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

from memory_core.counting import counted

from memory_api.command_place import NAME_THE_DATA_DIR, PlaceRefused, data_dir_exists, place_for
from memory_api.errors import ServiceError
from memory_api.remote import RemoteError, default_url
from memory_api.settings import (
    MAX_PORT,
    Settings,
    SettingsError,
    port_number,
    resolved_data_dir,
)

if TYPE_CHECKING:
    import socket

    from memory_core.wire import AgentSummary

    from memory_api.http.bind_address import BindAddress
    from memory_api.store.agents import AgentStore
    from memory_api.store.history.recorder import ScopeHistories
    from memory_api.transfer.harnesses import HarnessRequest

__all__ = ["build_parser", "main"]

logger = logging.getLogger("memory_api")

INTERRUPTED = 130
"""The exit code of a command stopped by Ctrl-C (SIGINT), 128 + the signal, as a shell says."""
INTERRUPTED_SAID = (
    "interrupted: every file written so far is whole (none half-written); run the same "
    "command again to finish it (an import takes up where it stopped and imports nothing twice)"
)
SHUTDOWN_TIMEOUT = 8.0
"""Seconds that in-flight requests get to finish on SIGTERM/SIGINT (under Docker's 10 s)."""
ONE_PROCESS = (
    "memory-api serve runs one process (an event loop and a thread pool for the file work) and "
    "starts no workers. To serve more, run more of them on the same data dir: replicas behind a "
    "load balancer (docker compose, the Kubernetes base in deploy/k8s/; see docs/deploy.md), or "
    "several `memory-api serve --port ...` behind a reverse proxy"
)
"""What ``serve --workers`` and a set ``MEMORY_API_WORKERS`` are answered with (both were
retired when the service became one process per container)."""

Command = Callable[[Settings, argparse.Namespace], int]
_T = TypeVar("_T")


def _run(work: Coroutine[Any, Any, _T]) -> _T:
    """Run a store's coroutine to its end (asyncio is imported only by the commands that work
    in a data dir: one going through the service never needs it)."""
    import asyncio

    return asyncio.run(work)


def _agent_in_data_dir(
    agents: AgentStore | None, data_dir: Path, project: str, agent: str, *, named: bool = True
) -> None:
    """Check that ``agent`` of ``project`` is in ``data_dir``, for the commands that work on its
    files (``memory import|export``, ``history prune --agent``).

    Raises :class:`~memory_api.errors.NotFound` naming the data dir it looked in and the way on
    (Q-1): the project the agent belongs to when it is another (ids are unique across
    projects), else the ``agent create`` that makes it; a bare "no agent 'coder2'" left a
    newcomer restoring an export into a new agent (docs/operations.md) without the next step.
    ``named`` False: ``data_dir`` is the default one, which nobody named (a reading command
    beside ``make run`` without ``MEMORY_API_DATA_DIR``): the way on is to name the data dir
    that holds the agent, never to create it in a data dir no service looks at. ``agents``
    None: ``data_dir`` does not exist (:func:`~memory_api.command_place.data_dir_exists`), so
    it holds no agent.
    """
    from memory_api.errors import NotFound

    try:
        if agents is None:
            raise NotFound(f"no data dir at {data_dir}")
        _run(agents.get(project, agent))
    except NotFound:
        where = f"no agent {agent!r} in project {project!r} in the data dir {data_dir}"
        listed = [] if agents is None else _run(agents.list())
        elsewhere = [record.project for record in listed if record.id == agent]
        if elsewhere:
            raise NotFound(
                f"{where}: {agent!r} is an agent of project {elsewhere[0]!r} "
                f"(--project {elsewhere[0]})"
            ) from None
        if not named:
            raise NotFound(
                f"{where} (the default: none is named); to reach the agent, {NAME_THE_DATA_DIR} "
                "that holds it: make run's is .data in the checkout, a service logs its own as "
                "'data dir: …' when it starts"
            ) from None
        raise NotFound(
            f"{where}; make it there first: `memory-api agent create --data-dir {data_dir} "
            f"--project {project} --id {agent} --name NAME` (`memory-api agent list "
            f"--data-dir {data_dir}` names the agents it holds)"
        ) from None


def _agent_store(settings: Settings) -> AgentStore:
    """The agent store alone (``agent create|list``, ``demo seed``): no other store is built,
    so the memory, search, history and sync code is never imported."""
    from memory_api.stores import agent_store, prepare_data_dir

    prepare_data_dir(settings.data_dir)
    return agent_store(settings.data_dir)


def _serve(settings: Settings, args: argparse.Namespace) -> int:
    from memory_core.addresses import bind_host

    from memory_api.http.auth import BindRefused, bind_decision
    from memory_api.http.bind_address import bound_sockets, resolve_bind
    from memory_api.http.logs import configure_logging
    from memory_api.open_folders import open_folders_warning
    from memory_api.stores import build_stores, unusable_data_dir

    if args.workers is not None:
        # Typed by someone who reads the answer: refused, so no one believes N processes run.
        print(f"memory-api: serve has no --workers: {ONE_PROCESS}.", file=sys.stderr)
        return 2
    settings = dataclasses.replace(
        settings,
        host=bind_host(args.host) if args.host is not None else settings.host,
        port=args.port if args.port is not None else settings.port,
    )
    configure_logging(settings.log_format, settings.log_level)
    if settings.retired_workers is not None:
        # Set in a deployment's configuration: refusing to start would take the service down on
        # an upgrade, so it starts, one process, and says so where the operator looks.
        logger.warning(
            "MEMORY_API_WORKERS=%s is not read: %s. Unset MEMORY_API_WORKERS.",
            settings.retired_workers,
            ONE_PROCESS,
        )
    if settings.tokens_file_warning is not None:
        logger.warning("%s", settings.tokens_file_warning)  # read bit: said, not refused
    if (unusable := unusable_data_dir(settings.data_dir)) is not None:
        # a setting that can never work stops the start, as a malformed one does; a disk only
        # unavailable for now (no permission, a network mount gone) still starts, 503 until it
        # is back; one not there yet is made where named, under an empty mount point too
        raise SettingsError(
            f"the data dir (MEMORY_API_DATA_DIR or --data-dir) cannot be used: {unusable}; "
            "name a folder, or a path where one can be made"
        )
    tokens = build_stores(settings).tokens
    try:
        # A token folder that cannot be read counts as tokens: the API then fails closed (503)
        # instead of the service opening up, or refusing to start where it had tokens (A-10a).
        # resolved once: what is judged here is what is bound and what the Host rule reads (a
        # name resolved again may answer otherwise: a DNS name, /etc/hosts edited meanwhile)
        bind = resolve_bind(settings.host)
        decision = bind_decision(bind, tokens.known().configured, _token_create_here(settings))
    except BindRefused as error:
        logger.error("%s", as_typed(str(error)))
        return 2
    try:
        # bound and listening before anything is built: a held port stops serve here, with
        # its one error line (it built and stopped the service first: "stopped serving the
        # data dir"), and a second serve started meanwhile stops here too, naming this one
        sockets = bound_sockets(bind, settings.port)
    except OSError as error:
        logger.error("%s", _not_bound(settings, bind, error))
        return 1
    logger.info("%s", decision)
    logger.info("data dir: %s", settings.data_dir)  # the web page once it listens (serve_banner)
    if (open_ones := open_folders_warning(settings.data_dir)) is not None:
        logger.warning("%s", open_ones)  # a token keeps the API closed, not these
    _run_app(settings, bind, sockets)
    return 0


def _not_bound(settings: Settings, bind: BindAddress, error: OSError) -> str:
    """Why ``serve`` could not bind ``settings``' port on ``bind``'s addresses, and what to do:
    for a port in use, the process that holds it (:func:`~memory_api.port_holder.port_holder`)
    and the README's way to pick another (``make run MEMORY_API_PORT=…``: make's own variable,
    as typed)."""
    place = f"port {settings.port} on {settings.host}"
    if error.errno != errno.EADDRINUSE:
        # EACCES (a port below 1024), EADDRNOTAVAIL (an address not this machine's) …: no
        # other port is suggested, so none is probed (each of them fails the same way)
        reason = error.strerror or str(error)
        return f"cannot listen on {place}: {reason} (MEMORY_API_HOST, MEMORY_API_PORT)"
    other = _free_port_after(bind, settings.port)
    port = "PORT" if other is None else str(other)  # none free among the next: the user picks
    advice = f"make run MEMORY_API_PORT={port} (or memory-api serve --port {port})"
    from memory_api.port_holder import port_holder

    holder = port_holder(settings.port, [str(address) for address in bind.addresses])
    if holder is None:
        return (
            f"{place} is already in use by a program this user cannot see. Pick another "
            f"port: {advice}"
        )
    return (
        f"{place} is already in use by {holder.said}. Stop it (kill {holder.pid}) or pick "
        f"another port: {advice}"
    )


_PORTS_TRIED = 20
"""How many ports after a held one :func:`_free_port_after` tries before it names none."""


def _free_port_after(bind: BindAddress, port: int) -> int | None:
    """The first port after ``port`` (at most :data:`_PORTS_TRIED` on) that every address of
    ``bind`` can listen on now, or None: the port the busy-port error suggests is one the
    user's next ``make run`` can take, not merely the next number (which a second service
    often holds: ``make run MEMORY_API_PORT=8766`` was suggested while 8766 served too)."""
    from memory_api.http.bind_address import bound_sockets

    for other in range(port + 1, min(port + 1 + _PORTS_TRIED, 65536)):
        try:
            sockets = bound_sockets(bind, other)
        except OSError:
            continue
        for sock in sockets:
            sock.close()
        return other
    return None


def listening_said(settings: Settings) -> Callable[[str], None]:
    """What ``serve`` logs once it listens, given aiohttp's banner (the callback is called after
    every address is bound): the banner's lines, the web page's address, and in a data dir the
    demo seed filled, the demo agent's Memory tab address (Q-1), each with the port bound
    (:func:`~memory_api.serve_banner.banner_logger`). Whether the demo seed filled the data
    dir is looked up here, when the callback is made (before the bind); the addresses are
    logged only once it is called.

    Only then: an address logged before the bind (``make run`` printed the Memory tab first,
    then found the port busy) pointed at whatever held the port, a page that is not ours.
    """
    from memory_api.demo import DEMO_MEMORY_TAB, demo_seeded
    from memory_api.serve_banner import banner_logger

    tabs = (
        [("the demo agent's Memory tab", DEMO_MEMORY_TAB)] if demo_seeded(settings.data_dir) else []
    )
    return banner_logger(settings.host, settings.port, logger, tabs=tabs)


def _run_app(settings: Settings, bind: BindAddress, sockets: list[socket.socket]) -> None:
    """Serve one application on ``sockets``, bound to the addresses of ``bind``
    (``settings.host`` resolved, as :func:`~memory_api.http.auth.bind_decision` judged it),
    port ``settings.port`` (:func:`~memory_api.http.bind_address.bound_sockets`), until
    SIGTERM or SIGINT (A-11): aiohttp's ``run_app`` then closes the listener at once and gives
    the requests in flight :data:`SHUTDOWN_TIMEOUT` seconds to finish.

    The addresses judged are the ones bound, never ``settings.host`` handed on to be resolved
    again (A-10): a name whose answer changed between the two (a DNS name whose zone's owner
    answers ``127.0.0.1`` then ``0.0.0.0``, ``/etc/hosts`` edited meanwhile) would have a
    service started without tokens as "loopback only" listen on the network.

    What exists once the app is built (every module, class and function: most of the objects
    the collector tracks) is moved out of the collector's reach with ``gc.freeze()``: a full
    collection then walks only what requests made since, not the whole heap. Without it one
    took 12–32 ms under load (timed with ``gc.callbacks``), stalling every request in flight.
    """
    from aiohttp import web

    from memory_api.app import create_app
    from memory_api.http.logs import ACCESS_LOGGER, AccessLogger

    app = create_app(settings, bind)
    app.on_startup.append(_stop_on_the_first_signal)
    gc.collect()  # nothing that is already garbage gets frozen
    gc.freeze()
    web.run_app(
        app,
        sock=sockets,
        access_log_class=AccessLogger,
        access_log=logging.getLogger(ACCESS_LOGGER),
        shutdown_timeout=SHUTDOWN_TIMEOUT,
        print=listening_said(settings),
        handle_signals=False,  # _stop_on_the_first_signal's instead
    )


async def _stop_on_the_first_signal(app: object) -> None:
    """Stop ``serve`` on the first SIGTERM or SIGINT, as aiohttp's own handlers do (A-11), and
    ignore any later one: the stop under way waits for the requests in flight (at most
    :data:`SHUTDOWN_TIMEOUT`, and file work already in a worker thread, such as a wait for an
    agent's lock, to its own end); SIGKILL ends it at once.

    aiohttp's handlers raise ``GracefulExit`` on every signal: a second one while it stopped
    ended the stop in "RuntimeError: Event loop stopped before Future completed" and a
    traceback. ``make run`` stopped with ``kill %1`` met that: the service gets the signal sent
    to the job, and make, signalled too, sends its child one more. The loop queues one call per
    signal, and two that arrive together are both queued before the first runs: each call after
    the first returns at once. The signals are ignored from the first on, to the end of the
    process (the loop's handlers removed, so closing the loop does not give them back their
    default action, which ends the process: a second ``kill`` a second later did)."""
    import asyncio
    import contextlib
    import signal

    from aiohttp.web_runner import GracefulExit

    loop = asyncio.get_running_loop()
    numbers = (signal.SIGINT, signal.SIGTERM)
    stopping = False

    def stop() -> None:
        nonlocal stopping
        if stopping:  # a later signal, or one queued in the same turn as the first
            return
        stopping = True
        for number in numbers:  # ignored from now on, to the end of the process
            loop.remove_signal_handler(number)
            signal.signal(number, signal.SIG_IGN)
        raise GracefulExit

    for number in numbers:
        with contextlib.suppress(NotImplementedError):  # Windows' loops have none, as aiohttp's
            loop.add_signal_handler(number, stop)


def page_url(host: str, port: int, fragment: str = "") -> str:
    """The address of the web page served on ``host``:``port`` (a wildcard host → loopback).

    >>> page_url("127.0.0.1", 8765, "/projects/demo/agents/demo/memory")
    'http://127.0.0.1:8765/#/projects/demo/agents/demo/memory'
    """
    return default_url(host, port) + "/" + (f"#{fragment}" if fragment else "")


def _agent_create(settings: Settings, args: argparse.Namespace) -> int:
    from memory_core.template import read_template_file
    from memory_core.wire import AgentCreate

    template = None
    if args.template_file is not None:
        template = read_template_file(Path(args.template_file))  # bounded, never blocks
    body = AgentCreate(id=args.id, name=args.name, template=template)
    place = place_for(settings, args, writes=True)
    if place.remote is not None:
        config = place.remote.create_agent(args.project, body)
        name, project = config.name, config.project
    else:
        record = _run(_agent_store(settings).create(args.project, body))
        name, project = record.name, record.project
    print(f"created agent {args.id!r} ({name}) in project {project!r} {place.said}")
    return 0


def _agent_list(settings: Settings, args: argparse.Namespace) -> int:
    place = place_for(settings, args, writes=False)
    unreadable: list[tuple[str, str]] = []
    if place.remote is not None:
        agents, unreadable = place.remote.agents_with_unreadable(args.project or None)
    elif not data_dir_exists(settings.data_dir):
        agents = []
    else:
        from memory_api.store.counts import agent_summaries

        store = _agent_store(settings)
        agents = _run(agent_summaries(store, args.project or None))
        unreadable = _run(store.unreadable())
    print(f"agents {place.said}", file=sys.stderr)
    for agent_id, why in unreadable:  # named, never left out unsaid (Q-2b)
        said = agent_id if agent_id.endswith("/") else f"agent {agent_id} (project unknown)"
        print(f"{said}: {why}", file=sys.stderr)  # "agents/": that folder is a symlink
    if not agents:
        none = "no agents" + (f" in project {args.project!r}" if args.project else "")
        if place.remote is None and not settings.data_dir_named:
            none += f" in the default data dir; {_no_service_here(settings)}"
        print(none)
        return 1 if unreadable else 0
    print(f"{'PROJECT':<20} {'AGENT':<20} {'MEMORY':<6} {'MEMORIES':>8}  NAME")
    uncounted = False
    for agent in agents:
        state = "on" if agent.memory_enabled else "off"
        count = f"{agent.memory_count}+" if agent.unreadable else str(agent.memory_count)
        print(f"{agent.project:<20} {agent.id:<20} {state:<6} {count:>8}  {agent.name}")
        if agent.unreadable:  # "N+": at least N, never "no memory" (Q-2b)
            print(f"agent {agent.id}: {agent.unreadable}", file=sys.stderr)
            uncounted = True
        _say_skipped(agent)
    return 1 if unreadable or uncounted else 0


def _no_service_here(settings: Settings) -> str:
    """What ``agent list`` adds to "no agents" read from the default data dir, which nobody
    named, with no service answering at the default address (Q-1): a newcomer who forgot
    ``export MEMORY_API_PORT`` read "no agents" and believed their agents gone, while ``agent
    create`` in the same shell refused naming that address. The CLI's reading commands read
    the default data dir and say so (``token list``: "if a service uses another"); a refusal
    is for the commands that write."""
    url = default_url(settings.host, settings.port)
    return (
        f"no memory-api service answers at {url}: to list a service's agents, point --url "
        "(or MEMORY_API_URL, MEMORY_API_PORT) at it; if a service uses another data dir, "
        f"{NAME_THE_DATA_DIR} (make run's is .data in the checkout)"
    )


def _say_skipped(agent: AgentSummary) -> None:
    """Name on stderr the entries of ``agent``'s memory root that are no scope (A-3): they
    hold nothing the service reads, so the count leaves them out; said, never silently."""
    if not agent.skipped_count:
        return
    print(
        f"agent {agent.id}: {counted(agent.skipped_count, 'entry', 'entries')} of its memory "
        "root are no scope, not counted:",
        file=sys.stderr,
    )
    for entry in agent.skipped:  # its name comes escaped (shown_name): no control character
        print(f"  '{entry.name}': {entry.problem}", file=sys.stderr)
    if (more := agent.skipped_count - len(agent.skipped)) > 0:
        print(f"  and {more} more", file=sys.stderr)


def _token_store(
    settings: Settings, args: argparse.Namespace, *, writes: bool, makes: bool = False
) -> Any:
    """The token store of the data dir the command works in (tokens have no API: A-10); built
    alone, so a token command loads none of the other stores (about half its start).
    ``makes``: a named data dir not there yet is made (``token create``, :func:`place_for`)."""
    from memory_api.store.tokens import TokenStore

    place_for(settings, args, writes=writes, api=False, makes=makes)
    return TokenStore(settings.data_dir, settings.env_tokens)


def now_closed_notice(harness_memory: str = "harness-memory") -> str:
    """What ``token create`` adds when the data dir had no token: the service was open and now
    is not (A-10), which every curl, script, page and installed hook that worked a minute ago
    meets as a 401. ``harness-memory`` is named as the user can run it
    (:func:`beside_as_typed`)."""
    return (
        "the data dir had no token: from now on its service answers every API request without "
        "one with 401 (curl and scripts too); send 'Authorization: Bearer <secret>' (memory-api: "
        "--token or MEMORY_API_TOKEN; harness-memory install: HARNESS_MEMORY_TOKEN or "
        "--token-file); the web page asks for it. Hooks installed before now send none: their "
        f"Sessions start without memory until `{harness_memory} install HARNESS` runs again "
        f"with a token in HARNESS_MEMORY_TOKEN (`{harness_memory} status` names them)"
    )


def beside_as_typed(name: str, argv0: str | None = None) -> str:
    """The console script ``name`` installed beside ``memory-api`` (``harness-memory``), as
    the user can run it: the bare name when ``PATH`` finds that one, else its path beside the
    ``memory-api`` they started by a path (``argv0``, default ``sys.argv[0]``): beside ``make
    run``, ``.venv/bin/harness-memory``, which is on no ``PATH``, quoted for the shell as
    needed (a checkout under ``sp ace/it's/``). The bare name otherwise."""
    import shlex
    import shutil

    typed = sys.argv[0] if argv0 is None else argv0
    beside = typed[: typed.rfind(os.sep) + 1] + name  # as typed: ./memory-api's ./harness-memory
    if Path(typed).name != "memory-api" or os.sep not in typed or not Path(beside).exists():
        return name
    found = shutil.which(name)
    on_path = found is not None and Path(found).resolve() == Path(beside).resolve()
    return name if on_path else shlex.quote(beside)


def _token_create_here(settings: Settings) -> str:
    """``token create`` for the data dir ``settings`` names, as the user can paste it beside
    the serve that refused (A-10, Q-1): ``MEMORY_API_DATA_DIR=DIR PROGRAM token create --name
    NAME``, both quoted for the shell; ``token create`` names no data dir of its own (beside
    ``make run`` it refused, "no data dir is named")."""
    import shlex

    program = beside_as_typed("memory-api")
    data_dir = shlex.quote(str(settings.data_dir))
    return f"MEMORY_API_DATA_DIR={data_dir} {program} token create --name NAME"


def _token_create(settings: Settings, args: argparse.Namespace) -> int:
    from memory_api.open_folders import open_folders_warning
    from memory_api.store.tokens import NameTaken

    store = _token_store(settings, args, writes=True, makes=True)
    projects = tuple(args.project) if args.project else None
    try:
        entry, secret, was_open = store.create_closing(args.name, projects)
    except NameTaken as error:
        raise NameTaken(f"{error.detail}: {_name_taken_next(args)}") from None
    reach = "every project" if entry.projects is None else ", ".join(entry.projects)
    print(
        f"created token {entry.name!r} for {reach} in the data dir {settings.data_dir}; "
        "it is shown only now, keep it safe:",
        file=sys.stderr,
    )
    if was_open:
        print(now_closed_notice(beside_as_typed("harness-memory")), file=sys.stderr)
    if (open_ones := open_folders_warning(settings.data_dir)) is not None:
        print(f"memory-api: WARNING: {open_ones}", file=sys.stderr)  # the token closes no file
    print(secret)
    if _went_nowhere():
        import shlex

        revoke = ["token", "revoke", "--name", entry.name, "--data-dir", str(settings.data_dir)]
        revoke += ["--reopen"] if was_open else []  # open before it: so again, as it was
        _refuse(
            "memory-api: the secret was not delivered (standard output's reader left or was "
            f"closed), so nobody holds it: revoke the token (`memory-api {shlex.join(revoke)}`) "
            "and create another"
        )
    return 0


def _name_taken_next(args: argparse.Namespace) -> str:
    """The way on after ``token create`` of a name a token of the data dir holds (A-10): a
    bare "token 'me2' exists already" left the user guessing whether, and how, to replace it.
    The revoke names the data dir as the create did (``--data-dir``), quoted for the shell."""
    import shlex

    revoke = ["token", "revoke", "--name", args.name]
    revoke += ["--data-dir", args.data_dir] if getattr(args, "data_dir", None) else []
    return (
        "pick another --name; or, to replace it (rotate), create the new token first, then "
        f"`memory-api {shlex.join(revoke)}`"
    )


def _went_nowhere() -> bool:
    """Whether what this command wrote to standard output may not have reached a reader
    (:attr:`memory_core.closed_reader.ReaderMayLeave.went_nowhere`; main's ``sys.stdout``)."""
    from memory_core.closed_reader import ReaderMayLeave

    return isinstance(sys.stdout, ReaderMayLeave) and sys.stdout.went_nowhere


def last_token_refusal(name: str, data_dir: Path) -> str:
    """Why ``token revoke`` of the last token of ``data_dir`` did nothing (A-10, A-10a: access
    is never widened by a side effect): the service would answer local callers without a token
    again. Names the way on as the user can run it (:func:`beside_as_typed`, the data dir
    named: beside ``make run`` a ``token create`` naming none is refused)."""
    import shlex

    program = (
        f"{beside_as_typed('memory-api')} token create --data-dir {shlex.quote(str(data_dir))}"
    )
    return (
        f"memory-api: {name!r} is the data dir's last token: revoking it reopens the service to "
        "local callers without a token (on loopback; a service bound beyond loopback refuses "
        f"every API request instead). Create the next token first (`{program} --name NAME`), "
        "then revoke this one; or run again with --reopen to reopen it. "
        "Nothing was revoked"
    )


def _token_list(settings: Settings, args: argparse.Namespace) -> int:
    from memory_api.store.tokens import TokenStore

    place = place_for(settings, args, writes=False, api=False)
    known = TokenStore(settings.data_dir, settings.env_tokens).known()
    print(f"tokens {place.said}", file=sys.stderr)
    if not known.configured and not settings.data_dir_named:
        print(f"no tokens in the default data dir; if a service uses another, {NAME_THE_DATA_DIR}")
        return 0
    if not known.configured:
        print("no tokens: the service is open and binds to loopback only")
        return 0
    # a header as `agent list` prints one; a token of every project said so, not as "*"
    print(f"{'NAME':<24} {'PROJECTS':<30} CREATED")
    for entry in known.entries:
        reach = "every project" if entry.projects is None else ",".join(entry.projects)
        created = entry.created_at or "(from the environment: MEMORY_API_TOKENS or its file)"
        print(f"{entry.name:<24} {reach:<30} {created}")
    if known.unreadable is not None:
        print(f"cannot be read: {known.unreadable}", file=sys.stderr)
        return 1
    return 0


def _token_revoke(settings: Settings, args: argparse.Namespace) -> int:
    tokens = _token_store(settings, args, writes=True)
    if not args.reopen and tokens.last_token(args.name):
        print(last_token_refusal(args.name, settings.data_dir), file=sys.stderr)
        return 2
    removed = tokens.revoke(args.name)
    files = ", ".join(f"tokens/{name}" for name in removed)
    print(f"revoked token {args.name!r} in the data dir {settings.data_dir} (deleted {files})")
    if (distrust := tokens.distrusted()) is not None:  # no token file of it passes anyway
        said = f"the service trusts no token file there until that is fixed: {distrust}"
        print(said, file=sys.stderr)
        return 0
    known = tokens.known()
    if known.unreadable is not None:  # one of them may hold this token too: never "revoked"
        print(
            f"some token files cannot be read ({known.unreadable}); one may hold token "
            f"{args.name!r} too: fix or remove them, then run this again",
            file=sys.stderr,
        )
        return 1
    if not known.configured:
        print(
            "that was the last token: the service is open again to local callers (on loopback; "
            "a service bound beyond loopback refuses every API request until a token exists)",
            file=sys.stderr,
        )
    return 0


def _demo_seed(settings: Settings, args: argparse.Namespace) -> int:
    from memory_api.checkout_data import elsewhere_note, vanished_refusal
    from memory_api.demo import DEMO_MEMORY_TAB, seed_demo

    if args.checkout_data is not None and settings.data_dir_named:  # before anything is made
        refusal = vanished_refusal(settings.data_dir, Path(args.checkout_data))
        if refusal is not None:
            raise PlaceRefused(refusal.rstrip("\n"))
    place_for(settings, args, writes=True, api=False, makes=True)  # make run's first start
    if args.checkout_data is not None:
        print(elsewhere_note(settings.data_dir, Path(args.checkout_data)), end="")
    report = _run(seed_demo(_agent_store(settings), Path(args.corpus)))
    if report.vanished is not None:  # make run starts serve next: skipped and said, exit 0
        print(
            f"memory-api: warning: demo agent 'demo' not seeded: the service {report.vanished}",
            file=sys.stderr,
        )
        return 0
    verb = "created" if report.agent_created else "kept"
    print(
        f"{verb} agent 'demo' in project 'demo' under {settings.data_dir}: "
        f"{counted(report.copied, 'file')} copied, {report.kept} already there"
        + (f", {report.declined} deleted since an earlier seed left out" if report.declined else "")
    )
    for key, path in report.scopes.items():
        print(f"  {key:<28} {path}")
    # No address here: whatever holds the port now may not be the service over this data dir.
    print(
        "\n  `memory-api serve` (make run starts it next) logs the demo agent's Memory tab"
        f"\n  address once it listens: the page's #{DEMO_MEMORY_TAB}\n"
    )
    return 0


def _harness_request(args: argparse.Namespace) -> HarnessRequest | None:
    from memory_api.transfer.harnesses import HarnessRequest

    if args.source_kind is None:
        return None
    return HarnessRequest(
        harness=args.source_kind,
        workspace=args.workspace,
        user=args.user,
        source=args.source,
        project=args.project,
        agent=args.agent,
    )


def _import_flags(args: argparse.Namespace) -> list[str]:
    """The flags of this ``memory import`` that an import of another folder takes as they were
    given (P-5): the scope (``--workspace`` as typed, or ``--user``), ``--project``,
    ``--agent`` and ``--data-dir`` when one was named."""
    where = ["--user"] if args.user else ["--workspace", args.workspace or "PATH"]
    flags = [*where, "--project", args.project, "--agent", args.agent]
    return flags + (["--data-dir", args.data_dir] if getattr(args, "data_dir", None) else [])


def _memory_import(settings: Settings, args: argparse.Namespace) -> int:
    from memory_api.stores import build_stores, prepare_data_dir
    from memory_api.transfer.console import import_progress, print_import
    from memory_api.transfer.harness_names import HARNESSES
    from memory_api.transfer.runner import Target, offered_scopes, run_import
    from memory_api.transfer.sources import NothingHere, SourceError

    # A dry run goes where the real run would, and is refused where it would be: "reports the
    # same" (P-5) holds only in the same data dir.
    place_for(settings, args, writes=True, api=False)
    prepare_data_dir(settings.data_dir)
    stores = build_stores(settings)
    store = stores.agents
    _agent_in_data_dir(store, settings.data_dir, args.project, args.agent)
    harness = _harness_request(args)
    try:
        sources = offered_scopes(args.source, args.archive_scope, harness)
    except NothingHere as error:  # the import of a folder of one's own, with the flags given
        _refuse(f"memory-api: {error.with_next(_import_flags(args), user=args.user)}")
        return 1
    except SourceError as error:
        _refuse(f"memory-api: {error}")
        return 1
    if harness is not None:
        for source in sources:
            print(f"{HARNESSES[harness.harness]}: {source.label}", file=sys.stderr)
    if harness is not None and harness.harness != "memory-tool":
        target = Target("harness", args.workspace)
    elif args.user:
        target = Target("user")
    elif args.workspace is not None:
        target = Target("workspace", args.workspace)
    elif any(source.key is not None for source in sources):
        target = Target("archived")
    else:
        print("memory-api: name the target scope: --user or --workspace PATH", file=sys.stderr)
        return 2
    print(f"importing into the data dir {settings.data_dir}", file=sys.stderr)
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
            histories=stores.history.histories,
        )
    print_import(reports)
    return 0


def _memory_export(settings: Settings, args: argparse.Namespace) -> int:
    from memory_api.stores import build_stores, prepare_data_dir
    from memory_api.transfer.console import print_export
    from memory_api.transfer.exporter import export_scopes

    output = str(Path(args.output)) if args.output != "-" else "-"  # ``x.zip/`` names ``x.zip``
    if output != "-" and (kind := _other_archive_format(output)) is not None:
        stem = output[: -len(kind)]
        print(
            f"memory-api: {output} names a {kind} archive, but export writes a "
            f"gzip-compressed tar: name it {stem}.tar.gz (or .tgz); nothing was written",
            file=sys.stderr,
        )
        return 1
    place = place_for(settings, args, writes=False, api=False)
    if not settings.data_dir_named:  # said before the agent is looked for: it may not be here
        # the place names the way on already when a service answers (its data dir is another)
        said = (
            place.said if NAME_THE_DATA_DIR in place.said else f"{place.said}; {NAME_THE_DATA_DIR}"
        )
        print(f"memory-api: exporting {said}", file=sys.stderr)
    if not data_dir_exists(settings.data_dir):
        named = settings.data_dir_named
        _agent_in_data_dir(None, settings.data_dir, args.project, args.agent, named=named)
    prepare_data_dir(settings.data_dir)
    stores = build_stores(settings)
    _agent_in_data_dir(
        stores.agents,
        settings.data_dir,
        args.project,
        args.agent,
        named=settings.data_dir_named,
    )
    histories = stores.history.histories if args.with_history else None
    if histories is not None and not histories.enabled:
        print("memory-api: no history is kept here (MEMORY_API_HISTORY=off)", file=sys.stderr)
        return 1
    if args.output == "-":
        return _memory_export_to_stdout(settings, args, histories)
    report = export_scopes(
        settings.data_dir,
        args.project,
        args.agent,
        Path(args.output),
        args.scope or None,
        histories=histories,
    )
    print(f"exported from the data dir {settings.data_dir}", file=sys.stderr)
    print_export(report)
    _say_committable(Path(args.output))
    return 0


def _memory_forget(settings: Settings, args: argparse.Namespace) -> int:
    """``memory forget``: take an empty Workspace scope off the agent's memory (K-5), as
    ``DELETE …/memory/scopes/{key}`` does; ``--dry-run`` says what would happen."""
    from memory_core.hidden_text import show_hidden
    from memory_core.keys import workspace_memory_key
    from memory_core.shown_names import shown_name

    from memory_api.stores import build_stores, prepare_data_dir

    place_for(settings, args, writes=True, api=False)
    prepare_data_dir(settings.data_dir)
    stores = build_stores(settings)
    _agent_in_data_dir(stores.agents, settings.data_dir, args.project, args.agent)
    key = args.scope if args.scope is not None else workspace_memory_key(args.workspace)
    forget = stores.memory.forget(args.project, args.agent, key, dry_run=args.dry_run)
    result = _run(forget)
    shown = show_hidden(shown_name(result.workspace)) if result.workspace else None
    named = f"scope {result.key}" + (f" (Workspace {shown})" if shown else "")
    if args.dry_run:
        print(f"would forget {named} in the data dir {settings.data_dir}; nothing changed")
    else:
        print(f"forgot {named} in the data dir {settings.data_dir}; its history is kept")
    return 0


_OTHER_ARCHIVE_FORMATS = (
    *(".tar.bz2", ".tar.lzma", ".tar.xz", ".tar.zst", ".tar.lz", ".tar.z"),
    *(".tbz2", ".tbz", ".txz", ".tzst", ".zip", ".tar", ".7z", ".rar", ".bz2", ".xz", ".zst"),
)
"""Suffixes of archive formats ``memory export`` does not write (P-5: a ``.tar.gz``), a tar's
before the compressor's alone: a name ending so would hold what a tool trusting the name
cannot open."""


def _other_archive_format(output: str) -> str | None:
    """The suffix of :data:`_OTHER_ARCHIVE_FORMATS` that ``output`` (a file name) ends with,
    compared without case, as spelled there (``.zip`` for ``memory.ZIP``); None for a
    ``.tar.gz``, ``.tgz`` or any other name."""
    lowered = output.lower()
    return next((kind for kind in _OTHER_ARCHIVE_FORMATS if lowered.endswith(kind)), None)


def _say_committable(archive: Path) -> None:
    """A warning when the export ``archive`` lies in a git work tree that does not ignore it
    (:func:`~memory_api.transfer.work_tree.committable_in`): the next ``git add -A`` there
    would commit every memory of the agent (README: export outside the checkout)."""
    from memory_api.transfer.work_tree import committable_in

    top = committable_in(archive)
    if top is not None:
        print(
            f"memory-api: warning: {archive} lies in the git work tree {top}, and nothing there "
            "ignores it: `git add -A` would commit every memory it holds; move it out of the "
            "work tree, or add its name to a .gitignore",
            file=sys.stderr,
        )


def _memory_export_to_stdout(
    settings: Settings, args: argparse.Namespace, histories: ScopeHistories | None
) -> int:
    """``memory export -o -``: the archive on standard output (``… | ssh host …``), as ``tar
    -f -`` writes it, and the report on standard error. The archive is made whole in a private
    temporary folder first, so a refusal half-way sends nothing; a terminal gets no archive."""
    import tempfile

    from memory_core.closed_reader import ReaderMayLeave
    from rich.console import Console

    from memory_api.transfer.console import print_export
    from memory_api.transfer.exporter import export_scopes

    if sys.stdout.isatty():
        print(
            "memory-api: -o - writes the archive to standard output: redirect it", file=sys.stderr
        )
        return 2
    with tempfile.TemporaryDirectory(prefix="memory-export-") as folder:
        archive = Path(folder) / "export.tar.gz"
        report = export_scopes(
            settings.data_dir,
            args.project,
            args.agent,
            archive,
            args.scope or None,
            histories=histories,
        )
        with archive.open("rb") as source:
            out = sys.stdout  # main's: its reader may leave (memory_core.closed_reader)
            write = out.write_bytes if isinstance(out, ReaderMayLeave) else out.buffer.write
            while chunk := source.read(1 << 20):
                write(chunk)
            out.flush()
    print(f"exported from the data dir {settings.data_dir}", file=sys.stderr)
    print_export(
        dataclasses.replace(report, output=Path("-")), Console(stderr=True, highlight=False)
    )
    if _went_nowhere():
        print(
            "memory-api: the archive was not delivered whole (standard output's reader left "
            "or was closed): run the export again into a reader that takes it all, or -o FILE",
            file=sys.stderr,
        )
    return 0


def _history_prune(settings: Settings, args: argparse.Namespace) -> int:
    from memory_api.store.history.maintenance import Retention, prune_agent
    from memory_api.store.history.recorder import checked_history_root
    from memory_api.stores import build_stores, prepare_data_dir

    place_for(settings, args, writes=True, api=False)
    prepare_data_dir(settings.data_dir)
    stores = build_stores(settings)
    retention = Retention(settings.history_max_age_days, settings.history_max_versions)
    if retention.unlimited:
        print("no retention set (MEMORY_API_HISTORY_MAX_AGE_DAYS, …_MAX_VERSIONS): nothing to do")
        return 0
    records = _run(stores.agents.list(args.project))
    if args.agent is not None:
        records = [record for record in records if record.id == args.agent]
        if not records:
            in_project = f" in project {args.project!r}" if args.project else ""
            _refuse(
                f"memory-api: no agent {args.agent!r}{in_project} in the data dir "
                f"{settings.data_dir} (`memory-api agent list --data-dir {settings.data_dir}` "
                "names the agents it holds)"
            )
            return 1
    data_dir = stores.history.histories.app_data_dir
    squashed = 0
    failed = 0
    for record in records:
        try:
            root = checked_history_root(data_dir, record.id)
        except ServiceError as error:
            failed += 1
            print(f"{record.project}/{record.id}: not pruned: {error.detail}", file=sys.stderr)
            continue
        for key, pruned in prune_agent(root, record.id, retention, stores.agents.locks):
            if pruned.problem is not None:
                failed += 1
                print(
                    f"{record.project}/{record.id} {key}: not pruned: {pruned.problem}",
                    file=sys.stderr,
                )
            squashed += pruned.squashed
            if pruned.squashed:
                versions = counted(pruned.squashed, "version")
                print(
                    f"{record.project}/{record.id} {key}: {versions} squashed into "
                    f"{counted(pruned.bases, 'base version')}, {pruned.kept} kept"
                )
    most, days = retention.max_versions, retention.max_age_days
    kept = counted(most, "version") if most else "any number of versions"
    age = counted(days, "day") if days else "any number of days"
    print(f"{counted(squashed, 'version')} squashed in all (kept per scope: {kept}, {age})")
    if failed:
        print(
            f"memory-api: {counted(failed, 'history', 'histories')} not pruned (above)",
            file=sys.stderr,
        )
        return 1
    return 0


def _add_history_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    history = commands.add_parser("history", help="the scopes' histories").add_subparsers(
        dest="action", required=True, metavar="ACTION"
    )
    prune = history.add_parser(
        "prune",
        parents=[_data_dir_option()],
        help="apply the retention: squash versions older or more than the limits",
        description="Limits: MEMORY_API_HISTORY_MAX_AGE_DAYS and MEMORY_API_HISTORY_MAX_VERSIONS "
        "(docs/operations.md). Kept versions get new ids.",
    )
    prune.add_argument("--project", help="only this project's agents")
    prune.add_argument("--agent", help="only this agent")
    prune.set_defaults(func=_history_prune)


def _add_memory_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from memory_api.transfer.harness_names import HARNESSES

    memory = commands.add_parser("memory", help="import, export and forget memory").add_subparsers(
        dest="action", required=True, metavar="ACTION"
    )
    imp = memory.add_parser(
        "import",
        parents=[_data_dir_option()],
        help="import a memory folder or an export archive into a scope",
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
        choices=list(HARNESSES),
        help="a coding agent's own memory, found by itself: its part for --workspace into that "
        "Workspace scope, its user part into the user scope (--user: only that); "
        "memory-tool: SOURCE is a /memories folder",
    )
    imp.add_argument("--archive-scope", help="import only this scope of an export archive")
    imp.add_argument(
        "--dry-run", action="store_true", help="report what would change; write nothing"
    )
    imp.set_defaults(func=_memory_import)
    exp = memory.add_parser(
        "export",
        parents=[_data_dir_option()],
        help="write the agent's scopes to a .tar.gz archive",
    )
    exp.add_argument("--project", required=True, help="project id")
    exp.add_argument("--agent", required=True, help="agent id")
    exp.add_argument("--scope", action="append", help="only this scope key (repeat); default: all")
    exp.add_argument(
        "-o",
        "--output",
        required=True,
        help="the archive to write (FILE.tar.gz), or - for standard output",
    )
    exp.add_argument(
        "--with-history",
        action="store_true",
        help="also each scope's history (a git bundle); the import takes it back",
    )
    exp.set_defaults(func=_memory_export)
    _add_forget_command(memory)


def _add_forget_command(memory: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``memory forget`` (K-5)."""
    forget = memory.add_parser(
        "forget",
        parents=[_data_dir_option()],
        help="take an empty Workspace scope off the agent's memory",
        description="Refused for the user scope and for a scope that holds files (delete "
        "them first: each delete can be restored). The scope's history is kept; a Session "
        "started in that folder again makes a new scope.",
    )
    forget.add_argument("--project", required=True, help="project id")
    forget.add_argument("--agent", required=True, help="agent id")
    which = forget.add_mutually_exclusive_group(required=True)
    which.add_argument("--workspace", help="the scope of this Workspace folder")
    which.add_argument("--scope", help="the scope of this key, as the overview lists it")
    forget.add_argument(
        "--dry-run", action="store_true", help="say what would be forgotten; change nothing"
    )
    forget.set_defaults(func=_memory_forget)


class _TokenParser(argparse.ArgumentParser):
    """A ``token`` command's parser: where argparse cannot take the name (``token create -bob``
    reads ``-bob`` as an option: "one of the arguments NAME --name is required"), its refusal
    adds the rule a token name keeps (A-10)."""

    def error(self, message: str) -> NoReturn:
        """Exit 2 with argparse's ``message``, and the name's rule where it is about the name."""
        from memory_api.bearer import TOKEN_NAME_RULE

        if "NAME" in message or "--name" in message:
            message += f" (a token name is {TOKEN_NAME_RULE})"
        super().error(message)


def _add_token_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``token create``, ``token list`` and ``token revoke`` (A-10), parsed by
    :class:`_TokenParser`."""
    token = cast(  # its parsers take the options every command's parsers do
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        commands.add_parser("token", help="manage bearer tokens").add_subparsers(
            dest="action", required=True, metavar="ACTION", parser_class=_TokenParser
        ),
    )
    token_create = token.add_parser(
        "create", parents=[_data_dir_option()], help="create a token and print its secret once"
    )
    _token_name(token_create, "the token's name (who uses it)")
    token_create.add_argument(
        "--project", action="append", help="limit to this project (repeat); default: all"
    )
    token_create.set_defaults(func=_token_create)
    token.add_parser(
        "list", parents=[_data_dir_option()], help="list token names and reach"
    ).set_defaults(func=_token_list)
    revoke = token.add_parser("revoke", parents=[_data_dir_option()], help="delete a token file")
    revoke.add_argument(
        "--reopen",
        action="store_true",
        help="revoke the last token all the same, reopening the service to local callers",
    )
    _token_name(revoke, "the token's name, as token list shows it")
    revoke.set_defaults(func=_token_revoke)


def _token_name(parser: argparse.ArgumentParser, said: str) -> None:
    """A token command's ``name``, given as a word (``token revoke alice``, as a team types it
    first) or as ``--name alice``: one of the two, never both (exit 2, argparse's message)."""
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("name", nargs="?", metavar="NAME", default=argparse.SUPPRESS, help=said)
    given.add_argument("--name", dest="name", help="the same, as an option")


def _data_dir_option() -> argparse.ArgumentParser:
    """``--data-dir``, for every command that can work in a data dir."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument(
        "--data-dir",
        metavar="DIR",
        help="work in this data dir (default $MEMORY_API_DATA_DIR); without either, a command "
        "that writes refuses rather than write where no running service looks",
    )
    return options


def _service_options() -> argparse.ArgumentParser:
    """``--url`` and ``--token``, for the commands the service's API can do."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument(
        "--url",
        help="go through the service at this address (default $MEMORY_API_URL, else "
        "http://$MEMORY_API_HOST:$MEMORY_API_PORT when a service answers there)",
    )
    options.add_argument("--token", help="bearer token for that service ($MEMORY_API_TOKEN)")
    return options


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser; each leaf command sets ``func`` to its handler."""
    parser = argparse.ArgumentParser(
        prog="memory-api",
        description="Agent Memory service. Data dir: $MEMORY_API_DATA_DIR (default "
        "$XDG_DATA_HOME/agent-memory, i.e. ~/.local/share/agent-memory; `make run` uses .data in "
        "the checkout). Every setting is an environment variable: docs/operations.md.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser(
        "serve",
        help="serve the API and the web page",
        description="One process; to serve more, run replicas on the same data dir "
        "(docs/deploy.md).",
    )
    serve.add_argument("--host", help="address to bind (default $MEMORY_API_HOST or 127.0.0.1)")
    serve.add_argument("--port", type=_port, help="port (default $MEMORY_API_PORT or 8765)")
    # Retired (one process per serve): kept only to answer it clearly rather than as "unknown".
    serve.add_argument("--workers", nargs="?", const="", help=argparse.SUPPRESS)
    serve.set_defaults(func=_serve)

    agent = commands.add_parser("agent", help="create and list agents").add_subparsers(
        dest="action", required=True, metavar="ACTION"
    )
    create = agent.add_parser(
        "create",
        parents=[_service_options(), _data_dir_option()],
        help="create an agent with its user scope",
    )
    create.add_argument("--project", required=True, help="project id")
    create.add_argument("--id", required=True, help="agent id (a-z, 0-9, _ and -)")
    create.add_argument("--name", required=True, help="display name")
    create.add_argument("--template-file", help="UTF-8 file holding the system-prompt template")
    create.set_defaults(func=_agent_create)
    listing = agent.add_parser(
        "list",
        parents=[_service_options(), _data_dir_option()],
        help="list agents with their memory counts",
    )
    listing.add_argument("--project", help="only this project")
    listing.set_defaults(func=_agent_list)

    _add_token_commands(commands)

    demo = commands.add_parser("demo", help="demo data").add_subparsers(
        dest="action", required=True, metavar="ACTION"
    )
    seed = demo.add_parser(
        "seed",
        parents=[_data_dir_option()],
        help="create the demo agent and copy a corpus (idempotent)",
    )
    seed.add_argument("--corpus", required=True, help="folder with user-scope/ etc.")
    seed.add_argument(
        "--checkout-data",
        metavar="DIR",
        help="the data dir of the checkout (make run's .data): when the data dir in use is "
        "another, say so, why, and how to use this one; when that one is not there while this "
        "one holds agents, stop (exit 2) before making anything",
    )
    seed.set_defaults(func=_demo_seed)
    _add_memory_commands(commands)
    _add_history_commands(commands)
    return parser


def _port(text: str) -> int:
    """``serve --port``: a TCP port, 0 (the kernel chooses) to 65535, in decimal, read as
    ``MEMORY_API_PORT`` is (:func:`~memory_api.settings.port_number`). Raises
    ``argparse.ArgumentTypeError`` (usage, exit 2) for anything else: the socket layer took
    99999 modulo 65536 (34463) and served there."""
    value = port_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"--port must be a whole number from 0 to {MAX_PORT}, got {text[:40]!r}"
        )
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (see the module docstring)."""
    from memory_core.atomic import no_files_for_others_to_write
    from memory_core.closed_reader import run_on_standard_output
    from memory_core.swap import shield_from_sigio

    no_files_for_others_to_write()  # umask 000 would open the data dir to every account
    shield_from_sigio()  # index edits take file leases (memory_core.swap)
    args = build_parser().parse_args(argv)
    # `… | head -1`: the work is done, then the process ends quietly; but a service stopped
    # cleanly exits 0 even when its log's reader left (`serve 2>&1 | head`, a log shipper gone)
    return run_on_standard_output(lambda _: _command(args), end_when_left=args.func is not _serve)


def _command(args: argparse.Namespace) -> int:
    """Run the command ``args`` names; its exit code, a refusal said on stderr."""
    from memory_core.errors import InvalidId

    command: Command = args.func
    settings: Settings | None = None
    try:
        settings = Settings.from_env()
        if getattr(args, "data_dir", None):
            named = resolved_data_dir(args.data_dir, "--data-dir")
            settings = dataclasses.replace(settings, data_dir=named, data_dir_named=True)
        return command(settings, args)
    except (SettingsError, PlaceRefused) as error:
        kind = "configuration error: " if isinstance(error, SettingsError) else ""
        _refuse(f"memory-api: {kind}{error}")
        return 2
    except RemoteError as error:
        token = getattr(args, "token", None) or (settings.service_token if settings else None)
        hint = _remote_hint(error, getattr(args, "project", None), sent_token=bool(token))
        _refuse(f"memory-api: {error.detail}{hint}")
        return 1
    except (ServiceError, InvalidId) as error:
        detail = error.detail if isinstance(error, ServiceError) else str(error)
        _refuse(f"memory-api: {detail}")
        return 1
    except OSError as error:
        _refuse(f"memory-api: {_disk_refusal(error, settings)}")
        return 1
    except ValueError as error:
        _refuse(f"memory-api: {error}")
        return 1
    except KeyboardInterrupt:  # Ctrl-C: said for a person, never a traceback (files are whole)
        print(f"\nmemory-api: {INTERRUPTED_SAID}", file=sys.stderr)
        return INTERRUPTED


def as_typed(text: str) -> str:
    """``text`` with each ``memory-api`` command in backticks named as the user can run it
    (:func:`beside_as_typed`): beside ``make run``, ``.venv/bin/memory-api`` (Q-1)."""
    program = beside_as_typed("memory-api")
    return text if program == "memory-api" else text.replace("`memory-api ", f"`{program} ")


def _refuse(text: str) -> None:
    """Say the refusal ``text`` on stderr, each ``memory-api`` command in backticks in it named
    as the user can run it (:func:`beside_as_typed`): beside ``make run`` that is
    ``.venv/bin/memory-api``, on no ``PATH`` (Q-1). A name that is no UTF-8 (a folder
    ``bad\\xff``, read as ``bad\\udcff``) is written as its own bytes, which the shell runs,
    when stderr takes bytes."""
    text = as_typed(text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a path's bytes that are no UTF-8, read as lone surrogates
        if _said_as_bytes(f"{text}\n"):
            return
    print(text, file=sys.stderr)


def _said_as_bytes(text: str) -> bool:
    """Write ``text`` to stderr as the bytes it was read from (``os.fsencode``: a lone
    surrogate back to its byte); whether it could be (stderr takes bytes, the file system
    encoding says it)."""
    from memory_core.closed_reader import ReaderMayLeave

    try:
        said = os.fsencode(text)
    except UnicodeEncodeError:
        return False
    stderr = sys.stderr
    try:
        if isinstance(stderr, ReaderMayLeave):
            stderr.write_bytes(said)
        else:
            stderr.flush()
            stderr.buffer.write(said)
            stderr.buffer.flush()
    except AttributeError:  # a stream without bytes under it (a StringIO)
        return False
    return True


_DISK_FIXES = {
    errno.ENOSPC: "free space on its volume",
    errno.EDQUOT: "free space within the disk quota",
    errno.EROFS: "mount it writable",
}
"""What an operator does about a data dir whose disk refuses writes, by ``errno``."""


def _disk_refusal(error: OSError, settings: Settings | None) -> str:
    """An ``OSError`` a command ended on, said for a person: the reason, the file when known,
    and for a full or read-only disk the data dir and what to do, then to run the command
    again. A write to a full disk said only "[Errno 28] No space left on device" (``token
    create``, ``agent create``, ``demo seed``)."""
    said = error.strerror or str(error)
    if error.filename is not None:
        said += f": {os.fsdecode(error.filename)}"
    fix = _DISK_FIXES.get(error.errno or 0)
    if fix is None:
        return said if error.strerror else str(error)
    place = f"the data dir {settings.data_dir}" if settings is not None else "the data dir"
    return f"the disk refused a write ({said}): {fix} ({place}), then run the command again"


def _remote_hint(error: RemoteError, project: str | None, *, sent_token: bool) -> str:
    """What to do about a service's refusal, said after its ``detail`` (A-10).

    A token limited to some projects gets 404 for every other, worded like a missing project
    or agent ("no project 'demo'" for a project full of agents, even from ``agent create``,
    which makes a new project): with a token sent, the 404 says that the token may be why.
    """
    if error.status == 401:
        return " (give the service's bearer token with --token or MEMORY_API_TOKEN)"
    if error.status == 404 and sent_token and project:
        return (
            f"; if project {project!r} exists, your token may not reach it: a token limited "
            "to some projects is answered so for every other (give one that reaches it with "
            "--token or MEMORY_API_TOKEN)"
        )
    return ""
