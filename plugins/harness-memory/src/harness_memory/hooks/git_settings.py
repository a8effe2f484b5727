"""What ``git``'s own settings make it run and write, read when it runs (P-3).

``git`` is a program whose writes the guard does not read
(:mod:`~harness_memory.hooks.unread_programs`): a command running it is refused where its text
names memory it may not write. Its settings can make a plain ``git status`` run or write what
no word of the command shows: ``alias.x = !sh -c '…'``, ``core.fsmonitor = <command>``,
``core.hooksPath`` (the hooks ``git commit`` runs), ``core.worktree``, a ``filter``'s
``clean``/``smudge``, ``core.pager``, ``credential.helper = !…``, and ``include.path`` taking
more settings from another file. They come from files an earlier call may have written
(``/etc/gitconfig`` or ``$GIT_CONFIG_SYSTEM``, ``~/.gitconfig``, ``$XDG_CONFIG_HOME/git/config``
or ``$GIT_CONFIG_GLOBAL``, the repository's ``config`` and ``config.worktree``, every file an
``include.path``/``includeIf.*.path`` names), from ``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_<n>``/
``GIT_CONFIG_VALUE_<n>`` and ``GIT_CONFIG_PARAMETERS`` in the environment, and from the
command's own ``-c key=value`` and ``git config key value``.

:func:`git_settings` reads them all as ``git`` would when it runs in a folder, and gives the
commands they make git run (each judged by the guard as a command of the call, as ``bash -c``
is) and their whole text with every hook script's (judged as the text of a program the guard
does not read: naming other memory, it is refused). A file it cannot read whole (no regular
file, unreadable, past :data:`GIT_SETTINGS_CAP`) or more files than :data:`GIT_FILES_CAP` make
the settings unknown: the command is refused (a read error never widens access). Everyday
settings (a user name, ``core.editor = vim``, husky's ``core.hooksPath = .husky/_``) pass.

Read when ``git`` runs, at most :data:`GIT_SETTINGS_CAP` bytes a file, linear (H-5).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping

from harness_memory.hooks.settings_file import account_home, read_settings_file
from harness_memory.hooks.shell_words import split_words

__all__ = [
    "GIT_COMMAND_KEYS",
    "GIT_FILES_CAP",
    "GIT_SETTINGS_CAP",
    "GitSettings",
    "git_settings",
    "parse_git_config",
]

GIT_SETTINGS_CAP = 65_536
"""The most bytes of one settings file (or hook script) read; a longer one is unknown."""
GIT_FILES_CAP = 64
"""The most files (settings files, includes, hook scripts) read for one ``git``; more are
unknown (each is one ``open``)."""
GIT_COMMAND_KEYS = frozenset(
    {"fsmonitor", "sshcommand", "editor", "pager", "askpass", "gitproxy", "external"}
    | {"textconv", "command", "cmd", "clean", "smudge", "process", "driver", "helper"}
    | {"program", "difffilter", "browser", "receivepack", "uploadpack", "packobjectshook"}
    | {"sendmailcmd", "hook"}
)
"""The last part of a setting's name (any letter case) whose value is a command ``git`` runs
through the shell (``core.fsmonitor``, ``core.sshCommand``, ``filter.<x>.clean``,
``diff.<x>.textconv``, ``merge.<x>.driver``, ``credential.helper`` written ``!…``,
``gpg.program``, ``mergetool.<x>.cmd``); an ``alias.<x>`` written ``!…`` too, and any
``pager.<x>``."""
_BOOLEANS = frozenset({"", "true", "false", "yes", "no", "on", "off", "1", "0"})
_SECTION_RE = r'^\[\s*(?P<name>[A-Za-z0-9.-]+)\s*(?:"(?P<sub>(?:[^"\\]|\\.)*)")?\s*\]'
_INCLUDE_DEPTH = 10
"""How deep ``include.path`` is followed (git's own limit is 10)."""


class GitSettings:
    """What ``git``'s settings hold for one run: ``commands`` (shell commands they make it
    run, each with the setting that names it), ``text`` (every settings file, value and hook
    script read, joined), ``unknown`` (why they cannot all be read, or None) and ``folders``
    (where those commands may run: the folder git is run in, after ``-C``, and the top of
    its work tree, where git runs an alias's ``!`` command and a command it starts after it
    entered the top: ``cd sub && git c`` runs ``alias.c``'s ``cp a notes/x.md`` from the
    top); ``own``, those of ``commands`` the command's own words set (``git -c
    alias.x='!…' x``, ``git config alias.x …``), code of the call's, not of the user's
    settings; ``repository``, the repository folder git uses (a ``gitdir:`` file followed),
    None outside one. A plain class, like :class:`~harness_memory.hooks.tool_targets.
    ShellPaths`."""

    __slots__ = ("commands", "folders", "own", "repository", "text", "unknown")

    def __init__(self) -> None:
        self.commands: list[tuple[str, str]] = []
        self.own: list[tuple[str, str]] = []  # those the command's own words set (``-c``)
        self.text: list[str] = []
        self.unknown: str | None = None
        self.folders: list[str] = []
        self.repository: str | None = None


def parse_git_config(text: str) -> list[tuple[str, str]]:
    """The settings of a git config file's ``text``, in order, as ``(key, value)``: the key
    as ``section.name`` or ``section.subsection.name`` (section and name lowercased, the
    subsection as written), the value with its quotes and backslash escapes read as git reads
    them (``\\`` at a line's end continues it; ``#`` or ``;`` outside quotes ends it); a
    name alone is ``""`` (true). A line ends at LF alone, as git's own reader ends it: a CR,
    a form feed or U+2028 inside a value is part of it (the command an alias runs goes on)."""
    found: list[tuple[str, str]] = []
    section = ""
    lines = iter(text.split("\n"))
    for raw in lines:
        line = raw.strip()
        if line.startswith("["):
            match = re.match(_SECTION_RE, line)
            if match is None:
                section = ""
                continue
            name = match.group("name").lower()
            sub = match.group("sub")
            if sub is not None:
                name += "." + re.sub(r"\\(.)", r"\1", sub)
            section = name
            line = line[match.end() :].strip()
            if not line or line[0] in "#;":
                continue
        if not line or line[0] in "#;" or not section:
            continue
        name, equals, rest = line.partition("=")
        key = f"{section}.{name.strip().lower()}"
        if not equals:
            found.append((key, ""))
            continue
        value, more = _config_value(rest)
        while more:
            following = next(lines, None)
            if following is None:
                break
            tail, more = _config_value(following, value_quoted=more == "quoted")
            value += tail
        found.append((key, value))
    return found


def _config_value(rest: str, *, value_quoted: bool = False) -> tuple[str, str]:
    """A value's text from ``rest`` and whether it goes on past the line ("" no, "plain",
    "quoted": a last backslash; inside quotes when ``value_quoted``)."""
    value: list[str] = []
    quoted = value_quoted
    chars = iter(rest if value_quoted else rest.lstrip())
    for char in chars:
        if char == '"':
            quoted = not quoted
        elif char == "\\":
            escaped = next(chars, None)
            if escaped is None:
                return "".join(value), "quoted" if quoted else "plain"
            value.append({"n": "\n", "t": "\t", "b": "\b"}.get(escaped, escaped))
        elif char in "#;" and not quoted:
            break
        else:
            value.append(char)
    return ("".join(value) if quoted else "".join(value).rstrip()), ""


def git_settings(words: Iterable[str], base: str, environ: Mapping[str, str]) -> GitSettings:
    """What ``git`` run as ``words`` (its options and operands, after its name) in the folder
    ``base`` with ``environ`` takes from its settings: the files, variables and options named
    in this module's text, with every include, and the hook scripts in its hooks folder."""
    words = list(words)
    settings = GitSettings()
    reader = _Reader(settings, environ)
    folder = base
    pairs: list[tuple[str, str]] = []
    named = {"--git-dir": environ.get("GIT_DIR"), "--work-tree": environ.get("GIT_WORK_TREE")}
    at = 0
    while at < len(words):
        word = words[at]
        value = words[at + 1] if at + 1 < len(words) else ""
        if word == "-c":
            pairs.append(_pair(value))
            at += 2
            continue
        if word == "-C":
            folder = os.path.join(folder, value)  # noqa: PTH118
            at += 2
            continue
        if word in ("--git-dir", "--work-tree"):
            named[word] = value
            at += 2
            continue
        if word.startswith(("--git-dir=", "--work-tree=")):
            option, _, named[option] = word.partition("=")
        elif word.startswith("--config-env="):
            key, _, name = word.partition("=")[2].partition("=")
            pairs.append((key.lower(), environ.get(name, "")))
        elif not word.startswith("-"):
            if word == "config":  # ``git config alias.x '!…'``: what later runs read
                written = _config_written(words[at + 1 :])
                if written is not None:
                    key, value = written
                    place = key in _PLACE_KEYS or key.startswith("includeif.")
                    if place and ("$" in value or "`" in value):
                        settings.unknown = f"{key}={value} (a place built at run time)"
                    pairs.append(written)
            break
        at += 1
    if not _truthy(environ.get("GIT_CONFIG_NOSYSTEM", "")):
        reader.read(environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig", folder)
    for file in _global_files(environ):
        reader.read(file, folder)
    repository, holder = _git_dir(folder, named["--git-dir"])
    if repository == "":
        settings.unknown = f"{named['--git-dir']} (a gitdir: file the guard cannot read)"
        repository = None
    settings.repository = repository
    if repository is not None:
        reader.read(os.path.join(_common_dir(repository), "config"), folder)  # noqa: PTH118
        reader.read(os.path.join(repository, "config.worktree"), folder)  # noqa: PTH118
    if (legacy := environ.get("GIT_CONFIG")) is not None:
        reader.read(os.path.join(folder, legacy), folder)  # noqa: PTH118
    reader.take(_environment_pairs(environ, settings), folder, folder)
    taken = len(settings.commands)
    reader.take(pairs, folder, folder)
    own = {key for key, _ in pairs}  # not a file an own ``include.path`` names
    settings.own = [each for each in settings.commands[taken:] if each[0] in own]
    if settings.unknown is None and repository is not None:
        reader.read_hooks(repository, folder)
    tops = _work_tree_tops(folder, named, reader.work_tree, holder) if repository else []
    settings.folders = list(dict.fromkeys([folder, *tops]))
    return settings


def _work_tree_tops(
    folder: str,
    named: Mapping[str, str | None],
    work_tree: tuple[str, str] | None,
    holder: str | None,
) -> list[str]:
    """Every folder that may be the top of the work tree ``git`` run in ``folder`` uses (an
    alias's ``!`` command runs there): the one ``--work-tree``/``GIT_WORK_TREE`` names (from
    ``folder``), ``core.worktree``'s (``work_tree``: its value and the folder it is read
    from), and ``holder``, the folder holding the ``.git`` folder or ``gitdir:`` file git
    found above ``folder`` (a linked worktree's top, not ``<main>/.git/worktrees``), or
    ``folder`` itself for a repository named by ``--git-dir``/``GIT_DIR`` alone. All of them,
    not the one git would pick: git 2.39 ignores a ``-c core.worktree=…`` for an alias's
    command (review59 findings 6 and 7), and a wrong guess must not leave the real top
    unjudged. Empty outside a repository."""
    tops = []
    if named.get("--work-tree"):
        tops.append(os.path.normpath(os.path.join(folder, named["--work-tree"] or "")))  # noqa: PTH118
    if work_tree is not None:
        value, base = work_tree
        tops.append(os.path.normpath(os.path.join(base, value)))  # noqa: PTH118
    if holder is not None:
        tops.append(os.path.normpath(holder))
    elif named.get("--git-dir"):
        tops.append(os.path.normpath(folder))
    return tops


_PLACE_KEYS = frozenset({"core.worktree", "core.hookspath", "include.path"})
"""Settings naming a place ``git`` writes (its work tree), runs from (its hooks) or reads
more settings from (``includeIf.<condition>.path`` too): one ``git config`` sets to a value
built at run time makes the settings unknown."""
_CONFIG_VALUED = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment"})
"""``git config`` options taking the next word (``--file .git/config``)."""
_CONFIG_VERBS = frozenset({"set", "--add", "--replace-all", "add"})
"""``git config`` subcommands and modes writing ``KEY VALUE`` (``git config set k v``)."""


def _config_written(words: list[str]) -> tuple[str, str] | None:
    """The ``(key, value)`` a ``git config`` given ``words`` (after ``config``) writes: its
    first two operands after the options and their values (``--file F``, ``--type T``) and
    a ``set`` verb; None when it names fewer (``git config --get k``, ``git config -l``)."""
    operands: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in _CONFIG_VALUED:
            skip = True
        elif not word.startswith("-"):
            operands.append(word)
    if operands[:1] and operands[0] in _CONFIG_VERBS:
        operands = operands[1:]
    if len(operands) < 2:
        return None
    return _key(operands[0]), operands[1]


def _pair(setting: str) -> tuple[str, str]:
    """A ``-c key=value`` (or a key alone, true) as ``(key, value)``, the key lowercased but
    for a subsection."""
    key, _, value = setting.partition("=")
    return _key(key), value


def _key(key: str) -> str:
    """``key`` (``section[.sub].name``) with its section and name lowercased."""
    section, _, rest = key.partition(".")
    sub, _, name = rest.rpartition(".")
    return ".".join(part for part in (section.lower(), sub, name.lower()) if part)


def _truthy(value: str) -> bool:
    return value.strip().lower() in ("1", "true", "yes", "on")


def _environment_pairs(environ: Mapping[str, str], settings: GitSettings) -> list[tuple[str, str]]:
    """The settings ``GIT_CONFIG_COUNT``/``KEY_<n>``/``VALUE_<n>`` give; ``GIT_CONFIG_PARAMETERS``
    (``'key'='value'`` words, as ``git -c`` passes them on) read with :mod:`shlex`, unknown
    when it cannot be split."""
    pairs: list[tuple[str, str]] = []
    count = environ.get("GIT_CONFIG_COUNT", "").strip()
    if count:
        if not count.isdigit() or int(count) > 1_000:
            settings.unknown = f"GIT_CONFIG_COUNT={count}"
            return pairs
        for index in range(int(count)):
            key = environ.get(f"GIT_CONFIG_KEY_{index}", "")
            pairs.append((_key(key), environ.get(f"GIT_CONFIG_VALUE_{index}", "")))
    if parameters := environ.get("GIT_CONFIG_PARAMETERS"):
        try:
            pairs.extend(_pair(word) for word in split_words(parameters))
        except ValueError:
            settings.unknown = "GIT_CONFIG_PARAMETERS"
    return pairs


def _global_files(environ: Mapping[str, str]) -> list[str]:
    """The global settings files ``git`` reads with ``environ``: ``$GIT_CONFIG_GLOBAL``, or
    ``$XDG_CONFIG_HOME/git/config`` (``~/.config/git/config``) and ``~/.gitconfig`` of the
    home ``HOME`` names and of the account's."""
    if (named := environ.get("GIT_CONFIG_GLOBAL")) is not None:
        return [named] if named else []
    homes = [home for home in (environ.get("HOME"), account_home()) if home]
    configs = [environ.get("XDG_CONFIG_HOME") or "", *(f"{home}/.config" for home in homes)]
    return [f"{folder}/git/config" for folder in configs if folder] + [
        f"{home}/.gitconfig" for home in homes
    ]


def _git_dir(folder: str, named: str | None) -> tuple[str | None, str | None]:
    """The repository folder ``git`` run in ``folder`` uses and the folder holding its
    ``.git``: ``named`` (``GIT_DIR``, ``--git-dir``) from ``folder`` (no holder), else the
    first ``.git`` folder (or ``gitdir:`` file, a linked worktree's) in ``folder`` or above it
    and that folder; ``(None, None)`` outside a repository. A ``named`` regular file is a
    ``gitdir:`` file too, as git reads one (:func:`_gitfile_target`); ``""`` for one the
    guard cannot read (P-3)."""
    if named:
        path = os.path.join(folder, named)  # noqa: PTH118
        if os.path.isfile(path):  # noqa: PTH113
            return _gitfile_target(path) or "", None
        return path, None
    here = os.path.abspath(folder)  # noqa: PTH100
    while True:
        dot_git = os.path.join(here, ".git")  # noqa: PTH118
        if os.path.isdir(dot_git):  # noqa: PTH112
            return dot_git, here
        if os.path.isfile(dot_git):  # noqa: PTH113
            return _gitfile_target(dot_git) or "", here
        if here == os.path.dirname(here):  # noqa: PTH120
            return None, None
        here = os.path.dirname(here)  # noqa: PTH120


def _gitfile_target(path: str) -> str | None:
    """The repository folder the ``gitdir:`` file ``path`` names (relative to the file's
    folder, as git resolves it); None when it is unreadable or holds no ``gitdir:`` line."""
    data = read_settings_file(path, GIT_SETTINGS_CAP)
    line = (data or b"").decode("utf-8", "surrogateescape").strip()
    if not line.startswith("gitdir:") or not line[7:].strip():
        return None
    return os.path.join(os.path.dirname(path), line[7:].strip())  # noqa: PTH118, PTH120


def _common_dir(repository: str) -> str:
    """The folder a linked worktree's repository shares its ``config`` from (``commondir``)."""
    data = read_settings_file(os.path.join(repository, "commondir"), GIT_SETTINGS_CAP)  # noqa: PTH118
    if not data:
        return repository
    common = data.decode("utf-8", "surrogateescape").strip()
    return os.path.join(repository, common)  # noqa: PTH118


class _Reader:
    """Reads settings files into a :class:`GitSettings`, following includes."""

    __slots__ = ("_environ", "_files", "_hooks_path", "_settings", "work_tree")

    def __init__(self, settings: GitSettings, environ: Mapping[str, str]) -> None:
        self._settings = settings
        self._environ = environ
        self._files = 0
        self._hooks_path: tuple[str, str] | None = None  # (value, folder it is read from)
        self.work_tree: tuple[str, str] | None = None  # ``core.worktree``: (value, its folder)

    def read(self, file: str, folder: str, depth: int = 0) -> None:
        """Take the settings of ``file`` (skipped when it does not exist, as git skips it)."""
        if self._settings.unknown is not None or not os.path.lexists(file):
            return
        self._files += 1
        data = read_settings_file(file, GIT_SETTINGS_CAP) if self._files <= GIT_FILES_CAP else None
        if data is None:
            self._settings.unknown = file
            return
        text = data.decode("utf-8", "surrogateescape")
        self._settings.text.append(text)
        base = os.path.dirname(file)  # noqa: PTH120
        self.take(parse_git_config(text), base, folder, depth)

    def take(self, pairs: list[tuple[str, str]], base: str, folder: str, depth: int = 0) -> None:
        """Take ``pairs`` read from a file in ``base`` (or the command, ``base`` its folder)."""
        for key, value in pairs:
            self._settings.text.append(f"{key}={value}")
            section, _, name = key.rpartition(".")
            top = section.partition(".")[0]
            if name == "path" and top in ("include", "includeif"):
                if depth >= _INCLUDE_DEPTH:
                    self._settings.unknown = f"{key}={value} (includes {_INCLUDE_DEPTH} deep)"
                    return
                self.read(self._included(value, base), folder, depth + 1)
            elif key == "core.hookspath":
                self._hooks_path = (value, folder)
            elif key == "core.worktree":
                self.work_tree = (value, base)
            elif top == "alias" and value.startswith("!"):
                self._settings.commands.append((key, value[1:]))
            elif name in GIT_COMMAND_KEYS or top == "pager":
                switch = name in ("fsmonitor", "pager") or top == "pager"
                if not (switch and value.strip().lower() in _BOOLEANS):  # ``fsmonitor = true``
                    command = value[1:] if value.startswith("!") else value
                    self._settings.commands.append((key, command))

    def _included(self, value: str, base: str) -> str:
        """The file an include's ``value`` names, read from ``base`` (``~/`` the home)."""
        if value.startswith("~/"):
            home = self._environ.get("HOME") or account_home()
            return home + value[1:]
        return os.path.join(base, value)  # noqa: PTH118

    def read_hooks(self, repository: str, folder: str) -> None:
        """Take the text of every hook script ``git`` may run: in ``core.hooksPath`` (from
        the folder it was set for) or the repository's ``hooks`` folder; unknown when the
        folder cannot be listed or holds more than the files left to read."""
        if self._hooks_path is not None:
            value, base = self._hooks_path
            if value.startswith("~/"):
                value = (self._environ.get("HOME") or account_home()) + value[1:]
            hooks = os.path.join(base, value)  # noqa: PTH118
        else:
            hooks = os.path.join(_common_dir(repository), "hooks")  # noqa: PTH118
        if not os.path.isdir(hooks):  # noqa: PTH112
            return
        try:
            names = sorted(os.listdir(hooks))  # noqa: PTH208
        except OSError:
            self._settings.unknown = hooks
            return
        for name in names:
            if name.endswith(".sample"):
                continue  # git runs no ``.sample`` hook
            if self._files >= GIT_FILES_CAP:
                self._settings.unknown = f"{hooks} (more than {GIT_FILES_CAP} files)"
                return
            self._files += 1
            path = os.path.join(hooks, name)  # noqa: PTH118
            if os.path.isdir(path):  # noqa: PTH112
                continue  # husky's ``_`` folder: its scripts are judged where hooksPath names it
            data = read_settings_file(path, GIT_SETTINGS_CAP)
            if data is None:
                self._settings.unknown = path
                return
            self._settings.text.append(data.decode("utf-8", "surrogateescape"))
