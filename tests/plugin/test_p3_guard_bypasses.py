"""P-3: the guard holds against every measured bypass, in every harness's shell and MCP tools.

A shell command (Claude Code's ``Bash``, Codex's ``Bash``, Gemini's ``run_shell_command``) or an
MCP tool's arguments naming another Workspace's scope as ``…/./memory/…``, ``…//…``, through a
glob, a brace, a Workspace symlink, ``~``, a variable assigned in the command, after a ``cd``, or
through an expansion the guard cannot decide (``$(…)``, backquotes, an unset variable) right
where a scope name goes, is refused; the same forms into the user scope or the Session's own
scope, and everyday commands, are not. The adapters run as the hook commands run them
(:func:`harness_memory.cli.main` with the hook's JSON on stdin), with the memory root given.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.guard_cases import (
    MCP,
    SHELL,
    Layout,
    answer,
    answers_of_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusal,
    refusals_by_every_harness,
)
from tests.support.unreadable_link import unreadable_link

REFUSED = [
    "echo x > {root}/./{other}/a.md",
    "echo x > {root}//{other}/a.md",
    "echo x > {state_dir}/./memory/{other}/a.md",
    "echo x > {state_dir}//memory//{other}//a.md",
    "echo x > {root}/bil*/a.md",
    "cp /etc/hostname {root}/*/",
    "echo x > {state_dir}/mem?ry/{other}/a.md",
    "echo x > {state_dir}/[m]emory/{other}/a.md",
    "touch {root}/{{user,{other}}}/a.md",
    "touch {root}/{{{other},nothing}}/a.md",
    "echo x > notes/a.md",
    "echo x > {workspace}/notes/a.md",
    "echo x > ./notes/../notes/a.md",
    "echo x > ~/agents/coder/agent_state/memory/{other}/a.md",
    "OUT={root}/{other}; echo x > $OUT/a.md",
    "export OUT={root}; echo x > ${{OUT}}/{other}/a.md",
    "cd {root} && echo x > {other}/a.md",
    "cd {root}/{other}; echo x > a.md",
    "echo x > {root}/$(echo {other})/a.md",
    "echo x > {root}/`echo {other}`/a.md",
    "echo x > {root}/$UNSET_VARIABLE/a.md",
    "for s in {other}; do echo x > {root}/$s/a.md; done",
    "echo x > {state_dir}/mem$UNSET_VARIABLE/{other}/a.md",
    "echo x > {root}/{other}/.workspace",
    "echo x > {root}/user/.workspace",
    "echo x > {root}/loose.md",
]
ALLOWED = [
    "echo x > {root}/user/a.md",
    "echo x > {root}/{own}/a.md",
    "echo x > {root}/./user/a.md",
    "touch {root}/{{user,{own}}}/a.md",
    "cd {root}/{own} && echo x > a.md",
    "echo x > ~/notes.txt",
    "git status && ls -la && cat README.md",
    "echo $PWD $(date) > /tmp/out.txt",  # (HOME is the data dir here, which is refused)
    "cd /tmp && echo x > y.txt",
    "python3 -c 'print(1)' | tee /tmp/log.txt",
]


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize("command", REFUSED)
def test_p3_shell_bypass_forms_are_refused(
    where_judged: Layout, harness: str, command: str
) -> None:
    where = where_judged
    shell = fill(command, where)
    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": shell}))
    assert reason is not None, shell
    assert reason.startswith("Agent Memory write guard: ")
    assert not (where.root / where.other / "a.md").exists()


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize("command", ALLOWED)
def test_p3_shell_writes_into_own_scopes_and_everyday_commands_pass(
    where_judged: Layout, harness: str, command: str
) -> None:
    where = where_judged
    shell = fill(command, where)
    assert answer(where, harness, SHELL[harness][1], {"command": shell}) is None, shell


BASH_FORMS = [
    "echo x > $'{root}/{other}/a.md'",
    'echo x > $"{root}/{other}/a.md"',
    "echo x > $'\\x2f'{root_tail}/{other}/a.md",
    "echo x > $'\\057'{root_tail}/$'\\x{other_hex}'{other_tail}/a.md",
    "X=$'{root}'; echo x > $X/{other}/a.md",
    "echo x > /\\\n{root_tail}/{other}/a.md",
    "eval 'echo x > {root}/{other}/a.md'",
    "bash -c 'echo x > {root}/{other}/a.md'",
    "sh -c 'cd {root} && echo x > {other}/a.md'",
    "bash -c \"sh -c 'echo x > {root}/{other}/a.md'\"",
    "cp -t{root}/{other} /etc/hostname",
    "cp -vt{root}/{other} /etc/hostname",
    "cd {root}/{own} && echo x > ~+/../{other}/a.md",
    "echo x > /$(echo {root_tail})/{other}/a.md",
    "echo x > /{state_dir}/$(echo memory)/{other}/a.md",
    "cd $(echo {root}/{own}) && echo x > ../{other}/a.md",
    "cd $UNSET_VARIABLE{root} && echo x > {other}/a.md",
    "cd {root}/{own}; cd $(pwd)/..; echo x > {other}/a.md",
    "find {root}/{own} -name MEMORY.md -execdir sh -c 'echo x > ../{other}/a.md' \\;",
    "echo x > ${{UNSET_VARIABLE:-{root}/{other}}}/a.md",
    "echo x > ${{UNSET_VARIABLE-{root}}}/{other}/a.md",
    'echo x > "${{UNSET_VARIABLE:-{root}}}/{other}/a.md"',
    "X={root}/{own}; echo x > ${{X/{own}/{other}}}/a.md",
    "X={root}/{own}; echo x > ${{X%{own}}}{other}/a.md",
    "echo x > ${{HOME%/}}/agents/coder/agent_state/memory/{other}/a.md",
    "cd -L {root}/{own} && echo x > ../{other}/a.md",
    "cd -P -- {root}/{own} && echo x > ../{other}/a.md",
    "CDPATH={root} cd {other} && echo x > a.md",
    "export CDPATH=/nowhere:{root}; cd {other}; echo x > a.md",
    "cd {root}/{own} && echo x > /proc/self/cwd/../{other}/a.md",
    "cd {root}/{own} && echo x > /proc/$$/cwd/../{other}/a.md",
    "cd {root}/{own} && echo x > /proc/thread-self/cwd/../{other}/a.md",
    "exec 3<{root}/{own}; echo x > /proc/self/fd/3/../{other}/a.md",
    "exec 3<{root}/{own}; echo x > /dev/fd/3/../{other}/a.md",
]


@pytest.mark.parametrize("command", BASH_FORMS)
def test_p3_what_bash_writes_into_another_scope_is_refused_however_quoted(
    where: Layout, command: str
) -> None:
    """Bash's own quoting (``$'…'`` with its escapes, ``$"…"``, a line continuation), a command
    inside a word that another shell runs (``eval``, ``sh -c``), a short option glued to its
    path and ``~+`` are read as bash reads them; a word built at run time after ``/`` or
    ``//`` (which the kernel reads as ``/``) could reach any folder; after a ``cd`` into a
    folder known only at run time (or ``find -execdir``) a relative path naming another scope
    could land in it; a parameter expansion's default word (``${X:-/path}``) or a pattern
    (``${X/own/other}``, ``${X%…}``) on a value in the memory root is judged, and ``cd``'s
    options (``-L``, ``-P``, ``--``) and ``CDPATH`` are read as bash reads them, and the
    shell's own process links (``/proc/self/cwd``, ``/proc/$$/cwd``, ``/dev/fd/3``) are judged
    as the shell's, not the guard's: each form below
    really writes into the other scope when bash runs it (checked
    last, after the guard refused it)."""
    assert_refused_by_every_harness_and_bash_writes(where, command)


PROCESS_LINKS_SPELT_AROUND = [
    "cd {root}/{own} && echo x > /./proc/self/cwd/../{other}/a.md",
    "cd {root}/{own} && echo x > /proc/self/./cwd/../{other}/b.md",
    "exec 3<{root}/{own}; echo x > /dev/./fd/3/../{other}/c.md",
    "cd {root}/{own} && echo x > /proc/../proc/self/cwd/../{other}/d.md",
    "cd {root}/{own} && echo x > /proc/self/root/proc/self/cwd/../{other}/e.md",
    "cd {root}/{own} && echo x > /proc/thread-self/root/dev/fd/../cwd/../{other}/f.md",
    "cd {root}/{own} && echo x > /proc/thread-self/../../cwd/../{other}/g.md",
    "cd {root}/{own} && echo x > /proc/self/net/../cwd/../{other}/h.md",
    "cd {root}/{own} && echo x > /usr/../proc/self/cwd/../{other}/i.md",
    "cd {root}/{own} && echo x > /bin/../../proc/self/cwd/../{other}/j.md",
    "D=self/cwd; cd {root}/{own} && echo x > /proc/$D/../{other}/k.md",
    "D=self/cwd; cd {root}/{own} && cp /etc/hostname /proc/$D/../{other}/",
]


@pytest.mark.parametrize("command", PROCESS_LINKS_SPELT_AROUND)
def test_p3_a_process_link_is_found_however_its_prefix_is_spelt(
    where: Layout, command: str
) -> None:
    """The kernel walks a path one component at a time: ``.`` and empty components are
    dropped, ``..`` in ``/proc`` or ``/dev`` goes up, ``..`` elsewhere leaves the folder a
    link led to (``/bin/..`` is ``/usr`` where ``/bin`` links to ``usr/bin``), ``/dev/fd`` is
    ``/proc/self/fd`` and ``/proc/self/root`` is ``/``. A process link spelt with any of them
    (``/./proc/self/cwd``, ``/dev/./fd/3``, ``/proc/self/root/proc/self/cwd``) is still the
    shell's own link, judged where the shell is, and so is one spelt by a variable
    (``D=self/cwd; … /proc/$D/..``): each form below was allowed and really writes into the
    other scope."""
    assert_refused_by_every_harness_and_bash_writes(where, command)


PROCESS_LINKS_KNOWN_AT_RUN_TIME = [
    "cd {root}/{own} && D=self/cwd; echo x > /proc/$D/../{other}/l.md",
    "cd {root}/{own} && cp /etc/hostname /proc/self/c[w]d/../{other}/",
    "cd {root}/{own} && if true; then D=self/cwd; fi; echo x > /dev/../proc/$D/../{other}/m.md",
    "cd {root}/{own} && cp /etc/hostname /pro[c]/self/cwd/../{other}/",
    "cd {root}/{own} && cp /etc/hostname /p?oc/self/cwd/../{other}/",
    "cd {root}/{own} && cp /etc/hostname /*/self/cwd/../{other}/",
]
"""A process link whose name the shell makes at run time when written (review guard61 finding
3): a variable set after ``&&`` or in a branch (``D=self/cwd``, not surely set), a glob
(``c[w]d``), a glob in ``proc`` itself (``/pro[c]/``, ``/p?oc/``, ``/*/``: review guard62 B4,
let through until guardfix62b): each was allowed and bash, in the own scope, wrote into the
other through ``/proc/self/cwd/..``."""


@pytest.mark.parametrize("command", PROCESS_LINKS_KNOWN_AT_RUN_TIME)
def test_p3_a_written_process_link_named_at_run_time_is_refused(
    where: Layout, command: str
) -> None:
    assert_refused_by_every_harness_and_bash_writes(where, command)


def test_p3_reading_a_process_link_named_at_run_time_passes(where: Layout) -> None:
    reads = ["ls /proc/$$/fd", "cat /proc/$PPID/status", "python3 -c pass /proc/$$/status"]
    assert {c: refusals_by_every_harness(where, c) for c in reads} == {
        c: dict.fromkeys(("claude-code", "codex", "gemini")) for c in reads
    }


def test_p3_a_socket_bash_opens_at_run_time_passes(where: Layout) -> None:
    """``/dev/tcp/HOST/PORT`` is no file: bash opens a socket for a redirection there, and
    with no ``/dev/tcp`` folder any other open fails, whatever its variables hold (refused as a
    process link named at run time before guardfix62b: review guard62 O1)."""
    checks = [
        "HOST=localhost; PORT=5432; (echo > /dev/tcp/$HOST/$PORT) 2>/dev/null && echo up",
        "echo > /dev/tcp/localhost/${PORT:-8080} && echo open",
        "echo ping > /dev/udp/127.0.0.1/${PORT:-53}",
    ]
    assert {c: refusals_by_every_harness(where, c) for c in checks} == {
        c: dict.fromkeys(("claude-code", "codex", "gemini")) for c in checks
    }


@pytest.mark.parametrize(
    "command",
    [
        "cd {root}/{own} && echo x > //proc/self/cwd/../{other}/a.md",
        "cd {root}/{own} && echo x > /proc//self//cwd/../{other}/a.md",
        "cd {root}/{own} && echo x > /proc/$PPID/cwd/../{other}/a.md",
        "cd {root}/{own} && echo x > /proc/self/task/$BASHPID/cwd/../{other}/a.md",
        "cd {root}/{own} && echo x > /proc/self/fd/../cwd/../{other}/a.md",
    ],
)
def test_p3_a_process_link_in_its_canonical_spellings_stays_refused(
    where_judged: Layout, command: str
) -> None:
    """Repeated slashes, a process id known only at run time (``$PPID``, a task's
    ``$BASHPID``) and ``fd/..`` (the process's own folder) still reach the shell's working
    directory: refused by every harness."""
    shell = fill(command, where_judged)
    for harness, reason in refusals_by_every_harness(where_judged, shell).items():
        assert reason is not None, (harness, shell)


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf {data}",
        "mv {data} /tmp/elsewhere && mv /tmp/prepared {data}",
        "tar -xf /tmp/planted.tar -C {data}",
        "cp -r /tmp/planted/. {data}/",
        "unzip /tmp/planted.zip -d {data}",
        "cd {data} && tar -xf /tmp/planted.tar",
    ],
)
def test_p3_a_command_on_the_data_dir_itself_is_refused(where_judged: Layout, command: str) -> None:
    """The data dir holds the service's folders (tokens, every agent's memory and history):
    removing it, swapping it, or unpacking into it plants or deletes them without naming one,
    and each was allowed."""
    where = where_judged
    shell = fill(command, where)
    reason = refusal(answer(where, "claude-code", "Bash", {"command": shell}))
    assert reason is not None, shell
    assert "the memory service's data dir itself" in reason


@pytest.mark.parametrize(
    "command",
    [
        "tar -xf /tmp/planted.tar -C {hooks_state}",
        "mv {hooks_state} /tmp/elsewhere && mv /tmp/planted {hooks_state}",
        "cp -r /tmp/planted/. {hooks_state}/",
        "cd {hooks_state} && tar -xf /tmp/planted.tar",
    ],
)
def test_p3_a_command_on_the_hooks_state_dir_itself_is_refused(
    where_judged: Layout, command: str
) -> None:
    """The hooks' state dir holds the Session records (``sessions/``), which say which
    Workspace scope a Session may write: unpacking into it or swapping it plants a record
    naming another scope without naming the records folder, and each was allowed."""
    where = where_judged
    shell = fill(command.replace("{hooks_state}", str(where.state)), where)
    reason = refusal(answer(where, "claude-code", "Bash", {"command": shell}))
    assert reason is not None, shell
    assert "Session records" in reason


@pytest.mark.parametrize(
    "command",
    [
        "echo x > {data}/tok$(echo ens)/mine.json",
        "echo x > {data}/tokens/$UNSET_VARIABLE.json",
        "cp /etc/hostname {data}/dra`echo fts`/",
    ],
)
def test_p3_words_built_at_run_time_into_the_services_folders_are_refused(
    where_judged: Layout, command: str
) -> None:
    """The data dir's own folders (P-3, ``tokens/`` first) are held like the memory root against
    a word the guard cannot decide."""
    where = where_judged
    shell = fill(command, where)
    reason = refusal(answer(where, "claude-code", "Bash", {"command": shell}))
    assert reason is not None, shell
    assert "the memory service's own folders" in reason


@pytest.mark.parametrize(
    "command",
    [
        "ls ~nobody-here-at-all/x ~+ ~-",
        "echo x > ~+/notes.txt",
        "bash -c 'echo x > {root}/user/a.md'",
        "eval 'cd {root}/{own} && echo x > a.md'",
        "echo x > $'{root}/{own}/a.md'",
        "cp -t/tmp /etc/hostname",
        "cd $(git rev-parse --show-toplevel 2>/dev/null || pwd) && npm test > /tmp/out-$(date).log",
        "cd $(mktemp -d) && cp ../notes.txt . && echo x > {own}/a.md",
    ],
)
def test_p3_the_same_forms_into_own_scopes_or_elsewhere_pass(
    where_judged: Layout, command: str
) -> None:
    """A ``~user`` naming no user here stays as written (bash does the same), never a crash."""
    where = where_judged
    shell = fill(command, where)
    assert answer(where, "claude-code", "Bash", {"command": shell}) is None, shell


@pytest.mark.parametrize("harness", list(MCP))
@pytest.mark.parametrize(
    ("path", "denied"),
    [
        ("{root}/./{other}/a.md", True),
        ("{state_dir}//memory/{other}/a.md", True),
        ("{workspace}/notes/a.md", True),
        ("{root}/{own}/a.md", False),
        ("{root}/user/a.md", False),
        ("{workspace}/src/main.py", False),
    ],
)
def test_p3_mcp_tools_are_guarded_in_every_harness(
    where_judged: Layout, harness: str, path: str, denied: bool
) -> None:
    where = where_judged
    arguments = {"path": fill(path, where), "content": "x", "options": {"mode": "w"}}
    result = answer(where, harness, MCP[harness], arguments)
    assert (refusal(result) is not None) is denied


@pytest.mark.parametrize("harness", ["claude-code"])
def test_p3_claude_code_file_tools_through_a_workspace_symlink(
    where_judged: Layout, harness: str
) -> None:
    where = where_judged
    for target in (where.workspace / "notes" / "a.md", where.root / "." / where.other / "b.md"):
        result = answer(where, harness, "Write", {"file_path": str(target), "content": "x"})
        assert refusal(result) is not None


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("Write", {"path": "{root}/{other}/a.md", "file_text": "x"}),
        ("Edit", {"path": "{root}/{other}/MEMORY.md", "old_str": "", "new_str": "x"}),
    ],
)
def test_p3_copilot_cli_shaped_file_tools_are_guarded(
    where_judged: Layout, tool: str, arguments: dict[str, str]
) -> None:
    """GitHub Copilot CLI runs Claude Code's hooks under Claude Code's tool names with its own
    arguments (``path``, not ``file_path``): the guard reads those too."""
    where = where_judged
    filled = {name: fill(value, where) for name, value in arguments.items()}
    assert refusal(answer(where, "claude-code", tool, filled)) is not None
    own = {**filled, "path": str(where.root / where.own / "a.md")}
    assert answer(where, "claude-code", tool, own) is None


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize(
    "command",
    ["echo x > {root}/{other}/\ud800.md", "ls {root}/*\udcff*", "echo x > {root}/$(\ud800)/a"],
)
def test_p3_shell_words_no_file_name_can_hold_are_refused_not_a_crash(
    where_judged: Layout, harness: str, command: str
) -> None:
    where = where_judged
    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": fill(command, where)}))
    assert reason is not None
    reason.encode("utf-8")  # the answer stays valid UTF-8 JSON


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("shell", {"command": "echo x > {locked}{root}/{other}/a.md"}),
        ("shell", {"command": "cd {locked}{workspace} && echo x > a.md"}),
        ("shell", {"command": "OUT={locked}/tmp; echo x > $OUT/a.md"}),
        ("mcp", {"path": "{locked}{root}/{other}/a.md", "content": "x"}),
    ],
)
def test_p3_a_path_through_a_symlink_the_kernel_will_not_read_is_refused_not_a_crash(
    where: Layout,
    monkeypatch: pytest.MonkeyPatch,
    harness: str,
    tool: str,
    arguments: dict[str, str],
) -> None:
    """``/proc/<pid>/root`` or ``/cwd`` of a process the hook may not trace: where it leads is
    unknown (the memory root, as here, or anywhere), so the write is refused, naming the link;
    the hook still answers (exit 0) instead of crashing with a traceback."""
    locked = unreadable_link(where.workspace.parent / "locked-root", Path("/"), monkeypatch)
    filled = {
        name: fill(value.replace("{locked}", str(locked)), where)
        for name, value in arguments.items()
    }
    name = SHELL[harness][1] if tool == "shell" else MCP[harness]
    reason = refusal(answer(where, harness, name, filled))
    assert reason is not None
    assert "cannot be read" in reason and str(locked) in reason


@pytest.mark.parametrize(
    ("folder", "command", "denied"),
    [
        ("{root}/{other}", "echo x > a.md", True),
        ("{root}", "echo x > {other}/a.md", True),
        ("notes", "echo x > a.md", True),
        ("{root}/{own}", "echo x > a.md", False),
        ("{workspace}", "echo x > a.md", False),
    ],
)
def test_p3_gemini_shell_commands_are_judged_in_the_folder_they_run_in(
    where: Layout, folder: str, command: str, denied: bool
) -> None:
    """Gemini CLI's ``run_shell_command`` runs its command in ``dir_path`` (relative ones from
    the Workspace): a relative path is judged from there, as the shell will write it."""
    arguments = {"command": fill(command, where), "dir_path": fill(folder, where)}
    result = answer(where, "gemini", "run_shell_command", arguments)
    assert (refusal(result) is not None) is denied, arguments


NOT_SEEN = [
    "python3 -c \"import shutil; shutil.copy('note.md', open('target').read().strip() + '/a.md')\"",
    "sh ./write-note.sh",
]
"""What the install output and the README's harness table say the guard does not cover
(``harness_memory.installers.guard_gaps``): a path a program the command starts builds at run
time (``python -c`` reading a file), a file written by a program the command starts (a
script whose text names no memory: one naming another scope is read and refused since round
56, ``test_p3_guard_scripts_a_shell_runs.py``). (``xargs -I{} cp note.md {}/a.md < target``
was one; it is refused now: ``test_p3_guard_shell_indirection.py``.)"""


@pytest.mark.parametrize("command", NOT_SEEN)
def test_p3_what_the_guard_cannot_see_passes_as_the_install_says(
    where: Layout, command: str
) -> None:
    """The gap is real, not a guess: the guard lets the command through, and run by a shell it
    writes into another Workspace's scope."""
    (where.workspace / "target").write_text(fill("{root}/{other}\n", where), encoding="utf-8")
    script = 'echo x > "$(cat target)/a.md"\n'  # its text names no memory (round 56: one
    (where.workspace / "write-note.sh").write_text(script, encoding="utf-8")  # naming it is read)
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    command = fill(command, where)
    assert answers_of_every_harness(where, command) == dict.fromkeys(SHELL)
    subprocess.run(["bash", "-c", command], cwd=where.workspace, check=True)
    assert (where.root / where.other / "a.md").read_text(encoding="utf-8") == "x\n"


_SHELL_THROUGH_A_BIND_MOUNT = """
import io, json, subprocess, sys
from harness_memory.cli import main
root, source, alias, workspace, state = sys.argv[1:6]
subprocess.run(["mount", "--bind", source, alias], check=True)
answers = {}
for command in sys.argv[6:]:
    hook = {"session_id": "s-1", "cwd": workspace, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}}
    out = io.StringIO()
    flags = ["hook", "claude-code", "pre-tool-use", "--memory-root", root, "--state-dir", state]
    stdin = io.BytesIO(json.dumps(hook).encode())
    assert main(flags, environ={}, stdin=stdin, stdout=out) == 0
    answers[command] = out.getvalue().strip() != ""
print(json.dumps(answers))
"""


def test_p3_shell_words_through_another_name_of_the_memory_root_are_refused(
    where: Layout, tmp_path: Path
) -> None:
    """A bind mount of the memory root (made for real, in a user and mount namespace of the
    test's own) reached by literal paths, globs, ``cd`` and words built at run time."""
    alias = tmp_path / "elsewhere"
    alias.mkdir()
    refused = [
        f"echo x > {alias}/{where.other}/a.md",
        f"echo x > {alias}/$(echo {where.other})/a.md",
        f"echo x > {alias}/$UNSET_VARIABLE/a.md",
        f"echo x > {alias}/bil*/a.md",
        f"cd {alias} && echo x > {where.other}/a.md",
    ]
    allowed = [f"echo x > {alias}/user/a.md", f"echo x > {alias}/{where.own}/a.md"]
    answers = shell_answers_through_a_bind_mount(where, where.root, alias, [*refused, *allowed])

    assert all(answers[command] for command in refused), answers
    assert not any(answers[command] for command in allowed), answers


def shell_answers_through_a_bind_mount(
    where: Layout, source: Path, alias: Path, commands: list[str]
) -> dict[str, bool]:
    """Whether Claude Code's guard refuses each Bash ``command`` while ``source`` is also
    mounted at ``alias`` (for real, in a user and mount namespace of the test's own)."""
    script = [sys.executable, "-c", _SHELL_THROUGH_A_BIND_MOUNT]
    arguments = [str(where.root), str(source), str(alias), str(where.workspace), str(where.state)]
    done = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", *script, *arguments, *commands],
        input="",
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers: dict[str, bool] = json.loads(done.stdout)
    return answers


def test_p3_shell_words_through_a_scope_folder_mounted_in_the_workspace_are_refused(
    where: Layout,
) -> None:
    """Another Workspace's scope folder bind-mounted inside this Workspace: literal paths,
    relative ones, ``cd`` and words built at run time below it are refused."""
    other = where.workspace / "other-memory"
    other.mkdir()
    refused = [
        f"echo x > {other}/a.md",
        "echo x > other-memory/a.md",
        "cd other-memory && echo x > a.md",
        f"echo x > {other}/$(echo a).md",
        "cp notes.md other-memory",
    ]
    allowed = ["echo x > notes.md", f"echo x > {where.root}/{where.own}/a.md"]
    answers = shell_answers_through_a_bind_mount(
        where, where.root / where.other, other, [*refused, *allowed]
    )

    assert all(answers[command] for command in refused), answers
    assert not any(answers[command] for command in allowed), answers


def test_p3_the_sessions_own_scope_mounted_in_the_workspace_stays_writable(
    where: Layout,
) -> None:
    """The Session's own scope folder bind-mounted inside its Workspace is that scope: a
    ``cd`` into it, a copy into it and a write below it pass; its marker does not."""
    own = where.workspace / "memory"
    own.mkdir()
    allowed = [
        "echo x > memory/a.md",
        "cd memory && echo x > a.md",
        "cp notes.md memory",
        "ls memory",
    ]
    refused = ["echo x > memory/.workspace"]
    answers = shell_answers_through_a_bind_mount(
        where, where.root / where.own, own, [*refused, *allowed]
    )

    assert all(answers[command] for command in refused), answers
    assert not any(answers[command] for command in allowed), answers
