"""What reaches the model: capped indexes, truncation notes, manifests, the ``{{MEMORY}}`` text.

The rules (I-1, I-3, I-4, I-8):

1. Each scope's index is split into lines (``\\n``; a trailing line end opens no new line) and
   every line has its likely credentials masked (I-8) — the caps measure what is injected.
2. Line cap: at most :data:`LINE_CAP` lines per scope.
3. Character backstop: at most :data:`CHAR_CAP` code points for the injected indexes together;
   a kept line costs its code points plus one for its line end; truncation and "nothing saved
   yet" notes are not counted. When both indexes fit, both are whole. Otherwise each scope may
   use up to half; a scope that needs less than half hands the rest to the other, so one huge
   index never starves the other (:func:`memory_core.caps.share_budget`, the one cut, which a
   harness with a smaller context limit applies again at its own budget, H-1).
4. A scope is cut at a line boundary: its lines are kept in order up to the first line that does
   not fit; that line and every later one are left out (a single line longer than the budget is
   thus left out whole, and never split inside a character). Keeping a later, shorter line
   instead would reorder what the model sees, so the cut is always a prefix.
5. Every cut is followed by a note naming the scope and how many lines were left out, telling the
   model to open the full ``MEMORY.md`` itself. A blank or missing index injects an explicit
   "nothing saved yet" note (I-3). The file on disk is never touched.

Where an index goes (I-1): at its prompt's placeholder (``{{MEMORY_USER_INDEX}}`` in the memory
prompt, ``{{MEMORY_INDEX}}`` in the Workspace prompt). A prompt is saved only when it holds its
placeholder exactly once, as written, and no other spelling of either (``MEMORY_PROMPT_RULE``
and ``WORKSPACE_PROMPT_RULE`` of :mod:`memory_core.rules`). One stored before that rule or edited
by hand still gets its index exactly once: at the first placeholder (further ones are dropped),
or, with none, after the prompt; the manifest's ``placement`` says which
(:func:`placed_manifests`), so it never counts lines as kept that are not in the text.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import msgspec

from memory_core.caps import (
    CHAR_CAP,
    LINE_CAP,
    Unread,
    empty_note,
    share_budget,
    truncation_note,
    uncreated_note,
    unreadable_note,
)
from memory_core.credentials import mask_secret_lines
from memory_core.hidden_text import BYTE_ORDER_MARK, show_hidden, show_hidden_lines
from memory_core.keys import USER_SCOPE
from memory_core.markdown import line_texts
from memory_core.rules import INDEX_PLACEHOLDER, USER_INDEX_PLACEHOLDER
from memory_core.wire import CapFired, IndexPlacement, MemorySection, ScopeManifest

__all__ = [
    "CHAR_CAP",
    "INDEX_PLACEHOLDER",
    "LINE_CAP",
    "USER_INDEX_PLACEHOLDER",
    "AssembledMemory",
    "CappedIndex",
    "PreparedIndex",
    "assemble_memory",
    "build_memory_text",
    "cap_indexes",
    "empty_note",
    "memory_sections",
    "placed_manifests",
    "prepare_index",
    "truncation_note",
    "uncreated_index",
    "unreadable_index",
]


class CappedIndex(msgspec.Struct, frozen=True):
    """One scope's index as injected (I-3, I-4, I-8).

    ``scope`` is ``user`` or the Workspace key; ``text`` replaces the scope's index placeholder
    (the kept lines, masked, then any truncation note — or the "nothing saved yet" note);
    ``kept`` / ``dropped`` are the 1-based line numbers of the index file (what the index view
    shows) as ranges — a cut is always a prefix, and an index of thousands of lines costs no
    list of thousands of numbers per Session start; ``manifest`` is the A-9 summary. ``text``
    is ``lines_text + note_text``: the kept lines joined by ``\\n``, then the note (led by a
    blank line when lines were kept), or "".
    """

    scope: str
    text: str
    kept: Sequence[int]
    dropped: Sequence[int]
    manifest: ScopeManifest
    lines_text: str = ""
    note_text: str = ""


class PreparedIndex(msgspec.Struct, frozen=True, cache_hash=True):
    """One index file made ready for the caps (rule 1): what :func:`cap_indexes` works on.

    ``blank`` is true for a missing or blank index, ``total`` counts its lines, ``candidates``
    are its first :data:`LINE_CAP` lines with likely credentials masked (I-8). It depends on the
    file's text alone, so a service may keep it per version of the file and skip the masking.
    Its hash is kept with it (``cache_hash``): :func:`assemble_memory` is memoised by it, and
    hashing some 200 lines again on every Session start was a few per cent of one.
    """

    blank: bool
    total: int
    candidates: tuple[str, ...]
    ends: tuple[int, ...]
    """``ends[i]``: the character cost of keeping the first ``i + 1`` candidates (rule 3)."""
    unread: Unread = (0, True)
    """Lines past the read cap of an over-large index, and whether that count is exact."""
    unreadable: str | None = None
    """Why an index that is there could not be read (Q-2b); it is then injected as a note."""
    uncreated: str | None = None
    """Why the scope's directory is not there: it could not be created (A-9); it is then
    injected as a note telling the model not to save into it."""


def unreadable_index(why: str) -> PreparedIndex:
    """The stand-in of an index that is there but cannot be read, ``why`` saying why (Q-2b):
    no line, and a note saying so where "nothing saved yet" would stand."""
    return PreparedIndex(blank=True, total=0, candidates=(), ends=(), unreadable=why)


def uncreated_index(why: str) -> PreparedIndex:
    """The stand-in of the index of a scope whose directory could not be created, ``why``
    saying why (A-9, K-5, K-6): no line, and a note telling the model not to save there."""
    return PreparedIndex(blank=True, total=0, candidates=(), ends=(), uncreated=why)


@functools.lru_cache(maxsize=4)
def prepare_index(raw: str | None, unread: Unread = (0, True)) -> PreparedIndex:
    """Split ``raw`` (None: the file is missing) into lines and mask the injectable ones (I-8);
    ``unread`` counts the lines past the read cap of an over-large index (T-5b).

    Memoised by content, the last few texts only: lint caps every Workspace index beside the
    same user index, which is thus masked once per overview, not once per scope."""
    head, total = _head_lines(raw or "", LINE_CAP)
    # Only what can be injected is masked: lines past the line cap never reach the model.
    # Hidden characters are shown escaped, never verbatim (I-9).
    candidates = tuple(show_hidden_lines(mask_secret_lines(head)))
    return PreparedIndex(
        blank=(raw is None or not raw or raw.isspace()) and not unread[0],
        total=total + unread[0],
        candidates=candidates,
        ends=tuple(itertools.accumulate(len(line) + 1 for line in candidates)),
        unread=unread,
    )


def _head_lines(text: str, count: int) -> tuple[list[str], int]:
    """The first ``count`` of :func:`~memory_core.index.index_lines` of ``text``, and how many
    lines it has in all: only the head is split, the rest is counted at C speed, so an index
    of thousands of lines costs what its injected part costs. Lines end as
    :func:`~memory_core.markdown.line_texts` says (LF, CRLF, a lone CR; never U+2028, ``\\f``
    or the like), so the line cap counts the lines the model sees (I-4)."""
    if text.count("\r") != text.count("\r\n"):  # a lone CR ends a line too: the full rule
        lines = line_texts(text)
        return lines[:count], len(lines)
    parts = text.split("\n", count)
    if len(parts) > count:  # the last part is the unsplit rest
        rest = parts.pop()
        total = count + rest.count("\n") + (0 if rest.endswith("\n") or not rest else 1)
    else:
        if parts[-1] == "":
            parts.pop()
        total = len(parts)
    return [part.removesuffix("\r") for part in parts], total


class _Scope:
    """Working state for one scope while the caps are applied."""

    def __init__(
        self, scope: str, raw: str | PreparedIndex | None, unread: Unread = (0, True)
    ) -> None:
        prepared = raw if isinstance(raw, PreparedIndex) else prepare_index(raw, unread)
        self.scope = scope
        self.blank = prepared.blank
        self.unreadable = prepared.unreadable
        self.uncreated = prepared.uncreated
        self.unread = prepared.unread
        self.total = prepared.total
        self.candidates = prepared.candidates
        self.ends = prepared.ends
        self.kept_count = len(self.candidates)
        self.used = self.ends[-1] if self.ends else 0

    def keep(self, count: int) -> None:
        """Keep the first ``count`` candidate lines."""
        self.kept_count, self.used = count, self.ends[count - 1] if count else 0


def _apply_char_cap(scopes: list[_Scope]) -> None:
    """Rule 3: the scopes that have lines share :data:`CHAR_CAP` (:func:`share_budget`)."""
    live = [scope for scope in scopes if not scope.blank]
    for scope, count in zip(live, share_budget([s.ends for s in live], CHAR_CAP), strict=True):
        scope.keep(count)


def _finish(state: _Scope, headroom_chars: int) -> CappedIndex:
    total = state.total
    kept = total if state.blank else state.kept_count
    cap: CapFired = "none"
    if kept < len(state.candidates) or (state.unread[0] and len(state.candidates) < LINE_CAP):
        cap = "chars"  # the character backstop, or the read cap: both limits of size
    elif kept < total:
        cap = "lines"
    lines_text, note_text = "", ""
    if state.uncreated is not None:
        note_text = uncreated_note(state.scope, state.uncreated)
    elif state.unreadable is not None:
        note_text = unreadable_note(state.scope, state.unreadable)
    elif state.blank:
        note_text = empty_note(state.scope)
    else:
        lines_text = "\n".join(state.candidates[:kept])
        if cap != "none":
            note = truncation_note(state.scope, total - kept, total, cap, unread=state.unread)
            note_text = f"\n\n{note}" if kept else note
    manifest = ScopeManifest(
        scope=state.scope,
        lines_total=total,
        lines_kept=kept,
        lines_dropped=total - kept,
        cap_fired=cap,
        headroom_lines=0 if cap != "none" else LINE_CAP - total,
        headroom_chars=0 if cap != "none" else headroom_chars,
        unreadable=state.unreadable,
        uncreated=state.uncreated,
    )
    return CappedIndex(
        scope=state.scope,
        text=lines_text + note_text,
        kept=range(1, kept + 1),
        dropped=range(kept + 1, total + 1),
        manifest=manifest,
        lines_text=lines_text,
        note_text=note_text,
    )


def cap_indexes(
    user_index: str | PreparedIndex | None,
    workspace_index: str | PreparedIndex | None,
    *,
    workspace_key: str | None,
    unread: tuple[Unread, Unread] = ((0, True), (0, True)),
) -> list[CappedIndex]:
    """Apply I-3, I-4 and I-8 to the user index and, with a key, the Workspace index.

    Each index is its text, or :func:`prepare_index` of it (the same answer, without masking
    again); ``None`` means the index file is missing. ``unread`` gives, per scope given as text,
    the lines past the 1 MiB read cap of an over-large index (T-5b): they count in the totals as
    left out (a prepared index carries its own). Returns the user scope first, then — only when
    ``workspace_key`` is given (a persistent Workspace) — the Workspace scope.
    ``headroom_chars`` in a manifest is what is left of :data:`CHAR_CAP` after both injected
    indexes (0 for a scope that was cut); ``headroom_lines`` what is left of :data:`LINE_CAP`
    for that scope.
    """
    scopes = [_Scope(USER_SCOPE, user_index, unread[0])]
    if workspace_key is not None:
        scopes.append(_Scope(workspace_key, workspace_index, unread[1]))
    _apply_char_cap(scopes)
    headroom = CHAR_CAP - sum(scope.used for scope in scopes if not scope.blank)
    return [_finish(scope, max(headroom, 0)) for scope in scopes]


def build_memory_text(
    prompt: str, workspace_prompt: str, user: CappedIndex, workspace: CappedIndex | None
) -> str:
    """Assemble what ``{{MEMORY}}`` expands to (I-1): :func:`memory_sections`, concatenated.

    ``prompt`` with ``{{MEMORY_USER_INDEX}}`` replaced by the user index, then — only with a
    Workspace scope — a blank line and ``workspace_prompt`` with ``{{MEMORY_INDEX}}`` replaced by
    the Workspace index. No other substitution: placeholder text inside an index (or a prompt
    holding the other scope's placeholder) is left as written, and each prompt is substituted in
    a single pass so inserted text is never expanded again.
    """
    return "".join(
        section.text for section in memory_sections(prompt, workspace_prompt, user, workspace)
    )


def memory_sections(
    prompt: str, workspace_prompt: str, user: CappedIndex, workspace: CappedIndex | None
) -> list[MemorySection]:
    """Split what ``{{MEMORY}}`` expands to into prompt text, index lines and notes (A-9, H-1).

    Concatenated in order, the sections are the text :func:`build_memory_text` returns: each
    prompt is cut at its placeholder, the scope's kept lines and its note go there (exactly
    once: at the first placeholder, or after a prompt that holds none, see
    :func:`_prompt_sections`), each prompt's text is stripped of leading and trailing line ends,
    and a blank line (a ``prompt`` section) parts the two prompts. Sections with no text are
    left out.
    """
    parts = [_prompt_sections(prompt, USER_INDEX_PLACEHOLDER, user)]
    if workspace is not None:
        parts.append(_prompt_sections(workspace_prompt, INDEX_PLACEHOLDER, workspace))
    sections: list[MemorySection] = []
    for part in (part for part in parts if part):
        if sections:
            sections.append(MemorySection(kind="prompt", scope=None, text="\n\n"))
        sections += part
    return sections


def _placement(prompt: str, placeholder: str) -> IndexPlacement:
    return "placeholder" if placeholder in prompt else "after-prompt"


def placed_manifests(
    prompt: str, workspace_prompt: str, user: CappedIndex, workspace: CappedIndex | None
) -> list[ScopeManifest]:
    """The manifests of ``user`` (and ``workspace``) as :func:`memory_sections` places their
    indexes in the text of these prompts: ``placement`` is ``"placeholder"`` or, for a prompt
    without its placeholder, ``"after-prompt"`` (I-1, A-9)."""
    placed = [
        msgspec.structs.replace(user.manifest, placement=_placement(prompt, USER_INDEX_PLACEHOLDER))
    ]
    if workspace is not None:
        where = _placement(workspace_prompt, INDEX_PLACEHOLDER)
        placed.append(msgspec.structs.replace(workspace.manifest, placement=where))
    return placed


class AssembledMemory(msgspec.Struct, frozen=True):
    """What ``{{MEMORY}}`` expands to for two prepared indexes and the agent's prompts (A-9):
    the ``text``, its ``sections`` (concatenated, the text) and the ``manifests`` of the user
    scope and, with a Workspace key, the Workspace scope."""

    text: str
    sections: tuple[MemorySection, ...]
    manifests: tuple[ScopeManifest, ...]


@functools.lru_cache(maxsize=32)
def assemble_memory(
    prompt: str,
    workspace_prompt: str,
    user: PreparedIndex,
    workspace: PreparedIndex,
    workspace_key: str | None,
) -> AssembledMemory:
    """:func:`cap_indexes`, :func:`memory_sections` and :func:`placed_manifests` in one, for
    the prompts and the indexes as prepared (:func:`prepare_index`); ``workspace`` is ignored
    without a ``workspace_key`` (no Workspace scope, I-1).

    Pure, and memoised by its arguments' content: a service that keeps each index's
    :class:`PreparedIndex` per file version answers repeat Session starts of unchanged files
    without capping again (and hands out the same ``text`` object, whose UTF-8 form Python
    keeps with it)."""
    capped = cap_indexes(user, workspace, workspace_key=workspace_key)
    workspace_index = capped[1] if len(capped) > 1 else None
    sections = memory_sections(prompt, workspace_prompt, capped[0], workspace_index)
    return AssembledMemory(
        text="".join(section.text for section in sections),
        sections=tuple(sections),
        manifests=tuple(placed_manifests(prompt, workspace_prompt, capped[0], workspace_index)),
    )


def _prompt_sections(prompt: str, placeholder: str, index: CappedIndex) -> list[MemorySection]:
    """One prompt with its index in place, as sections, stripped of outer line ends.

    The index goes exactly once: at the first placeholder (further ones are dropped), or, when
    the prompt holds none (stored before the rule of ``MEMORY_PROMPT_RULE``, or edited by
    hand), after the prompt and a blank line. Hidden characters of the prompt's own text are
    shown escaped (:func:`~memory_core.hidden_text.show_hidden`, I-9); a byte order mark at its
    start is left out (:func:`~memory_core.hidden_text.show_prompt`).
    """
    prompt = prompt.removeprefix(BYTE_ORDER_MARK)  # a file's encoding mark, never text (I-9)
    pieces = prompt.split(placeholder)
    if len(pieces) == 1:
        pieces = [prompt.rstrip("\n") + "\n\n", ""]
    elif len(pieces) > 2:
        pieces = [pieces[0], "".join(pieces[1:])]
    sections: list[MemorySection] = []
    for number, piece in enumerate(pieces):
        if number:
            sections.append(MemorySection(kind="index", scope=index.scope, text=index.lines_text))
            sections.append(MemorySection(kind="note", scope=index.scope, text=index.note_text))
        # an edited prompt reaches the model as a person sees it, as an index does (I-9)
        sections.append(MemorySection(kind="prompt", scope=None, text=show_hidden(piece)))
    _strip_line_ends(sections, leading=True)
    _strip_line_ends(sections, leading=False)
    return [section for section in sections if section.text]


def _strip_line_ends(sections: list[MemorySection], *, leading: bool) -> None:
    """Strip ``\\n`` from the start (or end) of the joined text, section by section, in place."""
    order = range(len(sections)) if leading else range(len(sections) - 1, -1, -1)
    for at in order:
        section = sections[at]
        text = section.text.lstrip("\n") if leading else section.text.rstrip("\n")
        sections[at] = MemorySection(kind=section.kind, scope=section.scope, text=text)
        if text:
            return
