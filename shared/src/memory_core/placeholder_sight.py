"""Whether a memory prompt's index placeholder stands where a person reading it sees it (I-1, I-5).

A prompt is Markdown: the Memory tab renders it (the prompt editor is a plain textarea, no
preview). An index put inside an HTML comment (``<!-- {{MEMORY_USER_INDEX}} -->``, or after a
``<!--`` opening an HTML block never closed) reaches the model whole while a person reading the
prompt rendered, or the model reading it as Markdown, takes it for a note left out: the gap I-9
closes for hidden characters. One put in a code block (a fence, or indented four columns) reads
as a code sample, its links and headings not Markdown any more, and a line of the index holding
a fence would end the block. Both are refused on save (422), as every other placeholder fault,
and named in ``promptWarnings`` for a prompt stored by hand.

A comment is one as CommonMark reads it: an HTML block, a line starting (up to three spaces in)
with ``<!--``, running to the first line holding ``-->`` (to the end if none); or an inline
comment in a paragraph, ``<!--`` to the next ``-->`` in the same paragraph (``<!-->`` and
``<!--->`` are complete, empty), not inside a code span and not escaped (``\\<!--``). A
``<!--`` never closed in its paragraph is text a reader sees. Block quotes and list items are
read as paragraphs.
"""

from __future__ import annotations

import re

from memory_core.markdown import code_lines

__all__ = ["placeholder_out_of_sight"]

_BLOCK_OPEN = re.compile(r" {0,3}<!--")
_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_INLINE = re.compile(r"\\[!-/:-@\[-`{-~]|`+|<!--(?:-?>)?")
"""An escape, a backtick run, or a comment's opener (a complete empty one ``<!-->``)."""
_TICKS = re.compile(r"`+")


def placeholder_out_of_sight(prompt: str, placeholder: str) -> str | None:
    """Why the first ``placeholder`` of ``prompt`` stands out of a reader's sight (line
    numbers from 1), or None when it does not (or is not there: another rule names that).
    Linear in the prompt.

    >>> placeholder_out_of_sight("# M\\n<!-- {{X}} -->\\n", "{{X}}")[:55]
    'it holds {{X}} inside an HTML comment opened on line 2:'
    >>> placeholder_out_of_sight("# M\\nNo `<!--` here.\\n{{X}}\\n", "{{X}}") is None
    True
    """
    at = prompt.find(placeholder)
    if at < 0:
        return None
    lines = prompt.split("\n")
    code = code_lines(lines)
    line = prompt.count("\n", 0, at)
    if code[line]:
        return (
            f"it holds {placeholder} in a code block (line {line + 1}): the index would read "
            "as a code sample, not as Markdown, and a fence in it would end the block; put "
            "it outside the block"
        )
    opened = _comment_opened(prompt, lines, code, at)
    if opened is not None:
        return (
            f"it holds {placeholder} inside an HTML comment opened on line {opened + 1}: the "
            "model would be given the index while a person reading the prompt sees none of "
            "it; put it outside the comment"
        )
    return None


def _comment_opened(prompt: str, lines: list[str], code: list[bool], at: int) -> int | None:
    """The line (from 0) of the HTML comment holding character ``at`` of ``prompt`` (not in
    code), or None. ``lines`` is ``prompt`` split at ``\\n``, ``code`` its code lines."""
    target = prompt.count("\n", 0, at)
    block: int | None = None  # the line an HTML block comment opened on, while open
    paragraph = 0  # the first line of the paragraph going on
    offset = 0  # where line ``number`` starts in ``prompt``
    for number, text in enumerate(lines[: target + 1]):
        close_from = 0
        if block is None and not code[number] and _BLOCK_OPEN.match(text):
            block, close_from = number, text.index("<!--") + 4
            close_from -= 2  # ``<!-->`` holds ``-->``: CommonMark ends the block there too
        if block is not None:
            closed = text.find("-->", close_from)
            if number == target and (closed < 0 or offset + closed + 3 > at):
                return block
            if closed >= 0:
                block = None
            paragraph = number + 1
        elif code[number] or not text.strip() or _HEADING.match(text):
            paragraph = number + 1
        offset += len(text) + 1
    end = target + 1
    if _HEADING.match(lines[target]):  # a heading is a block of its own line
        paragraph = target
    else:
        while end < len(lines) and _continues(lines[end], code[end]):
            end += 1
    start = sum(len(text) + 1 for text in lines[:paragraph])
    return _inline_comment(prompt, start, start + len("\n".join(lines[paragraph:end])), at)


def _continues(text: str, code: bool) -> bool:
    """Whether a line after the placeholder's goes on with its paragraph."""
    return not (code or not text.strip() or _HEADING.match(text) or _BLOCK_OPEN.match(text))


def _inline_comment(prompt: str, start: int, end: int, at: int) -> int | None:
    """The line of the inline comment of paragraph ``prompt[start:end]`` holding ``at``, or
    None: read left to right, a code span or an escape first where it starts first. Linear:
    each backtick run's closer is looked up in one table of the paragraph's runs."""
    runs: dict[int, list[int]] = {}  # run length → where such runs start, in order
    for run in _TICKS.finditer(prompt, start, end):
        runs.setdefault(len(run.group()), []).append(run.start())
    next_run = dict.fromkeys(runs, 0)
    position = start
    while position <= at:
        token = _INLINE.search(prompt, position, end)
        if token is None or token.start() > at:
            return None
        found = token.group()
        position = token.end()
        if found.startswith("`"):
            starts, index = runs[len(found)], next_run[len(found)]
            while index < len(starts) and starts[index] <= token.start():
                index += 1
            next_run[len(found)] = index
            if index < len(starts):  # a code span: skip it whole
                position = starts[index] + len(found)
                next_run[len(found)] = index + 1
        elif found == "<!--":
            closed = prompt.find("-->", position, end)
            if closed >= 0:
                if closed + 3 > at:
                    return prompt.count("\n", 0, token.start())
                position = closed + 3
    return None
