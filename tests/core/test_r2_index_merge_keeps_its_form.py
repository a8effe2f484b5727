"""R-2, A-6: any two edits of one index in one form merge into an index in that form.

Whatever the form (UTF-8, UTF-16 or UTF-32, each with and without its byte order mark, lines
ending in CR, CRLF or LF) and whatever the two sides did (kept, removed or added lines, emptied
the file), the merged index reads back in that very form, every line added on either side in
it exactly once (:func:`memory_core.line_merge.merge_lines`, which the scope merge and the
delete's pruning race both use).
"""

from __future__ import annotations

import codecs

from hypothesis import given, settings
from hypothesis import strategies as st
from memory_core.line_merge import merge_lines

CODECS = {
    "utf-8": codecs.BOM_UTF8,
    "utf-16-le": codecs.BOM_UTF16_LE,
    "utf-16-be": codecs.BOM_UTF16_BE,
    "utf-32-le": codecs.BOM_UTF32_LE,
    "utf-32-be": codecs.BOM_UTF32_BE,
}
ENDS = ("\r", "\r\n", "\n")
BASE_LINES = [f"- [Base {n}](base-{n}.md) ਪੰਜਾਬੀ café" for n in range(5)]


def _edited(data: st.DataObject, base: list[str], side: str) -> tuple[list[str], list[str]]:
    """``base`` with some of its lines removed and new ones (named after ``side``) put among
    them; and the new lines."""
    kept = [line for line in base if data.draw(st.booleans())]
    added = [f"- [{side} {n}]({side}-{n}.md) ਪ{n}" for n in range(data.draw(st.integers(0, 3)))]
    for line in added:
        kept.insert(data.draw(st.integers(0, len(kept))), line)
    return kept, added


# every form the service reads an index in (UTF-32 without its mark it cannot tell from UTF-8)
FORMS = [(codec, bom) for codec, mark in CODECS.items() for bom in (mark, b"")]
FORMS = [(codec, bom) for codec, bom in FORMS if bom or not codec.startswith("utf-32")]


@settings(max_examples=400)
@given(data=st.data(), form=st.sampled_from(FORMS), end=st.sampled_from(ENDS))
def test_r2_two_edits_of_an_index_merge_in_its_form_with_every_added_line_once(
    data: st.DataObject, form: tuple[str, bytes], end: str
) -> None:
    codec, bom = form

    def written(lines: list[str]) -> bytes:  # an emptied index has no mark left either
        return bom + "".join(line + end for line in lines).encode(codec) if lines else b""

    base = data.draw(st.lists(st.sampled_from(BASE_LINES), unique=True, max_size=4))
    first, first_added = _edited(data, base, "service")
    second, second_added = _edited(data, base, "laptop")
    merged = merge_lines(written(base), written(first), written(second))
    if not merged:
        assert not first_added and not second_added
        return
    assert merged.startswith(bom)  # the mark once, first
    assert not bom or bom not in merged[len(bom) :]
    text = merged[len(bom) :].decode(codec)
    lines = text.split(end)
    assert lines.pop() == ""  # every line ends, in the index's own line end
    assert not any("\r" in line or "\n" in line for line in lines)
    for line in first_added + second_added:
        assert lines.count(line) == 1
