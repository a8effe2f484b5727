"""The text bash's ``echo -e`` and ``printf`` print from words the guard reads whole (P-3).

``printf '%s\\n' a b | bash`` runs ``a`` and ``b``; ``echo -e 'ls\\nmake' | bash`` runs ``ls``
and ``make``; ``printf 'cp x \\x2fsrv/a.md' | bash`` copies to ``/srv/a.md``. The guard judges
the text a printer gives a shell's pipe as that shell's code
(:mod:`~harness_memory.hooks.piped_code`), so it needs the text as bash prints it, escapes
turned into their characters, not as the command spells it. :func:`echo_text` and
:func:`printf_text` give it for the forms bash documents (``help echo``, ``help printf``):

- ``echo``'s options ``-n``, ``-e``, ``-E`` (bundled too, ``-ne``), then its words joined by
  spaces and a newline; with ``-e`` the escapes ``\\a \\b \\c \\e \\E \\f \\n \\r \\t \\v
  \\\\``, ``\\0NNN`` (octal), ``\\xHH``, ``\\uHHHH``, ``\\UHHHHHHHH`` (``\\c`` ends the output);
- ``printf FORMAT ARGS…`` (after an optional ``--``): the format's escapes (the same, the
  octal ``\\NNN`` without its ``0``), ``%%``, ``%s``, ``%b`` (its argument's ``echo -e``
  escapes, ``\\c`` ending all output), ``%d``/``%i`` of a decimal argument; the format used
  again while arguments remain, a missing one empty (``0`` for a number).

Anything else (``printf -v``, a width, a precision, a flag, ``%q``, ``%c``, ``%x``, a number
that is none, ``\\c`` in a format) is text the guard does not compute: None, and the caller
judges the code as unknown. Linear in the words' length (each format used at most once per
argument).
"""

from __future__ import annotations

import re

__all__ = ["SIMPLE_ESCAPES", "echo_text", "printf_text"]

_ECHO_OPTION_RE = r"^-[neE]+$"
"""An ``echo`` option word bash takes (any other word starting with ``-`` is printed)."""
SIMPLE_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
}
"""Escapes standing for one character, by the letter after the backslash (``echo -e``,
``printf``; bash's ``$'…'`` reads them too)."""
_HEX = {"x": 2, "u": 4, "U": 8}
"""Escapes taking hexadecimal digits (at most this many)."""
_DECIMAL_RE = r"^[+-]?(?:0|[1-9][0-9]{0,17})$"
"""A ``%d``/``%i`` argument the guard computes: decimal digits as Python reads them. A leading
``0`` is octal to bash (``printf %d 010`` prints ``8``), ``0x`` hexadecimal, and past 18 digits
bash clamps to 64 bits: those are not computed (None), so printed code holding them is judged
as unknown, never as other digits than bash prints (round 56, review56g)."""
_CONVERSION_RE = r"%(.)"


class _Stop(Exception):
    """``\\c``: nothing more is printed."""


class _Unknown(Exception):
    """An escape whose reading bash's versions differ on (``echo -e '\\101'``)."""


def _escaped(text: str, *, echo: bool) -> str:
    """``text`` with its backslash escapes turned into characters, as ``echo -e`` (``echo``:
    the octal ``\\0NNN``) or ``printf``'s format (the octal ``\\NNN``) reads them; an escape
    it does not know is printed as written. Raises :class:`_Stop` at ``\\c``, with what came
    before it in its ``args``, and :class:`_Unknown` at an octal escape without its ``0``
    under ``echo`` (read so by some versions, printed by others)."""
    out: list[str] = []
    at = 0
    while at < len(text):
        slash = text.find("\\", at)
        if slash < 0 or slash == len(text) - 1:
            out.append(text[at:])
            break
        out.append(text[at:slash])
        letter, at = text[slash + 1], slash + 2
        if letter in SIMPLE_ESCAPES:
            out.append(SIMPLE_ESCAPES[letter])
        elif letter == "c":
            raise _Stop("".join(out))
        elif letter in _HEX:
            digits = re.match(rf"[0-9A-Fa-f]{{1,{_HEX[letter]}}}", text[at:])
            if digits is None:
                out.append("\\" + letter)
                continue
            out.append(chr(min(int(digits.group(), 16), 0x10FFFF)))
            at += digits.end()
        elif echo and "1" <= letter <= "7":
            raise _Unknown(letter)
        elif letter.isdigit() and letter < "8" and (letter == "0" or not echo):
            start = at if echo else at - 1  # ``\0NNN`` for echo, ``\NNN`` for printf
            digits = re.match(r"[0-7]{0,3}", text[start:])
            count = len(digits.group()) if digits else 0
            out.append(chr(int(text[start : start + count] or "0", 8) & 0xFF))
            at = start + count
        else:
            out.append("\\" + letter)
    return "".join(out)


def echo_text(words: list[str]) -> str | None:
    """What bash's ``echo`` prints given ``words`` (after its name, as bash passes them):
    its leading option words read, then the rest joined by spaces, escapes read under
    ``-e``, a newline after unless ``-n`` (``\\c`` ends it all)."""
    newline, escapes, at = True, False, 0
    while at < len(words) and re.match(_ECHO_OPTION_RE, words[at]):
        for letter in words[at][1:]:
            newline = newline and letter != "n"
            escapes = (escapes or letter == "e") and letter != "E"
        at += 1
    text = " ".join(words[at:])
    if not escapes:
        return text + "\n" * newline
    try:
        return _escaped(text, echo=True) + "\n" * newline
    except _Stop as stop:
        return str(stop.args[0])
    except _Unknown:
        return None


def printf_text(words: list[str]) -> str | None:
    """What bash's ``printf`` prints given ``words`` (after its name), or None for a form
    this module does not compute (the module's docstring)."""
    if words[:1] == ["--"]:
        words = words[1:]
    if not words or words[0].startswith("-"):
        return None  # ``printf -v name …`` prints nothing here; no format
    form, arguments = words[0], words[1:]
    printed: list[str] = []
    try:
        while True:
            text, used = _formatted(form, arguments)
            if text is None:
                return None
            printed.append(text)
            arguments = arguments[used:]
            if not arguments or not used:
                return "".join(printed)
    except _Stop as stop:
        return "".join(printed) + str(stop.args[0])
    except _Unknown:
        return None


def _formatted(form: str, arguments: list[str]) -> tuple[str | None, int]:
    """One use of the format ``form`` with ``arguments``: the text and how many it took."""
    out: list[str] = []
    used = 0
    for number, piece in enumerate(re.split(_CONVERSION_RE, form)):
        if number % 2 == 0:
            if "\\c" in piece or "%" in piece:
                return None, 0  # ``\c`` or a lone ``%`` ending a format: not computed
            out.append(_escaped(piece, echo=False))
            continue
        if piece == "%":
            out.append("%")
            continue
        argument = arguments[used] if used < len(arguments) else None
        used += argument is not None
        if piece == "s":
            out.append(argument or "")
        elif piece == "b":
            try:
                out.append(_escaped(argument or "", echo=True))
            except _Stop as stop:
                raise _Stop("".join(out) + str(stop.args[0])) from None
        elif piece in "di" and (argument is None or re.match(_DECIMAL_RE, argument)):
            out.append(str(int(argument or "0")))
        else:
            return None, 0
    return "".join(out), used
