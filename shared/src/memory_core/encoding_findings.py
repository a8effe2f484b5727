"""What lint says of a file whose bytes were read though not valid in its encoding (T-2, T-5).

:func:`~memory_core.decoding.decode_text` never raises: bytes that are not UTF-8 are read as
cp1252 (or line by line in a mostly UTF-8 file), and bytes not valid in a UTF-16 or
UTF-32 file as U+FFFD. What the model is shown may then not be what was written, so the
lint code ``invalid-encoding`` names the lines and byte offsets its ``encoding`` problem
gives, and the fix.

>>> not_utf8_notes("MEMORY.md", [
...     "encoding: not valid UTF-8 (byte 0xe9 at offset 14, line 2); read as cp1252"])[0][0]
2
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable

from memory_core.decoding import (
    MIXED_READING,
    NOT_UTF8,
    REPLACED,
    UNDEFINED_BYTES,
    UNMARKED_UTF16,
)

__all__ = ["not_utf8_notes"]

_FIRST_LINE = re.compile(r", line (\d+)")


def not_utf8_notes(file: str, problems: Iterable[str]) -> list[tuple[int | None, str]]:
    """``(line, message)`` of the ``invalid-encoding`` finding of ``file`` for each of its
    ``encoding`` problems (:func:`~memory_core.decoding.decode_text`) that says bytes were read
    though not valid in its encoding: ``line`` is the first line holding such bytes (1-based,
    None when the problem names none); ``message`` names each line and byte offset the problem
    names, how the bytes were read, and the fix. Other problems give nothing."""
    notes: list[tuple[int | None, str]] = []
    for problem in problems:
        if not problem.startswith(NOT_UTF8) and REPLACED not in problem:
            continue
        found = _FIRST_LINE.search(problem)
        line = int(found.group(1)) if found is not None else None
        what = problem.removeprefix("encoding: ")
        notes.append((line, f"{file} is {what}; {_fix(file, problem)}"))
    return notes


def _fix(file: str, problem: str) -> str:
    """The fix for ``problem``: what the model is shown, and how to make the file UTF-8."""
    shown = "what is listed, searched and injected from those lines may not be what was written"
    quoted = shlex.quote(file)
    if REPLACED in problem:
        return (
            f"{shown}, and those bytes are lost to every reader: restore the file from its "
            "history or a backup, or retype those lines, and save it as UTF-8"
        )
    if f"{MIXED_READING}, every other line" in problem:
        return (
            f"{shown}: retype the characters at those offsets and save the file as UTF-8 "
            "(converting the whole file would garble its UTF-8 lines)"
        )
    if UNMARKED_UTF16 in problem:  # no 8-bit encoding to convert from
        return (
            f"{shown}: open the file in an editor as UTF-16 in the byte order named and save it "
            "as UTF-8 (with no byte order mark the encoding cannot be told for sure, so no "
            "conversion command is given)"
        )
    if ", but " in problem:  # a legacy encoding named, with its iconv command
        return f"{shown}: convert the file to UTF-8 as that says"
    if UNDEFINED_BYTES in problem:  # iconv -f CP1252 refuses the bytes cp1252 does not define
        return (
            f"{shown}: remove or retype the bytes cp1252 does not define (0x81 0x8d 0x8f 0x90 "
            f"0x9d) on the lines named, then save the file as UTF-8 (iconv -f CP1252 "
            f"-t UTF-8 {quoted} > {quoted}.new && mv {quoted}.new {quoted})"
        )
    return (
        f"{shown}: if the page shows those lines as written, save the file as UTF-8 "
        f"(iconv -f CP1252 -t UTF-8 {quoted} > {quoted}.new && mv {quoted}.new {quoted}); "
        "else retype the characters at those offsets and save it as UTF-8"
    )
