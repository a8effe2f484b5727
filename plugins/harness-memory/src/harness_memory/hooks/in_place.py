"""The files ``sed -i`` and ``perl -i`` rewrite, told from the scripts they are given (P-3).

``sed -i 's/[[:space:]]*$//' src/app.py`` rewrites ``src/app.py``; its first operand is the
script, not a file, and its ``$`` (an end of line, in single quotes) builds nothing at run
time. The guard's words carry no quoting, so a script read as a file operand looked like a
place the shell builds at run time and every such everyday edit was refused. Here a script —
``sed``'s first operand when no ``-e``/``-f`` gives one, the argument of ``sed -e``/``-f``
and of ``perl -e``/``-E`` (bundled or glued: ``-ne 'p'``, ``-pi -e``, ``-0pi -e``) — is
set apart from the files. Read once, linear in the words (H-5).
"""

from __future__ import annotations

__all__ = ["edited_files"]

_TAKING = {
    "sed": frozenset("efl"),  # -e SCRIPT, -f SCRIPT-FILE, -l N
    "perl": frozenset("eE"),  # -e CODE, -E CODE
}
"""Short options whose argument is the rest of the bundle or, at its end, the next word."""
_GLUED = {
    "sed": frozenset("i"),  # -i[SUFFIX]: the rest of the bundle is the backup's suffix
    "perl": frozenset("i0lFMmIdDxC"),  # -i[EXT], -0[OCTAL], -l[OCTAL], -F…, -M…: the rest
}
"""Short options taking the rest of their bundle as their own (never the next word)."""
_LONG_TAKING = {
    "sed": ("--expression", "--file", "--line-length"),
    "perl": (),
}
"""Long options taking an argument (``--expression=…`` or the next word), shortened or not."""
_SCRIPTS = {"sed": frozenset("ef"), "perl": frozenset("eE")}
"""The options (short letters; ``sed``'s long ``--expression``/``--file``) giving the script:
with one, no operand is the script."""


def edited_files(command: str, operands: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The file operands ``command`` (``sed`` or ``perl``, given ``-i``) rewrites among its
    ``operands`` (each a word and whether it is built at run time, in order): every plain
    operand but the script, the options and their arguments. ``sed``'s first operand and
    ``perl``'s (a script file it reads) are the script unless an option gives one."""
    taking, glued = _TAKING.get(command, frozenset()), _GLUED.get(command, frozenset())
    plain: list[tuple[str, bool]] = []
    scripted = False
    skip = False
    for word, built in operands:
        if skip:
            skip = False
            continue
        if word == "--":
            continue
        if word.startswith("--"):
            name = word.partition("=")[0]
            long = [option for option in _LONG_TAKING.get(command, ()) if option.startswith(name)]
            scripted = scripted or any(option in ("--expression", "--file") for option in long)
            skip = bool(long) and len(name) > 2 and "=" not in word
            continue
        if word.startswith("-") and len(word) > 1:
            letter, rest = _first_taking(word[1:], taking, glued)
            scripted = scripted or letter in _SCRIPTS.get(command, frozenset())
            skip = letter in taking and not rest
            continue
        plain.append((word, built))
    return plain if scripted else plain[1:]


def _first_taking(bundle: str, taking: frozenset[str], glued: frozenset[str]) -> tuple[str, str]:
    """The first letter of a short-option ``bundle`` (``pi``, ``ne``, ``i.bak``) that takes an
    argument, and the rest of the bundle after it ("" when none takes one or it ends there)."""
    for at, letter in enumerate(bundle):
        if letter in taking or letter in glued:
            return letter, bundle[at + 1 :]
    return "", ""
