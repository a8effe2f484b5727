"""The settings files a command points a program at by name, which it may write first (P-3).

A program told which settings file to read (``npm_config_userconfig=u.rc npm …``,
``PIP_CONFIG_FILE=p.cfg pip …``, ``bash --rcfile r.sh -i``, ``BASH_ENV``/``ENV``, ``git -c
include.path=h.cfg``, ``--config-env``, ``GIT_CONFIG_GLOBAL``/``GIT_CONFIG_SYSTEM``/
``GIT_CONFIG``, an include in ``GIT_CONFIG_KEY_<n>``/``GIT_CONFIG_PARAMETERS``) reads it when
it starts; the same command can write it just before (``printf 'cache=' > u.rc; cat target
>> u.rc; …``), under any name. The guard reads settings when it judges the command, so such
a file missing then, or written by the command, cannot be known: :func:`pointed_files` names
them for the guard to refuse the command (a read error never widens access).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from harness_memory.hooks.option_words import option_values, table_for
from harness_memory.hooks.shell_startup import STARTUP_SHELLS, shell_home, startup_files
from harness_memory.hooks.shell_words import split_words

__all__ = ["npm_option_files", "pointed_files"]

_NPM_VARIABLES = ("npm_config_userconfig", "npm_config_globalconfig")
_NPM_OPTIONS = ("--userconfig", "--globalconfig")
_GIT_FILE_VARIABLES = ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG")
_STANDARD_STARTUP = (".bash_profile", ".bash_login", ".profile", ".bashrc")


def pointed_files(
    program: str, base: str, words: list[str], environ: Mapping[str, str]
) -> list[str]:
    """The settings files ``program`` (``npm``, ``pip``, ``git`` or a shell of
    :data:`~harness_memory.hooks.shell_startup.STARTUP_SHELLS`) run in the folder ``base``
    with ``words`` (its options and operands) and ``environ`` (with the command's own
    assignments) is pointed at by name, each joined to ``base`` (``~/`` read as ``HOME``; a
    ``$`` left in one built at run time). Its standard files are not named here."""
    home = environ.get("HOME", "")
    if program == "npm":
        lowered = {name.lower(): value for name, value in environ.items()}
        named = [lowered.get(variable, "") for variable in _NPM_VARIABLES]
        named += [value for _, value in option_values(words, table_for("npm"), _NPM_OPTIONS)]
    elif program == "pip":
        named = [environ.get("PIP_CONFIG_FILE", "")]
        named = [file for file in named if file != os.devnull]
    elif program == "git":
        named = [environ.get(variable, "") for variable in _GIT_FILE_VARIABLES]
        named = [file for file in named if file != os.devnull]
        named += _git_includes(words, environ)
    elif program in STARTUP_SHELLS:
        standard = {"/etc/profile", "/etc/bash.bashrc"}
        shell = shell_home(environ).rstrip("/")  # where bash reads them, as startup_files
        standard |= {f"{shell}/{name}" for name in _STANDARD_STARTUP}
        named = [file for file in startup_files(program, words, environ) if file not in standard]
    else:
        return []
    found = [home + file[1:] if file.startswith("~/") and home else file for file in named]
    return [os.path.join(base, file) for file in found if file]  # noqa: PTH118


def npm_option_files(words: list[str]) -> dict[str, str]:
    """``npm``'s ``--userconfig FILE`` and ``--globalconfig FILE`` among ``words`` (its
    options and operands) as the variables naming the same files (``npm_config_userconfig``
    …), for its settings to be read as it reads them."""
    found: dict[str, str] = {}
    for option, variable in zip(_NPM_OPTIONS, _NPM_VARIABLES, strict=True):
        values = [value for _, value in option_values(words, table_for("npm"), (option,)) if value]
        if values:
            found[variable] = values[-1]
    return found


def _git_includes(words: list[str], environ: Mapping[str, str]) -> list[str]:
    """The files ``include.path``/``includeIf.*.path`` name in ``git``'s ``-c`` and
    ``--config-env`` options before its subcommand, ``GIT_CONFIG_KEY_<n>`` and
    ``GIT_CONFIG_PARAMETERS`` (where that cannot be split: itself, a ``$`` name)."""
    pairs: list[tuple[str, str]] = []
    at = 0
    while at < len(words):
        word = words[at]
        if word in ("-c", "-C"):
            if word == "-c" and at + 1 < len(words):
                key, _, value = words[at + 1].partition("=")
                pairs.append((key, value))
            at += 2
            continue
        if word.startswith("--config-env"):
            setting = word.partition("=")[2] or (words[at + 1] if at + 1 < len(words) else "")
            key, _, name = setting.partition("=")
            pairs.append((key, environ.get(name, f"${name}")))
        elif not word.startswith("-"):
            break
        at += 1
    count = environ.get("GIT_CONFIG_COUNT", "").strip()
    if count.isdigit():
        for index in range(min(int(count), 1_000)):
            pairs.append(
                (
                    environ.get(f"GIT_CONFIG_KEY_{index}", ""),
                    environ.get(f"GIT_CONFIG_VALUE_{index}", ""),
                )
            )
    if parameters := environ.get("GIT_CONFIG_PARAMETERS"):
        try:
            pairs.extend(word.partition("=")[::2] for word in split_words(parameters))
        except ValueError:
            return ["$GIT_CONFIG_PARAMETERS"]
    files: list[str] = []
    for key, value in pairs:
        section, _, name = key.lower().rpartition(".")
        if name == "path" and section.partition(".")[0] in ("include", "includeif"):
            files.append(value)
    return files
