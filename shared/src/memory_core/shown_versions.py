"""Two versions of one file, read alike to be shown side by side (a diff, V-2; T-2).

Bytes that are not UTF-8 are read in the encoding they look like (:func:`shown_text`), a
judgement made on the bytes themselves: a short note in Windows-1252 is too little text to tell
from Windows-1251 and is shown with U+FFFD for its accented letters, the same note with a line
more is told as Windows-1252. Judged one version at a time, a diff then showed every accented
line of the file as removed and added again (``-name: Caf�`` / ``+name: Café``) where no byte of
it changed. :func:`shown_pair` judges two such versions once, on their bytes together, so a line
whose bytes did not change reads the same on both sides.

>>> old = "name: Café\\nbody\\n".encode("cp1252")
>>> new = "name: Café\\nbody: née, été, déjà vu\\n".encode("cp1252")
>>> [text.split("\\n")[0] for text in shown_pair(old, new)]
['name: Café', 'name: Café']
"""

from __future__ import annotations

import codecs

from memory_core.decoding import shown_text

__all__ = ["shown_pair"]

_JOINT = "\nzq7v0j4x9w2k8m3p\n"
"""What the two versions are read joined by: a line of its own of ASCII letters and digits,
which every encoding judged reads as itself and no judgement weighs (a control character or
``@`` after a line break are weighed: GB18030 was then told from EUC-JP no more)."""
_MARKS = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_BE)


def shown_pair(old: bytes | None, new: bytes | None) -> tuple[str | None, str | None]:
    """``(old, new)`` as a person is shown them side by side (None stays None, the file was not
    in that version): each as :func:`~memory_core.decoding.shown_text` reads it, save that two
    versions neither of which is Unicode text (UTF-8, a byte order mark, UTF-16 told by its
    NUL bytes) are judged once, on both versions' bytes, and each read by that judgement."""
    if old is None or new is None or not (_legacy(old) and _legacy(new)):
        return (
            None if old is None else shown_text(old),
            None if new is None else shown_text(new),
        )
    joint = _JOINT.encode("ascii")
    if joint in old or joint in new or old.endswith(b"\r"):  # a CR would join the joint's LF
        return shown_text(old), shown_text(new)
    parts = shown_text(old + joint + new).split(_JOINT)
    if len(parts) != 2:  # the joint was read as part of a character: judge each alone
        return shown_text(old), shown_text(new)
    return parts[0], parts[1]


def _legacy(raw: bytes) -> bool:
    """Whether ``raw`` is no Unicode text: not UTF-8, no byte order mark, no NUL byte."""
    if raw.startswith(_MARKS) or b"\0" in raw:
        return False
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False
