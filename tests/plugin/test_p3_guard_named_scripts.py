"""P-3: a script that settings the guard reads run is read for the memory its text names.

The guard judges a shell's startup files (``$BASH_ENV``, ``~/.bashrc`` with ``-i``, the
profiles with ``-l``, ``$ENV``) and git's ``!`` aliases as commands of the call, but what such
a command runs from another file it let through unread: a ``~/.bashrc`` holding ``source
./x.sh`` (or ``. x.sh``, ``bash ./x.sh``, ``./x.sh``, a ``for`` loop sourcing ``./*.sh``,
``export BASH_ENV=./x.sh``) where ``x.sh`` copies a note into another Workspace's scope, and
``bash -ic 'ls'`` wrote there (measured below: each refused form is then run by bash, and the
file lands there). Now each such script is read as a script the agent's own command runs
(``bash ./x.sh``) is: refused when its text names other memory (a file sourced by a file
sourced … up to ``SCRIPT_DEPTH`` deep), when it is written by the same command, or cannot be
read (past ``SCRIPT_CAP``, 1 MiB). Its commands are not judged as the call's (nvm's
``nvm.sh`` writes places it builds at run time: the harness's sandbox fences them, as it
fences ``bash ./x.sh``), nor is a script named at run time read. A missing one runs nothing,
a compiled program is a program like any other, and what a shell that is not interactive
returns before (Debian's ``case $- in *i*) ;; *) return;; esac``) is not read.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import pytest
from harness_memory.hooks import named_scripts
from harness_memory.hooks.named_scripts import SCRIPT_CAP, nested_scripts, non_interactive_part

from tests.support.guard_cases import SHELL, Layout, answer, refusal

if TYPE_CHECKING:
    from _typeshed import TraceFunction

WRITES = 'cp note.md "$(cat target)"/a.md\n'
"""A script's line writing into the folder ``target`` names, built at run time."""


def _names(where: Layout) -> str:
    """A script's line writing into the other scope, which its text names."""
    return f'cp note.md "{where.root / where.other}/a.md"\n'


def _environment(where: Layout, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The harness's environment (for the guard and for bash), a note, the ``target`` file
    naming the other scope (in the Workspace and the home), and ``x.sh`` writing there."""
    for name in ("BASH_ENV", "ENV", "PS1"):
        monkeypatch.delenv(name, raising=False)
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(where.data)}
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    other = where.root / where.other
    for folder in (where.workspace, where.data):
        (folder / "target").write_text(f"{other}\n", encoding="utf-8")
        (folder / "note.md").write_text("x\n", encoding="utf-8")
    script = where.workspace / "x.sh"
    script.write_text(f"#!/bin/sh\n{_names(where)}", encoding="utf-8")
    script.chmod(0o755)
    return environment


def _run(where: Layout, environment: dict[str, str], command: str) -> None:
    """``command`` run by bash in the Workspace with the harness's ``environment``."""
    subprocess.run(
        ["bash", "-c", command],
        cwd=where.workspace,
        env=environment,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )


SOURCED = [
    ("~/.bashrc", "source ./x.sh\n", "bash -ic 'ls'"),
    ("~/.bashrc", ". x.sh\n", "bash -ic 'ls'"),
    ("~/.bashrc", "bash ./x.sh\n", "bash -ic 'ls'"),
    ("~/.bashrc", "sh -e x.sh\n", "bash -ic 'ls'"),
    ("~/.bashrc", "./x.sh\n", "bash -ic 'ls'"),
    ("~/.bashrc", "[ -f x.sh ] && . ./x.sh || true\n", "bash -ic 'git status' || true"),
    ("~/.bashrc", 'for f in ./*.sh; do . "$f"; done\n', "bash -ic 'ls'"),
    ("~/.bashrc", "BASH_ENV=./x.sh bash -c true\n", "bash -ic 'ls'"),
    ("~/.bashrc", "export BASH_ENV=./x.sh\n", "bash -ic 'bash -c ls'"),
    ("~/.bashrc", "source ./y.sh\n", "bash -ic 'ls'"),
    ("~/.bash_profile", "source ./x.sh\n", "bash -lc 'ls'"),
    ("~/.profile", ". ./x.sh\n", "sh -lc 'ls'"),
    ("~/.profile", '. "$HOME/.bashrc"\n', "bash --login -c 'npm test' || true"),
    ("BASH_ENV", "source ./x.sh\n", "bash -c 'ls'"),
    ("ENV", ". ./x.sh\n", "sh -ic 'ls'"),
    (".git/config", "[alias]\n\tt = !./x.sh\n", "git t"),
    (".git/config", "[alias]\n\tt = !bash -c 'source ./x.sh'\n", "git t"),
]
"""A settings file (a variable of the harness's environment naming ``conf/start.sh``, a file
of the home, the data dir here, or of the Workspace), a line of it running ``x.sh`` (through
``y.sh``, which sources it, or ``~/.bashrc``, which does), and a command reading it."""


@pytest.mark.parametrize(("file", "line", "command"), SOURCED)
def test_p3_a_script_settings_run_that_writes_into_another_scope_is_refused(
    where: Layout,
    monkeypatch: pytest.MonkeyPatch,
    file: str,
    line: str,
    command: str,
) -> None:
    """Written in earlier calls (as a file tool would); the command reading the settings is
    refused by each harness's hook, naming the script; run by bash, it writes into the other
    scope (what bash does does not depend on the harness: run once, after the three
    verdicts)."""
    environment = _environment(where, monkeypatch)
    (where.workspace / "y.sh").write_text(". ./x.sh\n", encoding="utf-8")
    (where.data / ".bashrc").write_text(f"cd {where.workspace}\nsource ./x.sh\n")
    if file in ("BASH_ENV", "ENV"):
        (where.workspace / "conf").mkdir()
        place = where.workspace / "conf" / "start.sh"
        environment[file] = str(place)
        monkeypatch.setenv(file, str(place))
    elif file.startswith("~/"):
        place = where.data / file[2:]
    else:
        subprocess.run(["git", "init", "-q"], cwd=where.workspace, check=True)
        place = where.workspace / file
    start = "" if file.startswith(".git") else f"cd {where.workspace}\n"
    with place.open("a", encoding="utf-8") as settings:
        settings.write(f"{start}{line}")

    for harness, (_, tool) in SHELL.items():
        reason = refusal(answer(where, harness, tool, {"command": command}))
        assert reason is not None and "x.sh" in reason and "run" in reason, (harness, reason)
    _run(where, environment, command)
    assert (where.root / where.other / "a.md").exists(), f"nothing landed: no bypass ({line})"


@pytest.mark.parametrize(
    "command",
    [
        "echo '. ./y.sh' > x.sh; bash -ic 'ls'",
        "cp y.sh x.sh && bash -ic ls",
        "cat y.sh >> ./x.sh; bash -ic ls",
    ],
)
def test_p3_a_script_settings_run_written_by_the_same_command_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """The guard reads the script when it judges the command: one the command writes first
    (missing then, or harmless) cannot be judged."""
    environment = _environment(where, monkeypatch)
    (where.workspace / "x.sh").unlink()
    (where.workspace / "y.sh").write_text(WRITES, encoding="utf-8")
    (where.data / ".bashrc").write_text(f"cd {where.workspace}\nsource ./x.sh\n")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "written by the same command" in reason, reason
    _run(where, environment, command)
    assert (where.root / where.other / "a.md").exists(), f"nothing landed: no bypass ({command})"


def test_p3_a_script_written_by_the_settings_that_run_it_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    environment = _environment(where, monkeypatch)
    (where.workspace / "x.sh").unlink()
    rc = f"cd {where.workspace}\ncat y.sh > x.sh\n. ./x.sh\n"
    (where.data / ".bashrc").write_text(rc, encoding="utf-8")
    (where.workspace / "y.sh").write_text(WRITES, encoding="utf-8")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": "bash -ic ls"}))

    assert reason is not None and "written by the same command" in reason, reason
    _run(where, environment, "bash -ic ls")
    assert (where.root / where.other / "a.md").exists()


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (". ./fifo.sh\n", "no regular file"),
        (". ./big.sh\n", f"longer than {SCRIPT_CAP} bytes"),
        (". ./deep1.sh\n", "deep"),
    ],
)
def test_p3_a_script_the_guard_cannot_read_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, line: str, said: str
) -> None:
    """A FIFO (opened without waiting), longer than the cap, or sourcing
    scripts deeper than the guard follows: refused, saying why."""
    _environment(where, monkeypatch)
    os.mkfifo(where.workspace / "fifo.sh")
    (where.workspace / "big.sh").write_text("true\n" * (SCRIPT_CAP // 5 + 1))
    for depth in range(1, 6):
        (where.workspace / f"deep{depth}.sh").write_text(f". ./deep{depth + 1}.sh\n")
    (where.workspace / "deep6.sh").write_text("true\n")
    (where.data / ".bashrc").write_text(f"cd {where.workspace}\n{line}", encoding="utf-8")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": "bash -ic 'ls'"}))

    assert reason is not None and said in reason, reason


def test_p3_a_long_script_settings_run_that_names_other_memory_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the 64 KiB the guard follows a script's own scripts (160 KiB, nvm's size), its
    text is still read whole for the memory it names; run by bash, it writes there."""
    environment = _environment(where, monkeypatch)
    padding = "# nvm_ls_remote() { …; }\n" * 6_000
    (where.workspace / "big.sh").write_text(f"{padding}{_names(where)}", encoding="utf-8")
    (where.data / ".profile").write_text(f"cd {where.workspace}\n. ./big.sh\n")

    reason = refusal(answer(where, "codex", "Bash", {"command": "bash -lc 'ls'"}))

    assert reason is not None and "big.sh" in reason and "other memory" in reason, reason
    _run(where, environment, "bash -lc 'ls'")
    assert (where.root / where.other / "a.md").exists()


@pytest.mark.parametrize(
    "line",
    [
        ". ./w.sh\n",
        'source "$(cat name)"\n',
        '[ -f "$(dirname w.sh)/w.sh" ] && source "$(dirname w.sh)/w.sh"\n',
    ],
)
def test_p3_a_script_settings_run_is_judged_as_one_the_agents_own_command_runs(
    where: Layout, monkeypatch: pytest.MonkeyPatch, line: str
) -> None:
    """A script whose text names no memory (``w.sh`` writes where a file it reads names), or
    one named at run time (``source $(brew --prefix)/etc/bash_completion``), gets the answer
    ``bash ./w.sh`` gets: its commands are not judged as the call's, and what it writes is
    fenced by the harness's sandbox (``docs/security.md``), not by the guard."""
    _environment(where, monkeypatch)
    (where.workspace / "w.sh").write_text(WRITES, encoding="utf-8")
    (where.workspace / "name").write_text("w.sh\n", encoding="utf-8")
    (where.data / ".bashrc").write_text(f"cd {where.workspace}\n{line}", encoding="utf-8")

    own = answer(where, "claude-code", "Bash", {"command": "bash ./w.sh"})
    assert answer(where, "claude-code", "Bash", {"command": "bash -ic 'ls'"}) == own is None


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("[ -f ~/.bash_aliases ] && . ~/.bash_aliases\n", "bash -ic 'ls'"),
        (". ./missing.sh 2>/dev/null || true\n", "bash -ic 'make build' || true"),
        ("source ~/.bashrc\n", "bash -ic 'ls'"),
        ('for f in ~/.bashrc.d/*.sh; do . "$f"; done\n', "bash -lic 'ls'"),
        ("/bin/true\n", "bash -ic 'ls'"),
        ("./tool.py --version\n", "bash -ic 'npm test' || true"),
        ('eval "$(./tool.py init - bash)"\n', "bash -ic 'ls'"),
        ("export BASH_ENV=~/.bash_aliases\n", "bash -ic 'bash -c ls'"),
        (". ./x.sh\n", "bash -lc 'ls'"),
        (". ./x.sh\n", "bash -c 'ls'"),
    ],
)
def test_p3_everyday_scripts_settings_run_pass(
    where: Layout, monkeypatch: pytest.MonkeyPatch, line: str, command: str
) -> None:
    """Aliases sourced from the home, a missing script, a file sourcing itself, a loop over a
    folder of snippets, a compiled program, a Python tool whose text names no memory (run
    itself, or in ``eval "$(…)"`` as ``brew shellenv`` and ``rbenv init`` are), and a
    ``.bashrc`` writing memory that a shell does not read (``-l`` without ``-i``, ``-c``)
    refuse nothing."""
    _environment(where, monkeypatch)
    (where.data / ".bash_aliases").write_text("alias ll='ls -l'\n", encoding="utf-8")
    (where.data / ".bashrc.d").mkdir()
    (where.data / ".bashrc.d" / "path.sh").write_text('PATH="$HOME/bin:$PATH"\n')
    tool = where.workspace / "tool.py"
    tool.write_text("#!/usr/bin/env python3\nimport sys\nprint(sys.argv)\n")
    tool.chmod(0o755)
    (where.data / ".bashrc").write_text(f"cd {where.workspace}\n{line}", encoding="utf-8")

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, line


@pytest.mark.parametrize(
    "guard",
    [
        "case $- in\n    *i*) ;;\n      *) return;;\nesac\n",
        "[[ $- != *i* ]] && return\n",
        '# not interactive: nothing to do\n[ -z "$PS1" ] && return\n',
        "if [[ $- != *i* ]]; then return; fi\n",
    ],
)
def test_p3_what_a_shell_that_is_not_interactive_returns_before_is_not_read(
    where: Layout, monkeypatch: pytest.MonkeyPatch, guard: str
) -> None:
    """A ``.bashrc`` that returns first unless interactive, sourced by ``.profile`` for
    ``bash -lc``: what follows is not read, and bash runs none of it (nothing lands); the
    same file under ``-i`` is read and refused."""
    environment = _environment(where, monkeypatch)
    (where.data / ".profile").write_text('. "$HOME/.bashrc"\n', encoding="utf-8")
    rc = f"{guard}cd {where.workspace}\n. ./x.sh\n"
    (where.data / ".bashrc").write_text(rc, encoding="utf-8")

    assert answer(where, "claude-code", "Bash", {"command": "bash -lc 'ls'"}) is None
    _run(where, environment, "bash -lc 'ls'")
    assert not (where.root / where.other / "a.md").exists()
    assert refusal(answer(where, "claude-code", "Bash", {"command": "bash -lic 'ls'"}))


@pytest.mark.parametrize(
    "line",
    [
        "bash -ic 'source ./y.sh'\n",
        "bash -i ./y.sh\n",
        "bash -ic 'source ./z.sh'\n",
    ],
)
def test_p3_a_script_an_interactive_shell_started_by_a_startup_file_sources_is_read_whole(
    where: Layout, monkeypatch: pytest.MonkeyPatch, line: str
) -> None:
    """``.profile`` (read for ``bash -lc``, not interactive) starts an interactive shell that
    sources ``y.sh`` (or ``z.sh``, which sources ``y.sh``): its ``[[ $- != *i* ]] && return``
    does not return there, so all of it is read; run by bash, it writes into the other
    scope."""
    environment = _environment(where, monkeypatch)
    (where.workspace / "y.sh").write_text(f"[[ $- != *i* ]] && return\n{_names(where)}")
    (where.workspace / "z.sh").write_text(". ./y.sh\n", encoding="utf-8")
    (where.data / ".profile").write_text(f"cd {where.workspace}\n{line}", encoding="utf-8")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": "bash -lc 'ls'"}))

    assert reason is not None and "y.sh" in reason, reason
    _run(where, environment, "bash -lc 'ls'")
    assert (where.root / where.other / "a.md").exists(), f"nothing landed: no bypass ({line})"


@pytest.mark.parametrize(
    "text",
    [
        "f() {\ncase $- in *i*) ;; *) return;; esac\n}\ncp a b\n",
        "x=1\n[[ $- != *i* ]] && return\ncp a b\n",
        '[ -n "$PS1" ] && return\ncp a b\n',
        '[ -z "$PS1" ] && return || cp a b\n',
        "[[ $- == *i* ]] && return\ncp a b\n",
    ],
)
def test_p3_a_return_that_is_not_the_first_command_or_not_for_a_shell_not_interactive_is_read(
    text: str,
) -> None:
    """A return inside a function, after another command, for an interactive shell, or with
    more commands on its line: the whole file is read."""
    assert non_interactive_part(text, {}) == text


def test_p3_a_prompt_test_with_an_inherited_prompt_is_read() -> None:
    """``PS1`` in the environment keeps a shell that is not interactive going past ``[ -z
    "$PS1" ] && return``."""
    text = '[ -z "$PS1" ] && return\ncp a b\n'
    assert non_interactive_part(text, {"PS1": "$ "}) == text
    assert non_interactive_part(text, {}) == ""


@pytest.mark.skipif(os.geteuid() != 0, reason="asking as another account needs root")
def test_p3_a_script_this_account_can_neither_write_nor_replace_is_not_read() -> None:
    """Asked as ``nobody`` (the function's own text run by the system's Python, which that
    account may run wherever the checkout lies): a system program (``/usr/bin/env``, it and its
    folders root's) was written by no agent of it; a file in ``/tmp`` (a folder above it
    writable by all) may have been. Root may write any: nothing is unchangeable for it."""
    source = "import os\nfrom pathlib import PurePath\n\n" + "\n".join(
        inspect.getsource(function)
        for function in (named_scripts.unchangeable, named_scripts._owned_by)
    )
    asked = "print(unchangeable('/usr/bin/env'), unchangeable('/tmp/x.sh'))"
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    shown = subprocess.run(
        [*nobody, "/usr/bin/python3", "-"],
        input=f"{source}\n{asked}\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert shown == ["True", "False"]
    assert not named_scripts.unchangeable("/usr/bin/env")


PROMPT_UNIT = r"""
__git_ps1_show_upstream ()
{
	local key value upstream_type=git legacy="" verbose="" name=""
	# get some config options from git-config
	local output="$(git config -z --get-regexp '^(bash\.showupstream)$' 2>/dev/null)"
	while read -r key value; do
		case "$key" in
		bash.showupstream)
			GIT_PS1_SHOWUPSTREAM="$value"
			if [[ -z "${GIT_PS1_SHOWUPSTREAM}" ]]; then p=""; return; fi
			;;
		esac
	done <<< "$output"
	[ -r "$g/rebase-merge/msgnum" ] && step=$(cat "$g/rebase-merge/msgnum") || true
	if [ -n "$step" ] && [ -n "$total" ]; then r="$r $step/$total"; fi
}
"""
"""About 600 bytes of a prompt script (``git-prompt.sh``'s manner: functions, ``case``,
``$(…)``, quoting) a ``.bash_profile`` sources."""


def _lines_run(work: Callable[[], object]) -> int:
    """How many Python lines ``work`` runs (counted, never timed)."""
    lines = 0

    def trace(frame: FrameType, event: str, arg: object) -> TraceFunction:
        nonlocal lines
        lines += event == "line"
        return trace

    sys.settrace(trace)
    try:
        work()
    finally:
        sys.settrace(None)
    return lines


def test_p3_a_followed_script_is_scanned_for_its_scripts_in_little_work_per_kib(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """H-5: ``source ~/.git-prompt.sh`` in ``.bash_profile`` is read on every ``bash -lc``
    (Codex runs each command so). The scripts a followed script runs are found by one scan
    of its simple commands (:func:`~harness_memory.hooks.named_scripts.nested_scripts`), not
    by reading it as the call's command: each KiB more of it costs the guard about 2,600
    Python lines (it cost 96,000, 64 KiB some 270 ms). Counted, never timed: the work of a
    32 KiB script less that of a 16 KiB one, per KiB, is under 8,000 lines."""
    _environment(where, monkeypatch)
    (where.data / ".bash_profile").write_text(". ~/prompt.sh\n", encoding="utf-8")
    call = {"command": "bash -lc 'ls'"}
    work = []
    for kib in (0, 16, 32):
        text = PROMPT_UNIT * (kib * 1024 // len(PROMPT_UNIT))
        (where.data / "prompt.sh").write_text(text, encoding="utf-8")
        lines = _lines_run(lambda: answer(where, "codex", "Bash", call))
        work.append((len(text), lines))

    (small, lines), (large, lines_twice) = work[1:]
    assert (lines_twice - lines) / ((large - small) / 1024) < 8_000, work


def test_p3_the_scan_finds_the_scripts_a_followed_script_runs(tmp_path: Path) -> None:
    """What the guard followed through reading a script as a command it finds by the scan:
    ``source``/``.`` after a literal ``cd``, a variable the script set, a ``for`` loop's
    files, ``BASH_ENV``, a shell's script operand past ``-o pipefail``, a program named by
    its path (inside ``$(…)`` not at the top); a comment, a redirection's ``&`` and a
    ``$(…)`` name nothing it reads."""
    (tmp_path / "d").mkdir()
    for name in ("a.sh", "b.sh"):
        (tmp_path / "d" / name).write_text("true\n", encoding="utf-8")
    text = (
        "cd d\n"
        'X=./x.sh; [ -f "$X" ] && . "$X"\n'
        'for f in ./*.sh; do source "$f"; done\n'
        "export BASH_ENV=~/env.sh\n"
        "if true; then bash -o pipefail ./y.sh; fi # . ./no.sh\n"
        'eval "$(./tool.py init)"\n'
        "tput setaf 1 >&/dev/null\n"
        'source "$(brew --prefix)/etc/x"\n'
    )
    found = nested_scripts(text, str(tmp_path), {"HOME": "/home/u"})
    here = str(tmp_path / "d")

    assert found == [
        ("source", here, "$X", "./x.sh", True),
        ("source", here, "$f", f"{here}/a.sh", True),
        ("source", here, "$f", f"{here}/b.sh", True),
        ("source", here, "~/env.sh", "/home/u/env.sh", True),
        ("shell", here, "./y.sh", "./y.sh", True),
        ("run", here, "./tool.py", "./tool.py", False),
        ("source", here, "$", None, True),
    ]


def test_p3_a_dangling_link_a_startup_file_sources_refuses_nothing(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``.bash_profile`` sourcing ``~/.bash_aliases``, a link into dotfiles not checked out:
    bash runs nothing from it, and every ``bash -lc`` was refused as reading no regular
    file."""
    environment = _environment(where, monkeypatch)
    (where.data / ".bash_aliases").symlink_to(where.data / "dotfiles" / "aliases.sh")
    (where.data / ".bash_profile").write_text(". ~/.bash_aliases\n", encoding="utf-8")

    assert answer(where, "codex", "Bash", {"command": "bash -lc 'ls'"}) is None
    _run(where, environment, "bash -lc 'ls'")
    assert not (where.root / where.other / "a.md").exists()


def test_p3_a_dangling_link_whose_target_the_command_writes_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same link, its target written by the command starting the shell: refused; run by
    bash, the sourced target writes into the other scope."""
    environment = _environment(where, monkeypatch)
    (where.data / "dotfiles").mkdir()
    (where.data / ".bash_aliases").symlink_to(where.data / "dotfiles" / "aliases.sh")
    (where.data / ".bash_profile").write_text(
        f"cd {where.workspace}\n. ~/.bash_aliases\n", encoding="utf-8"
    )
    command = "cp x.sh ~/dotfiles/aliases.sh; bash -lc 'ls'"

    reason = refusal(answer(where, "codex", "Bash", {"command": command}))

    assert reason is not None and "written by the same command" in reason, reason
    _run(where, environment, command)
    assert (where.root / where.other / "a.md").exists()
