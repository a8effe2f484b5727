"""Exporting an agent's scopes to a ``.tar.gz`` archive, as they are on disk (P-5).

Layout (the one :func:`memory_api.transfer.sources.read_archive` reads back)::

    agent-memory/export.json                 format, version, project, agent, time, scopes
    agent-memory/scopes/<key>/MEMORY.md      every regular file of the scope, byte for byte:
    agent-memory/scopes/<key>/.workspace     the index, topic files and the Workspace marker
    agent-memory/scopes/<key>/<topic>.md
    agent-memory/history/<key>.bundle        with --with-history: the scope's history (V-3),
                                             a git bundle of its versions

Only regular files directly in a scope are archived, and what the service reads through a
symlink there: a ``MEMORY.md`` or ``*.md`` link to a regular file inside the memory root is
archived under the link's name with the bytes it leads to (the service lists, searches and
injects it like any other, A-7), and named with its target. Any other symlink (out of the root,
to nothing, not ``*.md``), a folder or a FIFO in a scope, and the dot-named temp files of atomic
writes (``.*.tmp``), are left out and listed. The service's K-6a side files
(:data:`~memory_core.layout.SIDE_FILES`: what it saw of the Workspace's disk) are left out
unlisted: they are true of this service's disks only. So is each entry of the memory root that is no
scope (a stray file, notes copied into a folder not named like a scope, a symlink out of the
root; :mod:`memory_api.store.not_scopes`, A-3), when every scope is exported. A ``*.md``
file whose name no route can address (K-7: not UTF-8, a control character, a backslash) is
archived as it is and named too, escaped, with why the service never reads it (T-5b). A file or
scope folder that is there but cannot be read (no permission, an I/O error) stops the export with
:class:`~memory_api.errors.CannotRead` naming it (Q-2b): an archive without it would pass for the
whole memory. Each file
is read once through the containment checks (A-7: nothing outside the memory root). The archive
is written to a temp file beside the output and renamed into place, so an interrupted export
leaves no half archive under the output's name.

Blocking: run it from the command line or a worker thread.
"""

from __future__ import annotations

import io
import json
import os
import stat
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from memory_core import layout
from memory_core.keys import USER_SCOPE, check_scope_key
from memory_core.shown_names import shown_name
from memory_core.wire import utc_timestamp

from memory_api.errors import BadRequest, CannotRead, NotFound, Unavailable
from memory_api.store.containment import (
    HARD_LINKED,
    NamedElsewhereError,
    NotRegularFileError,
    cannot_read,
    checked_memory_root,
    is_within,
    read_regular,
    real_path,
)
from memory_api.store.history.bundles import bundle_bytes
from memory_api.store.history.recorder import ScopeHistories
from memory_api.store.not_scopes import Skipped as NotScopes
from memory_api.store.scopes import list_folder, list_scopes, refuse_no_folder, vanished_root
from memory_api.transfer.sources import (
    ARCHIVE_FORMAT,
    ARCHIVE_MANIFEST,
    ARCHIVE_ROOT,
    HISTORY_FOLDER,
    IMPORT_FILE_CAP,
    Skipped,
)

__all__ = ["ARCHIVE_VERSION", "ExportReport", "check_output", "export_scopes"]

ARCHIVE_VERSION = 1


@dataclass(slots=True)
class ExportReport:
    """What was archived: files per scope key, bytes, what was left out with the reason, the
    archived files the service never reads with why (``unaddressable``: names K-7 refuses,
    T-5b), the symlinks archived as the file they lead to (``linked``: origin and the link's
    text), and the bytes of each scope's history bundle (``--with-history``; a scope without
    versions has none). Every origin is ``<key>/<name>`` with the name escaped (``shown_name``).
    ``not_scopes``: the entries of the memory root left out as no scope, the first
    :data:`~memory_api.store.not_scopes.SKIPPED_NAMED` by name, each origin the entry's
    escaped name, each reason why the service never reads it (A-3); ``not_scopes_count``: how
    many there are in all (a root of 100,000 stray files is counted, not listed).
    """

    output: Path
    files: dict[str, int] = field(default_factory=dict)
    history: dict[str, int] = field(default_factory=dict)
    bytes: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    unaddressable: list[Skipped] = field(default_factory=list)
    linked: list[Skipped] = field(default_factory=list)
    not_scopes: list[Skipped] = field(default_factory=list)
    not_scopes_count: int = 0


def _add(archive: tarfile.TarFile, name: str, data: bytes, mtime: float) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = int(mtime)
    info.mode = 0o644
    archive.addfile(info, io.BytesIO(data))


def _is_temp(name: str) -> bool:
    return name.startswith(".") and name.endswith(".tmp")


def _link_target(root: Path, entry: os.DirEntry[str]) -> tuple[Path | None, str]:
    """Where the symlink ``entry`` of a scope leads, when the service reads it as a scope file:
    a regular file inside the memory ``root`` for ``MEMORY.md`` or a ``*.md`` name (A-7); else
    None and why it is left out."""
    if not entry.name.endswith(".md"):
        return None, "a symlink, not a memory file (not archived)"
    target = real_path(Path(entry.path))
    if not is_within(root, target):
        return None, "a symlink to outside the memory root, which no reader follows (not archived)"
    if not target.is_file():
        return None, "a symlink to no regular file (not archived)"
    return target, ""


def _export_scope(
    archive: tarfile.TarFile, root: Path, key: str, scope: Path, report: ExportReport
) -> None:
    """Archive the regular files of ``scope`` and what its symlinks give the service (see the
    module docstring). Raises
    :class:`~memory_api.errors.CannotRead` when the folder or one of its files is there but
    cannot be read (Q-2b): an archive without it would pass for the whole scope."""
    report.files[key] = 0
    listing = list_folder(scope)
    refused = dict(listing.refused) if listing is not None else {}
    why = listing.error if listing is not None else None  # also: listed but not entered (r--)
    try:
        entries = sorted(os.scandir(scope), key=lambda item: item.name) if why is None else []
    except OSError as error:
        why = cannot_read(error)
    if why is not None:
        raise CannotRead(
            f"scope {key!r} cannot be listed: the service {why}; no archive was written"
        )
    for entry in entries:
        if entry.name in layout.SIDE_FILES:
            continue  # what this service saw of the Workspace (K-6a): not the scope's content
        origin = f"{key}/{shown_name(entry.name)}"
        try:
            info = entry.stat(follow_symlinks=False)
        except FileNotFoundError:
            continue  # deleted since the folder was listed
        except OSError as error:  # not the archive's fault: say whose it is (Q-2b)
            raise CannotRead(
                f"file {origin!r} is there, but the service {cannot_read(error)}; no archive "
                "was written"
            ) from None
        source = Path(entry.path)
        if stat.S_ISLNK(info.st_mode) and not _is_temp(entry.name):
            target, left_out = _link_target(root, entry)
            if target is None:
                report.skipped.append(Skipped(origin, left_out))
                continue
            source = target
            report.linked.append(Skipped(origin, str(Path(entry.path).readlink())))
        elif not stat.S_ISREG(info.st_mode) or _is_temp(entry.name):
            kind = "a temp file" if _is_temp(entry.name) else "not a regular file"
            report.skipped.append(Skipped(origin, f"{kind} (not archived)"))
            continue
        try:
            data, opened = read_regular(source, IMPORT_FILE_CAP + 1, memory=True)
        except FileNotFoundError:
            continue
        except NamedElsewhereError:
            report.skipped.append(Skipped(origin, f"{HARD_LINKED} (not archived)"))
            continue
        except NotRegularFileError:
            report.skipped.append(Skipped(origin, "not a regular file (not archived)"))
            continue
        except OSError as error:
            raise CannotRead(
                f"file {origin!r} is there, but the service {cannot_read(error)}; no archive "
                "was written"
            ) from None
        if len(data) > IMPORT_FILE_CAP:
            report.skipped.append(Skipped(origin, "larger than the import cap (not archived)"))
            continue
        _add(archive, f"{ARCHIVE_ROOT}/scopes/{key}/{entry.name}", data, opened.st_mtime)
        if (why := refused.get(shown_name(entry.name))) is not None:
            report.unaddressable.append(Skipped(origin, why))
        report.files[key] += 1
        report.bytes += len(data)


def _not_scopes(root: Path, scopes: list[tuple[str, Path]], found: NotScopes) -> list[Skipped]:
    """The first entries by name of the memory ``root`` that are no scope, as ``found`` took
    them from its listing, and the ``user`` entry when it is no scope folder (the listing
    leaves that one to the user scope's own row, which an archive has not): ``(escaped name,
    why)``, by name; ``found.count`` then counts them all."""
    if all(key != USER_SCOPE for key, _ in scopes):
        try:
            with os.scandir(root) as entries:
                for entry in entries:
                    if entry.name == USER_SCOPE:
                        found.add(entry)
        except OSError:
            pass  # no memory root (nothing exported): no entry of it left out either
    return [Skipped(name, f"{why} (not archived)") for name, why in found.named]  # escaped


def _export_history(
    archive: tarfile.TarFile,
    histories: ScopeHistories,
    agent_id: str,
    key: str,
    scope: Path,
    report: ExportReport,
) -> None:
    bundle = bundle_bytes(histories.repository(agent_id, scope))
    if bundle is not None:
        _add(archive, f"{ARCHIVE_ROOT}/{HISTORY_FOLDER}/{key}.bundle", bundle, time.time())
        report.history[key] = len(bundle)


def check_output(output: Path, app_data_dir: Path) -> None:
    """Raise :class:`~memory_api.errors.BadRequest` unless the archive may be written as
    ``output``: the archive replaces its name whole (a temporary file renamed over it), so the
    name must be free or a regular file (a symlink there is replaced, never followed), and it
    must lie outside the data dir. A device, FIFO or folder there was replaced by the archive
    (``-o /dev/full`` as root took the device away); inside the data dir the archive became
    a scope's ``MEMORY.md`` or a token file that the service could no longer read.
    """
    try:
        info = os.lstat(output)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise BadRequest(f"the output {output} cannot be looked at: {error.strerror}") from None
    if info is not None and not (stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode)):
        what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise BadRequest(
            f"the output {output} is {what}, which the archive would replace: name a new "
            "file (or one to overwrite), such as coder.tar.gz"
        )
    where = Path(os.path.realpath(output.parent))
    if is_within(Path(os.path.realpath(app_data_dir)), where):
        raise BadRequest(
            f"the output {output} lies inside the data dir {app_data_dir}, whose files the "
            "service owns: write the archive elsewhere"
        )


def export_scopes(
    app_data_dir: Path,
    project: str,
    agent_id: str,
    output: Path,
    keys: list[str] | None = None,
    histories: ScopeHistories | None = None,
) -> ExportReport:
    """Write the agent's scopes (all, or those in ``keys``) to the gzip'ed tar ``output``;
    with ``histories``, each scope's history as a bundle too (V-3).

    Raises :class:`~memory_api.errors.NotFound` for a requested key that has no scope,
    :class:`~memory_api.errors.NotAFolder` for one whose folder's place holds a file, a FIFO,
    a socket or a symlink that does not lead to another scope folder of the memory root
    (dangling, out of the root, to a file; named "a symlink", never where it leads), as the
    scope routes say it,
    :class:`~memory_api.errors.BadRequest` for an ``output`` the archive may not replace (see
    :func:`check_output`), :class:`~memory_api.errors.CannotRead` when a scope folder or a
    file in one is there but cannot be read (Q-2b), and :class:`~memory_api.errors.Unavailable`
    naming the output when it cannot be written (a full disk: it said only "[Errno 28] No
    space left on device"); in both cases nothing is left under its name. :class:`Unavailable`
    too, before anything is written, when the memory root is gone while the agent's history
    holds scopes (:func:`~memory_api.store.scopes.vanished_root`: it wrote an empty backup).
    """
    check_output(output, app_data_dir)
    root = checked_memory_root(Path(os.path.realpath(app_data_dir)), agent_id)
    if (vanished := vanished_root(root)) is not None:  # never an empty backup, exit 0 (P-5)
        raise Unavailable(f"cannot export agent {agent_id!r}: the service {vanished}")
    found = NotScopes()  # the first by name named, as the overview names them; all counted
    scopes = list_scopes(root, found)
    report = ExportReport(output=output)
    if keys is None:
        report.not_scopes = _not_scopes(root, scopes, found)
        report.not_scopes_count = found.count
    else:
        by_key = dict(scopes)
        missing = [key for key in keys if key not in by_key]
        for key in missing:  # there, but no folder: never "no scope" (K-6)
            refuse_no_folder(root, check_scope_key(key), agent_id)
        if missing:
            raise NotFound(f"no scope {', '.join(map(repr, missing))} in agent {agent_id!r}")
        scopes = [(key, by_key[key]) for key in dict.fromkeys(keys)]
    output.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=output.parent, prefix=f".{output.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            with tarfile.open(fileobj=handle, mode="w:gz") as archive:
                now = time.time()
                manifest = {
                    "format": ARCHIVE_FORMAT,
                    "version": ARCHIVE_VERSION,
                    "project": project,
                    "agent": agent_id,
                    "exportedAt": utc_timestamp(now),
                    "scopes": [key for key, _ in scopes],
                    "history": histories is not None,
                }
                data = json.dumps(manifest, indent=2).encode("utf-8") + b"\n"
                _add(archive, f"{ARCHIVE_ROOT}/{ARCHIVE_MANIFEST}", data, now)
                for key, scope in scopes:
                    _export_scope(archive, root, key, scope, report)
                    if histories is not None:
                        _export_history(archive, histories, agent_id, key, scope, report)
            handle.flush()
            os.fsync(handle.fileno())
        Path(temp).replace(output)
    except OSError as error:
        Path(temp).unlink(missing_ok=True)
        raise Unavailable(
            f"the archive {output} could not be written ({error.strerror or error}): nothing "
            "was left under its name; free space where it goes (or fix its folder's owner or "
            "mode) and export again, or name another place with -o"
        ) from error
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return report
