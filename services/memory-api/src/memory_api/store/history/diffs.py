"""The difference between two versions of a file, as hunks and as unified diff text (V-2).

Pure: two texts in (either may be None: the file did not exist), the hunks out. The hunks come
from :class:`~memory_core.line_matching.PatienceMatcher` (``git diff --patience``'s matching,
at a bounded cost whatever the lines hold) with three lines of context, the way ``diff -u``
groups them; :func:`unified_text`
prints exactly those hunks, so the text and the structure never disagree. Line ends are not
part of a line's text (CRLF and LF read alike, T-2).

>>> hunks = diff_hunks("a\\nb\\nc\\n", "a\\nB\\nc\\n")
>>> [(line.kind, line.text) for line in hunks[0].lines]
[('context', 'a'), ('removed', 'b'), ('added', 'B'), ('context', 'c')]
>>> print(unified_text("x.md", hunks), end="")
--- a/x.md
+++ b/x.md
@@ -1,3 +1,3 @@
 a
-b
+B
 c
"""

from __future__ import annotations

from memory_core.line_matching import PatienceMatcher
from memory_core.wire import DiffHunk, DiffLine

__all__ = ["CONTEXT_LINES", "diff_hunks", "unified_text"]

CONTEXT_LINES = 3
"""Unchanged lines shown around each change."""


def _lines(text: str | None) -> list[str]:
    lines = [] if text is None else text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final line end ends the last line; it starts none
    return lines


def diff_hunks(old: str | None, new: str | None) -> list[DiffHunk]:
    """The hunks turning ``old`` into ``new`` (None: no file), numbered from 1 per side."""
    before, after = _lines(old), _lines(new)
    matcher = PatienceMatcher(None, before, after, autojunk=False)
    hunks: list[DiffHunk] = []
    for group in matcher.get_grouped_opcodes(CONTEXT_LINES):
        lines: list[DiffLine] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines.extend(
                    DiffLine(kind="context", text=before[i], old_number=i + 1, new_number=j + 1)
                    for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
                )
                continue
            lines.extend(
                DiffLine(kind="removed", text=before[i], old_number=i + 1, new_number=None)
                for i in range(i1, i2)
            )
            lines.extend(
                DiffLine(kind="added", text=after[j], old_number=None, new_number=j + 1)
                for j in range(j1, j2)
            )
        first, last = group[0], group[-1]
        hunks.append(
            DiffHunk(
                old_start=first[1] + 1 if last[2] > first[1] else first[1],
                old_lines=last[2] - first[1],
                new_start=first[3] + 1 if last[4] > first[3] else first[3],
                new_lines=last[4] - first[3],
                lines=lines,
            )
        )
    return hunks


def _range(start: int, count: int) -> str:
    return f"{start}" if count == 1 else f"{start},{count}"


def unified_text(name: str, hunks: list[DiffHunk], *, old: bool = True, new: bool = True) -> str:
    """``hunks`` printed as a unified diff of ``name`` (``/dev/null`` for a side that does not
    exist: ``old`` / ``new`` False); an empty string when there is no hunk."""
    if not hunks:
        return ""
    out = [
        f"--- {'a/' + name if old else '/dev/null'}\n",
        f"+++ {'b/' + name if new else '/dev/null'}\n",
    ]
    marks = {"context": " ", "added": "+", "removed": "-"}
    for hunk in hunks:
        out.append(
            f"@@ -{_range(hunk.old_start, hunk.old_lines)} "
            f"+{_range(hunk.new_start, hunk.new_lines)} @@\n"
        )
        out.extend(f"{marks[line.kind]}{line.text}\n" for line in hunk.lines)
    return "".join(out)
