"""A moved data dir: the prompts that name its old path name the placeholder instead (A-1, I-6).

A new agent's prompt names the data dir by ``{{APP_DATA_DIR}}``, which the harness fills at each
Session start with the path the service answers (:mod:`memory_api.defaults`): it follows the
data dir wherever it goes. Prompts made before named the path itself in their Environment
section (``- App data dir: /home/me/agent-memory/.data``), so a data dir moved (``make run``'s
``.data`` with a moved checkout) left them naming a folder no service looks in.

So the data dir records the path it was last served from (:data:`SERVED_FROM`). When a service
starts it at another path and the recorded one is gone (``ENOENT``, ``ENOTDIR``) or another
folder (a new ``.data`` made there after the move), not a second mount of it, each prompt's
Environment-section lines naming exactly the recorded path name ``{{APP_DATA_DIR}}`` instead,
each keeping its own line end, and the log says so. Nothing else is rewritten: a line quoted in
the prompt's notes, a folder on a volume not mounted now, a data dir served at two paths that
both name it (a bind mount, a symlink). Once rewritten, a prompt names no path, so two mount
namespaces starting one data dir by turns never flip it. No error here keeps the service from
starting: it is logged.
A data dir without the record (served before it was kept), or whose record names no path,
gets it, and no prompt is changed. The record is read as a regular file only, never through a
symlink: one that is not is left, and the warning names it and says to delete it.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
from pathlib import Path

from memory_core.atomic import atomic_write_bytes
from memory_core.markdown import lines_with_ends
from memory_core.regular_files import read_regular_file
from memory_core.template import APP_DATA_DIR_PLACEHOLDER, environment_section

from memory_api.defaults import DATA_DIR_LINE
from memory_api.errors import ServiceError
from memory_api.store.agents import AgentStore

__all__ = [
    "SERVED_FROM",
    "moved_from",
    "name_the_placeholder",
    "prompts_follow_the_data_dir",
    "recorded_path",
]

logger = logging.getLogger("memory_api.app")

SERVED_FROM = "served-from"
"""The file in the data dir holding the path it was last served from (its bytes, then a line
end), written atomically, 0644 as the data dir's other files."""

_GONE = (errno.ENOENT, errno.ENOTDIR)
_RECORD_MAX = 16 * 1024
"""The longest record read (bytes): a path is at most 4096 on Linux."""


def moved_from(data_dir: Path, recorded: str) -> str | None:
    """``recorded`` (the path the record names, :func:`recorded_path`) when ``data_dir`` moved
    from it: it is not ``data_dir``'s path and is gone (``ENOENT``, ``ENOTDIR``) or is another
    folder (a new ``.data`` made at the old path after the move); else None. A path that cannot
    be looked at for another reason (``EACCES``, ``ENAMETOOLONG``) is taken as there, with a
    warning. Blocking."""
    if os.fsencode(recorded) == os.fsencode(data_dir):
        return None
    try:
        same = Path(recorded).samefile(data_dir)
    except OSError as error:
        if error.errno in _GONE:
            return recorded
        logger.warning(
            "the data dir %s was served from %s before, which cannot be looked at (%s): the "
            "agents' prompts naming it are left as they are",
            data_dir,
            recorded,
            error.strerror,
        )
        return None
    return None if same else recorded


def recorded_path(raw: bytes) -> str | None:
    """The absolute path a record's bytes ``raw`` name (a line end after it or not); None when
    they name none a service writes: a NUL byte, a relative path, nothing."""
    body = raw.removesuffix(b"\n")
    if b"\0" in body or not Path(os.fsdecode(body)).is_absolute():
        return None
    return os.fsdecode(body)


def _recorded(record: Path) -> bytes | None:
    """The bytes of the regular file ``record``, never through a symlink (``ELOOP``); None
    without one; ``b""`` (names no path) when it is longer than a path can be. Blocking; raises
    ``OSError`` when it cannot be read or is no regular file (a FIFO never hangs the start)."""
    try:
        return read_regular_file(record, _RECORD_MAX, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.EFBIG:
            return b""
        raise


def _line(data_dir: Path) -> bytes:
    """What the record holds for ``data_dir``: its path's bytes and a line end."""
    return os.fsencode(data_dir) + b"\n"


def _why(error: OSError) -> str:
    """``error``'s errno name and text, as ``ELOOP: Too many levels of symbolic links``."""
    name = errno.errorcode.get(error.errno or 0, "error")
    return f"{name}: {error.strerror or error}"


def name_the_placeholder(template: str, old: str) -> tuple[str, bool]:
    """``(template, changed)``: each line ``- App data dir: OLD`` of ``template``'s Environment
    section (:func:`~memory_core.template.environment_section`) naming exactly the path ``old``
    (trailing blanks aside) names ``{{APP_DATA_DIR}}`` instead, keeping its own line end and
    trailing blanks. Every other line, in the section or not, is left as it is."""
    lines = lines_with_ends(template)
    stale = f"{DATA_DIR_LINE}{old}"
    changed = False
    for number in environment_section(lines):
        line = lines[number]
        end = line[len(stale) :]
        if line.startswith(stale) and not end.strip(" \t\r\n"):
            lines[number] = f"{DATA_DIR_LINE}{APP_DATA_DIR_PLACEHOLDER}{end}"
            changed = True
    return "".join(lines), changed


async def prompts_follow_the_data_dir(store: AgentStore, data_dir: Path) -> None:
    """At the service's start: when ``data_dir`` moved (:func:`moved_from`), each agent's prompt
    naming its old path names the placeholder instead (:func:`name_the_placeholder`), and the
    log says so; then ``data_dir`` is recorded as where it is served from, also over a record
    naming no path (:func:`recorded_path`). File work runs in worker threads. Never raises: a
    failure is a warning naming what to do, and the record is then left as it was, so the next
    start tries again. A record that is no regular file (a symlink, never followed; a folder;
    a FIFO) keeps every prompt, and the warning says to delete it."""
    record = data_dir / SERVED_FROM
    try:
        raw = await asyncio.to_thread(_recorded, record)
    except OSError as error:
        logger.warning(
            "the agents' prompts were not checked for a moved data dir %s: its record of where "
            "it is served from, %s, cannot be read (%s): delete it, and the next start records "
            "the data dir's path there",
            data_dir,
            record,
            _why(error),
        )
        return
    if raw == _line(data_dir):
        return
    try:
        recorded = None if raw is None else recorded_path(raw)
        old = None if recorded is None else await asyncio.to_thread(moved_from, data_dir, recorded)
        if old is not None and not await _rewrite(store, old):
            return
    except Exception as error:  # nothing here may keep the service from starting
        logger.warning(
            "the agents' prompts were not checked for a moved data dir %s: %s", data_dir, error
        )
        return
    await _record(record, data_dir, named_none=raw is not None and recorded is None)


async def _record(record: Path, data_dir: Path, *, named_none: bool) -> None:
    """Write ``data_dir``'s path in ``record``, saying so when it named no path before."""
    try:
        await asyncio.to_thread(atomic_write_bytes, record, _line(data_dir))
    except OSError as error:
        logger.warning(
            "could not record where the data dir is served from in %s (%s): the next start "
            "checks the agents' prompts for a move again",
            record,
            _why(error),
        )
        return
    if named_none:
        logger.warning(
            "%s named no path a service writes (a NUL byte, a relative path or over %d bytes): "
            "it now names %s",
            record,
            _RECORD_MAX,
            data_dir,
        )


async def _rewrite(store: AgentStore, old: str) -> bool:
    """Rewrite every agent's prompt naming ``old``; whether each one was (or needed not be)."""
    whole = True
    for agent in await store.list():
        if not name_the_placeholder(agent.template, old)[1]:
            continue
        try:
            _, changed = await store.update_template(
                agent.project, agent.id, lambda text: name_the_placeholder(text, old)
            )
        except (ServiceError, OSError) as error:
            logger.warning(
                "agent %s/%s: its prompt still names %s, which is gone: %s",
                agent.project,
                agent.id,
                old,
                error,
            )
            whole = False
            continue
        if changed:
            logger.info(
                "agent %s/%s: its prompt named the data dir %s, which is gone (moved): it now "
                "names %s, which each Session start fills with the data dir",
                agent.project,
                agent.id,
                old,
                APP_DATA_DIR_PLACEHOLDER,
            )
    return whole
