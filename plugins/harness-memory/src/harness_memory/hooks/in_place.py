"""The files ``sed -i`` and ``perl -i`` rewrite, told from the scripts they are given, and
whether a ``sed`` only prints (P-3).

``sed -i 's/[[:space:]]*$//' src/app.py`` rewrites ``src/app.py``; its first operand is the
script, not a file, and its ``$`` (an end of line, in single quotes) builds nothing at run
time. The guard's words carry no quoting, so a script read as a file operand looked like a
place the shell builds at run time and every such everyday edit was refused. Here a script —
``sed``'s first operand when no ``-e``/``-f`` gives one, the argument of ``sed -e``/``-f``
and of ``perl -e``/``-E`` (bundled or glued: ``-ne 'p'``, ``-pi -e``, ``-0pi -e``) — is
set apart from the files. A ``sed`` without ``-i`` whose every script is literal and holds
no command writing a file or running one (:func:`sed_prints_only`: no ``w``, ``W``, ``e``,
no ``s///w`` or ``s///e``; or run with ``--sandbox``) writes nothing but its output, like
``head``: ``sed -n 1,20p .git/config && git status`` reads git's settings and writes none.
Read once, linear in the words (H-5).
"""

from __future__ import annotations

__all__ = ["edited_files", "sed_prints_only"]

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


_SED_SAFE_LONG = (
    "--quiet",
    "--silent",
    "--regexp-extended",
    "--separate",
    "--unbuffered",
    "--null-data",
    "--zero-terminated",
    "--posix",
    "--debug",
    "--binary",
    "--line-length",
    "--sandbox",
    "--expression",
)
"""``sed``'s long options that neither write a file nor take a script from one."""
_SED_SAFE_SHORT = frozenset("nErsuzlbe")
"""``sed``'s short options that neither write a file nor take a script from one (``-l N``,
``-e SCRIPT`` take an argument)."""


def sed_prints_only(operands: list[tuple[str, bool]]) -> bool:
    """Whether ``sed`` given ``operands`` (each a word and whether it is built at run time)
    writes nothing but its output: no ``-i``, no ``-f``/``--file`` (a script the guard does
    not read), every script literal (not built at run time) and holding no command that writes
    a file or runs a program (:func:`_sed_script_prints_only`), or ``--sandbox`` (GNU sed then
    refuses those commands itself). Any option it does not know makes it False."""
    scripts: list[tuple[str, bool]] = []
    sandbox = False
    skip: str | None = None
    plain: list[tuple[str, bool]] = []
    for word, built in operands:
        if skip is not None:
            if skip == "e":
                scripts.append((word, built))
            skip = None
            continue
        if word == "--":
            continue
        if word.startswith("--"):
            name, equals, value = word.partition("=")
            known = [option for option in _SED_SAFE_LONG if option.startswith(name)]
            if len(name) <= 2 or len(known) != 1:
                return False  # --in-place, --file, --follow-symlinks, an unknown one
            sandbox = sandbox or known[0] == "--sandbox"
            if known[0] in ("--expression", "--line-length"):
                if equals and known[0] == "--expression":
                    scripts.append((value, built))
                skip = None if equals else ("e" if known[0] == "--expression" else "l")
            continue
        if word.startswith("-") and len(word) > 1:
            letter, rest = _first_taking(word[1:], frozenset("el"), frozenset())
            if not set(word[1:].split(letter, 1)[0] if letter else word[1:]) <= _SED_SAFE_SHORT:
                return False  # -i, -f, -s… an unknown one
            if letter == "e":
                if rest:
                    scripts.append((rest, built))
                else:
                    skip = "e"
            elif letter == "l" and not rest:
                skip = "l"
            continue
        plain.append((word, built))
    if not scripts:
        scripts = plain[:1]
    if sandbox:
        return True
    return bool(scripts) and all(
        not built and _sed_script_prints_only(text) for text, built in scripts
    )


_SED_PLAIN = frozenset("pPdDnNgGhHxzF=lqQ{}")
"""``sed`` commands that take no file (``l``, ``q``, ``Q`` take at most a number)."""
_SED_TO_LINE_END = frozenset("aic:btTv#rR")
"""``sed`` commands whose argument (text, a label, a file it reads) runs to the line's end
(``b``, ``t``, ``T``, ``:`` and ``v`` to a ``;`` too, read here as to the line's end: more
of the script is then skipped, never a writing command taken as text)."""
_SED_S_FLAGS = frozenset("gpiImM0123456789")
"""The flags of ``s///`` that write nothing (``w FILE`` writes, ``e`` runs the result)."""


def _sed_script_prints_only(script: str) -> bool:
    """Whether the ``sed`` ``script`` holds only commands writing nothing but the output
    (:data:`_SED_PLAIN`, ``s`` and ``y`` without ``w``/``e``, the text and label commands);
    False for ``w``, ``W``, ``e``, an ``s///`` flag ``w``/``e``, or what it cannot read."""
    at, end = 0, len(script)
    while at < end:
        char = script[at]
        if char in " \t\n;!}{" or char.isdigit() or char in ",$~+":
            at += 1
            continue
        if char in "/\\":  # an address /re/ or \cREc
            if char == "\\":
                at += 1
                if at >= end:
                    return False
            at = _past_delimited(script, at, 1)
            if at < 0:
                return False
            while at < end and script[at] in "IM":
                at += 1
            continue
        if char in ("s", "y"):
            at = _past_delimited(script, at + 1, 2)
            if at < 0:
                return False
            while at < end and script[at] not in ";\n}":
                if char == "y" and script[at] not in " \t":
                    return False
                if char == "s" and script[at] not in _SED_S_FLAGS and script[at] not in " \t":
                    return False
                at += 1
            continue
        if char in _SED_TO_LINE_END:
            newline = script.find("\n", at)
            at = end if newline < 0 else newline
            continue
        if char in _SED_PLAIN:
            at += 1
            continue
        return False  # w, W, e, or a command not known here
    return True


def _past_delimited(script: str, at: int, parts: int) -> int:
    """The index just past ``parts`` parts delimited by the character at ``at`` (``/a/``:
    one, ``/a/b/``: two), backslash escapes skipped; -1 when the script ends first."""
    if at >= len(script) or script[at] in "\n\\":
        return -1
    delimiter = script[at]
    at += 1
    for _ in range(parts):
        while at < len(script) and script[at] != delimiter:
            at += 2 if script[at] == "\\" else 1
        if at >= len(script):
            return -1
        at += 1
    return at
