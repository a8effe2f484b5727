"""Deliver the system prompt through a harness's Session-start channels, whole where it fits (H-1).

A harness shows the model at most ``piece_limit`` units of each piece of Session-start context
and takes up to ``pieces`` pieces (Claude Code: 10,000 UTF-16 code units per hook entry, one
piece per configured entry). :func:`fit` packs the prompt's lines into pieces in order, never
splitting a line. When the pieces cannot carry everything:

1. index lines are left out with the one cut of the caps (:func:`memory_core.caps.share_budget`,
   I-4) at the room the pieces leave for them, in the harness's own units: each scope may keep
   up to half, a scope needing less hands the rest to the other, each keeps a prefix of its
   lines. The scope's note is restated with the total left out, naming the caps that fired on
   the service and the harness's own limit (:func:`memory_core.caps.truncation_note`); the key
   line and the rest of the template always stay;
2. only when no index line is left does the memory's instruction text lose lines from its end,
   with a note saying so;
3. as a last resort the pieces that fit are delivered and ``complete`` is False.

The caller tells the user whenever :attr:`Delivery.cuts` is non-empty or ``complete`` is False.
With more than one piece, each is wrapped in a ``<memory-context part="k" of="n">`` element,
because a harness may deliver the pieces in any order (Claude Code runs hooks in parallel).
Harness-neutral: the harness supplies :class:`HarnessLimits`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import msgspec
from memory_core.caps import share_budget, truncation_note
from memory_core.markdown import line_texts, lines_with_ends
from memory_core.wire import ScopeManifest

from harness_memory.sections import PromptSection, joined

__all__ = ["Delivery", "HarnessLimits", "ScopeCut", "fit", "utf16_units", "wrap"]

PIECE_OPEN = '<memory-context part="{part}" of="{parts}" order="read the parts by number">\n'
PIECE_CLOSE = "\n</memory-context>"


def utf16_units(text: str) -> int:
    """Length of ``text`` in UTF-16 code units: how JavaScript harnesses measure strings.

    Every code point is one unit but those past U+FFFF, which take two (a surrogate pair); a
    lone surrogate counts one.
    """
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class HarnessLimits(msgspec.Struct, frozen=True):
    """What one harness carries: ``pieces`` pieces of at most ``piece_limit`` units each.

    ``measure`` gives a text's size in the harness's units (code points, UTF-16 code units,
    Codex tokens: additive, so the size of a joined text is about the sum of its parts');
    ``limit_text`` names the limit in a truncation note ("Claude Code's limit of 10,000
    characters per SessionStart hook").
    """

    piece_limit: int
    pieces: int
    limit_text: str
    measure: Callable[[str], int] = utf16_units


class ScopeCut(msgspec.Struct, frozen=True):
    """One scope the harness cut further: ``kept`` of the index's ``total`` lines arrive."""

    scope: str
    kept: int
    total: int


class Delivery(msgspec.Struct, frozen=True):
    """What :func:`fit` delivers.

    ``pieces`` are ready to hand to the harness, in part order, each within the piece limit;
    ``text`` is the prompt they carry (after any cut, without the part wrappers); ``cuts`` the
    scopes whose index lost lines here; ``prompt_lines_cut`` how many lines of instruction text
    were left out; ``complete`` is False when even that was not enough and pieces are missing.
    """

    pieces: list[str]
    text: str
    cuts: list[ScopeCut] = msgspec.field(default_factory=list)
    prompt_lines_cut: int = 0
    complete: bool = True


def wrap(body: str, part: int, parts: int) -> str:
    """One piece of a multi-piece delivery: the body inside its part element."""
    return PIECE_OPEN.format(part=part, parts=parts) + body + PIECE_CLOSE


def fit(
    sections: Sequence[PromptSection],
    manifests: Sequence[ScopeManifest],
    limits: HarnessLimits,
) -> Delivery:
    """Pack ``sections`` into at most ``limits.pieces`` pieces, cutting as the module says.

    ``manifests`` are the service's per-scope manifests (A-9), user first: their totals and
    caps go into a restated note. The text is rendered once when it fits; a cut renders it a
    few times, each round leaving out at least what the text is over the room. Raises
    ``ValueError`` when ``limits`` allows no room for text.
    """
    cutter = _Cutter(sections, manifests, limits)
    room = _room(limits)
    while True:
        text = joined(cutter.render())
        pieces = _pieces(text, limits)
        if pieces is not None:
            return Delivery(pieces, text, cutter.cuts(), cutter.prompt_cut)
        excess = limits.measure(text) - room
        if not cutter.shrink_indexes(excess) and not cutter.drop_prompt_line():
            return _last_resort(text, cutter, limits)


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
    for line in lines_with_ends(text):
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


def _last_resort(text: str, cutter: _Cutter, limits: HarnessLimits) -> Delivery:
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
    return Delivery(pieces, "".join(bodies), cutter.cuts(), cutter.prompt_cut, complete=False)


class _Cutter:
    """The sections with how many index lines of each scope (and prompt lines) still go in."""

    def __init__(
        self,
        sections: Sequence[PromptSection],
        manifests: Sequence[ScopeManifest],
        limits: HarnessLimits,
    ) -> None:
        self.sections = list(sections)
        self.limits = limits
        self.manifests = {manifest.scope: manifest for manifest in manifests}
        self.lines: dict[str, list[str]] = {scope: [] for scope in self.manifests}
        self.ends: dict[str, list[int]] = {}
        occurrences = dict.fromkeys(self.manifests, 0)
        for section in self.sections:
            if section.kind == "index" and section.scope in self.manifests:
                # at "\n", a trailing one too: the service sends its index lines joined by "\n"
                # (a lone CR shown as a mark, I-9); U+2028 and the like stay inside a line
                self.lines[section.scope] = section.text.split("\n")
                occurrences[section.scope] += 1
        newline = limits.measure("\n")
        for scope, lines in self.lines.items():
            # What keeping the first k lines costs, in every place the scope's index stands.
            costs = ((limits.measure(line) + newline) * occurrences[scope] for line in lines)
            self.ends[scope] = list(itertools.accumulate(costs))
        self.kept = {scope: len(lines) for scope, lines in self.lines.items()}
        self.prompt_cut = 0
        self.prompt_lines = sum(len(line_texts(s.text)) for s in sections if s.kind == "prompt")

    def cuts(self) -> list[ScopeCut]:
        """The scopes cut here, with the lines that still arrive out of the index's total."""
        return [
            ScopeCut(scope, self._kept_total(scope), self.manifests[scope].lines_total)
            for scope in self.manifests
            if self._left_out(scope)
        ]

    def _left_out(self, scope: str) -> int:
        return len(self.lines[scope]) - self.kept[scope]

    def _kept_total(self, scope: str) -> int:
        return max(self.manifests[scope].lines_kept - self._left_out(scope), 0)

    def shrink_indexes(self, excess: int) -> bool:
        """Cut the indexes to what they use now less ``excess`` units (at least one), with
        :func:`~memory_core.caps.share_budget`; False if no index line is left to cut.

        ``excess`` is a lower bound of what the text must lose to fit, so no line is left out
        that a cut at the exact room would keep.
        """
        used = sum(self.ends[scope][count - 1] for scope, count in self.kept.items() if count)
        if not used:
            return False
        scopes = list(self.kept)
        budget = used - max(excess, 1)
        self.kept = dict(
            zip(scopes, share_budget([self.ends[s] for s in scopes], budget), strict=True)
        )
        return True

    def drop_prompt_line(self) -> bool:
        """Leave out one more line of instruction text from the end; False if none is left."""
        if self.prompt_cut >= self.prompt_lines:
            return False
        self.prompt_cut += 1
        return True

    def render(self) -> list[PromptSection]:
        """The sections with the current cuts applied and the cut scopes' notes restated."""
        out: list[PromptSection] = []
        for section in self.sections:
            scope = section.scope
            if scope is None or scope not in self.kept or not self._left_out(scope):
                out.append(section)
            elif section.kind == "index":  # a cut scope's own note is replaced by the restated one
                out += self._cut_index(scope)
        return self._cut_prompt(out)

    def _cut_index(self, scope: str) -> list[PromptSection]:
        manifest = self.manifests[scope]
        kept = self._kept_total(scope)
        note = truncation_note(
            scope,
            manifest.lines_total - kept,
            manifest.lines_total,
            manifest.cap_fired,
            harness_limit=self.limits.limit_text,
            harness_left_out=manifest.lines_kept - kept,
        )
        if not self.kept[scope]:
            return [PromptSection(kind="note", text=note, scope=scope)]
        return [
            PromptSection(
                kind="index", text="\n".join(self.lines[scope][: self.kept[scope]]), scope=scope
            ),
            PromptSection(kind="note", text="\n\n" + note, scope=scope),
        ]

    def _cut_prompt(self, sections: list[PromptSection]) -> list[PromptSection]:
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
            lines = lines_with_ends(out[at].text)
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
