"""Deliver the system prompt through a harness's Session-start channels, whole where it fits (H-1).

A harness shows the model at most ``piece_limit`` units of each piece of Session-start context
and takes up to ``pieces`` pieces (Claude Code: 10,000 UTF-16 code units per hook entry, one
piece per configured entry). :func:`fit` packs the prompt's lines into pieces in order, never
splitting a line. When the pieces cannot carry everything:

1. index lines are left out from the end of the larger remaining index first (so one huge index
   never starves the other, as in I-4), and the scope's note is restated with the total left out,
   naming the caps that fired on the service and the harness's own limit
   (``memory_core.cap_notes.truncation_note``); the key line and the rest of the template always
   stay;
2. only when no index line is left does the memory's instruction text lose lines from its end,
   with a note saying so;
3. as a last resort the pieces that fit are delivered and ``complete`` is False.

The caller tells the user whenever :attr:`Delivery.cuts` is non-empty or ``complete`` is False.
With more than one piece, each is wrapped in a ``<memory-context part="k" of="n">`` element,
because a harness may deliver the pieces in any order (Claude Code runs hooks in parallel).

Harness-neutral: the harness supplies :class:`HarnessLimits`. A Session-start hook process
fits its prompt with this module, so it loads neither msgspec nor ``typing`` (H-5); the common
case, a prompt that fits, is one render and one pass over its lines. A cut leaves out, before
rendering again, as many lines as the text must lose at the least, so it renders a few times
rather than once per line left out (the lines left out are the same).
"""

from __future__ import annotations

from harness_memory.frozen import Frozen
from harness_memory.sections import PromptSection, joined

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Protocol

    from memory_core.wire import CapFired

    from harness_memory.sections import SectionLike

    class ManifestLike(Protocol):
        """What fitting reads of a scope's manifest (``memory_core.wire.ScopeManifest``, A-9)."""

        @property
        def scope(self) -> str: ...
        @property
        def lines_total(self) -> int: ...
        @property
        def lines_kept(self) -> int: ...
        @property
        def cap_fired(self) -> CapFired: ...


__all__ = ["Delivery", "HarnessLimits", "ScopeCut", "fit", "utf16_units", "wrap"]

PIECE_OPEN = '<memory-context part="{part}" of="{parts}" order="read the parts by number">\n'
PIECE_CLOSE = "\n</memory-context>"


_BELOW_F0 = bytes(range(0xF0))


def utf16_units(text: str) -> int:
    """Length of ``text`` in UTF-16 code units: how JavaScript harnesses measure strings.

    Every code point is one unit but those past U+FFFF, which take two (a surrogate pair): in
    UTF-8 exactly those start with a byte from 0xF0, so they are counted there. (UTF-8, unlike
    the ``utf-16-le`` codec, needs no codec module loaded: H-5.) A lone surrogate counts one.
    """
    if text.isascii():
        return len(text)
    return len(text) + len(text.encode("utf-8", "surrogatepass").translate(None, _BELOW_F0))


class HarnessLimits(Frozen):
    """What one harness carries: ``pieces`` pieces of at most ``piece_limit`` units each.

    ``measure`` gives a text's size in the harness's units (code points or UTF-16 code units:
    additive, the size of a joined text is the sum of its parts'); ``limit_text`` names the
    limit in a truncation note ("Claude Code's limit of 10,000 characters per hook").
    """

    __slots__ = ("limit_text", "measure", "piece_limit", "pieces")
    piece_limit: int
    pieces: int
    limit_text: str
    measure: Callable[[str], int]

    def __init__(
        self,
        piece_limit: int,
        pieces: int,
        limit_text: str,
        measure: Callable[[str], int] = utf16_units,
    ) -> None:
        self._set(piece_limit=piece_limit, pieces=pieces, limit_text=limit_text, measure=measure)


class ScopeCut(Frozen):
    """One scope the harness cut further: ``kept`` of the index's ``total`` lines arrive."""

    __slots__ = ("kept", "scope", "total")
    scope: str
    kept: int
    total: int

    def __init__(self, scope: str, kept: int, total: int) -> None:
        self._set(scope=scope, kept=kept, total=total)


class Delivery(Frozen):
    """What :func:`fit` delivers.

    ``pieces`` are ready to hand to the harness, in part order, each within the piece limit;
    ``text`` is the prompt they carry (after any cut, without the part wrappers); ``cuts`` the
    scopes whose index lost lines here; ``prompt_lines_cut`` how many lines of instruction text
    were left out; ``complete`` is False when even that was not enough and pieces are missing.
    """

    __slots__ = ("complete", "cuts", "pieces", "prompt_lines_cut", "text")
    pieces: list[str]
    text: str
    cuts: list[ScopeCut]
    prompt_lines_cut: int
    complete: bool

    def __init__(
        self,
        pieces: list[str],
        text: str,
        cuts: list[ScopeCut] | None = None,
        prompt_lines_cut: int = 0,
        complete: bool = True,
    ) -> None:
        self._set(
            pieces=pieces,
            text=text,
            cuts=[] if cuts is None else cuts,
            prompt_lines_cut=prompt_lines_cut,
            complete=complete,
        )


def wrap(body: str, part: int, parts: int) -> str:
    """One piece of a multi-piece delivery: the body inside its part element."""
    return PIECE_OPEN.format(part=part, parts=parts) + body + PIECE_CLOSE


def fit(
    sections: Sequence[SectionLike], manifests: Sequence[ManifestLike], limits: HarnessLimits
) -> Delivery:
    """Pack ``sections`` into at most ``limits.pieces`` pieces, cutting as the module says.

    ``manifests`` are the service's per-scope manifests (A-9): their totals and caps go into a
    restated note. Raises ``ValueError`` when ``limits`` allows no room for text.
    """
    state = _Cutter(list(sections), manifests, limits)
    room = _room(limits)
    while True:
        text = state.render()
        pieces = _pieces(text, limits)
        if pieces is not None:
            return Delivery(pieces, text, state.cuts(), state.prompt_cut)
        excess = limits.measure(text) - room - _NOTE_SLACK * len(state.manifests)
        if not state.drop_index_lines(excess) and not state.drop_prompt_line():
            return _last_resort(text, state, limits)


_NOTE_SLACK = 32
"""Units a scope's restated note may shrink by as lines drop (its counts lose digits)."""


def _room(limits: HarnessLimits) -> int:
    """The most units a text that fits can measure: what it must shrink to, at the least.

    Multi-piece bodies are joined by line ends, so ``pieces`` bodies of at most the capacity
    make a text of at most ``pieces * (capacity + 1)``.
    """
    if limits.pieces < 2:
        return limits.piece_limit
    return max(limits.piece_limit, limits.pieces * (_capacity(limits) + 1))


def _pieces(text: str, limits: HarnessLimits) -> list[str] | None:
    """The pieces for ``text`` if they fit the limits, else None."""
    if not text:
        return []
    if limits.measure(text) <= limits.piece_limit:
        return [text]
    if limits.pieces < 2:
        return None
    bodies = _pack(text, _capacity(limits), limits.measure)
    if bodies is None or len(bodies) > limits.pieces:
        return None
    return [wrap(body, number, len(bodies)) for number, body in enumerate(bodies, 1)]


def _capacity(limits: HarnessLimits) -> int:
    """Units left for a piece's body once its part element (largest numbers) is paid for."""
    wrapper = limits.measure(wrap("", limits.pieces, limits.pieces))
    capacity = limits.piece_limit - wrapper
    if capacity <= 0:
        raise ValueError(f"a piece limit of {limits.piece_limit} leaves no room for text")
    return capacity


def _pack(text: str, capacity: int, measure: Callable[[str], int]) -> list[str] | None:
    """Split ``text`` at line ends into bodies of at most ``capacity``; None if a line is larger.

    A body's cost counts the line end that parts it from the next body (it is dropped from the
    body itself; the last body keeps its own), so ``"\\n".join(bodies) == text``.
    """
    bodies: list[str] = []
    current: list[str] = []
    used = 0
    for line in text.splitlines(keepends=True):
        cost = measure(line)
        if cost > capacity:
            return None
        if used + cost > capacity:
            bodies.append(_body(current))
            current, used = [], 0
        current.append(line)
        used += cost
    if current:
        bodies.append("".join(current))
    return bodies


def _body(lines: list[str]) -> str:
    body = "".join(lines)
    return body[:-1] if body.endswith("\n") else body


def _last_resort(text: str, state: _Cutter, limits: HarnessLimits) -> Delivery:
    """Deliver the first pieces that fit; lines larger than a piece are cut inside."""
    capacity = _capacity(limits) if limits.pieces > 1 else limits.piece_limit
    bodies: list[str] = []
    current: list[str] = []
    used = 0
    for char in text:
        cost = limits.measure(char)
        if used + cost > capacity:
            bodies.append("".join(current))
            current, used = [], 0
            if len(bodies) == limits.pieces:
                break
        current.append(char)
        used += cost
    else:
        bodies.append("".join(current))
    bodies = bodies[: limits.pieces]
    pieces = (
        bodies
        if limits.pieces == 1
        else [wrap(body, number, len(bodies)) for number, body in enumerate(bodies, 1)]
    )
    return Delivery(pieces, "".join(bodies), state.cuts(), state.prompt_cut, complete=False)


class _Cutter:
    """The sections with how many index lines of each scope (and prompt lines) still go in."""

    def __init__(
        self,
        sections: list[SectionLike],
        manifests: Sequence[ManifestLike],
        limits: HarnessLimits,
    ) -> None:
        self.sections = sections
        self.limits = limits
        self.manifests = {manifest.scope: manifest for manifest in manifests}
        self.lines = {
            scope: max(
                (
                    s.text.count("\n") + 1
                    for s in sections
                    if s.kind == "index" and s.scope == scope
                ),
                default=0,
            )
            for scope in self.manifests
        }
        self.index_lines = [(s.scope, s.text.split("\n")) for s in sections if s.kind == "index"]
        self._sizes = [(owner, self._prefix_sizes(lines)) for owner, lines in self.index_lines]
        self.dropped = dict.fromkeys(self.manifests, 0)
        self.prompt_cut = 0
        self.prompt_lines = sum(len(s.text.splitlines()) for s in sections if s.kind == "prompt")

    def cuts(self) -> list[ScopeCut]:
        """The scopes cut here, with the lines that still arrive out of the index's total."""
        return [
            ScopeCut(
                scope, self.manifests[scope].lines_kept - dropped, self.manifests[scope].lines_total
            )
            for scope, dropped in self.dropped.items()
            if dropped
        ]

    def drop_index_lines(self, excess: int) -> bool:
        """Leave out index lines one by one, each the last line of the largest index still
        carrying lines, until the indexes have shrunk by ``excess`` units (at least one line).

        The caller's ``excess`` is a lower bound of what the text must lose to fit, so no line
        is left out that a check after each single line would have kept; the text is rendered
        once for all of them instead of once per line. False if no index line is left.
        """
        size = {scope: self._index_size(scope) for scope in self.manifests}
        removed = 0
        while True:
            candidates = [
                scope for scope in self.manifests if self.lines[scope] - self.dropped[scope] > 0
            ]
            if not candidates:
                return removed > 0
            scope = max(candidates, key=lambda name: size[name])
            self.dropped[scope] += 1
            smaller = self._index_size(scope)
            removed += max(size[scope] - smaller, 1)
            size[scope] = smaller
            if removed >= excess:
                return True

    def _prefix_sizes(self, lines: list[str]) -> list[int]:
        """``sizes[k]``: the units of the first ``k`` lines joined by ``\n``, for every ``k``.

        A measure counts code units, so the size of a joined text is the sum of its parts': each
        line is measured once, and leaving out lines costs a look-up, not a re-measure.
        """
        newline = self.limits.measure("\n")
        sizes = [0]
        for line in lines:
            sizes.append(sizes[-1] + self.limits.measure(line) + (newline if len(sizes) > 1 else 0))
        return sizes

    def _index_size(self, scope: str) -> int:
        """Units of ``scope``'s index lines as :meth:`render_sections` gives them now."""
        dropped = self.dropped[scope]
        return sum(
            sizes[max(len(sizes) - 1 - dropped, 0)]
            for owner, sizes in self._sizes
            if owner == scope
        )

    def drop_prompt_line(self) -> bool:
        """Leave out one more line of instruction text from the end; False if none is left."""
        if self.prompt_cut >= self.prompt_lines:
            return False
        self.prompt_cut += 1
        return True

    def render(self) -> str:
        return joined(self.render_sections())

    def render_sections(self) -> list[SectionLike]:
        """The sections with the current cuts applied and the cut scopes' notes restated."""
        out: list[SectionLike] = []
        for section in self.sections:
            scope = section.scope
            if scope is None or scope not in self.dropped or not self.dropped[scope]:
                out.append(section)
            elif section.kind == "index":
                out += self._cut_index(section, scope)
        return self._cut_prompt(out)

    def _cut_index(self, section: SectionLike, scope: str) -> list[SectionLike]:
        # Only a cut needs the note's wording (a module without msgspec, H-5).
        from memory_core.cap_notes import truncation_note

        lines = section.text.split("\n")
        keep = lines[: max(len(lines) - self.dropped[scope], 0)]
        manifest = self.manifests[scope]
        kept = max(manifest.lines_kept - self.dropped[scope], 0)
        note = truncation_note(
            scope,
            manifest.lines_total - kept,
            manifest.lines_total,
            manifest.cap_fired,
            harness_limit=self.limits.limit_text,
            harness_left_out=manifest.lines_kept - kept,
        )
        if not keep:
            return [PromptSection(kind="note", text=note, scope=scope)]
        return [
            PromptSection(kind="index", text="\n".join(keep), scope=scope),
            PromptSection(kind="note", text="\n\n" + note, scope=scope),
        ]

    def _cut_prompt(self, sections: list[SectionLike]) -> list[SectionLike]:
        """Leave out the last :attr:`prompt_cut` lines of instruction text, with a note."""
        left = self.prompt_cut
        if not left:
            return sections
        out = list(sections)
        for at in range(len(out) - 1, -1, -1):
            if left == 0:
                break
            if out[at].kind != "prompt":
                continue
            lines = out[at].text.splitlines(keepends=True)
            take = min(left, len(lines))
            left -= take
            out[at] = PromptSection(kind="prompt", text="".join(lines[: len(lines) - take]))
        note = (
            f"(Truncated: {self.prompt_cut} lines of the memory instructions were left out "
            f"because of {self.limits.limit_text}.)\n"
        )
        last = max(at for at, s in enumerate(out) if s.kind in {"prompt", "index", "note"})
        out.insert(last + 1, PromptSection(kind="note", text="\n" + note))
        return out
