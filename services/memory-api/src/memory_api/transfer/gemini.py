"""Gemini CLI's memory (``--from gemini``, P-5): its global file, a project's, a private folder.

Gemini CLI (read from its source and its shipped 0.61 bundle) keeps memory in three places:

- ``~/.gemini/GEMINI.md`` (``$GEMINI_CLI_HOME/.gemini``; the first ``context.fileName`` of
  the user's ``settings.json`` when set): the global personal memory. Its ``save_memory`` tool
  (until Gemini CLI removed it in 2026) appended each fact as ``- fact`` under a
  ``## Gemini Added Memories`` heading; since, the model edits the file directly;
- a project's ``GEMINI.md``: the repository's shared instructions, committed with it;
- the private project memory folder ``~/.gemini/tmp/<project>/memory/``: ``MEMORY.md`` holds
  brief facts and one line per sibling ``*.md`` note; ``skills/`` and ``.inbox/`` hold Auto
  Memory's drafts waiting for the user's review (``/memory inbox``). ``<project>`` is a short
  name Gemini CLI registers per project path in ``~/.gemini/projects.json`` (the path's base
  name made lower-case kebab, ``-1``, ``-2`` … when taken) and confirms with a
  ``.project_root`` file in that folder naming the path. Two paths with one base name get two
  names, so the folder is found through the registry and its ``.project_root``, never guessed
  from the name (a folder whose ``.project_root`` names another path stops the import).

Where each goes (one memory per topic file, one index line per memory):

- each item of a ``## Gemini Added Memories`` section → one topic file: from the global file
  into the user scope, from the Workspace's ``GEMINI.md`` into the Workspace scope;
- the rest of the global file → one topic file per section (user scope); the rest of a
  project's ``GEMINI.md`` is not imported (it stays in the repository, where it is read);
- the private folder → the Workspace scope: its notes as they are, each brief fact of its
  ``MEMORY.md`` → one topic file, its lines linking notes → index lines; Auto Memory's drafts
  and bookkeeping are not imported (named, with the reason).

Blocking (reads a few files).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from pathlib import Path

from memory_core.counting import counted
from memory_core.index import topic_link_targets

from memory_api.transfer.harness_files import file_date, read_text
from memory_api.transfer.ownership import WrongProject, project_base
from memory_api.transfer.sources import (
    ELSEWHERE,
    Merged,
    NothingHere,
    Skipped,
    SourceScope,
    json_value,
    read_folder,
    read_small_text,
)
from memory_api.transfer.topic_making import add_made, list_items, sections, slug

__all__ = ["ADDED_MEMORIES", "gemini_dir", "gemini_scopes", "project_memory_dir"]

ADDED_MEMORIES = "Gemini Added Memories"
"""The heading (``## Gemini Added Memories``) ``save_memory`` filed its facts under."""
PROJECT_ROOT_FILE = ".project_root"
_GEMINI_HOME = (
    "the folder that holds its .gemini folder (Gemini CLI reads $GEMINI_CLI_HOME/.gemini)"
)
_GEMINI_ELSEWHERE = ELSEWHERE.format(
    variable="GEMINI_CLI_HOME", harness="Gemini CLI", folder=_GEMINI_HOME
)
PRIVATE_KNOWN = {
    "skills": "Auto Memory's skill drafts waiting for your review in Gemini CLI (/memory inbox)",
    ".inbox": "Auto Memory's proposed memory changes waiting for your review in Gemini CLI "
    "(/memory inbox): apply them there first",
    ".extraction-state.json": "Auto Memory's bookkeeping; not a memory",
    ".extraction.lock": "Auto Memory's bookkeeping; not a memory",
}


def gemini_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$GEMINI_CLI_HOME/.gemini``, else ``~/.gemini`` (``$HOME`` first)."""
    environment = os.environ if env is None else env
    home = environment.get("GEMINI_CLI_HOME") or environment.get("HOME")
    return (Path(home) if home else Path.home()) / ".gemini"


def _context_names(gemini: Path) -> list[str]:
    """``context.fileName`` of the user's settings (a name or a list), else ``GEMINI.md``."""
    text = read_small_text(gemini / "settings.json")
    try:
        settings = None if text is None else json_value(text)
    except ValueError:
        return ["GEMINI.md"]
    context = settings.get("context") if isinstance(settings, dict) else None
    value = context.get("fileName") if isinstance(context, dict) else None
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    plain = [n for n in names if isinstance(n, str) and n.strip() and "/" not in n]
    return plain or ["GEMINI.md"]


def _owner(folder: Path) -> str | None:
    text = read_small_text(folder / PROJECT_ROOT_FILE)
    return None if text is None else text.strip()


def project_memory_dir(gemini: Path, forms: list[str]) -> Path | None:
    """The private memory folder Gemini CLI keeps for a project whose path is one of
    ``forms`` (the Workspace as given and its real path), or None.

    Looks the path up in ``projects.json``, then (as Gemini CLI does when the registry lacks it)
    for a ``tmp/*/.project_root`` naming it, then the legacy ``tmp/<sha256 of the path>``.
    Raises :class:`WrongProject` when the registered folder's ``.project_root`` names another
    path.
    """
    tmp = gemini / "tmp"
    text = read_small_text(gemini / "projects.json")
    try:
        registry = {} if text is None else json_value(text)
    except ValueError:
        registry = {}
    projects = registry.get("projects") if isinstance(registry, dict) else None
    for form in forms:
        short = projects.get(form) if isinstance(projects, dict) else None
        if not isinstance(short, str) or not short or "/" in short or short.startswith("."):
            continue
        owner = _owner(tmp / short)
        if owner is not None and owner not in forms:
            raise WrongProject(
                f"Gemini CLI's folder {tmp / short} belongs to {owner} (its {PROJECT_ROOT_FILE}"
                f"), though its registry maps {form} to it. To import it anyway, name the "
                f"folder: memory import {tmp / short / 'memory'} --workspace {form}"
            )
        return tmp / short / "memory"
    try:
        candidates = sorted(tmp.iterdir()) if tmp.is_dir() else []
    except OSError:
        candidates = []
    for folder in candidates:
        if _owner(folder) in forms:
            return folder / "memory"
    for form in forms:
        legacy = tmp / hashlib.sha256(form.encode("utf-8")).hexdigest() / "memory"
        if legacy.is_dir():
            return legacy
    return None


def _added_memories(text: str, scope: SourceScope, path: Path) -> tuple[int, str]:
    """Add each item of the file's ``## Gemini Added Memories`` section to ``scope``; returns
    how many, and the file's text without that section."""
    rest: list[str] = []
    count = 0
    for section in sections(text, 2):
        if section.level == 2 and section.title.strip() == ADDED_MEMORIES:
            for number, item in enumerate(list_items(section.body), 1):
                add_made(
                    scope,
                    stem=slug(item, "gemini-memory"),
                    title=item,
                    description=item,
                    body=item,
                    updated_at=file_date(path),
                    origin=f"{path} § {ADDED_MEMORIES}, item {number}",
                )
                count += 1
        else:
            heading = f"{'#' * section.level} {section.title}\n" if section.level else ""
            rest.append(heading + section.body)
    return count, "\n\n".join(rest).strip()


def _global_file(scope: SourceScope, path: Path) -> None:
    """The global ``GEMINI.md``: each added memory, then each other section, a topic file."""
    text = read_text(path)
    if isinstance(text, Skipped):
        if path.exists():
            scope.skipped.append(text)
        return
    count, rest = _added_memories(text, scope, path)
    others = bare = 0
    for section in sections(rest, 2):
        if not section.body.strip():  # a heading with no text of its own: no memory to make
            bare += 1
            continue
        title = section.title or "Gemini CLI global context"
        add_made(
            scope,
            stem=slug(title, "gemini-context"),
            title=title,
            description=f"{title} (Gemini CLI's global {path.name}): {section.body}",
            body=(f"{'#' * section.level} {section.title}\n\n" if section.level else "")
            + section.body,
            updated_at=file_date(path),
            origin=f"{path} § {section.title or 'before the first heading'}",
        )
        others += 1
    detail = (
        f"{counted(count, 'added memory', 'added memories')} and "
        f"{counted(others, 'other section')} → topic files (user scope)"
    )
    if bare:
        headings = counted(
            bare, "heading with no text of its own", "headings with no text of their own"
        )
        detail += f"; {headings} left out"
    scope.merged.append(Merged(str(path), detail))


def _project_file(scope: SourceScope, path: Path) -> None:
    """A project's ``GEMINI.md``: only its added memories are imported."""
    text = read_text(path)
    if isinstance(text, Skipped):
        if path.exists():
            scope.skipped.append(text)
        return
    count, rest = _added_memories(text, scope, path)
    stays = "the repository's own context file; it stays in the repository, where it is read"
    if count:
        memories = counted(count, "added memory", "added memories")
        what = f"{memories} → topic files; the rest is {stays}"
        scope.merged.append(Merged(str(path), what if rest else memories))
    else:
        scope.skipped.append(Skipped(str(path), stays))


def _private_folder(scope: SourceScope, folder: Path) -> None:
    """The private project memory folder: notes as they are, ``MEMORY.md``'s brief facts made
    topic files, its note lines kept as index lines."""
    read = read_folder(folder, PRIVATE_KNOWN)
    scope.skipped.extend(read.skipped)
    index, origin = read.index, read.index_origin
    legacy = next((f for f in read.files if f.name == "GEMINI.md"), None)
    if index is None and legacy is not None:  # Gemini CLI reads it when MEMORY.md is missing
        read.files.remove(legacy)
        index, origin = legacy.data.decode("utf-8-sig"), legacy.origin
    scope.files.extend(read.files)
    if index is None or origin is None:
        return
    kept: list[str] = []
    facts = 0
    for section in sections(index, 6):
        loose: list[str] = []
        for line in section.body.split("\n"):
            (kept if topic_link_targets(line) else loose).append(line)
        where = f"{origin} § {section.title}" if section.title else origin
        for number, item in enumerate(list_items("\n".join(loose)), 1):
            add_made(
                scope,
                stem=slug(item, "gemini-memory"),
                title=item,
                description=item,
                body=item,
                updated_at=file_date(Path(origin)),
                origin=f"{where}, item {number}",
            )
            facts += 1
    scope.index = "\n".join(kept) + ("\n" if kept else "") + (scope.index or "")
    detail = (
        f"{counted(facts, 'brief fact')} → topic files; "
        f"{counted(len(kept), 'note line')} → index lines"
    )
    scope.merged.append(Merged(origin, detail))


def gemini_scopes(
    workspace: Path | None, given: str | None, env: Mapping[str, str] | None = None
) -> list[SourceScope]:
    """Gemini CLI's memory split for an import: a user-scope source and, with ``workspace``
    (a real path; ``given`` as the user wrote it), a Workspace-scope source (see the module
    docstring). Raises :class:`SourceError` when Gemini CLI keeps nothing here, and
    :class:`WrongProject` for a private folder registered to another path.
    """
    gemini = gemini_dir(env)
    names = _context_names(gemini)
    user = SourceScope(label=f"{gemini} (user)", role="user")
    _global_file(user, gemini / names[0])
    scopes = [user]
    if workspace is not None:
        ours = SourceScope(label=f"{gemini} (Workspace {workspace})", role="workspace")
        # Gemini CLI registers the path as node's path.resolve gives it: absolute, links kept
        given_form = os.path.abspath(given or workspace)  # noqa: PTH100
        forms = list(dict.fromkeys([given_form, str(workspace)]))
        folder = project_memory_dir(gemini, forms)
        if folder is not None and folder.is_dir():
            _private_folder(ours, folder)
        for base in dict.fromkeys([workspace, project_base(workspace)]):
            for name in names:
                if (base / name).is_file():
                    _project_file(ours, base / name)
        scopes.append(ours)
    if not any(scope.files or scope.index or scope.skipped for scope in scopes):
        whose = "for the user" if workspace is None else "for the user or that Workspace"
        raise NothingHere(f"Gemini CLI keeps no memory {whose} here: {gemini}. {_GEMINI_ELSEWHERE}")
    return scopes
