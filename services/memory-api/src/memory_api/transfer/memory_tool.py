"""Memory-tool folders (``--from vscode``, ``--from memory-tool``, P-5): ``/memories`` on disk.

Anthropic's memory tool convention gives the model one directory, ``/memories``, in which it
creates, edits, renames and deletes files of its own choosing (usually Markdown, sometimes in
sub-folders; no index, no frontmatter). A client keeps that directory wherever it likes;
``--from memory-tool FOLDER`` imports one such folder into the scope the command line names.

VS Code's Copilot Chat (read from microsoft/vscode-copilot-chat, ``memoryTool.tsx``) keeps
three ``/memories`` trees, under its extension storage (``github.copilot-chat``) of the
user data folder (``~/.config/Code/User`` on Linux, ``~/Library/Application Support/Code/User``
on macOS, ``%APPDATA%\\Code\\User`` on Windows; ``Code - Insiders``, ``VSCodium``, a VS Code
server's ``~/.vscode-server/data/User`` likewise):

- user memory ``/memories/*`` → ``globalStorage/github.copilot-chat/memory-tool/memories/``:
  loaded into every chat → the user scope;
- repository memory ``/memories/repo/*`` → ``workspaceStorage/<id>/github.copilot-chat/
  memory-tool/memories/repo/``, where ``workspaceStorage/<id>/workspace.json`` names the
  folder the window had open (``{"folder": "file:///…"}``): the one naming the Workspace →
  the Workspace scope (matched by that path, never by the id);
- session memory ``/memories/session/*`` → ``…/memory-tool/memories/<chat id>/``: one chat's
  working notes, which VS Code cleans up → not imported (named, with the reason).

Each file becomes one topic file: a Markdown or text file as it is (``.txt`` stored as
``.md``; a file in a sub-folder named ``<folder>-<file>``), a JSON memory entry (``subject``,
``fact``, ``citations``, ``reason``, as Copilot's repository memory writes them) made a topic
file; each gets an index line from its name and first line (the tool keeps no index).

Blocking (reads the folders).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import unquote, urlsplit

from memory_api.transfer.harness_files import file_date, listing, walk_files
from memory_api.transfer.sources import (
    NothingHere,
    Skipped,
    SourceFile,
    SourceScope,
    entry_kind,
    json_value,
    no_folder,
    read_bytes,
    read_small_text,
    stored_bytes,
    topic_name_problem,
)
from memory_api.transfer.topic_making import add_made, slug, unique_name

__all__ = ["memory_tool_scope", "vscode_scopes", "vscode_user_dirs"]

EXTENSION = "github.copilot-chat"
MEMORIES = ("memory-tool", "memories")
PRODUCTS = ("Code", "Code - Insiders", "VSCodium", "Code - OSS")
TEXT_SUFFIXES = (".md", ".markdown", ".txt")


def vscode_user_dirs(env: Mapping[str, str] | None = None) -> list[Path]:
    """The ``User`` folders VS Code (and its Insiders, VSCodium, OSS and server builds) keep on
    this machine, existing ones only; ``$VSCODE_PORTABLE`` first when set."""
    environment = os.environ if env is None else env
    home = Path(environment.get("HOME") or Path.home())
    roots: list[Path] = []
    if environment.get("VSCODE_PORTABLE"):
        roots.append(Path(environment["VSCODE_PORTABLE"]) / "user-data")
    if sys.platform == "darwin":
        config = home / "Library" / "Application Support"
    elif sys.platform == "win32":
        config = Path(environment.get("APPDATA") or home / "AppData" / "Roaming")
    else:
        config = Path(environment.get("XDG_CONFIG_HOME") or home / ".config")
    roots += [config / product for product in PRODUCTS]
    roots += [home / ".vscode-server" / "data", home / ".vscode-server-insiders" / "data"]
    return [root / "User" for root in roots if (root / "User").is_dir()]


def _topic_name(relative: Path, taken: set[str]) -> str:
    """``a/b.txt`` → ``a-b.md`` (a K-7 name; made from its words when it is not one)."""
    stem = "-".join([*relative.parts[:-1], relative.stem])
    if topic_name_problem(f"{stem}.md") is not None:
        stem = slug(stem, "memory")
    return unique_name(stem, taken)


def _json_entry(scope: SourceScope, path: Path, raw: bytes, stem: str) -> bool:
    """A Copilot memory entry (``{"subject", "fact", …}``) made a topic file; False when the
    JSON is not one."""
    try:
        entry = json_value(raw)
    except ValueError:
        return False
    if not isinstance(entry, dict) or not isinstance(entry.get("fact"), str):
        return False
    subject = str(entry.get("subject") or stem)
    lines = [entry["fact"]]
    for key in ("citations", "reason", "category"):
        if entry.get(key):
            value = entry[key]
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            lines.append(f"{key.capitalize()}: {shown}")
    add_made(
        scope,
        stem=slug(stem, "memory"),
        title=subject,
        description=f"{subject}: {entry['fact']}",
        body="\n\n".join(lines),
        updated_at=file_date(path),
        origin=str(path),
    )
    return True


def _add_tree(scope: SourceScope, folder: Path) -> None:
    """Every file under ``folder`` into ``scope`` (see the module docstring)."""
    entries = listing(folder)
    if isinstance(entries, Skipped):
        scope.skipped.append(entries)
        return
    taken = {item.name for item in scope.files}
    for top in entries:
        kind = entry_kind(top)
        if isinstance(kind, Skipped):
            scope.skipped.append(kind)
            continue
        for path in [top] if kind == "file" else walk_files(top, scope.skipped):
            _add_file(scope, folder, path, taken)


def _add_file(scope: SourceScope, folder: Path, path: Path, taken: set[str]) -> None:
    relative = path.relative_to(folder)
    if any(part.startswith(".") for part in relative.parts):
        scope.skipped.append(Skipped(str(path), "a hidden file (the memory tool ignores it)"))
        return
    raw = read_bytes(path)
    if isinstance(raw, Skipped):
        scope.skipped.append(raw)
        return
    if path.suffix.lower() == ".json":
        if not _json_entry(scope, path, raw, "-".join(relative.with_suffix("").parts)):
            scope.skipped.append(Skipped(str(path), "JSON that is not a memory entry (fact)"))
        return
    if path.suffix.lower() not in TEXT_SUFFIXES:
        scope.skipped.append(Skipped(str(path), "not a text note (.md, .markdown, .txt)"))
        return
    name = _topic_name(relative, taken)
    data, note = stored_bytes(raw)
    if name != path.name:
        renamed = f"stored as {name}"
        note = f"{note}; {renamed}" if note else renamed
    scope.files.append(SourceFile(name, data, str(path), note))


def memory_tool_scope(folder: Path, *, shown: str | None = None) -> SourceScope:
    """A ``/memories`` folder of the memory tool convention read for an import into the scope
    the command line names; ``shown`` is the folder as the user wrote it (``./memories``), for
    messages and the label (default: ``folder``). Raises :class:`SourceError` when it is no
    folder."""
    where = str(folder) if shown is None else shown
    if entry_kind(folder) != "folder":
        raise no_folder(folder, where, symlinks=False)
    scope = SourceScope(label=where)
    _add_tree(scope, folder)
    scope.files.sort(key=lambda item: item.name)
    return scope


def _folder_of(storage: Path) -> Path | None:
    """The folder a ``workspaceStorage/<id>`` belongs to (``workspace.json``), or None for a
    multi-root workspace, a remote one, or an unreadable file."""
    text = read_small_text(storage / "workspace.json")
    try:
        described = None if text is None else json_value(text)
    except ValueError:
        return None
    uri = described.get("folder") if isinstance(described, dict) else None
    if not isinstance(uri, str):
        return None
    parts = urlsplit(uri)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    return Path(os.path.realpath(unquote(parts.path)))


def vscode_scopes(
    workspace: Path | None, env: Mapping[str, str] | None = None
) -> list[SourceScope]:
    """VS Code's memory-tool memories split for an import: a user-scope source and, with
    ``workspace`` (a real path), a Workspace-scope source of its repository memory (see the
    module docstring). Raises :class:`SourceError` when VS Code keeps none here."""
    users = vscode_user_dirs(env)
    user = SourceScope(label="VS Code user memory", role="user")
    ours = SourceScope(label=f"VS Code repository memory of {workspace}", role="workspace")
    looked: list[str] = []
    for folder in users:
        memories = folder / "globalStorage" / EXTENSION / Path(*MEMORIES)
        looked.append(str(memories))
        if entry_kind(memories) == "folder":
            _add_tree(user, memories)
        if workspace is None:
            continue
        storages = listing(folder / "workspaceStorage")
        for storage in storages if isinstance(storages, list) else []:
            tree = storage / EXTENSION / Path(*MEMORIES)
            if _folder_of(storage) != workspace or entry_kind(tree) != "folder":
                continue
            session = "session memory of one chat (VS Code keeps it for that chat only)"
            sessions = {p.name: session for p in _listed(tree) if p.name != "repo"}
            if entry_kind(tree / "repo") == "folder":
                _add_tree(ours, tree / "repo")
            for name, reason in sessions.items():
                ours.skipped.append(Skipped(str(tree / name), reason))
    scopes = [user] if workspace is None else [user, ours]
    if not any(scope.files or scope.skipped for scope in scopes):
        where = "; ".join(looked) or "no VS Code user data folder on this machine"
        raise NothingHere(
            f"VS Code's memory tool keeps no memories here: {where}",
            own=". A memories folder elsewhere (VS Code's data kept in another place, a copy "
            "from another machine): ",
            tool=True,
        )
    for scope in scopes:
        scope.files.sort(key=lambda item: item.name)
    return scopes


def _listed(folder: Path) -> list[Path]:
    entries = listing(folder)
    return entries if isinstance(entries, list) else []
