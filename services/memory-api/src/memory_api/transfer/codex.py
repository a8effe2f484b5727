"""Codex CLI's memories (``--from codex``, P-5): one folder for every project, split by ``cwd``.

Codex CLI (read from its source and its shipped 0.171 binary, and run) keeps its memories in
one folder for all projects: ``$CODEX_HOME/memories/`` and, from its second memory pipeline,
``$CODEX_HOME/memories_v2/``; both are read when both exist (an upgraded Codex leaves the old
folder in place, and ``memories.dual_write`` fills both). Its own consolidation agent writes
(``memories_v2/`` holds only the summary, the recaps, the ad-hoc notes and the bookkeeping: its
pipeline writes no ``MEMORY.md``, ``raw_memories.md`` or skills):

- ``memory_summary.md`` — first line ``v1``, then ``## User Profile``, ``## User preferences``,
  ``## General Tips`` and ``## What's in Memory`` (injected into every Session);
- ``MEMORY.md`` — the handbook: blocks ``# Task Group: …`` with ``scope:`` and
  ``applies_to: cwd=<dir>; reuse_rule=…`` lines, ``## Task n`` sections citing rollout
  summaries (``cwd=…, updated_at=…``), ``## User preferences``, ``## Reusable knowledge``…;
- ``rollout_summaries/<time>-<hash>[-<slug>].md`` — one recap per Session: ``thread_id:``,
  ``updated_at:``, ``rollout_path:``, ``cwd:`` (``git_branch:``) lines, a blank line, the recap;
- ``extensions/ad_hoc/notes/<time>-<slug>.md`` — what the user explicitly asked to remember,
  forget or correct (its ``add_ad_hoc_note`` tool writes the note verbatim), waiting for the
  next consolidation; ``extensions/ad_hoc/instructions.md`` is Codex's own instructions;
- ``skills/<name>/SKILL.md`` (+ scripts, templates) — procedures it distilled;
- its own bookkeeping: ``raw_memories.md`` (the consolidation's input, rebuilt from its
  database), ``phase2_workspace_diff.md``, ``.git/`` and ``.codex-baseline/`` (the
  consolidation's baseline).

Where each goes (one memory per topic file, one index line per memory):

- a task group whose ``applies_to`` names the Workspace (or a folder inside its git project
  root), and a rollout summary whose ``cwd`` does → the Workspace scope; one naming only
  other directories is not imported here (the report names the directory and the command for
  it); a task group naming no directory holds wherever the user works → the user scope;
  a rollout summary recording no ``cwd`` is not imported (it cannot be placed);
- ``memory_summary.md``: the profile → one topic file; each item of ``## User preferences``
  and ``## General Tips`` → one topic file each; any other section → one topic file; all in
  the user scope. ``## What's in Memory`` is Codex's routing index into its ``MEMORY.md``
  (every task group has a line there) or, in ``memories_v2/``, into its rollout summaries by
  project: its job is done by the index lines of the task groups and recaps imported, so it is
  accounted as merged, not copied;
- ad-hoc notes and skills (no directory recorded; Codex applies them everywhere) → the user
  scope, a skill's ``SKILL.md`` as it is, its supporting files not imported (named);
- the bookkeeping is not imported (named, with the reason).

With both folders, ``memories_v2/`` is read first, so its copy of a memory keeps the plain
name; a memory both folders hold alike (the same text for the same scope) is imported once,
the other copy reported as merged; one that differs is imported beside it (``name-2.md``).

Blocking (reads the folder).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from memory_core.counting import counted

from memory_api.transfer.harness_files import file_date, listing, read_text, walk_files
from memory_api.transfer.ownership import place_by_directories
from memory_api.transfer.sources import (
    ELSEWHERE,
    Merged,
    NothingHere,
    Skipped,
    SourceFile,
    SourceScope,
    entry_kind,
    read_bytes,
    stored_bytes,
    topic_name_problem,
)
from memory_api.transfer.topic_making import add_made, list_items, sections, slug, unique_name

__all__ = ["codex_memories_dirs", "codex_scopes"]

SUMMARY = "memory_summary.md"
HANDBOOK = "MEMORY.md"
ROLLOUTS = "rollout_summaries"
BOOKKEEPING = {
    "raw_memories.md": "Codex's consolidation input, rebuilt from its database on every run; "
    "what it holds reaches MEMORY.md and rollout_summaries/ (imported)",
    "raw_memories": "Codex's consolidation input (see raw_memories.md)",
    "phase2_workspace_diff.md": "made by Codex for one consolidation run; not a memory",
    ".git": "Codex's baseline of this folder for its consolidation (git); not a memory",
    ".codex-baseline": "Codex's baseline of this folder for its consolidation; not a memory",
}
FOLDERS = ("memories_v2", "memories")
_CODEX_DIR = "the folder it uses in place of ~/.codex"
_CODEX_ELSEWHERE = ELSEWHERE.format(variable="CODEX_HOME", harness="Codex CLI", folder=_CODEX_DIR)
"""The second memory pipeline's folder, then the first's (read in this order)."""
_PATH = re.compile(r"(?:(?<=[\s=,(\[])|^)(~?/[^\s,;)\]]+)")
_APPLIES = re.compile(r"^applies_to:(.*)$", re.MULTILINE)
_SCOPE = re.compile(r"^scope:[ \t]*(.+)$", re.MULTILINE)
_UPDATED = re.compile(r"updated_at=(\d{4}-\d{2}-\d{2})")
_STAMP = re.compile(r"^(\d{4}-\d{2}-\d{2})T")


def codex_memories_dirs(env: Mapping[str, str] | None = None) -> list[Path]:
    """``memories_v2`` and ``memories`` in ``$CODEX_HOME``, else in ``~/.codex`` (``$HOME``
    first), whether they exist or not."""
    environment = os.environ if env is None else env
    configured = environment.get("CODEX_HOME")
    home = environment.get("HOME")
    codex_home = (
        Path(configured).expanduser()
        if configured
        else (Path(home) if home else Path.home()) / ".codex"
    )
    return [codex_home / name for name in FOLDERS]


@dataclass(slots=True)
class _Split:
    """The scopes being filled, where a directory-bound memory goes, and the memories already
    offered (by scope role and text: the first origin of each)."""

    user: SourceScope
    workspace_scope: SourceScope | None
    workspace: Path | None
    home: Path
    offered: dict[tuple[str | None, str | bytes, str | bytes], str] = field(default_factory=dict)

    def _again(self, scope: SourceScope, key: tuple[str | bytes, str | bytes], origin: str) -> bool:
        """Whether ``scope`` was offered this memory already (from the other folder); then
        ``origin`` is recorded as merged into it."""
        first = self.offered.setdefault((scope.role, *key), origin)
        if first == origin:
            return False
        scope.merged.append(Merged(origin, f"the same memory as {first}: imported once"))
        return True

    def add(
        self,
        scope: SourceScope,
        *,
        stem: str,
        title: str,
        description: str,
        body: str,
        updated_at: str | None,
        origin: str,
    ) -> bool:
        """:func:`add_made`, unless ``scope`` holds this memory (``description`` and ``body``)
        already; returns whether a topic file was made."""
        if self._again(scope, (description, body), origin):
            return False
        add_made(
            scope,
            stem=stem,
            title=title,
            description=description,
            body=body,
            updated_at=updated_at,
            origin=origin,
        )
        return True

    def keep(self, scope: SourceScope, name: str, raw: bytes, origin: str) -> None:
        """Offer a file as it is (a skill, a topic file) as ``name`` (``stem-2.md`` … when
        taken), unless ``scope`` holds these bytes already."""
        if self._again(scope, (b"file", raw), origin):
            return
        data, note = stored_bytes(raw)
        unique = unique_name(name.removesuffix(".md"), {item.name for item in scope.files})
        scope.files.append(SourceFile(unique, data, origin, note))

    def directories(self, text: str) -> list[Path]:
        """The absolute directories written in ``text`` (``~/`` expanded), real paths."""
        found = []
        for raw in _PATH.findall(text):
            path = self.home / raw[2:] if raw.startswith("~/") else Path(raw)
            found.append(Path(os.path.realpath(path)))
        return found

    def scope_for(self, directories: list[Path], origin: str, what: str) -> SourceScope | None:
        """The scope a memory bound to ``directories`` goes to, or None (then the reason is
        recorded as skipped)."""
        target = place_by_directories(directories, self.workspace)
        if target is None:
            return self.user
        if self.workspace is not None and target == self.workspace:
            assert self.workspace_scope is not None
            return self.workspace_scope
        how = f"memory import --from codex --workspace {target}"
        self.user.skipped.append(Skipped(origin, f"{what} of {target}, not here: `{how}`"))
        return None


def _summary(split: _Split, path: Path) -> None:
    text = read_text(path)
    if isinstance(text, Skipped):
        split.user.skipped.append(text)
        return
    date = file_date(path)
    lines = text.split("\n", 1)
    if lines[0].strip() == "v1":  # the format marker, not a memory
        text = lines[1] if len(lines) > 1 else ""
    made = 0
    for section in sections(text, 2):
        title = section.title or "Codex memory summary"
        origin = f"{path} § {title}"
        key = title.casefold()
        if key == "what's in memory":
            split.user.merged.append(
                Merged(
                    origin,
                    "Codex's routing index to its task groups (MEMORY.md) and Session "
                    "recaps (rollout_summaries/): each one imported comes with its own "
                    "index line; not copied",
                )
            )
            continue
        if key in ("user preferences", "general tips") and list_items(section.body):
            for number, item in enumerate(list_items(section.body), 1):
                made += split.add(
                    split.user,
                    stem=slug(item, "codex-note"),
                    title=item,
                    description=item,
                    body=item,
                    updated_at=date,
                    origin=f"{origin}, item {number}",
                )
            continue
        if section.body.strip():
            made += split.add(
                split.user,
                stem=slug(title, "codex-summary"),
                title=title,
                description=f"{title} (Codex memory summary): {section.body}",
                body=f"# {title}\n\n{section.body}",
                updated_at=date,
                origin=origin,
            )
    split.user.merged.append(
        Merged(str(path), f"split into {counted(made, 'topic file')} (user scope)")
    )


def _handbook(split: _Split, path: Path) -> None:
    text = read_text(path)
    if isinstance(text, Skipped):
        split.user.skipped.append(text)
        return
    date = file_date(path)
    made: dict[str, int] = {}
    for section in sections(text, 1):
        title = section.title.removeprefix("Task Group:").strip() or "Codex memory handbook"
        origin = f"{path} § {section.title or 'before the first task group'}"
        applies = _APPLIES.search(section.body)
        cwd = applies.group(1).split(";")[0] if applies else ""
        scope = split.scope_for(split.directories(cwd), origin, "Codex task group")
        if scope is None:
            continue
        scope_line = _SCOPE.search(section.body)
        stamps = _UPDATED.findall(section.body)
        heading = f"# {section.title}\n" if section.level else ""
        if not split.add(
            scope,
            stem=slug(title, "codex-task-group"),
            title=title,
            description=scope_line.group(1) if scope_line else title,
            body=heading + section.body,
            updated_at=max(stamps) if stamps else date,
            origin=origin,
        ):
            continue
        role = "user" if scope is split.user else "Workspace"
        made[role] = made.get(role, 0) + 1
    counts = ", ".join(f"{n} into the {role} scope" for role, n in made.items()) or "none here"
    split.user.merged.append(Merged(str(path), f"task groups made topic files: {counts}"))


def _header(text: str) -> dict[str, str]:
    """The ``key: value`` lines a rollout summary starts with, up to the first blank line."""
    fields: dict[str, str] = {}
    for line in text.split("\n"):
        if not line.strip():
            break
        key, colon, value = line.partition(":")
        if colon and key.strip().isidentifier():
            fields[key.strip()] = value.strip()
    return fields


def _rollout(split: _Split, path: Path) -> None:
    text = read_text(path)
    if isinstance(text, Skipped):
        split.user.skipped.append(text)
        return
    if not path.name.endswith(".md"):
        split.user.skipped.append(Skipped(str(path), "not a Markdown file (.md)"))
        return
    fields = _header(text)
    cwd = fields.get("cwd", "")
    if not cwd or cwd == "unknown":
        reason = "a Session recap that records no cwd: it cannot be placed in a Workspace"
        split.user.skipped.append(Skipped(str(path), reason))
        return
    scope = split.scope_for(split.directories(cwd), str(path), "Codex Session recap")
    if scope is None:
        return
    recap = text.split("\n\n", 1)[1] if "\n\n" in text else text
    headline = next((line for line in recap.split("\n") if line.strip()), path.stem)
    split.add(
        scope,
        stem=path.stem if _valid(path.name) else slug(path.stem, "codex-rollout"),
        title=headline.lstrip("#").strip(),
        description=headline.lstrip("#").strip(),
        body=text,
        updated_at=fields.get("updated_at", "")[:10] or file_date(path),
        origin=str(path),
    )


def _valid(name: str) -> bool:
    return topic_name_problem(name) is None


def _notes(split: _Split, folder: Path) -> None:
    """``extensions/ad_hoc/notes/*.md``: one topic file each, user scope."""
    for path in walk_files(folder, split.user.skipped):
        text = read_text(path)
        if isinstance(text, Skipped):
            split.user.skipped.append(text)
            continue
        if path.parent != folder or not path.name.endswith(".md"):
            split.user.skipped.append(Skipped(str(path), "not an ad-hoc note (notes/*.md)"))
            continue
        first = next((line for line in text.split("\n") if line.strip()), path.stem)
        stamp = _STAMP.match(path.name)
        split.add(
            split.user,
            stem=path.stem if _valid(path.name) else slug(path.stem, "codex-note"),
            title=first.lstrip("#").strip(),
            description=first.lstrip("#").strip(),
            body=text,
            updated_at=stamp.group(1) if stamp else file_date(path),
            origin=str(path),
        )


def _extensions(split: _Split, folder: Path) -> None:
    entries = listing(folder)
    if isinstance(entries, Skipped):
        split.user.skipped.append(entries)
        return
    for path in entries:
        if path.name == "ad_hoc" and entry_kind(path) == "folder":
            for inner in walk_files(path, split.user.skipped):
                if path / "notes" in inner.parents:
                    continue
                reason = "not an ad-hoc note"
                if inner == path / "instructions.md":
                    reason = "Codex's instructions to its consolidation; not a memory"
                split.user.skipped.append(Skipped(str(inner), reason))
            if entry_kind(path / "notes") == "folder":
                _notes(split, path / "notes")
        else:
            reason = "memory another agent or tool brought into Codex; import it from its source"
            split.user.skipped.append(Skipped(str(path), reason))


def _skills(split: _Split, folder: Path) -> None:
    """``skills/<name>/SKILL.md`` as a topic file ``<name>.md`` (its own frontmatter kept)."""
    for path in walk_files(folder, split.user.skipped):
        if path.name != "SKILL.md" or path.parent.parent != folder:
            what = f"a supporting file of the skill {path.relative_to(folder).parts[0]}"
            split.user.skipped.append(
                Skipped(str(path), f"{what}: not a memory; it stays in Codex's skills")
            )
            continue
        raw = read_bytes(path)
        if isinstance(raw, Skipped):
            split.user.skipped.append(raw)
            continue
        name = f"{path.parent.name}.md"
        if not _valid(name):
            name = f"{slug(path.parent.name, 'codex-skill')}.md"
        split.keep(split.user, name, raw, str(path))


def _root_entry(split: _Split, path: Path) -> None:
    kind = entry_kind(path)
    if path.name in BOOKKEEPING:
        split.user.skipped.append(Skipped(str(path), BOOKKEEPING[path.name]))
    elif isinstance(kind, Skipped):
        split.user.skipped.append(kind)
    elif kind == "file" and path.name == SUMMARY:
        _summary(split, path)
    elif kind == "file" and path.name == HANDBOOK:
        _handbook(split, path)
    elif kind == "folder" and path.name == ROLLOUTS:
        for inner in walk_files(path, split.user.skipped):
            _rollout(split, inner)
    elif kind == "folder" and path.name == "extensions":
        _extensions(split, path)
    elif kind == "folder" and path.name == "skills":
        _skills(split, path)
    elif kind == "file" and path.name.endswith(".md") and _valid(path.name):
        raw = read_bytes(path)
        if isinstance(raw, Skipped):
            split.user.skipped.append(raw)
        else:
            split.keep(split.user, path.name, raw, str(path))
    else:
        what = "a folder" if kind == "folder" else "a file"
        split.user.skipped.append(
            Skipped(str(path), f"{what} Codex's memory layout does not define")
        )


def codex_scopes(workspace: Path | None, env: Mapping[str, str] | None = None) -> list[SourceScope]:
    """Codex's memories split for an import: a user-scope source and, with ``workspace`` (a
    real path), a Workspace-scope source (see the module docstring for what goes where).

    Raises :class:`SourceError` when Codex keeps no memories folder.
    """
    environment = os.environ if env is None else env
    folders = [f for f in codex_memories_dirs(environment) if entry_kind(f) == "folder"]
    if not folders:
        looked = " or ".join(map(str, codex_memories_dirs(environment)))
        raise NothingHere(f"Codex CLI keeps no memories here: {looked}. {_CODEX_ELSEWHERE}")
    home = Path(environment.get("HOME") or Path.home())
    label = " and ".join(map(str, folders))
    user = SourceScope(label=f"{label} (user)", role="user")
    split = _Split(user, None, workspace, home)
    if workspace is not None:
        split.workspace_scope = SourceScope(label=f"{label} (cwd {workspace})", role="workspace")
    for folder in folders:
        entries = listing(folder)
        if isinstance(entries, Skipped):
            user.skipped.append(entries)
            continue
        for path in entries:
            _root_entry(split, path)
    scopes = [user] if split.workspace_scope is None else [user, split.workspace_scope]
    for scope in scopes:
        scope.files.sort(key=lambda item: item.name)
    return scopes
