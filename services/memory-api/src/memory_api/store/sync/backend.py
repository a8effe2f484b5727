"""Running ``git http-backend``, git's own smart-HTTP server, on one scope's history (R-1).

The service speaks no sync protocol of its own: a machine's ``git fetch`` and ``git push`` talk
to ``git http-backend`` (a CGI program shipped with git), which runs ``git upload-pack`` or
``git receive-pack`` on the scope's history repository. This module builds its CGI environment
and reads its answer; the routes authenticate first (A-10) and pass the bytes.

What a machine can see and do is set per run as command-line configuration (``GIT_CONFIG_COUNT``
in the CGI environment, so ``git-http-backend`` is started directly), never in the repository:

- fetching (``upload-pack``) advertises ``refs/heads/main`` and nothing else
  (``uploadpack.hideRefs``): no other machine's ref, nor the retention's work ref, is named;
- pushing (``receive-pack``) shows and accepts only the pushing machine's own ref,
  ``refs/machines/<id>`` (``receive.hideRefs``: a hidden ref cannot be updated), which names
  what the machine holds (``main`` as of its last fetch, or its last push the service took,
  :mod:`.service`), so the machine sends only what that lacks; pushed
  objects are checked (``receive.fsckObjects``), no ref can be deleted (git's
  ``receive.denyDeletes`` holds for ``refs/heads/`` only, so the service refuses a push
  deleting any ref itself before git runs: :func:`deleted_refs`), and no ``git gc
  --auto`` follows (the service repacks itself, :mod:`memory_api.store.history.maintenance`);
  git taking a push runs with its data segment and CPU time capped (:func:`cgi_command`),
  resolves deltas in one thread (``pack.threads``), and runs in a process group of its own,
  killed whole at the sync timeout (:func:`run_buffered`); the commands are read by
  :func:`memory_api.store.sync.pkt_line.packets`, as git reads them;
- the dumb protocol (``http.getanyfile``), hooks and every system or user configuration stay
  off (:func:`memory_api.store.history.git.git_environment`); protocol v0 only, whose one
  ``info/refs`` answer is all a fetch with nothing new needs.

Git's answer is a CGI response: header lines, a blank line, the body. :func:`parse_head` reads
the header part; a status other than 200 is turned into a problem by the caller.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import re
import resource
import signal
import subprocess
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal

from memory_api.store.history.git import (
    NO_GIT,
    HistoryUnavailable,
    git_environment,
    git_program,
)
from memory_api.store.sync.pkt_line import packets

__all__ = [
    "HEAD_CAP",
    "PUSH_DATA_FLOOR",
    "GitService",
    "Head",
    "MachineRef",
    "PushReport",
    "StreamedAnswer",
    "certified",
    "cgi_command",
    "cgi_environment",
    "deleted_refs",
    "named_refs",
    "parse_head",
    "push_cpu_limit",
    "push_data_cap",
    "push_report",
    "refused_report",
    "relayed_as_git",
    "run_buffered",
    "run_streaming",
    "split_answer",
    "with_messages",
]

logger = logging.getLogger(__name__)

GitService = Literal["git-upload-pack", "git-receive-pack"]
HEAD_CAP = 16 * 1024
"""Bytes of CGI header lines read at most before the body starts."""
_BASE_CONFIG = (
    ("safe.directory", "*"),
    ("http.getanyfile", "false"),
    ("core.hooksPath", "/dev/null"),
    ("uploadpack.allowFilter", "false"),
    ("transfer.advertiseSID", "false"),
)


@dataclass(frozen=True, slots=True)
class MachineRef:
    """A machine's two refs in a scope's history: ``refs/machines/<machine_id>``, the one it
    may push (:attr:`name`), and ``refs/taken/<machine_id>``, its last push the service took
    (:attr:`taken`), which no advertisement shows and no push can move."""

    machine_id: str

    @property
    def name(self) -> str:
        """The pushed ref's full name."""
        return f"refs/machines/{self.machine_id}"

    @property
    def taken(self) -> str:
        """The full name of the ref of the machine's last push taken."""
        return f"refs/taken/{self.machine_id}"


@dataclass(frozen=True, slots=True)
class Head:
    """A CGI answer's status and headers (names lower-cased)."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)


def _config(service: GitService, push_ref: MachineRef | None) -> list[tuple[str, str]]:
    config = list(_BASE_CONFIG)
    config += [("uploadpack.hideRefs", "refs/"), ("uploadpack.hideRefs", "!refs/heads/main")]
    if service == "git-receive-pack" and push_ref is not None:
        config += [
            ("http.receivepack", "true"),
            ("receive.hideRefs", "refs/"),
            ("receive.hideRefs", "!" + push_ref.name),
            ("receive.fsckObjects", "true"),
            ("receive.denyDeletes", "true"),
            ("receive.advertisePushOptions", "false"),
            ("receive.autogc", "false"),  # the service repacks itself (history/maintenance.py)
            # one thread resolves a push's deltas: index-pack starts pack.threads of them (by
            # default one a CPU, up to 20; index.threads is for git's index, not packs), and
            # each one's stack (ulimit -s) and malloc arena count against the data cap
            # (push_data_cap): under a 1 GiB stack limit a push with deltas failed
            # "unable to create thread"
            ("pack.threads", "1"),
        ]
    else:
        config += [("http.receivepack", "false")]
    return config


@cache
def _http_backend() -> str | None:
    """The ``git-http-backend`` program in git's exec path (asked once), or None."""
    program = git_program()
    if program is None:
        return None
    try:
        done = subprocess.run(  # noqa: S603 - a fixed program, no shell
            [program, "--exec-path"], capture_output=True, env=git_environment(), timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    backend = Path(done.stdout.decode("utf-8", "replace").strip()) / "git-http-backend"
    return str(backend) if done.returncode == 0 and backend.is_file() else None


PUSH_DATA_FLOOR = 256 * 1024 * 1024
"""Bytes of data segment git may use under ``receive-pack`` whatever the push's size."""


def push_data_cap(push_body: int) -> int:
    """Bytes of data segment (``RLIMIT_DATA``: heap and private writable mappings, not the
    read-only maps of packs git reads) that git may use while taking a push of at most
    ``push_body`` bytes (``MEMORY_API_SYNC_MAX_PUSH``): :data:`PUSH_DATA_FLOOR` and four times
    the push, room for git's inflated objects and caches (R-1, Q-2)."""
    return PUSH_DATA_FLOOR + 4 * push_body


def push_cpu_limit(timeout: float) -> int:
    """Seconds of CPU each git taking a push may use (``RLIMIT_CPU``): the sync ``timeout``
    (seconds, ``MEMORY_API_SYNC_TIMEOUT``) rounded up, and one more, so the timeout, which
    kills git's whole process group (:func:`run_buffered`), comes first; the limit holds
    should that kill not come (R-1, Q-2)."""
    return math.ceil(timeout) + 1


def _within_hard(limit: int, value: int) -> int:
    """``value`` lowered to the hard ``limit`` (``resource.RLIM_*``) the service runs under:
    ``ulimit`` cannot raise a limit past it (``EPERM``, so ``sh`` would run nothing), and a
    host's lower limit (systemd ``LimitDATA=``, a container's ``ulimit``) holds anyway."""
    hard = resource.getrlimit(limit)[1]
    return value if hard == resource.RLIM_INFINITY else min(value, hard)


def cgi_command(data_cap: int | None = None, cpu_seconds: int | None = None) -> list[str]:
    """``git-http-backend`` itself, started directly (no ``git`` wrapper process: its options
    come in the environment, :func:`cgi_environment`), else ``git http-backend``; raises
    :class:`HistoryUnavailable` without git.

    ``data_cap`` (bytes, :func:`push_data_cap`): the program and every git it starts run with
    their data segment capped so (``RLIMIT_DATA``, set by ``/bin/sh``'s ``ulimit -d`` before
    it runs ``exec`` on the program, so no Python runs between ``fork`` and ``exec``): a pack whose
    deltas declare a huge object makes git fail (``Out of memory, malloc failed``), which the
    push's report says as ``unpacker error``, instead of filling that much memory.
    ``cpu_seconds`` (:func:`push_cpu_limit`): each of them may use that much CPU (``RLIMIT_CPU``,
    ``ulimit -t`` alike), then is killed (a pack costing more: ``unpacker error``). Both are
    lowered to the hard limits the service runs under (:func:`_within_hard`).
    """
    program = git_program()
    if program is None:
        raise HistoryUnavailable(NO_GIT)
    backend = _http_backend()
    command = [backend] if backend is not None else [program, "http-backend"]
    limits = []
    if data_cap is not None:
        kib = max(1, _within_hard(resource.RLIMIT_DATA, data_cap) // 1024)
        limits.append(f"ulimit -d {kib}")
    if cpu_seconds is not None:
        limits.append(f"ulimit -t {max(1, _within_hard(resource.RLIMIT_CPU, cpu_seconds))}")
    if not limits:
        return command
    script = " && ".join([*limits, 'exec "$@"'])
    return ["/bin/sh", "-c", script, "git-http-backend", *command]


def cgi_environment(
    repository: Path,
    suffix: str,
    *,
    service: GitService,
    push_ref: MachineRef | None,
    method: str,
    query: str,
    content_type: str | None,
    content_length: int | None,
    user: str,
) -> dict[str, str]:
    """The CGI variables of one request for ``repository`` (``…/<key>.git``): ``suffix`` is
    ``info/refs``, ``git-upload-pack`` or ``git-receive-pack``; ``user`` the token's name; and
    git's options for ``service`` as command-line configuration (``GIT_CONFIG_COUNT``):
    ``push_ref`` is the only ref a push may write (None: pushing is refused)."""
    env = dict(git_environment())
    env.pop("GIT_LITERAL_PATHSPECS", None)
    env.update(
        {
            "GIT_PROJECT_ROOT": str(repository.parent),
            "GIT_HTTP_EXPORT_ALL": "1",
            "PATH_INFO": f"/{repository.name}/{suffix}",
            "REQUEST_METHOD": method,
            "QUERY_STRING": query,
            "REMOTE_USER": user,
            "REMOTE_ADDR": "127.0.0.1",
            "GATEWAY_INTERFACE": "CGI/1.1",
        }
    )
    config = _config(service, push_ref)
    env["GIT_CONFIG_COUNT"] = str(len(config))
    for number, (name, value) in enumerate(config):
        env[f"GIT_CONFIG_KEY_{number}"] = name
        env[f"GIT_CONFIG_VALUE_{number}"] = value
    if content_type is not None:
        env["CONTENT_TYPE"] = content_type
    if content_length is not None:
        env["CONTENT_LENGTH"] = str(content_length)
    return env


def parse_head(raw: bytes) -> Head:
    """Read CGI header lines (``Name: value``, ending at a blank line) into a :class:`Head`."""
    status = 200
    headers: dict[str, str] = {}
    for line in raw.decode("latin-1").splitlines():
        name, colon, value = line.partition(":")
        if not colon:
            continue
        key, text = name.strip().lower(), value.strip()
        if key == "status":
            code = text.split(" ", 1)[0]
            status = int(code) if code.isdigit() else 500
        else:
            headers[key] = text
    return Head(status, headers)


def split_answer(data: bytes) -> tuple[Head, bytes] | None:
    """A CGI answer's :class:`Head` and body, or None when no header ends within
    :data:`HEAD_CAP` bytes."""
    for mark in (b"\r\n\r\n", b"\n\n"):
        at = data.find(mark, 0, HEAD_CAP)
        if at != -1:
            return parse_head(data[:at]), data[at + len(mark) :]
    return None


def _capabilities(body: bytes) -> set[str]:
    """The capabilities a push's request names (after a NUL in its first pkt-line)."""
    first = next(packets(body), b"")
    _, nul, caps = first.partition(b"\x00")
    return set(caps.decode("ascii", "replace").split()) if nul else set()


def with_messages(answer: bytes, request: bytes, lines: list[str]) -> bytes:
    """``answer``, a push's report, with ``lines`` added as messages on git's side band 2
    (what a pushing ``git`` prints as ``remote: …``, even with ``-q``), before its closing
    flush; unchanged when the push's ``request`` asked for no side band or there is nothing
    to say. Each line is cut to fit one packet."""
    caps = _capabilities(request)
    if not lines or not caps & {"side-band", "side-band-64k"} or not answer.endswith(b"0000"):
        return answer
    room = (65520 if "side-band-64k" in caps else 1000) - 6
    added = b""
    for line in lines:
        data = b"\x02" + line.encode("utf-8", "replace")[:room] + b"\n"
        added += f"{len(data) + 4:04x}".encode("ascii") + data
    return answer[:-4] + added + b"0000"


def refused_report(request: bytes, ref: str, reason: str) -> bytes:
    """A push's report (report-status, as ``git receive-pack`` writes it: on side band 1 when
    the push's ``request`` asked for a side band) saying its objects unpacked but ``ref`` was
    refused for ``reason`` (``ng <ref> <reason>``): the pushing ``git`` prints ``! [remote
    rejected] … (<reason>)`` and fails. ``reason`` is cut to one line that fits a packet."""
    said = " ".join(reason.split()).encode("utf-8", "replace")[:800]
    inner = b""
    for line in (b"unpack ok\n", b"ng " + ref.encode("utf-8") + b" " + said + b"\n"):
        inner += f"{len(line) + 4:04x}".encode("ascii") + line
    inner += b"0000"
    if not _capabilities(request) & {"side-band", "side-band-64k"}:
        return inner
    data = b"\x01" + inner
    return f"{len(data) + 4:04x}".encode("ascii") + data + b"0000"


_LINE_START = rb"(?:^|(?<=[\r\n]))"
"""Where a pushing ``git`` starts a ``remote: `` line in what it relays: after a newline or a
carriage return (its side band demultiplexer prefixes both)."""


def relayed_as_git(request: bytes, answer: bytes, prefixes: tuple[str, ...]) -> bytes:
    """``answer``, a push's answer as git wrote it, with every line git relays on side band 2
    that starts like one of the service's own lines (``prefixes``: ``"Refused: "`` …) marked
    ``git: `` before it. git's object check quotes pushed content there (a submodule url
    ``"-x\\nRefused: run …"`` in a ``.gitmodules``), and a pushing machine reads a
    ``remote: Refused: …`` line as the service's word. Unchanged when the push's ``request``
    asked for no side band or no such line is there; else side band 2 comes first, whole, then
    the other packets in their order (a pushing git prints band 2 as it comes and reads the
    report from band 1 at the end)."""
    if not _capabilities(request) & {"side-band", "side-band-64k"}:
        return answer
    read = list(packets(answer))
    used = sum(len(data) + 4 for data in read)
    if answer[used : used + 4] != b"0000":
        return answer  # no whole pkt-line stream: passed as git wrote it
    said = b"".join(data[1:] for data in read if data[:1] == b"\x02")
    starts = b"|".join(re.escape(prefix.encode("utf-8")) for prefix in prefixes)
    marked = re.sub(_LINE_START + b"(?=" + starts + b")", b"git: ", said)
    if marked == said:
        return answer
    room = (65520 if "side-band-64k" in _capabilities(request) else 1000) - 5
    band_2 = [b"\x02" + marked[at : at + room] for at in range(0, len(marked), room)]
    others = [data for data in read if data[:1] != b"\x02"]
    return (
        b"".join(f"{len(data) + 4:04x}".encode("ascii") + data for data in band_2 + others)
        + (answer[used:])
    )


@dataclass(frozen=True, slots=True)
class PushReport:
    """What git's report of a push (report-status) says: ``unpack``, its verdict on the pushed
    objects (``"ok"``, else git's reason, ``"unpack-objects abnormal exit"``; None when the
    answer holds no report), and ``refused``, the reason of its first ``ng <ref> <reason>``."""

    unpack: str | None = None
    refused: str | None = None

    @property
    def unpacked(self) -> bool:
        """Whether git took the pushed objects (``unpack ok``)."""
        return self.unpack == "ok"

    @property
    def reason(self) -> str | None:
        """Why the push was refused: the objects' verdict when they were not taken, else the
        refused ref's reason; None when the report names none."""
        return self.refused if self.unpack in (None, "ok") else self.unpack


def push_report(request: bytes, answer: bytes) -> PushReport:
    """Read git's report of a push from its ``answer``, pkt-line by pkt-line: on side band 1
    when the push's ``request`` asked for a side band, else as it is. Side band 2 is left
    alone: it relays what git's object check said about pushed content (a submodule name it
    quotes, ``disallowed submodule name: ../unpack disk quota exceeded``), words a user chose."""
    report = answer
    if _capabilities(request) & {"side-band", "side-band-64k"}:
        report = b"".join(data[1:] for data in packets(answer) if data[:1] == b"\x01")
    lines = [data.rstrip(b"\n").decode("utf-8", "replace") for data in packets(report)]
    if not lines or not lines[0].startswith("unpack "):
        return PushReport()
    refused = next((line for line in lines[1:] if line.startswith("ng ")), None)
    reason = None if refused is None else refused.split(" ", 2)[2:]  # ng <ref> <reason>
    return PushReport(
        unpack=lines[0].removeprefix("unpack ").strip(),
        refused=reason[0].strip() if reason else None,
    )


def deleted_refs(request: bytes) -> list[str]:
    """The refs a push's ``request`` would delete, as named: its commands (``<old id> <new
    id> <ref>[NUL capabilities]``, one a pkt-line up to the first flush; ``shallow <id>``
    lines skipped) whose new id is all zeros. git's ``receive.denyDeletes`` refuses only
    deletes under ``refs/heads/``, so ``git push origin :refs/machines/<id>`` was run by git
    and answered ``ok`` (the service then put the ref back): the service refuses these itself,
    git not run (R-1: a machine's ref is never deleted).

    >>> deleted_refs(b"006c" + b"1" * 40 + b" " + b"0" * 40 + b" refs/machines/m1\\0quiet0000")
    ['refs/machines/m1']
    """
    return [ref for new, ref in _commands(request) if not new.strip(b"0")]


def named_refs(request: bytes) -> list[str]:
    """Every ref a push's ``request`` names in its commands (as :func:`deleted_refs` reads
    them), in order. A push may write its machine's ref alone: git's ``receive.hideRefs``
    ``!refs/machines/<id>`` also shows the refs below it, so ``refs/machines/<id>/x`` was
    created by git and broke that machine's every later sync (a folder where its ref file
    goes: review56h); the service refuses any other ref itself, git not run (R-1).

    >>> named_refs(b"006e" + b"0" * 40 + b" " + b"1" * 40 + b" refs/machines/m1/x\\0quiet0000")
    ['refs/machines/m1/x']
    """
    return [ref for _, ref in _commands(request)]


def _commands(request: bytes) -> list[tuple[bytes, str]]:
    """A push's commands up to the first flush, each as (new id, ref), ``shallow`` lines
    skipped, capabilities after the first NUL left out."""
    commands = []
    for data in packets(request):
        words = data.partition(b"\0")[0].rstrip(b"\n").split(b" ")
        if len(words) == 3 and words[0] != b"shallow":
            commands.append((words[1], words[2].decode("utf-8", "replace")))
    return commands


def certified(request: bytes) -> bool:
    """Whether a push's ``request`` holds a push certificate: a ``push-cert`` packet among its
    commands (``push-cert`` before any NUL, a newline allowed). git's ``read_head_info`` takes
    one though the service never advertises ``push-cert``, and runs the commands written in
    its body, which may be cut across packets as the pusher likes: no reader of the commands
    short of git's own sees them, so such a push is refused whole (R-1).

    >>> certified(b"0017push-cert\\0report-status" + b"0000")
    True
    """
    return any(
        data.partition(b"\0")[0].removesuffix(b"\n") == b"push-cert" for data in packets(request)
    )


def run_buffered(
    command: list[str], env: Mapping[str, str], body: bytes, timeout: float
) -> tuple[Head, bytes]:
    """Run the CGI ``command`` with ``body`` on its input and return its answer; blocking.
    The command runs in a session of its own: at the ``timeout`` (seconds) its whole process
    group is killed, the ``git receive-pack`` and ``index-pack`` it started too (killing the
    command alone left them running, orphaned, past the scope's lock).

    Raises :class:`HistoryUnavailable` when git cannot run, takes longer than ``timeout``
    seconds, or answers no CGI header (what it said on its error output logged as a warning:
    ``sh`` failing to set a limit, say).
    """
    try:
        process = subprocess.Popen(  # noqa: S603 - a fixed program, arguments never through a shell
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env),
            start_new_session=True,
        )
    except OSError as error:
        raise HistoryUnavailable(f"git cannot be started: {error.strerror or error}") from None
    with process:
        try:
            stdout, stderr = process.communicate(body, timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(process.pid)
            process.communicate()
            raise HistoryUnavailable(
                f"git took longer than {timeout:g} s to take the push"
            ) from None
        except BaseException:
            _kill_group(process.pid)
            raise
    said = stderr.decode("utf-8", "replace").strip()
    answer = split_answer(stdout)
    if answer is None:
        logger.warning("git http-backend gave no answer (exit %s): %s", process.returncode, said)
        raise HistoryUnavailable("git gave no answer to the push")
    if said:
        logger.info("git http-backend: %s", said)
    return answer


def _kill_group(leader: int) -> None:
    """Kill the process group of ``leader``, a child started in its own session and not yet
    waited for (so its id, the group's, names no other process)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(leader, signal.SIGKILL)


class StreamedAnswer:
    """A running CGI process's answer: its :class:`Head`, the rest of its output
    (:meth:`chunks`) and :meth:`close`, which ends the process (killed when still running)."""

    def __init__(
        self,
        head: Head,
        process: asyncio.subprocess.Process,
        tasks: tuple[asyncio.Task[None], ...],
        deadline: float,
    ) -> None:
        self.head = head
        self._process = process
        self._tasks = tasks
        self._deadline = deadline

    async def chunks(self) -> AsyncIterator[bytes]:
        """The output after the header, as it comes; cut short at the deadline."""
        stdout = self._process.stdout
        assert stdout is not None
        async with asyncio.timeout_at(self._deadline):
            while chunk := await stdout.read(64 * 1024):
                yield chunk
            await self._process.wait()

    async def close(self) -> None:
        """End the process and its helper tasks; safe to call more than once."""
        await _stop(self._process, self._tasks)


async def run_streaming(
    command: list[str], env: Mapping[str, str], body: bytes, time_limit: float
) -> StreamedAnswer:
    """Start the CGI ``command`` with ``body`` on its input and read its header; the caller
    streams the rest and closes it (:class:`StreamedAnswer`). The whole exchange may take
    ``time_limit`` seconds (the process is killed then and the answer cut short).

    Raises :class:`HistoryUnavailable` when git cannot start or answers no CGI header in time.
    """
    try:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=dict(env),
            start_new_session=True,  # a process group of its own, killed whole (_stop)
        )
    except OSError as error:
        raise HistoryUnavailable(f"git cannot be started: {error.strerror or error}") from None
    deadline = asyncio.get_running_loop().time() + time_limit
    tasks = (asyncio.create_task(_feed(process, body)), asyncio.create_task(_log_errors(process)))
    assert process.stdout is not None
    try:
        async with asyncio.timeout_at(deadline):
            raw = await process.stdout.readuntil(b"\r\n\r\n")
    except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as error:
        await _stop(process, tasks)
        reason = type(error).__name__
        raise HistoryUnavailable(f"git gave no answer to the fetch ({reason})") from None
    return StreamedAnswer(parse_head(raw), process, tasks, deadline)


async def _feed(process: asyncio.subprocess.Process, body: bytes) -> None:
    assert process.stdin is not None
    with contextlib.suppress(ConnectionError):
        process.stdin.write(body)
        await process.stdin.drain()
    process.stdin.close()


async def _log_errors(process: asyncio.subprocess.Process) -> None:
    assert process.stderr is not None
    text = await process.stderr.read(64 * 1024)
    if text:
        logger.info("git http-backend: %s", text.decode("utf-8", "replace").strip())


async def _stop(process: asyncio.subprocess.Process, tasks: tuple[asyncio.Task[None], ...]) -> None:
    if process.returncode is None:
        _kill_group(process.pid)
    await process.wait()
    for task in tasks:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, ConnectionError):
            await task
