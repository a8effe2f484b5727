"""Where an import goes, and running it over every offered scope (P-5).

The target is the user scope (``--user``), the Workspace scope of a path (``--workspace``,
K-1: the key of its real path; created with its ``.workspace`` marker like a first Session,
K-5), for a coding agent's memory (``--from``) each part where it belongs (its ``role``: the
user scope or the Workspace scope), or — for an export archive only — each archived scope
under its own key, its marker restored when the scope has none (a marker naming another path
is kept, K-5, and reported). A temporary Workspace has no Workspace scope (K-4) and is refused.
A source with nothing to write creates no scope.

A folder gets an index line for each topic file its index never linked
(:func:`~memory_api.transfer.topic_making.index_unlinked`); an archive is restored as it was,
and the report names each topic file its index does not link.

Blocking: run it from the command line or a worker thread. The caller has checked that the
agent exists in the project.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memory_core import layout
from memory_core.atomic import data_folder_mode, make_dirs
from memory_core.keys import USER_SCOPE, is_temporary_workspace, key_for_real_path

from memory_api.errors import BadRequest, NotFound, Unavailable, write_fix
from memory_api.store.containment import checked_memory_root, real_path
from memory_api.store.exclusive import create_new_bytes
from memory_api.store.history.recorder import ScopeHistories
from memory_api.store.locks import Locks
from memory_api.store.scopes import (
    create_scope_dir,
    read_marker,
    refuse_no_folder,
    scope_real_dir,
    vanished_root,
)
from memory_api.store.sessions import (
    check_real_workspace,
    check_workspace_path,
    ensure_workspace_scope,
    flag_visibility,
)
from memory_api.transfer.harnesses import HarnessRequest, harness_scopes
from memory_api.transfer.importer import ImportReport, IndexNotWritten, import_scope
from memory_api.transfer.sources import (
    SourceError,
    SourceScope,
    read_budget,
    read_source,
    recorded_as,
)
from memory_api.transfer.topic_making import index_unlinked, name_unlinked

__all__ = ["Target", "offered_scopes", "run_import"]

_ACCESS = "write access to the data dir (its owner and mode)"
"""What an import needs of the data dir (:func:`~memory_api.errors.write_fix`)."""
_INDEX_ACCESS = f"read and write access to the scope's folder and its {layout.INDEX_FILE}"
"""What an import needs of the index it merges into."""

TargetKind = Literal["user", "workspace", "archived", "harness"]


@dataclass(frozen=True, slots=True)
class Target:
    """Where to import: ``user``, ``workspace`` (with its ``path``), ``archived`` keys, or
    ``harness``: each source where its ``role`` says (the Workspace being ``workspace``)."""

    kind: TargetKind
    workspace: str | None = None


@read_budget()
def offered_scopes(
    source: str | None,
    archive_scope: str | None,
    harness: HarnessRequest | None = None,
) -> list[SourceScope]:
    """Read what an import is offered: the ``source`` folder or archive, or — with
    ``harness`` — a coding agent's own memory (:func:`~.harnesses.harness_scopes`).

    ``archive_scope`` keeps only that scope of an archive. Raises
    :class:`~memory_api.transfer.sources.SourceError` for a missing or unusable source and a
    wrong combination of arguments.
    """
    if harness is not None:
        return harness_scopes(harness)
    if source is None:
        raise SourceError("name the SOURCE folder or archive, or use --from")
    scopes = recorded_as(read_source(Path(source), shown=source), Path(source))
    for scope in scopes:
        if scope.key is None:
            index_unlinked(scope)
        else:
            name_unlinked(scope)
    if archive_scope is not None:
        scopes = [scope for scope in scopes if scope.key == archive_scope]
        if not scopes:
            raise SourceError(f"the archive holds no scope {archive_scope!r}")
    return scopes


@dataclass(frozen=True, slots=True)
class _Place:
    key: str
    scope: Path
    notes: tuple[str, ...] = ()


def _workspace_key(app_data_dir: Path, workspace: str) -> tuple[str, str]:
    """The real path and key of ``workspace``; :class:`BadRequest` for a path that is not a
    directory here, a relative one, or a temporary Workspace (K-4)."""
    real = check_real_workspace(check_workspace_path(workspace))
    if not Path(real).is_dir():
        # unlike a harness's Session start, the import runs here: a typo would only make an
        # orphaned scope (K-6a)
        raise BadRequest(f"the Workspace {workspace} is no directory on this machine")
    if is_temporary_workspace(Path(real), app_data_dir):
        raise BadRequest(f"{workspace} is a temporary Workspace: it has no Workspace scope (K-4)")
    return real, key_for_real_path(real)


def _existing_or_planned(root: Path, key: str) -> Path:
    """The scope's real directory, or where it would be created (a dry run creates nothing)."""
    found = scope_real_dir(root, key)
    return found if found is not None else root / key


def _created(root: Path, key: str, agent_id: str) -> Path:
    """The scope's real folder, made if missing; :class:`~memory_api.errors.NotAFolder` when
    a file, a FIFO, a socket or a symlink that does not lead to another scope folder of the
    memory root (dangling, out of the root, to a file) stands in its place (never "cannot be
    created", which hid that it is there)."""
    create_scope_dir(root, key)
    found = scope_real_dir(root, key)
    if found is None:
        refuse_no_folder(root, key, agent_id)
        raise NotFound(f"scope {key!r} cannot be created in the memory root")
    return found


def _archived_place(root: Path, source: SourceScope, dry_run: bool, agent_id: str) -> _Place:
    """The archived scope's own key; its marker restored when missing (never overwritten)."""
    key = source.key or USER_SCOPE
    if dry_run:
        return _Place(key, _existing_or_planned(root, key))
    scope = _created(root, key, agent_id)
    if key == USER_SCOPE or not source.marker:
        return _Place(key, scope)
    if create_new_bytes(scope / layout.MARKER_FILE, (source.marker + "\n").encode("utf-8")):
        # a Workspace of another machine or mount namespace: the service never saw it, so it
        # is not visible from here, never orphaned (K-6a), as after a machine's push
        visible = os.path.isdir(source.marker)  # noqa: PTH112 - one stat
        flag_visibility(scope, key, visible=visible, cached_only=False)
        return _Place(key, scope, (f"restored its {layout.MARKER_FILE} marker",))
    marker = read_marker(root, scope, key)
    if marker.path != source.marker:
        note = f"kept its {layout.MARKER_FILE} ({marker.path!r}); the archive's names "
        return _Place(key, scope, (note + repr(source.marker),))
    return _Place(key, scope)


def _place(
    app_data_dir: Path,
    root: Path,
    target: Target,
    source: SourceScope,
    dry_run: bool,
    agent_id: str,
) -> _Place:
    if target.kind == "archived":
        return _archived_place(root, source, dry_run, agent_id)
    dry_run = dry_run or not (source.files or source.index)  # nothing to write: create nothing
    if target.kind == "user" or (target.kind == "harness" and source.role == "user"):
        if dry_run:
            return _Place(USER_SCOPE, _existing_or_planned(root, USER_SCOPE))
        return _Place(USER_SCOPE, _created(root, USER_SCOPE, agent_id))
    real, key = _workspace_key(app_data_dir, target.workspace or "")
    if dry_run:
        return _Place(key, _existing_or_planned(root, key))
    made_key, scope = ensure_workspace_scope(root, real)
    if scope is None:
        refuse_no_folder(root, made_key, agent_id)
        raise NotFound(f"the Workspace scope {made_key!r} cannot be used (not a directory)")
    return _Place(made_key, scope)


def run_import(
    app_data_dir: Path,
    agent_id: str,
    target: Target,
    sources: list[SourceScope],
    *,
    locks: Locks,
    dry_run: bool = False,
    advance: Callable[[], None] | None = None,
    histories: ScopeHistories | None = None,
) -> list[ImportReport]:
    """Import every source scope into its target scope; one report per source scope, each
    import recorded in the scope's history when ``histories`` is given (V-1).

    A user or Workspace target takes exactly one source scope (:class:`BadRequest`
    otherwise).
    Raises what :func:`~memory_api.transfer.importer.import_scope` raises, except that a disk
    that refuses a write or a folder (``OSError``: full, read-only, no permission) stops it with
    :class:`Unavailable` saying where, that what was written is whole and that the same import
    run again finishes it; ``InvalidId`` for a bad agent id and :class:`BadRequest` for a bad or
    temporary Workspace path. :class:`Unavailable` too, before anything is made or recorded,
    when the agent's memory root is gone while its history holds scopes
    (:func:`~memory_api.store.scopes.vanished_root`: remade empty, every note was recorded as
    deleted, V-1).
    """
    if target.kind in ("user", "workspace") and len(sources) != 1:
        keys = ", ".join(source.key or source.label for source in sources) or "none"
        raise BadRequest(
            f"the archive holds {len(sources)} scopes ({keys}); import it without --user and "
            "--workspace to restore each under its own key, or pick one with --archive-scope"
        )
    app_data_dir = real_path(app_data_dir)
    root = checked_memory_root(app_data_dir, agent_id)
    if (vanished := vanished_root(root)) is not None:  # never remade: every note recorded gone
        raise Unavailable(f"cannot import into agent {agent_id!r}: the service {vanished}")
    if not dry_run:
        make_dirs(root, data_folder_mode())  # owner-only whatever the umask
    reports: list[ImportReport] = []
    for source in sources:
        where = source.key or source.label
        try:
            place = _place(app_data_dir, root, target, source, dry_run, agent_id)
            where = place.key
            report = import_scope(
                root,
                place.scope,
                place.key,
                source,
                locks=locks,
                agent_id=agent_id,
                dry_run=dry_run,
                advance=advance,
                histories=histories,
            )
        except OSError as error:
            raise Unavailable(_stopped(error, where, reports)) from error
        report.notes[:0] = place.notes
        reports.append(report)
    return reports


def _stopped(error: OSError, where: str, done: list[ImportReport]) -> str:
    """What an import the disk stopped half-way says (P-5): where and why, that what it wrote
    is whole, and that the same import run again takes up where it stopped. It said only
    "[Errno 28] No space left on device" (no scope, no file, nothing on what was left). An
    index the kernel refused (:class:`~.importer.IndexNotWritten`) is named as the file that
    stopped it: it reported "add these lines by hand" and exited 0."""
    why = error.strerror or str(error)
    if error.filename is not None:
        why += f": {os.fsdecode(error.filename)}"
    finished = ", ".join(report.key for report in done)
    after = f", after importing scope(s) {finished}" if finished else ""
    if isinstance(error, IndexNotWritten):
        return (
            f"the import stopped in scope {where}{after}: {layout.INDEX_FILE} cannot be "
            f"written ({why}): its topic files are whole and in place, {layout.INDEX_FILE} "
            f"is as it was; {write_fix(error, _INDEX_ACCESS)}, and run the same import again "
            "to merge its lines"
        )
    return (
        f"the import stopped in scope {where} ({why}){after}: every file it wrote is whole; "
        f"{write_fix(error, _ACCESS)}, and run the same import again: it takes up where it "
        "stopped and imports nothing twice"
    )
