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
import hashlib
import logging
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass
from pathlib import Path, PurePath

import msgspec
from memory_core.index import index_lines
from memory_core.injection import cap_indexes
from memory_core.keys import USER_SCOPE
from memory_core.lint import IndexRead, lint_links, lint_scope, naming_convention
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
from memory_api.store.scopes import (
    IndexText,
    TopicEntry,
    list_scopes,
    read_index_text,
    read_marker,
    refused_entries,
    scan_topics,
    scope_real_dir,
    topic_entry,
)
from memory_api.store.topic_cache import TopicCache

__all__ = ["USER_TITLE", "ScopeAnswers"]

logger = logging.getLogger(__name__)

USER_TITLE = "User memory"
"""The overview title of the user scope (A-3)."""
_FOLDED_INTO_CONVENTION = frozenset({"name-mismatch", "name-not-kebab"})
INDEX_LINT_MEMO = 256
"""How many scope-level lint answers are memoised (scanning an index for secrets is costly)."""


@dataclass(frozen=True, slots=True)
class _Loaded:
    entry: TopicEntry
    topic: ParsedTopic
    size: int
    mtime_ns: int


def _topic_summary(item: _Loaded) -> TopicSummary:
    """The listing row of a loaded topic file; a file answer adds its body and links (A-5)."""
    return TopicSummary(
        file=item.entry.file,
        name=item.topic.name,
        description=item.topic.description,
        updated_at=item.topic.updated_at,
        size=item.size,
        mtime=utc_timestamp(item.mtime_ns / 1e9),
        problems=item.topic.problems,
    )


def _digest(
    index_text: str | None, files: tuple[str, ...], companion: str | None, extra: str
) -> bytes:
    """SHA-256 over the scope-lint inputs, each part length-prefixed so no two inputs collide."""
    digest = hashlib.sha256()
    for part in (index_text, *files, None, companion, extra):
        if part is None:
            digest.update(b"\xff")
            continue
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.digest()


class ScopeAnswers:
    """Builds the read answers of one app; ``cache`` is shared by every request."""

    def __init__(self, cache: TopicCache) -> None:
        self.cache = cache
        self._index_lint: OrderedDict[bytes, tuple[Finding, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def _scope_lint(
        self,
        index: IndexText | None,
        files: tuple[str, ...],
        companion: str | None,
        refused: list[tuple[str, str]],
    ) -> tuple[Finding, ...]:
        """The scope-level findings (index, unindexed, missing index), memoised by their inputs.

        The key is the SHA-256 of the inputs (texts and names in full), so a memoised answer is
        the one ``lint_scope`` would give now while the memo holds digests, not megabytes of
        index text; only the newest :data:`INDEX_LINT_MEMO` answers are kept.
        """
        index_text = index.text if index is not None else None
        partial: IndexRead | None = index.partial if index is not None else None
        key = _digest(index_text, files, companion, repr((refused, partial)))
        with self._lock:
            found = self._index_lint.get(key)
            if found is not None:
                self._index_lint.move_to_end(key)
                return found
        fresh = tuple(
            lint_scope(
                index_text,
                [],
                files,
                companion_index=companion,
                refused=refused,
                partial=partial,
            )
        )
        with self._lock:
            self._index_lint[key] = fresh
            while len(self._index_lint) > INDEX_LINT_MEMO:
                self._index_lint.popitem(last=False)
        return fresh

    def _load(self, entries: list[TopicEntry]) -> list[_Loaded]:
        loaded: list[_Loaded] = []
        for entry in entries:
            try:
                topic, info = self.cache.load(entry.real, entry.file, entry.stat)
            except OSError as error:
                logger.info("skipping %s: %s", entry.real, error)
                continue
            loaded.append(_Loaded(entry, topic, info.st_size, info.st_mtime_ns))
        return loaded

    @staticmethod
    def _user_index(root: Path) -> IndexText | None:
        try:
            scope = scope_real_dir(root, USER_SCOPE)
        except OutsideMemoryRoot:
            return None
        return read_index_text(root, scope) if scope is not None else None

    def _lint(
        self,
        key: str,
        paths: tuple[Path, Path],
        index: IndexText | None,
        loaded: list[_Loaded],
        user_index: str | None,
    ) -> list[Finding]:
        """``lint_scope`` of the scope (``paths`` = real root and scope), topics from the cache.

        The scope-level findings come from ``lint_scope`` with no topics (memoised); then, in
        its order, the naming convention, dangling ``[[links]]`` and each file's own findings
        (memoised per file), naming findings folded into the convention when there is one.
        """
        companion = None if key == USER_SCOPE else user_index
        files = tuple(item.entry.file for item in loaded)
        findings = list(self._scope_lint(index, files, companion, refused_entries(*paths)))
        topics = [item.topic for item in loaded]
        convention = naming_convention(topics)
        if convention is not None:
            findings.append(convention)
        findings.extend(lint_links(topics, files))
        for item in sorted(loaded, key=lambda item: item.topic.file):
            own = self.cache.lint(item.entry.real, item.topic)
            findings.extend(
                f for f in own if convention is None or f.code not in _FOLDED_INTO_CONVENTION
            )
        return findings

    def _summary(
        self, root: Path, key: str, scope: Path, index: IndexText | None, user_index: str | None
    ) -> tuple[int, ScopeSummary]:
        """One overview entry (A-3) and its newest activity in ns (for sorting).

        ``index`` is the scope's own index as read, ``user_index`` the user scope's text.
        """
        loaded = self._load(scan_topics(root, scope))
        times = [item.mtime_ns for item in loaded]
        if index is not None:
            times.append(index.stat.st_mtime_ns)
        with contextlib.suppress(OSError):
            times.append(scope.stat().st_mtime_ns)  # a file created or deleted is activity too
        newest = max(times, default=0)
        findings = self._lint(key, (root, scope), index, loaded, user_index)
        counts = Counter(f.code for f in findings)
        severities = Counter(f.severity for f in findings)
        if key == USER_SCOPE:
            title, path, problems, orphaned = USER_TITLE, None, [], False
        else:
            marker = read_marker(root, scope, key)
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
        )

    def overview(self, root: Path) -> list[ScopeSummary]:
        """Every scope under the real ``root``: user first, then Workspaces newest first (A-3).

        The user index is read once: it is the user scope's own and every Workspace's companion.
        """
        scopes = list_scopes(root)
        user_dir = dict(scopes).get(USER_SCOPE)
        user_index = read_index_text(root, user_dir) if user_dir is not None else None
        user_text = user_index.text if user_index is not None else None
        user: list[ScopeSummary] = []
        workspaces: list[tuple[int, ScopeSummary]] = []
        for key, scope in scopes:
            index = user_index if key == USER_SCOPE else read_index_text(root, scope)
            newest, summary = self._summary(root, key, scope, index, user_text)
            if key == USER_SCOPE:
                user.append(summary)
            else:
                workspaces.append((newest, summary))
        workspaces.sort(key=lambda item: (-item[0], item[1].key))
        return user + [summary for _, summary in workspaces]

    def topic_list(self, root: Path, scope: Path, key: str) -> TopicList:
        """Every topic file of the scope, sorted by file name (A-5)."""
        files = [_topic_summary(item) for item in self._load(scan_topics(root, scope))]
        return TopicList(scope=key, files=files)

    def topic_file(self, root: Path, scope: Path, key: str, file_name: str) -> TopicFile:
        """One topic file (A-5); :class:`NotFound` when it does not list (missing, outside)."""
        entry = topic_entry(root, scope, file_name)
        loaded = self._load([entry]) if entry is not None else []
        if not loaded:
            raise NotFound(f"no topic file {file_name!r} in scope {key!r}")
        item = loaded[0]
        return TopicFile(
            **msgspec.structs.asdict(_topic_summary(item)),
            body=item.topic.body,
            links=item.topic.links,
        )

    def index_view(self, root: Path, scope: Path, key: str) -> IndexView:
        """The raw index, each line kept or dropped by the injection, and the scope's lint.

        A Workspace index is capped as a Session in that Workspace would get it: beside the
        user index, sharing the character budget (I-4); the user index as if injected alone.
        """
        index = read_index_text(root, scope)
        text = index.text if index is not None else None
        unread = index.unread if index is not None else (0, True)
        user_index = None
        if key == USER_SCOPE:
            capped = cap_indexes(text, None, workspace_key=None, unread=(unread, (0, True)))[0]
        else:
            user = self._user_index(root)
            user_index = user.text if user is not None else None
            capped = cap_indexes(
                user_index,
                text,
                workspace_key=key,
                unread=(user.unread if user is not None else (0, True), unread),
            )[1]
        kept = set(capped.kept)
        lines = [
            IndexLine(number=number, text=line, kept=number in kept)
            for number, line in enumerate(index_lines(text or ""), start=1)
        ]
        loaded = self._load(scan_topics(root, scope))
        return IndexView(
            scope=key,
            exists=index is not None,
            raw=text or "",
            lines=lines,
            manifest=capped.manifest,
            findings=self._lint(key, (root, scope), index, loaded, user_index),
        )
