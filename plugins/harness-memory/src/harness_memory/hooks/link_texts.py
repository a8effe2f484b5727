"""Which programs the guard does not read may make a link, by the text it reads of them (P-3).

``python3 -c "import os; os.symlink(open('target').read().strip(), 'lnk')" && echo x >
lnk/a.md``: the program makes ``lnk`` lead where data says, and the shell then writes through
it. The guard reads the text of some programs it does not otherwise read (``python3 -c``/``node
-e``/``perl -e``/``ruby -e`` code, a script file they or a shell run, ``./mk.sh``) for the
memory it names; the same text says whether the program can make a link: one of
:data:`LINK_TEXTS`. A program whose text the guard does not read (``npm``, ``cargo``,
``make``, ``git``, ``go``, a compiled binary) is fenced by the harness's sandbox for the
links it makes as for every other place it writes (``docs/security.md``). Pure text work,
linear in the text's length (H-5).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from harness_memory.hooks.option_words import CP_KEEPING, CP_LINKING, FIND_ENDS, cp_flags

__all__ = [
    "LINKING_PROGRAMS",
    "LINK_TEXTS",
    "RUNNERS",
    "TEXT_PROGRAMS",
    "link_text",
    "links_by_arguments",
    "local_imports",
    "reads_text",
]

LINK_TEXTS: tuple[tuple[str, str], ...] = (
    # a call making a symbolic link, or the function named without its call (``f =
    # os.symlink``, ``from os import symlink as s``): os.symlink, fs.symlink(Sync),
    # fs.promises.symlink, File.symlink, perl's and php's symlink, Path.symlink_to, symlinkat
    # (not is_symlink, follow_symlinks, symlinks=: a letter or ``_`` stands next to it)
    ("symlink(…)", r"\bsymlink(?:Sync|_to|at)?\b"),
    # one making a hard link: os.link(, fs.linkSync, File.link(, Path.hardlink_to,
    # Path.link_to, linkat( (not unlink(, readlink(, islink(: a letter stands before); the
    # names os.link / fs.link / File.link without their call too
    (
        "link(…)",
        r"\b(?:hard)?link(?:at)?\s*\(|\b(?:hardlink_to|link_to|linkSync)\b"
        r"|\b(?:os|fs|File)\.link\b",
    ),
    # perl's list operators without parentheses: symlink $from, $to; link "a", "b"
    ("symlink / link list operator", r"\blink\s+[$\"'@]"),
    # the shell's ln with its operands (a script, os.system("ln -s …"), /bin/ln), ln as a
    # word of a list (["ln", "-s", …], ['/bin/ln', …]), Ruby's FileUtils.ln( / ln_s / ln_sf /
    # ln_sr; not a name ``ln`` in code (``ln = len(xs)``, ``print(ln == 3)``), ``$ln``,
    # ``ls -ln``
    (
        "ln",
        r"(?<![-$\w.])ln[ \t]+[-\"'$\w./~]|[\"'/]ln[\"'\s]|\.ln\s*\(|\bln_(?:sf|sr|s)\b",
    ),
    # cp making links: cp -s, cp -rs, cp -al, cp --link, cp --symbolic-link
    ("cp -s/-l", r"\bcp\s+(?:-[A-Za-z]*[sl][A-Za-z]*\b|--link\b|--symbolic-link\b)"),
    # a copy or move keeping a link as a link: cp -a/-d/-P/-R/-r, --preserve=links,
    # --no-dereference, rsync -a/-l, mv (of a link already there: its new name leads where
    # it did); shutil.copy(2)/copyfile(…, follow_symlinks=False), copytree(…, True)
    (
        "cp -a / rsync -a / mv",
        r"\bcp\s+(?:-[A-Za-z]*[adPRr][A-Za-z]*\b|--preserve=\S*links|--no-dereference\b)"
        r"|\brsync\s+(?:-[A-Za-z]*[al][A-Za-z]*\b|--links\b|--archive\b)"
        r"|(?<![-$\w.])mv[ \t]+[-\"'$\w./~]|[\"'/]mv[\"'\s]"
        r"|\bcopy(?:2|file)?\s*\([^)\n]*follow_symlinks\s*=\s*False"
        r"|\bcopytree\s*\([^)\n]*,\s*True\b",
    ),
    # a shell command whose name is a variable (``L=ln; $L -s "$(cat t)" lnk``): any
    # program, a linker among them
    (
        "a program named by a variable",
        r"(?:(?<![^\n])|[;&|]|\bthen|\bdo)[ \t]*\"?\$\{?\w+\}?\"?[ \t]+-\w",
    ),
    # a rename keeping a link as a link (a relative one moved elsewhere leads elsewhere):
    # os.rename/renames/replace, shutil.move, fs.rename(Sync), File.rename, FileUtils.mv /
    # move, perl's rename and File::Copy's move; a ``.rename(`` of any receiver whose first
    # argument is no keyword or mapping (``p.rename('rel')``, ``fsp.rename(a, b)``,
    # ``require('fs/promises').rename``: not a DataFrame's ``rename(columns=…)`` /
    # ``rename({…})``); a ``.replace(`` of one argument (``Path.replace(target)``: a
    # ``str.replace`` takes two); os, shutil or pathlib imported under another name, or their
    # rename functions imported by name (``import os as o; o.rename``)
    (
        "rename / move",
        r"\b(?:os\.(?:rename|renames|replace)|shutil\.move|fs\.(?:promises\.)?rename(?:Sync)?"
        r"|File\.rename|FileUtils\.(?:mv|move))\b|File::Copy\b"
        r"|\bfrom\s+(?:os|shutil)\s+import\b[^\n]*\b(?:rename|renames|replace|move)\b"
        r"|\bimport\s+(?:os|shutil|pathlib)\s+as\b|\brenameSync\b"
        r"|\.renames?\s*\(\s*(?!\w+\s*=[^=]|[{*)])|\.replace\s*\(\s*[^,()\s][^,()]*\)"
        r"|(?<![.\w$\"'])rename\s*(?:\(\s*)?[\"'$]",
    ),
    # programs making links of whole trees, a copy keeping a tree's links
    ("stow/lndir", r"\b(?:stow|lndir)\b"),
    ("symlinks=True", r"\bsymlinks\s*=\s*True\b"),
)
"""The one table of texts by which a program's code can make a link: each a name shown in a
refusal and the pattern found in the code (Python, JavaScript, Perl, Ruby, PHP, awk, shell)."""
_LINK_TEXT_RE = "|".join(f"(?P<t{at}>{pattern})" for at, (_, pattern) in enumerate(LINK_TEXTS))
TEXT_PROGRAMS = (
    r"^(?:python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|perl[0-9.]*|ruby[0-9.]*|php[0-9.]*"
    r"|[gmn]?awk|lua[0-9.]*|sh|bash|rbash|dash|ash|ksh|mksh|zsh|source|\.)$"
)
"""Programs (by bare name) whose words the guard reads as their code: an interpreter given
code inline (``python3 -c``, ``node -e``, ``perl -e``, ``ruby -e``, ``php -r``, ``awk '…'``)
or a script file (its first operand: ``python3 mk.py``, ``bash mk.sh``, ``source x.sh``);
a program named by its path (``./mk.sh``) is read by its file."""
LINKING_PROGRAMS = frozenset({"ln", "link", "stow", "xstow", "lndir"})
"""Programs known to make links from their arguments (``ln``, coreutils' ``link``, GNU
``stow``, X11's ``lndir``): run by a program the guard does not read (``xargs ln -s``,
``busybox ln``), or themselves not read (``link``, ``stow``)."""
RUNNERS = frozenset({"xargs", "parallel", "busybox", "toybox", "watch", "find"})
"""Programs running the program their words name, with arguments the guard may not see
(``xargs ln -s < pairs``, ``find … -exec mv {} . \\;``)."""
_MOVING = frozenset({"mv"})
"""A program that, run on names the guard may not see, may move a relative symbolic link
into another folder, where it leads elsewhere."""


def reads_text(name: str) -> bool:
    """Whether the guard reads the words (and script file) of the program called ``name``
    (a bare name) as its code: :data:`TEXT_PROGRAMS`."""
    return re.match(TEXT_PROGRAMS, name) is not None


def link_text(text: str) -> str | None:
    """The name (from :data:`LINK_TEXTS`) of the first text in ``text`` by which code can make
    a link, or None; one linear scan."""
    found = re.search(_LINK_TEXT_RE, text)
    if found is None or found.lastgroup is None:
        return None
    return LINK_TEXTS[int(found.lastgroup[1:])][0]


def links_by_arguments(name: str, words: Iterable[str]) -> str | None:
    """The link-making program a command called ``name`` with ``words`` (as written) is or
    runs (:data:`LINKING_PROGRAMS`, or ``ln``, ``mv`` or ``cp -s``/``-l``/``-a``/``-P`` as a
    word of any program the guard does not read: ``xargs``, ``strace``, ``git mv``), or
    None."""
    if name in LINKING_PROGRAMS:
        return name
    said = list(words)
    names = {word.rsplit("/", 1)[-1] for word in said}
    # any program given ``ln``, ``mv`` or ``cp`` as a word may run it (``strace -f ln -s …``,
    # ``git mv``); ``link`` only by a runner (``npm link``, ``make link`` are their own)
    run = LINKING_PROGRAMS | _MOVING if name in RUNNERS else {"ln", *_MOVING}
    if made := sorted(names & run):
        return f"{name} {made[0]}"
    return f"{name} cp" if "cp" in names and _linking_cp(said) else None


_ARGUMENTS_END = FIND_ENDS | {"+"}
"""Words ending the arguments of a program ``find -exec`` runs."""


def _linking_cp(words: list[str]) -> bool:
    """Whether a ``cp`` among ``words`` (a runner's: ``xargs cp -a``, ``find … -exec cp -s {}
    \\;``) is given a flag making links or copying a symbolic link as a link, its own words
    (after its name, up to ``find``'s ``;``/``+``) read by ``cp``'s option table
    (:func:`~harness_memory.hooks.option_words.cp_flags`); the runner's own options are not
    ``cp``'s (``find -name``, ``xargs -r``)."""
    for at, word in enumerate(words):
        if word.rsplit("/", 1)[-1] != "cp":
            continue
        rest = words[at + 1 :]
        ends = [place for place, each in enumerate(rest) if each in _ARGUMENTS_END]
        flags = cp_flags(rest[: ends[0]] if ends else rest)
        if flags & (CP_LINKING | CP_KEEPING):
            return True
    return False


_PYTHON_IMPORT_RE = (
    r"(?m)(?:^|[;:])[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]*\(?([\w., \t]*)"
    r"|import[ \t]+([\w., \t]+))"
)
"""A Python import statement starting a line or after ``;`` or ``:`` (``import json;import
mk``, ``if 1: import mk``): ``from MODULE import NAMES`` or ``import MODULES``."""
_LOADING_RE = (
    r"\b(?:exec|compile|runpy|run_module|run_path|import_module|__import__|load_module"
    r"|exec_module|load_source|spec_from_file_location|SourceFileLoader)\b"
)
"""Python code loading code by a name or file it gives as a string (``f = open("mk.py");
exec(f.read())``, ``runpy.run_module("mk")``, ``spec_from_file_location("m", "mk.py")``)."""
_LOADING_WORDS = (
    *("exec", "compile", "runpy", "run_module", "run_path", "import", "load_module"),
    *("load_source", "spec_from_file_location", "SourceFileLoader"),
)
"""A word each of :data:`_LOADING_RE`'s holds (``exec_module`` and ``import_module`` too)."""
_STRING_NAME_RE = r"[\"']([\w./-]+)[\"']"
"""A string literal that may name a module or a file (``"mk"``, ``'mk.py'``, ``"./lib/x.py"``)."""
_NODE_IMPORT_RE = r"(?:\brequire\s*\(\s*|\bfrom\s*|\bimport\s*\(?\s*)[\"'](\./[^\"'\n]+)[\"']"
_NODE_ENDINGS = ("", ".js", ".mjs", ".cjs", ".ts", "/index.js")
_PYTHON_RUN_FILE_RE = (
    r"\b(?:exec\s*\(\s*(?:compile\s*\(\s*)?(?:open|Path|io\.open|pathlib\.Path)"
    r"|execfile|run_path)\s*\(\s*[rbuRBU]*[\"']([^\"'\n]+)[\"']"
)
"""Python code running a file's text as its own: ``exec(open("mk.py").read())``,
``exec(compile(open("x").read(), …))``, ``exec(Path("x").read_text())``, ``execfile("x")``,
``runpy.run_path("x")``: the literal file is loaded as a module is."""
_PYTHON_IMPORT_CALL_RE = (
    r"\b(?:__import__|import_module)\s*\(\s*[\"']([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)[\"']"
)
"""A module imported by a call naming it (``__import__("mk")``,
``importlib.import_module("mk")``)."""


def _module_files(spelled: Iterable[str]) -> list[str]:
    """The files each of the Python modules ``spelled`` (``a.b``, ``x as y``) may be beside the
    code: ``a/b.py``, ``a/b/__init__.py``; none for one going up (``..``) or empty."""
    files: list[str] = []
    for each in spelled:
        module = each.split()[0].lstrip(".") if each.split() else ""
        if module and ".." not in module and "/" not in module:
            path = module.replace(".", "/")
            files.extend([f"{path}.py", f"{path}/__init__.py"])
    return files


def local_imports(text: str) -> list[str]:
    """The files, relative to a script's own folder, that ``text`` (a Python or JavaScript
    script's code) may load as a module beside it: ``import helper`` / ``from helper import
    x`` (``helper.py``, ``helper/__init__.py``), ``require('./x')`` / ``import … from
    './x'`` (``x``, ``x.js``, …, ``x/index.js``), a file whose text Python code runs
    (``exec(open("mk.py").read())``, ``runpy.run_path("mk.py")``: :data:`_PYTHON_RUN_FILE_RE`,
    relative to the folder the code runs in), a module imported by a call naming it
    (``__import__("mk")``, ``importlib.import_module("mk")``), ``from pkg import helper``'s
    ``pkg/helper.py``, and, in code loading code (:data:`_LOADING_RE`: ``exec``,
    ``runpy.run_module``), each string naming a module or a ``.py`` file (``f =
    open("mk.py"); exec(f.read())``); one linear scan each. Which
    are there is the caller's look; their code may make a link as the script's own may
    (P-3)."""
    names: list[str] = []
    # each pattern looked for only where its literal part is (a shell script sourced by a
    # startup file holds none: five patterns compiled for nothing in every login shell, H-5)
    imports = "import" in text
    for found in re.finditer(_PYTHON_IMPORT_RE, text) if imports else ():
        if found.group(3) is not None:
            names.extend(_module_files(found.group(3).split(",")))
            continue
        package = found.group(1).lstrip(".")
        names.extend(_module_files([package]))
        prefix = f"{package}." if package else ""  # ``from pkg import helper``: pkg/helper.py
        names.extend(_module_files(f"{prefix}{each.strip()}" for each in found.group(2).split(",")))
    loading = any(word in text for word in _LOADING_WORDS) and re.search(_LOADING_RE, text)
    if loading:  # a name or file given as a string to code loading it
        for found in re.finditer(_STRING_NAME_RE, text):
            spelled = found.group(1)
            names.extend([spelled] if spelled.endswith(".py") else _module_files([spelled]))
    for found in re.finditer(_NODE_IMPORT_RE, text) if "'./" in text or '"./' in text else ():
        path = found.group(1)[2:]
        if ".." not in path:
            names.extend(f"{path}{ending}" for ending in _NODE_ENDINGS)
    if "exec" in text or "run_path" in text:
        names.extend(found.group(1) for found in re.finditer(_PYTHON_RUN_FILE_RE, text))
    for found in re.finditer(_PYTHON_IMPORT_CALL_RE, text) if imports else ():
        path = found.group(1).replace(".", "/")
        names.extend([f"{path}.py", f"{path}/__init__.py"])
    return names
