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
import os
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass
from pathlib import Path, PurePath

import msgspec
from memory_core.index import index_lines
from memory_core.index_facts import IndexFacts
from memory_core.injection import cap_indexes
from memory_core.keys import USER_SCOPE
from memory_core.lint import IndexRead, lint_scope, lint_topics, mask_secret_lines
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
from memory_api.store.facts_memo import IndexFactsMemo
from memory_api.store.scope_files import ScopeFiles
from memory_api.store.scopes import (
    Fingerprint,
    IndexText,
    TopicEntry,
    list_scopes,
    refused_entries,
    scan_topics,
    scope_fingerprint,
    scope_real_dir,
    sub_folder_files,
    topic_entry,
)
from memory_api.store.stat_cache import FileKey, file_key, is_racy
from memory_api.store.topic_cache import TopicCache

__all__ = ["USER_TITLE", "ScopeAnswers"]

logger = logging.getLogger(__name__)

USER_TITLE = "User memory"
"""The overview title of the user scope (A-3)."""
SCOPE_LINT_MEMO = 20_000
"""How many scopes' scope-level lint answers are memoised (one each, the newest inputs only):
more than an agent has scopes, so an overview of every scope never evicts its own answers."""


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


def _digest(files: tuple[str, ...], extra: str) -> bytes:
    """SHA-256 over the topic file names and ``extra``, each part length-prefixed so no two
    inputs collide."""
    digest = hashlib.sha256()
    for part in (*files, extra):
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.digest()


@dataclass(frozen=True, slots=True)
class _ScopeLint:
    """A memoised scope-level lint answer and what it was built from (see ``_scope_lint``)."""

    digest: bytes
    facts: IndexFacts | None
    beside: IndexFacts | None
    findings: tuple[Finding, ...]


@dataclass(frozen=True, slots=True)
class _Summarised:
    """A memoised overview entry and what it was built from (see ``_memoised_summary``)."""

    inputs: tuple[str, FileKey | None, Fingerprint]
    newest: int
    summary: ScopeSummary


def _with_orphaned(summary: ScopeSummary) -> ScopeSummary:
    """``summary`` with ``orphaned`` judged now: the Workspace lies outside the memory root."""
    if summary.workspace_path is None:
        return summary
    # os.path.exists: a path the OS cannot even look up (too long) is gone, not an error (K-6a)
    orphaned = not os.path.exists(summary.workspace_path)  # noqa: PTH110
    if orphaned == summary.orphaned:
        return summary
    return msgspec.structs.replace(summary, orphaned=orphaned)


class ScopeAnswers:
    """Builds the read answers of one app; ``cache`` is shared by every request."""

    def __init__(self, cache: TopicCache, files: ScopeFiles) -> None:
        self.cache = cache
        self.files = files
        self._scope_lints: OrderedDict[str, _ScopeLint] = OrderedDict()
        self._summaries: OrderedDict[str, _Summarised] = OrderedDict()  # by real scope dir
        self.index_facts = IndexFactsMemo()
        self._lock = threading.Lock()

    def _scope_lint(
        self,
        paths: tuple[Path, Path],
        index: IndexText | None,
        files: tuple[str, ...],
        companion: str | None,
        refused: list[tuple[str, str]],
    ) -> tuple[Finding, ...]:
        """The scope-level findings (index, unindexed, missing index), memoised per scope.

        ``paths`` are the real root and scope dir. The two index texts (the scope's and, for a
        Workspace, the user index beside it) enter as their
        :class:`~memory_api.store.facts_memo.IndexFactsMemo` facts: the memo hands out the
        same facts object exactly while the text is equal, so an identical object means an
        identical text (the memo entry holds it, so it is not reused). The other inputs (names,
        refused entries, the over-cap part) enter as a SHA-256. A memoised answer is thus served
        only for the same inputs, the one ``lint_scope`` would give now, and no request hashes
        a whole index. At most :data:`SCOPE_LINT_MEMO` scopes are kept.
        """
        root, scope = paths
        index_text = index.text if index is not None else None
        partial: IndexRead | None = index.partial if index is not None else None
        where = os.fspath(scope)
        # An index the agent keeps appending to changes on nearly every request: its per-line
        # facts are extended by the appended lines, not found again for all of them.
        facts = None if index_text is None else self.index_facts.facts(where, index_text)
        beside = None
        if companion is not None:
            beside = self.index_facts.facts(f"{root}{os.sep}{USER_SCOPE}", companion)
        deeper = [target for target in facts.links if "/" in target] if facts else []
        in_sub_folders = sub_folder_files(scope, deeper)  # T-5b: checked like any other link
        digest = _digest(files, repr((refused, partial, sorted(in_sub_folders))))
        with self._lock:
            found = self._scope_lints.get(where)
            if (
                found is not None
                and found.digest == digest
                and found.facts is facts
                and found.beside is beside
            ):
                self._scope_lints.move_to_end(where)
                return found.findings
        fresh = tuple(
            lint_scope(
                index_text,
                [],
                files,
                companion_index=companion,
                refused=refused,
                partial=partial,
                facts=facts,
                in_sub_folders=in_sub_folders,
            )
        )
        with self._lock:
            self._scope_lints[where] = _ScopeLint(digest, facts, beside, fresh)
            self._scope_lints.move_to_end(where)
            while len(self._scope_lints) > SCOPE_LINT_MEMO:
                self._scope_lints.popitem(last=False)
        return fresh

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
        paths: tuple[Path, Path],
        index: IndexText | None,
        loaded: list[_Loaded],
        user_index: str | None,
    ) -> list[Finding]:
        """``lint_scope`` of the scope (``paths`` = real root and scope), topics from the cache.

        The scope-level findings come from ``lint_scope`` with no topics (memoised); then
        ``lint_topics`` with each file's own findings memoised per file.
        """
        companion = None if key == USER_SCOPE else user_index
        files = tuple(item.entry.file for item in loaded)
        findings = list(self._scope_lint(paths, index, files, companion, refused_entries(*paths)))
        paths_of = {item.topic.file: item.entry.path for item in loaded}
        findings.extend(
            lint_topics(
                [item.topic for item in loaded],
                files,
                own=lambda topic: self.cache.lint(paths_of[topic.file], topic),
            )
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

    def _memoised_summary(
        self, root: Path, key: str, scope: Path, user_index: IndexText | None
    ) -> tuple[int, ScopeSummary]:
        """:meth:`_summary`, answered from a memo while nothing in the scope changed.

        The memo of a scope holds its :func:`~memory_api.store.scopes.scope_fingerprint`, the
        user index's file key (the companion of its lint) and the key; only ``orphaned`` — does
        the named Workspace still exist, outside the memory root — is asked anew each time.
        A scope changed in the last moments (racily fresh, see ``stat_cache``) is not memoised.
        """
        fingerprint = scope_fingerprint(scope)
        user_key = file_key(user_index.stat) if user_index is not None else None
        where = os.fspath(scope)
        if fingerprint is not None:
            with self._lock:
                found = self._summaries.get(where)
                if found is not None and found.inputs == (key, user_key, fingerprint):
                    self._summaries.move_to_end(where)
                    return found.newest, _with_orphaned(found.summary)
        index = user_index if key == USER_SCOPE else self.files.read(root, scope)
        user_text = user_index.text if user_index is not None else None
        newest, summary = self._summary(root, key, scope, index, user_text)
        keys = [fingerprint[0], *(item[1] for item in fingerprint[1])] if fingerprint else []
        if fingerprint is not None and not any(is_racy(item) for item in keys):
            with self._lock:
                self._summaries[where] = _Summarised((key, user_key, fingerprint), newest, summary)
                self._summaries.move_to_end(where)
                while len(self._summaries) > SCOPE_LINT_MEMO:
                    self._summaries.popitem(last=False)
        return newest, summary

    def overview(self, root: Path) -> list[ScopeSummary]:
        """Every scope under the real ``root``: user first, then Workspaces newest first (A-3).

        The user index is read once: it is the user scope's own and every Workspace's companion.
        """
        scopes = list_scopes(root)
        user_dir = dict(scopes).get(USER_SCOPE)
        user_index = self.files.read(root, user_dir) if user_dir is not None else None
        user: list[ScopeSummary] = []
        workspaces: list[tuple[int, ScopeSummary]] = []
        for key, scope in scopes:
            newest, summary = self._memoised_summary(root, key, scope, user_index)
            if key == USER_SCOPE:
                user.append(summary)
            else:
                workspaces.append((newest, summary))
        workspaces.sort(key=lambda item: (-item[0], item[1].key))
        return user + [summary for _, summary in workspaces]

    def _scope_findings(
        self, root: Path, scope: Path, key: str, loaded: list[_Loaded]
    ) -> list[Finding]:
        """The scope's whole lint (T-5), as the index view reports it."""
        index = self.files.read(root, scope)
        user_index = None if key == USER_SCOPE else self._user_index_text(root)
        return self._lint(key, (root, scope), index, loaded, user_index)

    def _user_index_text(self, root: Path) -> str | None:
        """The user index's text, the companion of every Workspace index (I-4), or None."""
        user_scope = self._user_scope(root)
        found = self.files.read(root, user_scope) if user_scope is not None else None
        return found.text if found is not None else None

    def topic_list(self, root: Path, scope: Path, key: str) -> TopicList:
        """Every topic file of the scope, sorted by file name, and the scope's lint (A-5)."""
        loaded = self._load(scan_topics(root, scope))
        files = [self._listed(item) for item in loaded]
        findings = self._scope_findings(root, scope, key, loaded)
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
        findings = self._scope_findings(root, scope, key, self._load(scan_topics(root, scope)))
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
        loaded = self._load(scan_topics(root, scope))
        return IndexView(
            scope=key,
            exists=index is not None,
            raw=text or "",
            lines=lines,
            manifest=capped.manifest,
            findings=self._lint(key, (root, scope), index, loaded, user_index),
        )
