"""What an install writes into any harness: the hook commands and how to recognise ours (H-3).

Every hook command an installer writes runs ``<python> -I -X utf8 <harness-memory> hook
<harness> <event> …flags`` with the service URL, project, agent and memory root as flags
(P-2a: they come from the harness's own user settings, never from a Workspace, whose settings
can set the hooks' environment: hence :data:`ISOLATED`, the hooks' Python isolated from it).
:func:`is_ours` recognises those commands again, so an install replaces exactly its own entries
and an uninstall removes exactly them; every other hook in the file is kept as it is.
"""

from __future__ import annotations

import copy
import itertools
import os
import re
import shlex
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from harness_memory.settings import same_service

__all__ = [
    "ISOLATED",
    "HookHome",
    "InstallOptions",
    "flag_values",
    "guard_fails_closed",
    "hook_program",
    "installed_roots",
    "is_ours",
    "our_commands",
    "our_flag_values",
    "reach_note",
    "root_changes",
    "same_service",
    "shell_word",
    "without_our_roots",
]

_OURS_RE = re.compile(r"harness-memory['\"]? +hook +(?P<harness>[a-z-]+) ")
"""A hook command this plugin wrote: ``… harness-memory hook <harness> …`` (the program's path
quoted or not)."""


@dataclass(frozen=True, slots=True)
class InstallOptions:
    """The settings an install writes: ``executable`` is the ``harness-memory`` command to run,
    ``memory_root`` the directory the write guard protects (and the offline fallback reads,
    H-4; None for an uninstall that finds it in the entries it wrote); ``home`` the user's home
    directory, whose harness settings files are changed; ``token`` an optional bearer token,
    written where the harness keeps hook environment (Claude Code's ``env``) or into the
    install's token file (:data:`~harness_memory.installers.record.TOKEN_NAME`, mode 0600)."""

    executable: str
    url: str
    project: str
    agent: str
    memory_root: Path | None
    home: Path
    token: str | None = None
    timeout: float | None = None
    managed_dir: Path | None = None
    """Install into the harness's settings for every user, not the user's: Claude Code's
    managed settings and Codex CLI's requirements in this folder, Gemini CLI's system settings
    in this file (a path ending in ``.json``) or folder."""
    interpreter: Path | None = None
    """The absolute Python every hook command starts :attr:`executable` with, isolated
    (``PYTHON -I SCRIPT``: :func:`~harness_memory.installers.executable.isolated_interpreter`);
    None: the command starts :attr:`executable` itself."""
    remote_state_dir: Path | None = None
    """Remote mode (R-1): the state dir every harness's hooks share, which holds the local copy
    (``memory_root`` is inside it); every hook command gets ``--remote on --state-dir`` it.
    None: the hooks use the service's own memory root."""
    url_id_not_secret: bool = False
    """The user said the UUID or hex id in :attr:`url`'s path is no secret
    (``--url-id-not-secret``: a tenant's id a gateway routes by, A-10): the install record
    keeps that of this URL, and ``status`` does not warn of it."""
    settings_file: Path | None = None
    """The settings file the plan writes these hooks into, named by a guard's refusal when its
    program is gone (:func:`guard_fails_closed`); None: the harness's file in :attr:`home`."""
    dry_run: bool = False
    """``--dry-run``: what the plan says it drops is said as what it would drop (A-10)."""
    no_check: bool = False
    """``--no-check``: settings prepared for another machine, which this one's say nothing of:
    the plan reads none of this machine's managed settings (H-7)."""
    kept_token: Path | None = None
    """The token file of the hooks installed before that records a service neither they nor
    this install name (the user's ``token set --url``, A-10): never removed or replaced; with
    no :attr:`token` the hooks go on naming it (and refuse it until it holds this service's),
    and a :attr:`token` to be written there is refused."""

    @property
    def remote(self) -> bool:
        """Whether the hooks run in remote mode (R-1)."""
        return self.remote_state_dir is not None

    def hook_command(
        self,
        harness: str,
        event: str,
        *,
        state_dir: Path | None = None,
        token_file: Path | None = None,
    ) -> str:
        """The shell command of one hook: ``PYTHON -I -X utf8 harness-memory hook HARNESS EVENT
        --url … … --flags-only``. A repository's settings can set the variables of a Session's
        environment (P-2a): the hook's settings are its flags alone, and its Python, named by
        absolute path, runs isolated (:data:`ISOLATED`: no ``PYTHONPATH``, ``PYTHONHOME``, user
        site-packages, locale; without :attr:`interpreter` the command starts
        :attr:`executable` itself).

        ``token_file`` (for harnesses whose settings give hooks no environment of their own)
        is named with ``--token-file``: the token itself is never on a command line, which
        every user of the machine can read (``ps``). In remote mode the command adds
        ``--remote on`` and names :attr:`remote_state_dir` as its state dir. Each word is quoted
        by :func:`shell_word`.
        """
        python = [str(self.interpreter), *ISOLATED] if self.interpreter is not None else []
        words = [*python, self.executable, "hook", harness, event]
        words += ["--url", self.url, "--project", self.project, "--agent", self.agent]
        words += ["--memory-root", str(self.memory_root)]
        if self.timeout is not None:
            words += ["--timeout", f"{self.timeout:g}"]
        if token_file is not None:
            words += ["--token-file", str(token_file)]
        if self.remote_state_dir is not None:
            words += ["--remote", "on"]
            state_dir = self.remote_state_dir
        if state_dir is not None:
            words += ["--state-dir", str(state_dir)]
        if self.url_id_not_secret:  # its refusals then name the URL whole
            words.append("--url-id-not-secret")
        words.append("--flags-only")  # a repository's env cannot override these (P-2a)
        command = " ".join(shell_word(word) for word in words)
        if event not in GUARD_EVENTS:
            return command
        settings = self.settings_file or _default_settings(harness, self.home)
        gone = HookHome(harness, settings, self.home)
        return command + guard_fails_closed(self.executable, gone, managed=self.managed_dir)


@dataclass(frozen=True, slots=True)
class HookHome:
    """Where a hook command is installed: its ``harness``, the ``settings`` file holding it and
    the ``home`` it was installed for (``--home``; None: not known)."""

    harness: str
    settings: Path
    home: Path | None = None

    def uninstall_words(self, managed: Path | None) -> list[str]:
        """The ``harness-memory uninstall`` command, as words, that finds these hooks again from
        any shell: ``--home``, ``--managed DIR`` (the ``managed`` folder they were installed
        with), and for user settings a variable moving them (``CLAUDE_CONFIG_DIR``,
        ``CODEX_HOME``, ``GEMINI_CLI_HOME``) as ``VAR=DIR`` before it (H-3)."""
        words = ["harness-memory", "uninstall", self.harness]
        if self.home is not None:
            words += ["--home", str(self.home)]
            moved = self.settings != _default_settings(self.harness, self.home)
            if managed is None and moved:
                variable, folder = {
                    "claude-code": ("CLAUDE_CONFIG_DIR", self.settings.parent),
                    "codex": ("CODEX_HOME", self.settings.parent),
                }.get(self.harness, ("GEMINI_CLI_HOME", self.settings.parent.parent))
                words.insert(0, f"{variable}={folder}")
        return words + (["--managed", str(managed)] if managed is not None else [])


def _default_settings(harness: str, home: Path) -> Path:
    """The user settings file of ``harness`` in ``home`` when no variable moves it."""
    relative = {"claude-code": ".claude/settings.json", "codex": ".codex/hooks.json"}
    return home / relative.get(harness, ".gemini/settings.json")


ISOLATED = ("-I", "-X", "utf8")
"""The options every hook command starts its Python with, so that no variable a repository's
settings set changes what the hook runs or how it reads paths (P-2a): ``-I`` reads no
``PYTHON*`` variable and no user site-packages, and keeps the script's folder and the working
directory off ``sys.path``; ``-X utf8`` decodes and encodes file names, arguments and the
harness's pipes in UTF-8, as the harnesses (Node) do, whatever locale ``LC_ALL``/``LANG`` (with
``LOCPATH``, one compiled into the repository) name: under ISO-8859-1 the guard read a memory
root holding ``é`` as another folder than the tool's path, and allowed the write."""


def shell_word(word: str) -> str:
    r"""``word`` as one word of a POSIX shell command: :func:`shlex.quote`, except that a word
    holding ``$`` is written as single-quoted parts joined by ``\$``.

    Gemini CLI (0.61, ``expandCommand``) replaces ``$GEMINI_PROJECT_DIR``, ``$GEMINI_CWD``,
    ``$GEMINI_PLANS_DIR``, ``$GEMINI_SESSION_ID`` and ``$CLAUDE_PROJECT_DIR`` in a hook command's
    text before the shell runs it, inside quotes too. Here no ``$`` is directly followed by a
    name, so a path holding one reaches the hook as it is; a POSIX shell reads ``\$`` outside
    quotes as a plain ``$`` (tests/plugin/test_h7_token_file.py runs ``sh`` and ``bash``).
    """
    if "$" not in word:
        return shlex.quote(word)
    parts = (part.replace("'", "'\"'\"'") for part in word.split("$"))
    return "\\$".join(f"'{part}'" if part else "" for part in parts)


GUARD_EVENTS = ("pre-tool-use", "before-tool")


def guard_fails_closed(
    program: str, installed: HookHome | None = None, *, managed: Path | None = None
) -> str:
    """What every guard hook command ends with, its ``program`` (the ``harness-memory`` it
    starts) named as the command names it, shell-quoted: ``|| { printf '%s\\n' 'Agent Memory:
    the write guard did not run …; run `'/opt/am/.venv/bin/harness-memory' status` …' >&2;
    exit 2; }``. ``printf '%s\\n'``, not ``echo``: dash's ``echo`` (``/bin/sh`` on Debian)
    reads ``\\n`` and ``\\c`` in a path as a line break and an end of output.

    The hook itself always exits 0 (P-2), so a failure means the command is gone (a removed
    checkout, a moved environment) or cannot read its own command line. Exit status 2 makes
    Claude Code, Codex CLI and Gemini CLI refuse the tool call and show the reason, so the
    guard is never lost silently (the harnesses run hook commands through a shell). A bare
    ``harness-memory`` is on no ``PATH`` of an install from a clone (``.venv/bin``): the
    message names the program the command ran. With ``installed`` (the harness and settings
    file the hooks are in; ``managed``: the ``--managed`` folder they were installed with) it
    also says the way out when that checkout is gone for good: every call of the tools the
    guard sees is refused until the hooks go, by ``uninstall`` from any other install or by
    hand from that file (H-3)."""
    named = program if program == "harness-memory" else shlex.quote(program)
    said = (
        "Agent Memory: the write guard did not run (its command failed or is missing), so this "
        f"call is refused; run `{named} status` (from where that checkout is now, if it moved)"
    )
    if installed is not None:
        uninstall = " ".join(map(_said, installed.uninstall_words(managed)))
        said += (
            "; if it is gone, every such call is refused until its hooks go: run "
            f"`{uninstall}` from another install (a fresh clone's "
            ".venv/bin/harness-memory, or the plugin README's Install without the checkout), "
            f"or delete the hooks that run {named} from {installed.settings}"
        )
    return f" || {{ printf '%s\\n' {shell_word(said)} >&2; exit 2; }}"


def _said(word: str) -> str:
    """``word`` quoted for a user's shell; a leading ``VAR=value`` stays an assignment."""
    name, is_set, value = word.partition("=")
    if is_set and name.isidentifier() and name.isupper():
        return f"{name}={shlex.quote(value)}"
    return shlex.quote(word)


def is_ours(command: object, harness: str) -> bool:
    """Whether a hook ``command`` is one this plugin wrote for ``harness``."""
    if not isinstance(command, str):
        return False
    match = _OURS_RE.search(command + " ")
    return match is not None and match.group("harness") == harness


def our_commands(document: Any, harness: str) -> list[str]:
    """Every hook command of ``harness`` this plugin wrote into a settings ``document``."""
    return [command for command in _hook_commands(document) if is_ours(command, harness)]


def flag_values(command: str, flag: str) -> list[str]:
    """The values of ``flag`` in a shell ``command`` (``--flag value`` or ``--flag=value``)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return []
    values = [w[len(flag) + 1 :] for w in words if w.startswith(flag + "=")]
    values += [after for before, after in itertools.pairwise(words) if before == flag]
    return [value for value in values if value]


def our_flag_values(texts: Iterable[str | None], flag: str) -> set[str]:
    """The values of ``flag`` in the hook commands this plugin wrote (``… harness-memory hook
    <harness> …``, :func:`is_ours`, of any harness) in the hooks of the settings ``texts``
    (JSON, JSONC or TOML): only a handler's ``command`` in ``hooks.<event>[].hooks[]``, where
    every installer writes its hooks (Claude Code's and Gemini CLI's ``settings.json``, Codex's
    ``hooks.json`` and the ``[[hooks.<event>]]`` of its ``config.toml``). Never another string
    there that merely reads like one (a ``statusLine``, a ``permissions.allow`` entry, an
    ``env`` value, H-7). A text that is neither JSON (with comments) nor TOML gives none."""
    found: set[str] = set()
    for text in texts:
        for command in _hook_commands(_settings_document(text or "")):
            if _OURS_RE.search(command + " "):
                found.update(flag_values(command, flag))
    return found


def _settings_document(text: str) -> Any:
    """The value of a settings ``text``, JSON (with comments) or TOML; None for neither."""
    import tomllib

    from harness_memory.installers.jsonc import loads
    from harness_memory.installers.settings_text import split_mark

    _, plain = split_mark(text)  # a UTF-16 file's text starts with its mark: Claude Code reads it
    for parse in (loads, tomllib.loads):
        try:
            return parse(plain or "")
        except ValueError:  # JsoncError, TOMLDecodeError
            continue
    return None


def _hook_commands(document: Any) -> list[str]:
    """Every handler ``command`` in ``document``'s ``hooks.<event>[].hooks[]`` (a string)."""
    hooks = document.get("hooks") if isinstance(document, dict) else None
    events = [v for v in hooks.values() if isinstance(v, list)] if isinstance(hooks, dict) else []
    groups = [group for event in events for group in event if isinstance(group, dict)]
    handlers = [h for g in groups if isinstance(g.get("hooks"), list) for h in g["hooks"]]
    commands = [h.get("command") for h in handlers if isinstance(h, dict)]
    return [command for command in commands if isinstance(command, str)]


def hook_program(command: str) -> tuple[str | None, str]:
    """``(python, harness-memory)`` a hook command starts: ``PYTHON -I -X utf8 SCRIPT hook …``
    gives both, ``SCRIPT hook …`` (an install from before ``-I``) no Python; so does one
    whose Python is not started with every option of :data:`ISOLATED`."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    start = len(ISOLATED) + 1
    if tuple(words[1:start]) == ISOLATED and len(words) > start:
        return words[0], words[start]
    return None, words[0] if words else command


def installed_roots(document: Any, harness: str) -> list[str]:
    """The memory roots our ``harness`` hooks in ``document`` name (``--memory-root``), each
    once, normalised: where an uninstall finds the root it must take out again."""
    roots: list[str] = []
    for command in our_commands(document, harness):
        for root in flag_values(command, "--memory-root"):
            if os.path.normpath(root) not in roots:
                roots.append(os.path.normpath(root))
    return roots


Settings = TypeVar("Settings")


def without_our_roots(
    settings: Settings, hooks: Any, harness: str, take_out: Callable[[Settings, str], None]
) -> Settings:
    """A copy of ``settings`` with the entries of each memory root our ``harness`` hooks in
    ``hooks`` name (:func:`installed_roots`) taken out by ``take_out`` (the uninstall's own
    step): what an install records it found on the way to its lists from (H-3), and settings
    without our hooks are copied as they are. After an install from before the record kept
    that (an upgrade: its record has no ``made:``), this is the settings as the user had them
    but for one thing: the step drops a table it leaves empty, and the old record cannot tell
    one the old install made from one the user had empty (``{"permissions": {}}``,
    ``{"context": {}}``, an empty ``[sandbox_workspace_write]``), so such a table reads as
    absent, and the uninstall does not give it back."""
    found = copy.deepcopy(settings)
    for root in installed_roots(hooks, harness):
        take_out(found, root)
    return found


def reach_note(subject: str, effect: str, gone: list[str], added: str | None) -> list[str]:
    """The install summary's line for the settings ``subject`` that now name the memory root
    ``added`` (``root_changes``' answer, with ``gone``): "``subject`` the memory root ROOT:
    ``effect``", and the former roots taken out. An empty list when nothing was added (an
    uninstall). ``subject`` holds its verb ("Codex CLI's sandbox: … names"); H-3: the user
    reads every setting an install widened, not only the switches it turned off."""
    if added is None:
        return []
    former = "".join(f"; the former memory root {root} taken out" for root in gone)
    return [f"{subject} the memory root {added}: {effect}{former}."]


def root_changes(
    document: Any, harness: str, options: InstallOptions, *, install: bool
) -> tuple[list[str], str | None]:
    """``(roots whose entries go, root whose entries are added)`` for a plan on ``document``.

    An install adds ``options.memory_root`` and takes out the entries of any other root our
    former hooks named; an uninstall takes out every root our hooks name, and the one given.
    """
    given = None if options.memory_root is None else os.path.normpath(options.memory_root)
    found = installed_roots(document, harness)
    if install:
        return [root for root in found if root != given], given
    return found + ([given] if given is not None and given not in found else []), None
