"""The JSON DTOs that cross HTTP: one contract for the service, the plugin and the web page.

Every Struct here derives from :class:`Wire`, through :class:`RequestBody` (what the service
decodes) or :class:`Answer` (what it sends, which the plugin, the CLI and the page decode). Field
names are snake_case in Python and camelCase on the wire (``workspace_path`` →
``workspacePath``). Timestamps are ISO 8601 strings in UTC (``2026-11-29T22:05:19Z``); sizes are
bytes; ``mtime`` is the file's modification time.

The compatibility rule (A-11), so a team upgrades the central service before each developer's
plugin: answers may gain fields, and clients ignore unknown fields (:class:`Answer`); requests
with an unknown field are refused with a 422 naming it (:class:`RequestBody`), so a typo in a
client is an error, not a silently ignored setting. A type is one or the other, never both.

A request field with a rule (``AgentId``, ``AgentName``, ``WorkspacePath``, ``DraftPrompt``)
carries its :class:`~memory_core.rules.TextRule` in its JSON Schema; the service
checks the same rule and answers 400 with the reason (A-11).

PATCH bodies use ``msgspec.UNSET`` for "not sent" and ``None`` for "restore the default".
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

import msgspec

from memory_core.draft_rules import DRAFT_TEXT_RULE
from memory_core.keys import ID_RULE, SCOPE_KEY_RULE, VERSION_RULE
from memory_core.rules import (
    AGENT_NAME_RULE,
    MACHINE_ID_RULE,
    MEMORY_PROMPT_RULE,
    TEMPLATE_RULE,
    WORKSPACE_PATH_RULE,
    WORKSPACE_PROMPT_RULE,
)

PROBLEM_TYPE_BASE = "tag:agent-memory,2026:problem/"
"""The start of the problem ``type`` URIs the service names (RFC 9457 3.1.1: a ``tag:`` URI,
RFC 4151, names a kind without claiming a page to fetch). A client tells kinds apart by
``type``; the ``detail`` is for a person and may be reworded."""

ScopeKind = Literal["user", "workspace"]
WorkspaceKind = Literal["persistent", "temporary", "off"]
CapFired = Literal["none", "lines", "chars"]
IndexPlacement = Literal["placeholder", "after-prompt"]
SectionKind = Literal["prompt", "index", "note"]

TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%SZ"

# Request fields carry their rule in the JSON Schema; the service checks the same rule (400).
AgentId = Annotated[str, ID_RULE.meta("The agent's id (K-7):")]
AgentName = Annotated[str, AGENT_NAME_RULE.meta("The display name:")]
AgentTemplate = Annotated[str, TEMPLATE_RULE.meta("The system prompt template:")]
WorkspacePath = Annotated[str, WORKSPACE_PATH_RULE.meta("The Workspace path the harness sees:")]
DraftPrompt = Annotated[str, DRAFT_TEXT_RULE.meta("The chat prompt:")]
MemoryPrompt = Annotated[str, MEMORY_PROMPT_RULE.meta("The memory prompt (I-1):")]
WorkspacePrompt = Annotated[str, WORKSPACE_PROMPT_RULE.meta("The Workspace memory prompt (I-1):")]


def utc_timestamp(moment: datetime | float) -> str:
    """Render ``moment`` (an aware datetime, or seconds since the epoch) as a wire timestamp.

    >>> utc_timestamp(0)
    '1970-01-01T00:00:00Z'
    """
    if not isinstance(moment, datetime):
        moment = datetime.fromtimestamp(moment, UTC)
    return moment.astimezone(UTC).strftime(TIMESTAMP_FORMAT)


class Wire(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """Base of every DTO; derive from :class:`RequestBody` or :class:`Answer`, not from this.

    - ``frozen``: DTOs are values; handlers build new ones instead of mutating.
    - ``kw_only``: construction by name only, so adding a field never reorders callers.
    - ``rename="camel"``: Python stays snake_case, JSON is camelCase (spec: A, "JSON in camelCase").

    Subclasses repeat ``frozen=True`` because mypy's dataclass_transform support does not
    inherit it and would otherwise report a non-frozen subclass of a frozen base.
    """


class RequestBody(Wire, frozen=True, forbid_unknown_fields=True):
    """Base of a request body the service decodes (and of the parts nested in one).

    ``forbid_unknown_fields``: an unknown field is a validation error, answered 422 with the
    field named (``Object contains unknown field `extra` ``), and the OpenAPI schema says
    ``additionalProperties: false``. Never decoded by a client: nothing the service answers is
    a :class:`RequestBody`.
    """


class Answer(Wire, frozen=True):
    """Base of what the service answers (and of the parts nested in one): what a client decodes.

    Unknown fields are ignored on decoding, so a plugin or CLI installed before the service
    gained an answer field still reads the answer (a rolling upgrade: the central service
    first, each developer's plugin later). A field is never removed or retyped in place: a
    client built before the change would refuse the answer (a missing field) or misread it.
    """


# --- errors ---------------------------------------------------------------------------------


class Problem(Answer, frozen=True, kw_only=True, omit_defaults=True):
    """An RFC 9457 problem details body, sent as ``application/problem+json``.

    ``type`` is a URI reference naming the kind of problem (``about:blank`` when only the
    status says it); ``detail`` is the human-readable explanation of this occurrence.
    """

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    instance: str | None = None


# --- agents and config (A-1, A-2) -------------------------------------------------------------


class AgentCreate(RequestBody, frozen=True):
    """Body of ``POST /api/projects/{project}/agents`` (A-1). ``id`` must match K-7.

    Without ``template`` the agent gets the built-in default template.
    """

    id: AgentId
    name: AgentName
    template: AgentTemplate | None = None


class SkippedEntry(Answer, frozen=True):
    """An entry of a memory root that is no scope (a stray file, a folder not named like a
    scope, a symlink out of the root or to nothing): its ``name`` and ``problem``, why the
    service never reads it. Never a path (A-7)."""

    name: str
    problem: str


class AgentSummary(Answer, frozen=True, omit_defaults=True):
    """One agent card of the agents list (A-1, W-1). ``memory_count`` counts topic files;
    ``unreadable`` (absent when all were counted) says what holds memories the service could
    not count and why (its memory root or a scope folder it may not list, Q-2b): the count is
    then of the rest, never "no memory"."""

    id: str
    project: str
    name: str
    memory_enabled: bool
    memory_count: int
    unreadable: str | None = None
    skipped: list[SkippedEntry] = msgspec.field(default_factory=list)
    """Entries of its memory root that are no scope, as :class:`MemoryOverview` names them;
    left out when there are none."""
    skipped_count: int = 0


class UnreadableAgentEntry(Answer, frozen=True):
    """An agent whose ``agent.json`` is there but cannot be read or is invalid (Q-2b): its id
    and why. Its project is unknown, so it is shown only to a caller reaching every project.
    ``id`` is ``"agents/"`` (no agent id) when the data dir's ``agents/`` is a symlink, never
    listed through (A-7): the one entry then."""

    id: str
    problem: str


class ProjectList(Answer, frozen=True, omit_defaults=True):
    """Answer of ``GET /api/projects``: the project ids that hold agents and the caller may see;
    ``unreadable`` as in :class:`AgentList` (for a caller reaching every project, left out when
    empty): agents whose project cannot be known, so that no project listing none of them
    passes for "no agents yet" (Q-2b)."""

    projects: list[str]
    unreadable: list[UnreadableAgentEntry] = msgspec.field(default_factory=list)


class AgentList(Answer, frozen=True, omit_defaults=True):
    """Answer of ``GET /api/projects/{project}/agents``, agents sorted by id; ``unreadable``
    names the agents of unknown project whose settings cannot be read (Q-2b), for a caller
    that reaches every project, and is left out when empty (``omit_defaults``: a plugin built
    before answers ignored unknown fields reads the usual answer, A-11)."""

    agents: list[AgentSummary]
    unreadable: list[UnreadableAgentEntry] = msgspec.field(default_factory=list)


class MemoryConfig(Answer, frozen=True, omit_defaults=True):
    """The effective memory settings of an agent, built-in defaults folded in (A-2)."""

    enabled: bool
    prompt: str
    workspace_prompt: str
    prompt_is_default: bool
    workspace_prompt_is_default: bool
    prompt_warnings: list[str] = msgspec.field(default_factory=list)
    """One line per stored prompt that does not hold its index placeholder exactly once, as
    written (I-1: edited by hand in ``agent.json``; the API refuses such a prompt with 422),
    naming what it holds instead (:func:`memory_core.rules.prompt_warnings`). Sent only when
    not empty (``omit_defaults``): the usual answer is as it was."""


class AgentConfig(Answer, frozen=True):
    """Answer of ``GET …/config`` (A-2); its ETag travels in the ``ETag`` header."""

    id: str
    project: str
    name: str
    template: str
    memory: MemoryConfig


class MemoryPatch(RequestBody, frozen=True):
    """The ``memory`` part of a config PATCH. ``None`` for a prompt restores the default; a
    prompt must hold its index placeholder exactly once (I-1, 422 otherwise) and no character
    hidden wherever it stands, as a template (I-9); 422 for either, naming the line and what is
    hidden, as for a template."""

    enabled: bool | msgspec.UnsetType = msgspec.UNSET
    prompt: MemoryPrompt | msgspec.UnsetType | None = msgspec.UNSET
    workspace_prompt: WorkspacePrompt | msgspec.UnsetType | None = msgspec.UNSET


class ConfigPatch(RequestBody, frozen=True):
    """Body of ``PATCH …/config`` (A-2); send ``If-Match`` with the ETag last read."""

    name: AgentName | msgspec.UnsetType = msgspec.UNSET
    template: AgentTemplate | msgspec.UnsetType = msgspec.UNSET
    memory: MemoryPatch | msgspec.UnsetType = msgspec.UNSET


# --- memory overview, files, index (A-3 … A-6) ------------------------------------------------


class ScopeSummary(Answer, frozen=True):
    """One scope of the overview (A-3).

    ``title`` is the Workspace's basename (``"User memory"`` for the user scope);
    ``workspace_path`` comes from ``.workspace`` (None for the user scope or a missing marker);
    ``marker_problems`` names what is wrong with the marker (K-5); ``orphaned`` is true when the
    marker's path, once seen by the service, no longer exists (K-6a; see ``not_visible``);
    ``lint_counts`` maps a lint code (T-5) to a count and ``severity_counts`` a severity
    (T-5a) to a count (only severities that occur);
    ``lint_severities`` maps each code of ``lint_counts`` to its severity, so a page can colour
    a count without the findings (W-6). ``history_bytes`` is what the scope's history takes on
    disk (V-3; 0 while it has none).
    """

    key: str
    kind: ScopeKind
    title: str
    workspace_path: str | None
    file_count: int
    last_activity: str | None
    marker_problems: list[str]
    orphaned: bool
    lint_counts: dict[str, int]
    severity_counts: dict[str, int]
    lint_severities: dict[str, Severity]
    history_bytes: int = 0
    not_visible: bool = False
    """The Workspace path does not exist for the service and did not at its latest Session start
    either (the harness runs in another mount namespace, a container): in use as far as the
    service can tell, so never ``orphaned`` (K-6a)."""
    unreadable: str | None = None
    """Why the scope folder, which is there, cannot be listed (``"cannot read it (Permission
    denied)"``, Q-2b); ``file_count`` then counts nothing and the scope's files are unknown, not
    absent. None when it was listed."""


class OverviewTotals(Answer, frozen=True):
    """What the whole memory holds, counted from folder listings alone, no index read (A-3).

    ``scopes``: every scope (the user scope and each Workspace's); ``files``: their topic files
    (A-5, as each listing counts them); ``matching``: the scopes a group search (``q``) matches,
    or every scope without one. Lint is counted per scope shown, not in these totals.
    """

    scopes: int
    files: int
    matching: int


class MemoryOverview(Answer, frozen=True):
    """Answer of ``GET …/memory`` (A-3): one page of scopes, the user scope first, then the
    Workspaces by newest activity.

    ``totals`` counts every scope; ``next_cursor`` asks for the page after this one (the
    ``cursor`` query parameter), None when this page is the last. ``skipped`` names the
    entries of the memory root that are no scope, sorted by name, at most 20 of them;
    ``skipped_count`` counts them all (skipped silently, they passed for no memory).
    """

    enabled: bool
    template_has_memory: bool
    scopes: list[ScopeSummary]
    totals: OverviewTotals
    next_cursor: str | None = None
    skipped: list[SkippedEntry] = msgspec.field(default_factory=list)
    skipped_count: int = 0


class PlaceholderResult(Answer, frozen=True):
    """Answer of ``POST …/memory/template-placeholder`` (A-4, I-7)."""

    template: str
    changed: bool


class TopicSummary(Answer, frozen=True):
    """One topic file of a scope listing (A-5).

    ``file`` is the file name (the identity, e.g. ``Deploy notes.md``); ``name`` is the
    frontmatter ``name`` when readable, else the stem; ``problems`` are T-2 findings such as
    ``"frontmatter: …"``. A likely credential in ``name`` or ``description`` is masked
    (``[masked: <kind>]``, I-8) unless a file answer was asked to reveal it. In a listing row
    (and a search hit) ``name`` and ``description`` are cut to their first 1,000 characters
    and ``…`` (``memory_api.store.listed_text.LISTED_CHARS``), each cut named in ``problems``
    (``"description: 5000 characters, listed cut to the first 1000; …"``); the file's own
    answer gives them whole. ``listed_cut`` holds those notes again (empty when nothing was
    cut): the cut is no problem of the file, so a client offers no fix for it.
    """

    file: str
    name: str
    description: str | None
    updated_at: str | None
    size: int
    mtime: str
    problems: list[str]
    listed_cut: list[str] = msgspec.field(default_factory=list)


class TopicList(Answer, frozen=True):
    """Answer of ``GET …/memory/scopes/{key}/files``: a page of the scope's topic files, sorted
    by file name (A-5).

    ``files`` holds at most ``?limit=`` rows (1-1000, default 1000) after ``?cursor=``;
    ``next_cursor`` asks for the next page (the ``cursor`` query parameter), None on the last,
    so a client following it is given every file; ``total`` counts every file of the scope.
    ``findings`` is the scope's lint (T-5), as the index view reports it, paged with the files:
    the findings about the files on this page; on the first page those about anything else
    (the index, the scope, entries never read) but the conventions (T-5a), which judge every
    file's frontmatter and come on the last page. The web page opens a row's findings from its
    badge (W-6).
    """

    scope: str
    files: list[TopicSummary]
    findings: list[Finding]
    total: int = 0
    next_cursor: str | None = None


class TopicFile(TopicSummary, frozen=True, kw_only=True):
    """Answer of ``GET …/scopes/{key}/files/{file}``: the listing row's fields (one home,
    :class:`TopicSummary`), then the body and its ``[[links]]`` (T-3).

    ``findings`` are the lint findings (T-5) that concern this file. Likely credentials in the
    body, name and description are masked (``[masked: <kind>]``, I-8) and ``masked`` says so;
    ``?reveal=true`` answers the text as written (``masked`` false), for an explicit reveal
    (W-6). ``link_files`` holds, for each of ``links``, the topic file it opens, as the lint
    resolves a ``[[link]]`` (:class:`memory_core.wiki_links.WikiFiles`: ``Deploy Freeze`` →
    ``deploy-freeze.md``, ``./deploy`` → ``deploy.md``), or None where it names none (T-5b;
    a file of a sub-folder, which no route opens, is none here).
    """

    body: str
    links: list[str]
    findings: list[Finding]
    masked: bool
    link_files: dict[str, str | None] = {}


Severity = Literal["error", "warning", "info"]
"""How much a lint finding matters (T-5a): ``error`` memory is lost or leaks (a dangling link, a
credential, lines never injected, an entry refused); ``warning`` the agent's contract is broken
(no description, an unindexed file); ``info`` style (a name that is not kebab-case)."""


class Finding(Answer, frozen=True):
    """One lint finding (T-5, T-5a, T-5b).

    ``code`` names the rule (docs/note-format.md lists them); ``severity`` is ``error``,
    ``warning`` or ``info``; ``file`` the file it concerns (``""`` for the scope as a whole);
    ``line`` is 1-based where it applies. Secrets are never echoed.
    """

    code: str
    severity: Severity
    file: str
    line: int | None
    message: str


class ScopeManifest(Answer, frozen=True, omit_defaults=True):
    """What the injection did with one scope's index (A-9, I-4).

    ``lines_total`` counts the index's lines; ``lines_kept`` those injected; ``lines_dropped`` the
    rest; ``cap_fired`` is ``"lines"`` (200-line cap), ``"chars"`` (25,000-character backstop) or
    ``"none"``; ``headroom_lines`` / ``headroom_chars`` are what was left under each cap (0 once
    it fired).
    """

    scope: str
    lines_total: int
    lines_kept: int
    lines_dropped: int
    cap_fired: CapFired
    headroom_lines: int
    headroom_chars: int
    placement: IndexPlacement = "placeholder"
    """Where the kept lines stand in the text (I-1): ``"placeholder"``, where the prompt's index
    placeholder stood (its first one); ``"after-prompt"``, after a prompt that holds none (one
    stored before the placeholder rule, or edited by hand). Sent only when not
    ``"placeholder"`` (``omit_defaults``): a plugin built before answers ignored unknown
    fields refuses any field it does not know, and still reads every usual answer."""
    unreadable: str | None = None
    """Why the scope's ``MEMORY.md``, which is there, could not be read (``"cannot read it
    (Permission denied)"``, Q-2b); then nothing of it is injected and a note says so instead of
    "nothing saved yet". Sent only when set."""
    uncreated: str | None = None
    """Why the scope's directory is not there: the service could not create it (``"could not
    create its folder (Read-only file system)"``, A-9); then a note tells the model not to save
    into it, and the harness tells the user. Sent only when set."""


class IndexLine(Answer, frozen=True):
    """One line of an index as the injection sees it: 1-based number, text, kept or dropped."""

    number: int
    text: str
    kept: bool


class IndexView(Answer, frozen=True):
    """Answer of ``GET …/memory/scopes/{key}/index`` (A-5): the raw index and what is injected.
    ``exists``: ``MEMORY.md`` is known to be there (readable or not, or never read: a FIFO, a
    folder, a symlink out of the root, T-5b; ``manifest.unreadable`` then says why, as the
    injection does); false when it is not, or when its scope folder cannot be read, so whether
    it is there cannot be told (Q-2b: an ``unreadable`` finding then says so). An index that is
    there and cannot be read answers 200 so (the page's index panel shows why), never 503."""

    scope: str
    exists: bool
    raw: str
    lines: list[IndexLine]
    manifest: ScopeManifest
    findings: list[Finding]


class DeleteResult(Answer, frozen=True):
    """Answer of ``DELETE …/memory/scopes/{key}/files/{file}`` (A-6). ``version`` is the
    version that records the delete and ``restore_version`` the one before it, which a restore
    takes the file back from (the Undo, V-2); both None when no history is kept. When the file
    was deleted but the history could not record the delete (a full disk, a damaged history),
    both are None and ``unrecorded`` says why: the version before it still holds the file (the
    scope's history lists it), and the next record of the scope takes the delete. (Beside a
    ``MEMORY.md`` that is no index the service rewrites, a folder, a FIFO, a symlink leading
    out of the memory root, the delete is refused, 409, and nothing is deleted.) A removed
    line that also linked other files (``- [A](a.md), see [B](b.md)``) goes whole (A-6):
    ``unindexed_files`` names each other file of the scope that no index entry lists now
    (``["b.md"]``; ``[]`` when none), and the restore puts the line back."""

    file: str
    removed_index_lines: list[str]
    version: str | None = None
    restore_version: str | None = None
    unrecorded: str | None = None
    unindexed_files: list[str] = msgspec.field(default_factory=list)


class ForgetResult(Answer, frozen=True):
    """Answer of ``DELETE …/memory/scopes/{key}`` (K-5): the empty Workspace scope ``key`` is
    no longer listed. ``workspace`` is the path its ``.workspace`` marker named, as the
    overview's ``workspacePath`` has it (None: a marker that names no path). Its history is
    kept: a Session started in that folder again makes a new scope under the same key, whose
    history still holds the files deleted before (V-2)."""

    key: str
    workspace: str | None = None


# --- search (S-1) ----------------------------------------------------------------------------


class SnippetPart(Answer, frozen=True):
    """A piece of a search snippet; ``hit`` marks the words that matched (to highlight)."""

    text: str
    hit: bool


SearchScore = Annotated[
    float,
    msgspec.Meta(
        ge=0,
        description=(
            "Relevance, higher is better: BM25 per field (k1 1.2, b 0.75, idf ln(1 + (N - n + "
            "0.5) / (n + 0.5)) over the agent's N topic files, n holding the term in that field), "
            "summed with the weights name 10, description 4, body 1, so a match in the name or "
            "description outranks matches in the body alone. Compares hits of one query over one "
            "agent's memory; not a probability."
        ),
    ),
]
MarkedText = Annotated[
    list[SnippetPart],
    msgspec.Meta(description="The whole text as parts, the matched words marked `hit`."),
]


class SearchHit(Answer, frozen=True):
    """One topic file found by ``GET …/memory/search`` (S-1).

    ``scope`` and ``file`` address it (A-5); ``name`` and ``description`` as listed, and again
    as ``name_parts`` / ``description_parts`` with the matched words marked; ``score`` its
    relevance (:data:`SearchScore`); ``snippet`` a passage of the body around its best matches
    (the start of the body when only the name or description matched; empty for an empty body).
    Nothing is repeated: the snippet never shows the description. Likely credentials masked
    (I-8).
    """

    scope: str
    file: str
    name: str
    description: str | None
    score: SearchScore
    name_parts: MarkedText
    description_parts: MarkedText
    snippet: list[SnippetPart]


class SearchResults(Answer, frozen=True):
    """Answer of ``GET …/memory/search?q=…`` (S-1): the best ``hits`` first; ``total`` counts
    every matching file (there may be more than the hits returned); ``scope`` echoes the filter.
    """

    query: str
    scope: str | None
    total: int
    hits: list[SearchHit]
    unreadable: list[Finding] = msgspec.field(default_factory=list)
    """The topic files (``<scope>/<file>``) that are there but could not be read (Q-2b): only
    their names were searched. Empty when every file was read."""


# --- Session start (A-9) ----------------------------------------------------------------------


class SessionStartRequest(RequestBody, frozen=True):
    """Body of ``POST …/memory/session-start``: the Workspace path as the harness sees it.

    ``sections`` asks for the answer's ``sections`` as well (A-9): a harness that must split
    the ``memory`` text at line boundaries (its own context limit is below the caps, H-1) sets
    it; without it ``sections`` is answered empty, so the text is not sent twice.
    """

    workspace: WorkspacePath
    session_id: str | None = None
    sections: bool = False


class SessionDirectories(Answer, frozen=True):
    """Where this Session's memory lives; ``user`` / ``workspace`` is None when that scope is not
    there: no Workspace scope (temporary, memory off), or a scope the service could not create
    (its manifest's ``uncreated`` says why)."""

    app_data_dir: str
    memory_root: str
    user: str | None
    workspace: str | None


class MemorySection(Answer, frozen=True):
    """One run of the ``memory`` text (A-9, I-1); the sections, concatenated in order, are it.

    ``kind`` is ``prompt`` (instruction text of a memory prompt; ``scope`` None), ``index`` (the
    kept lines of ``scope``'s index joined by ``\\n``, masked per I-8) or ``note`` (``scope``'s
    truncation or "nothing saved yet" note, I-3/I-4, with the blank line that parts it from kept
    lines). A harness whose own context limit is below the caps uses them to leave out further
    index lines at a line boundary and restate the note (H-1) without parsing the prompt.
    """

    kind: SectionKind
    scope: str | None
    text: str


class SessionStartResponse(Answer, frozen=True, omit_defaults=True):
    """Answer of ``POST …/memory/session-start`` (A-9).

    ``memory`` is the text that replaces ``{{MEMORY}}`` (empty when ``injected`` is false);
    ``workspace_memory_key`` is the value for ``{{WORKSPACE_MEMORY_KEY}}`` (I-2): the key,
    ``(none — temporary workspace)`` or ``(none — memory is off)``; ``key`` is the bare key or
    None; ``manifests`` has one entry per injected scope, user first. ``sections`` is the
    ``memory`` text as runs (:class:`MemorySection`) when the request asked for them, else left
    out (``omit_defaults``: a plugin built before answers ignored unknown fields, which never
    asks for them, reads the answer, A-11).
    """

    enabled: bool
    injected: bool
    memory: str
    workspace_memory_key: str
    key: str | None
    workspace_kind: WorkspaceKind
    directories: SessionDirectories
    manifests: list[ScopeManifest]
    template_has_memory: bool
    sections: list[MemorySection] = msgspec.field(default_factory=list)


# --- drafts and the caller -------------------------------------------------------------


class DraftCreate(RequestBody, frozen=True):
    """Body of ``POST …/drafts``: a chat prompt, optionally pinned to a Workspace path."""

    prompt: DraftPrompt
    workspace: WorkspacePath | None = None


class Draft(Answer, frozen=True):
    """A stored draft (A-12); it expires at ``expires_at``."""

    id: str
    project: str
    agent: str
    prompt: str
    workspace: str | None
    created_at: str
    expires_at: str


class Me(Answer, frozen=True):
    """Answer of ``GET /api/me``: the caller's token name and reach, and page settings.

    ``projects`` is None when the token reaches every project. ``chat_url_template`` is the
    service's chat address with ``{draftId}``, ``{project}`` and ``{agent}`` placeholders, or None
    when no chat is configured (the page then hides "Open a new chat").
    """

    name: str
    projects: list[str] | None
    chat_url_template: str | None


class Health(Answer, frozen=True):
    """Answer of ``/healthz`` and ``/readyz``: ``status`` is ``ok`` or ``fail`` with reasons."""

    status: Literal["ok", "fail"]
    checks: dict[str, str]


# --- versions: history, diffs, restore (V-1, V-2) ---------------------------------------------

ScopeKey = Annotated[str, SCOPE_KEY_RULE.meta("A scope key (K-7):")]
VersionId = Annotated[str, VERSION_RULE.meta("A version id (V-2):")]
VersionSource = Literal[
    "session-start",
    "write",
    "checkpoint",
    "found",
    "delete",
    "restore",
    "import",
    "squash",
    "sync",
]
"""What recorded a version (V-1): ``session-start`` (changes found on disk when a Session
started), ``write`` (a harness's post-write hook), ``checkpoint`` (an explicit checkpoint),
``found`` (changes found on disk just before an API change), ``delete``, ``restore`` and
``import`` (the API's own changes), ``squash`` (the base of a history cut by retention, V-3),
``sync`` (changes a machine sent from its local copy, R-1)."""
FileChangeKind = Literal["added", "modified", "deleted"]
FileVersionKind = Literal["added", "modified", "deleted", "renamed"]
"""How a version changed one file as its own history tells (V-2): a rename is one change
there, where a scope's version lists it as two (:class:`FileChange`)."""
DiffLineKind = Literal["context", "added", "removed"]


class Author(Answer, frozen=True):
    """Who a version is from (V-1). ``source`` says what recorded it; ``session_id`` and
    ``harness`` name the Session (a Session start, a post-write hook) and ``tool`` the tool
    that wrote; ``principal`` is the API caller's token name (``local`` without tokens, or
    ``command line``); each is None when it does not apply. ``time`` is when the change was
    made as far as the disk tells (the newest mtime of the files it changed), ``recorded_at``
    when the version was recorded."""

    source: VersionSource
    session_id: str | None
    harness: str | None
    tool: str | None
    principal: str | None
    time: str
    recorded_at: str
    machine: str | None = None
    """The machine whose local copy sent the change (``sync``, R-1): its name."""


class FileChange(Answer, frozen=True, omit_defaults=True):
    """One file a version changed: ``MEMORY.md``, ``.workspace`` or a topic file.

    A topic file the version renamed is two changes, ``deleted`` for the old name and
    ``added`` for the new one, tied by ``renamed_to`` (on the old) and ``renamed_from`` (on the
    new): the same text under a new name, or a new text its index line tells is the old
    file's (the line that linked the old name links the new one, its words unchanged: a note
    renamed and rewritten in one change, V-2). A restore of the old name from the version
    before brings back its text and index line (the undo). Left out of the answer where no
    rename was found, as an older service answers."""

    file: str
    change: FileChangeKind
    renamed_from: str | None = None
    renamed_to: str | None = None


class Version(Answer, frozen=True):
    """One version of a scope (V-1): its id, a one-line summary, who, and the files it changed.

    ``restored_from`` names the version a restore brought back (None otherwise)."""

    version: str
    summary: str
    author: Author
    files: list[FileChange]
    restored_from: str | None = None
    outcomes: list[str] = msgspec.field(default_factory=list)
    """What merging a machine's changes did beyond taking them (R-2), one line each: a file
    kept twice under a new name, an edited file kept though deleted elsewhere."""


class FileVersion(Answer, frozen=True):
    """One version of one file in its history (V-2): the scope version that changed it, how,
    who, and ``size`` in bytes at that version (None where it was deleted).

    The history follows the file across renames, as ``git log --follow`` does: ``file`` is the
    name it had at that version. The version that renamed it is one entry, ``renamed``, with
    ``renamed_from`` (in the history of the new name, which then goes on with the old name's
    versions) or ``renamed_to`` (in the history of the old name, where it ends), tied as the
    scope's changes tie a rename (:class:`FileChange`). Its undo is the scope's: a restore of
    the old name from ``restore_version``, the version before the rename (its text and index
    line come back; the new file stays). Left out (null) where they do not apply."""

    version: str
    change: FileVersionKind
    summary: str
    author: Author
    size: int | None
    file: str | None = None
    renamed_from: str | None = None
    renamed_to: str | None = None
    restore_version: str | None = None


class FileHistory(Answer, frozen=True):
    """Answer of ``GET …/scopes/{key}/files/{name}/history`` (V-2): newest first.

    ``more`` tells that older versions follow (ask again with ``before`` = the last version
    here); ``exists`` whether the file is on disk now (one the service cannot read, or over its
    read cap, too: Q-2b); ``unrecorded`` that the file on disk differs from its newest version
    (a write no version holds yet: a checkpoint records it, unless the service cannot read it);
    ``unrecordable`` why the history cannot keep the file on disk as it is now, in the words of
    its listing row's problem (``"the service cannot read it (Permission denied)"``, ``"it is
    larger than 1 MiB (its read cap)"``, 16 MiB for ``MEMORY.md``; ``"it is a FIFO (named pipe),
    not a regular file, which the service never reads"`` for an entry in its place, T-5b):
    then it is ``unrecorded``,
    no checkpoint takes it, and a delete or a restore of it is refused (503), as neither could
    be undone; null when the history can keep it, or it is not there. ``record_failed`` says,
    of a file that is ``unrecorded`` for no such reason, why the last record of its scope
    failed (V-1: ``"the disk holding the history is full (git fast-import: no space left on
    the disk): …"``, a file system mounted read-only, no permission; with what an operator
    must do): the change waits for a record that works, not for someone to make one; null when
    the last record worked (the change came after it: a shell or an editor wrote it).
    """

    scope: str
    file: str
    exists: bool
    unrecorded: bool
    versions: list[FileVersion]
    more: bool
    unrecordable: str | None = None
    record_failed: str | None = None


class FileAtVersion(Answer, frozen=True):
    """Answer of ``GET …/scopes/{key}/files/{name}/versions/{version}`` (V-2): the file as it
    was. ``text`` is the whole file decoded as reading does (T-2; bytes in a legacy CJK
    encoding, which are not decoded, in the encoding they look like, never as mojibake,
    :func:`~memory_core.decoding.shown_text`); for a topic file ``name``,
    ``description`` and ``body`` are read from it as for the current file (A-5). Likely
    credentials are masked (I-8) unless ``?reveal=true``; ``masked`` says so."""

    scope: str
    file: str
    version: str
    author: Author
    size: int
    text: str
    name: str | None
    description: str | None
    body: str
    masked: bool


class DiffLine(Answer, frozen=True):
    """One line of a hunk: ``context``, ``added`` or ``removed``, its text (without the line
    end) and its 1-based number in the old and the new file (None on the side it is not)."""

    kind: DiffLineKind
    text: str
    old_number: int | None
    new_number: int | None


class DiffHunk(Answer, frozen=True):
    """A hunk of a unified diff: where it starts and how many lines it spans on each side."""

    old_start: int
    old_lines: int
    new_start: int
    new_lines: int
    lines: list[DiffLine]


class FileDiff(Answer, frozen=True):
    """Answer of ``GET …/scopes/{key}/files/{name}/diff`` (V-2): ``name`` from version
    ``from_version`` (None: the file did not exist) to ``to_version`` (None: deleted there).
    ``unified`` is the diff as ``diff -u`` prints it; ``hunks`` the same, structured. Likely
    credentials are masked on both sides (I-8) unless ``?reveal=true``."""

    scope: str
    file: str
    from_version: str | None
    to_version: str | None
    unified: str
    hunks: list[DiffHunk]
    masked: bool


class ScopeChanges(Answer, frozen=True):
    """Answer of ``GET …/scopes/{key}/changes`` (V-2): the scope's versions, newest first,
    each with the files it changed; ``more`` tells that older ones follow (``before``)."""

    scope: str
    versions: list[Version]
    more: bool


class DeletedFile(Answer, frozen=True):
    """A file deleted from a scope and not there now (V-2): ``deleted_in`` the version that
    deleted it, ``author`` who, and ``restore_version`` the last version that held it, the
    one a restore takes it from."""

    file: str
    deleted_in: str
    author: Author
    restore_version: str


class DeletedFiles(Answer, frozen=True):
    """Answer of ``GET …/scopes/{key}/deleted`` (V-2): newest deletion first.

    ``complete`` is false while the service is still looking through a long history for its
    deletions (the first look after an upgrade, or after retention rewrote the history): then
    ``files`` are those deleted in the newest versions looked at so far, and each look goes on
    further (ask again until it is true)."""

    scope: str
    files: list[DeletedFile]
    complete: bool = True


class RestoreRequest(RequestBody, frozen=True):
    """Body of ``POST …/scopes/{key}/files/{name}/restore``: the version to bring back."""

    version: VersionId


class RestoreResult(Answer, frozen=True):
    """Answer of a restore (V-2): the file holds what it held at ``restored_from``, and the
    index lines linking it then are back in ``MEMORY.md`` (``index_lines_added``; a line is not
    added twice, nor where another line already links the file). ``version`` is the new
    version that records it (None when nothing had to change). When ``MEMORY.md`` could not
    take the lines (a form the service may not rewrite, too large, not a regular file, a disk
    that refuses), it is left as it was: ``index_problem`` says why and
    ``index_lines_not_added`` lists the lines to add by hand (the file itself is restored).
    When the restore changed the files but the history could not record it (a full disk, a
    damaged history), ``version`` is None and ``unrecorded`` says why: the next record of the
    scope takes it; never the None of "nothing had to change"."""

    file: str
    restored_from: str
    version: str | None
    index_lines_added: list[str]
    index_lines_not_added: list[str] = []
    index_problem: str | None = None
    unrecorded: str | None = None


class RecordRequest(RequestBody, frozen=True):
    """Body of ``POST …/memory/versions``: a post-write hook asks to record what its Session
    wrote (V-1). ``scope`` limits it to one scope (all scopes without it); the other fields say
    who wrote (each cut to 200 characters, control characters dropped). No content is sent."""

    session_id: str | None = None
    harness: str | None = None
    tool: str | None = None
    scope: ScopeKey | None = None


class UnrecordableFile(Answer, frozen=True):
    """A memory file a record could not take as it is now (V-1, Q-2b): its ``file`` name and
    ``why``, with what an operator must do when the service may not read it (``"cannot be read
    (Permission denied): an operator must give the account the service runs as read access to
    it …"``, ``"larger than its read cap of 1048576 bytes"``). Its newest version, if any, is
    kept; it is never taken for deleted."""

    file: str
    why: str


class RecordedScope(Answer, frozen=True, omit_defaults=True):
    """What one scope recorded: the new version and its files, or ``version`` None when
    nothing it could read had changed since its newest version. ``skipped`` (only sent when
    set) says why the scope was not recorded at all, in a record of every scope: the user
    scope's folder it could not create (``"could not create its folder (Permission
    denied)"``), a damaged or refused history (V-1, V-3). ``unrecordable`` (only sent when
    there are some) names the files of the scope the record could not take as they are now:
    every other file is recorded all the same (Q-2b)."""

    scope: str
    version: str | None
    files: list[FileChange]
    skipped: str | None = None
    unrecordable: list[UnrecordableFile] = msgspec.field(default_factory=list)


class RecordResult(Answer, frozen=True):
    """Answer of ``POST …/memory/versions`` and of the checkpoints: one entry per scope."""

    scopes: list[RecordedScope]


# --- machines: local copies synced over git (R-1, R-2) -------------------------------------------

MachineId = Annotated[str, MACHINE_ID_RULE.meta("A machine's id (R-1):")]


class MachineSync(Answer, frozen=True):
    """A machine keeping a local copy of a scope (R-1): its ``id`` and ``name``, the token
    (``principal``) it synced with, when it last fetched or sent (``last_sync``) and last sent
    changes (``last_push``, None before its first), and what the merge of its last changes did
    beyond taking them (``outcomes``, R-2)."""

    id: MachineId
    name: str
    principal: str
    last_sync: str
    last_push: str | None
    outcomes: list[str]


class ScopeMachines(Answer, frozen=True):
    """The machines that have synced one scope, most recent first."""

    scope: str
    machines: list[MachineSync]


class MachineList(Answer, frozen=True):
    """Answer of ``GET …/memory/machines``: per scope with a machine, its machines."""

    scopes: list[ScopeMachines]
