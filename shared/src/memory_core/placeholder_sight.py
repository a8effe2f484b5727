"""Whether a memory prompt's index placeholder stands where a person reading it sees it (I-1, I-5).

A prompt is Markdown: the Memory tab and the prompt editor's preview render it. An index put
inside an HTML comment (``<!-- {{MEMORY_USER_INDEX}} -->``, or after a ``<!--`` never closed)
reaches the model whole while the person reading the prompt sees nothing of it, the gap I-9
closes for hidden characters; one put in a code block (a fence, or indented four columns) reads
as a code sample, its links and headings not Markdown any more, and a line of the index holding
a fence would end the block. Both are refused on save (422), as every other placeholder fault.
"""

from __future__ import annotations

from memory_core.markdown import code_lines

__all__ = ["placeholder_out_of_sight"]

_OPEN, _CLOSE = "<!--", "-->"


def placeholder_out_of_sight(prompt: str, placeholder: str) -> str | None:
    """Why the first ``placeholder`` of ``prompt`` stands out of a reader's sight (line
    numbers from 1), or None when it does not (or is not there: another rule names that).
    Linear in the prompt.

    >>> placeholder_out_of_sight("# M\\n<!-- {{X}} -->\\n", "{{X}}")[:55]
    'it holds {{X}} inside an HTML comment opened on line 2:'
    >>> placeholder_out_of_sight("# M\\n{{X}}\\n<!-- note -->\\n", "{{X}}") is None
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
    opened = prompt.rfind(_OPEN, 0, at)
    while opened >= 0 and code[prompt.count("\n", 0, opened)]:  # no comment in a code block
        opened = prompt.rfind(_OPEN, 0, opened)
    if opened >= 0 and prompt.find(_CLOSE, opened + len(_OPEN), at) < 0:
        return (
            f"it holds {placeholder} inside an HTML comment opened on line "
            f"{prompt.count(chr(10), 0, opened) + 1}: the model would be given the index "
            "while a person reading the prompt sees none of it; put it outside the comment"
        )
    return None
