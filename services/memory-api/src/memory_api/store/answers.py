"""The read answers of the memory API built from disk: overview, listing, file, index (A-3, A-5).

Blocking; :class:`~memory_api.store.memory.MemoryStore` runs these in worker threads after it
has checked the ids and resolved the real memory root and scope. Topic files are parsed through
the stat-keyed :class:`~memory_api.store.topic_cache.TopicCache`; a file that vanishes between
the directory scan and the read is simply left out. Lint (T-5) runs on every scope shown;
for a Workspace scope the user index is passed along, because both share the injection's
character budget (I-4).
"""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from dataclasses import dataclass
from pathlib import Path, PurePath

import msgspec
from memory_core.index import index_lines
from memory_core.injection import cap_indexes
from memory_core.keys import USER_SCOPE
from memory_core.lint import (
    lint_links,
    lint_scope,
    mask_secret_lines,
    naming_convention,
)
from memory_core.topics import ParsedTopic
from memory_core.wire import (
    Finding,
    IndexLine,
    IndexView,
    ScopeSummary,
    TopicFile,
    TopicList,
    TopicSummary,
    utc_timestamp,
)

from memory_api.errors import NotFound
from memory_api.store.containment import OutsideMemoryRoot
from memory_api.store.scope_files import ScopeFiles, ScopeIndex
from memory_api.store.scopes import (
    ScopeListing,
    TopicEntry,
    list_scopes,
    scan_scope,
    scope_real_dir,
    topic_entry,
)
from memory_api.store.topic_cache import TopicCache

__all__ = ["USER_TITLE", "ScopeAnswers"]

logger = logging.getLogger(__name__)

USER_TITLE = "User memory"
"""The overview title of the user scope (A-3)."""
_FOLDED_INTO_CONVENTION = frozenset({"name-mismatch", "name-not-kebab"})


@dataclass(frozen=True, slots=True)
class _Loaded:
    entry: TopicEntry
    topic: ParsedTopic
    size: int
    mtime_ns: int


def _masked(text: str | None, reveal: bool) -> str | None:
    """``text`` with likely credentials masked (I-8), or as written when ``reveal``."""
    if text is None or reveal:
        return text
    return "\n".join(mask_secret_lines(text.split("\n")))


def _topic_summary(item: _Loaded, *, reveal: bool = False) -> TopicSummary:
    """The listing row of a loaded topic file; a file answer adds its body and links (A-5).

    A credential in the name or description is masked unless ``reveal`` (W-6).
    """
    return TopicSummary(
        file=item.entry.file,
        name=_masked(item.topic.name, reveal) or item.topic.name,
        description=_masked(item.topic.description, reveal),
        updated_at=item.topic.updated_at,
        size=item.size,
        mtime=utc_timestamp(item.mtime_ns / 1e9),
        problems=item.topic.problems,
    )


class ScopeAnswers:
    """Builds the read answers of one app; ``cache`` is shared by every request."""

    def __init__(self, cache: TopicCache, files: ScopeFiles) -> None:
        self.cache = cache
        self.files = files

    def _load(self, entries: list[TopicEntry]) -> list[_Loaded]:
        loaded: list[_Loaded] = []
        for entry in entries:
            try:
                topic, info = self.cache.load(entry.path, entry.file, entry.stat)
            except OSError as error:
                logger.info("skipping %s: %s", entry.path, error)
                continue
            loaded.append(_Loaded(entry, topic, info.st_size, info.st_mtime_ns))
        return loaded

    def _listed(self, item: _Loaded) -> TopicSummary:
        """The masked listing row of ``item``, memoised with its parse (the credential scan of
        its name and description is the costly part of a warm listing)."""
        return self.cache.summary(item.entry.path, item.topic, lambda: _topic_summary(item))

    def _user_scope(self, root: Path) -> Path | None:
        try:
            return scope_real_dir(root, USER_SCOPE)
        except OutsideMemoryRoot:
            return None

    def _lint(
        self,
        key: str,
        refused: list[tuple[str, str]],
        index: ScopeIndex | None,
        loaded: list[_Loaded],
        user_index: str | None,
    ) -> list[Finding]:
        """``lint_scope`` of the scope (``refused``: its entries never read), topics from the
        cache.

        The scope-level findings come from ``lint_scope`` with no topics (the index's facts kept
        with its version); then, in its order, the naming convention, dangling ``[[links]]``
        and each file's own findings (kept with the file's parse), naming findings folded into
        the convention when there is one.
        """
        files = [item.entry.file for item in loaded]
        findings = lint_scope(
            index.text if index is not None else None,
            [],
            files,
            companion_index=None if key == USER_SCOPE else user_index,
            refused=refused,
            partial=index.read.partial if index is not None else None,
            facts=index.facts() if index is not None else None,
        )
        topics = [item.topic for item in loaded]
        convention = naming_convention(topics)
        if convention is not None:
            findings.append(convention)
        findings.extend(lint_links(topics, files))
        for item in sorted(loaded, key=lambda item: item.topic.file):
            own = self.cache.lint(item.entry.path, item.topic)
            findings.extend(
                f for f in own if convention is None or f.code not in _FOLDED_INTO_CONVENTION
            )
        return findings

    def _summary(
        self, root: Path, key: str, scope: Path, index: ScopeIndex | None, user_index: str | None
    ) -> tuple[int, ScopeSummary]:
        """One overview entry (A-3) and its newest activity in ns (for sorting).

        ``index`` is the scope's own index as read, ``user_index`` the user scope's text.
        """
        listing = scan_scope(root, scope)
        loaded = self._load(listing.topics)
        times = [item.mtime_ns for item in loaded]
        if index is not None:
            times.append(index.read.stat.st_mtime_ns)
        with contextlib.suppress(OSError):
            times.append(scope.stat().st_mtime_ns)  # a file created or deleted is activity too
        newest = max(times, default=0)
        findings = self._lint(key, listing.refused, index, loaded, user_index)
        counts = Counter(f.code for f in findings)
        severities = Counter(f.severity for f in findings)
        if key == USER_SCOPE:
            title, path, problems, orphaned = USER_TITLE, None, [], False
        else:
            marker = self.files.marker(root, scope, key)
            path, problems, orphaned = marker.path, marker.problems, marker.orphaned
            title = (PurePath(path).name or path) if path else key
        return newest, ScopeSummary(
            key=key,
            kind="user" if key == USER_SCOPE else "workspace",
            title=title,
            workspace_path=path,
            file_count=len(loaded),
            last_activity=utc_timestamp(newest / 1e9) if times else None,
            marker_problems=problems,
            orphaned=orphaned,
            lint_counts=dict(sorted(counts.items())),
            severity_counts=dict(sorted(severities.items())),
            lint_severities={f.code: f.severity for f in sorted(findings, key=lambda f: f.code)},
        )

    def overview(self, root: Path) -> list[ScopeSummary]:
        """Every scope under the real ``root``: user first, then Workspaces newest first (A-3).

        The user index is read once: it is the user scope's own and every Workspace's companion.
        """
        scopes = list_scopes(root)
        user_dir = dict(scopes).get(USER_SCOPE)
        user_index = self.files.read(root, user_dir) if user_dir is not None else None
        user_text = user_index.text if user_index is not None else None
        user: list[ScopeSummary] = []
        workspaces: list[tuple[int, ScopeSummary]] = []
        for key, scope in scopes:
            index = user_index if key == USER_SCOPE else self.files.read(root, scope)
            newest, summary = self._summary(root, key, scope, index, user_text)
            if key == USER_SCOPE:
                user.append(summary)
            else:
                workspaces.append((newest, summary))
        workspaces.sort(key=lambda item: (-item[0], item[1].key))
        return user + [summary for _, summary in workspaces]

    def _scope_findings(
        self, root: Path, scope: Path, key: str, listing: ScopeListing, loaded: list[_Loaded]
    ) -> list[Finding]:
        """The scope's whole lint (T-5), as the listing and a file's answer report it."""
        index = self.files.read(root, scope)
        user_index = None if key == USER_SCOPE else self._user_index_text(root)
        return self._lint(key, listing.refused, index, loaded, user_index)

    def _user_index_text(self, root: Path) -> str | None:
        """The user index's text, the companion of every Workspace index (I-4), or None."""
        user_scope = self._user_scope(root)
        found = self.files.read(root, user_scope) if user_scope is not None else None
        return found.text if found is not None else None

    def topic_list(self, root: Path, scope: Path, key: str) -> TopicList:
        """Every topic file of the scope, sorted by file name, and the scope's lint (A-5)."""
        listing = scan_scope(root, scope)
        loaded = self._load(listing.topics)
        files = [self._listed(item) for item in loaded]
        findings = self._scope_findings(root, scope, key, listing, loaded)
        return TopicList(scope=key, files=files, findings=findings)

    def topic_file(
        self, root: Path, scope: Path, key: str, file_name: str, *, reveal: bool = False
    ) -> TopicFile:
        """One topic file (A-5); :class:`NotFound` when it does not list (missing, outside).

        Its findings are the scope lint's findings about this file; likely credentials are
        masked (I-8) unless ``reveal`` (W-6).
        """
        entry = topic_entry(root, scope, file_name)
        loaded = self._load([entry]) if entry is not None else []
        if not loaded:
            raise NotFound(f"no topic file {file_name!r} in scope {key!r}")
        item = loaded[0]
        body = _masked(item.topic.body, reveal) or ""
        summary = _topic_summary(item, reveal=reveal)
        listing = scan_scope(root, scope)
        findings = self._scope_findings(root, scope, key, listing, self._load(listing.topics))
        return TopicFile(
            **msgspec.structs.asdict(summary),
            body=body,
            links=item.topic.links,
            findings=[finding for finding in findings if finding.file == item.entry.file],
            masked=body != item.topic.body
            or summary.description != item.topic.description
            or summary.name != item.topic.name,
        )

    def index_view(self, root: Path, scope: Path, key: str) -> IndexView:
        """The raw index, each line kept or dropped by the injection, and the scope's lint.

        A Workspace index is capped as a Session in that Workspace would get it: beside the
        user index, sharing the character budget (I-4); the user index as if injected alone.
        """
        index = self.files.read(root, scope)
        text = index.text if index is not None else None
        prepared = self.files.prepared(root, scope)  # carries any lines past the read cap
        user_index = None
        if key == USER_SCOPE:
            capped = cap_indexes(prepared, None, workspace_key=None)[0]
        else:
            user_scope = self._user_scope(root)
            user_index = self._user_index_text(root)
            user_prepared = self.files.prepared(root, user_scope)
            capped = cap_indexes(user_prepared, prepared, workspace_key=key)[1]
        kept = set(capped.kept)
        lines = [
            IndexLine(number=number, text=line, kept=number in kept)
            for number, line in enumerate(index_lines(text or ""), start=1)
        ]
        listing = scan_scope(root, scope)
        loaded = self._load(listing.topics)
        return IndexView(
            scope=key,
            exists=index is not None,
            raw=text or "",
            lines=lines,
            manifest=capped.manifest,
            findings=self._lint(key, listing.refused, index, loaded, user_index),
        )
