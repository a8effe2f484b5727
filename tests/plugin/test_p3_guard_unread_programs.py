"""P-3: a program whose writes the guard cannot read is refused where the command names memory
it may not write; everyday agent commands are not refused.

The guard reads a command's words as bash will, but a program it starts decides its own writes:
``python3 -c``, ``node -e``, ``perl -e``, ``awk``, ``sed``'s ``e`` command, ``xargs``, a
script. Such a program given a path in pieces (``os.path.join(os.environ["HOME"],
"agents/coder/agent_state/memory", "<other>", "a.md")``, ``"/" + p``) named no word the guard
judged, so each form below was let through and wrote into another Workspace's scope. A command
running a program outside :data:`~harness_memory.hooks.unread_programs.READ_PROGRAMS` whose
text names another scope's key, the memory root other than as the user scope or the Session's
own scope, the data dir holding it or the Session records is now refused naming both. What a
program builds from what the text does not show (a file it reads, ``os.listdir``) stays fenced
only by the harness's sandbox (``docs/security.md``).

Over-refusal is measured on :data:`EVERYDAY_AGENT_COMMANDS`, commands as coding agents send
them (reading, searching, git, tests, scripts, interpreters, the agent's own memory): none is
refused.
"""

from __future__ import annotations

import functools
import io
import json
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import pytest
from harness_memory.hooks.tool_targets import shell_paths
from harness_memory.hooks.unread_programs import KEYS_CAP, memory_named
from memory_core import layout
from memory_core.keys import workspace_memory_key

from tests.support.guard_cases import (
    SHELL,
    Layout,
    answer,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusal,
)
from tests.support.hook_in_process import hook_main

if TYPE_CHECKING:
    from _typeshed import TraceFunction

HOME_JOIN = 'os.path.join(os.environ["HOME"], "agents/coder/agent_state/memory", "{other}", "a.md")'
UNREAD_PROGRAMS_NAMING_MEMORY = [
    'python3 -c \'p="{root_tail}"; open("/"+p+"/{other}/a.md","w").write("x")\'',
    f'python3 -c \'import os; open({HOME_JOIN}, "w").write("x")\'',
    f'python3 - <<\'PY\'\nimport os\nopen({HOME_JOIN}, "w").write("x")\nPY',
    'node -e \'const p=require("path"); require("fs").writeFileSync(p.join(process.env.HOME,'
    ' "agents/coder/agent_state/memory", "{other}", "a.md"), "x")\'',
    'perl -e \'open(my $f, ">", "$ENV{{HOME}}/agents/coder/agent_state/memory/" .'
    ' "{other}/a.md") or die; print $f "x"\'',
    "awk -v d=agents/coder/agent_state/memory"
    ' \'BEGIN {{ print "x" > (ENVIRON["HOME"] "/" d "/{other}/a.md") }}\'',
    "echo agents/coder/agent_state/memory {other} | xargs printf '%s/%s\\n'"
    " | xargs -I{{}} cp note.md ~/{{}}/a.md",
    'sed -n \'1e python3 -c "import os; open(os.environ[\\\\"HOME\\\\"] +'
    ' \\\\"/agents/coder/agent_state/memory/{other}/a.md\\\\", \\\\"w\\\\")"\' note.md',
    'bash -c \'python3 -c "import os; open(os.environ[\\"HOME\\"] +'
    ' \\"/agents/coder/agent_state/memory/{other}/a.md\\", \\"w\\")"\'',
    "find . -maxdepth 1 -name note.md -exec python3 -c 'import os, sys, shutil;"
    ' shutil.copy(sys.argv[1], os.environ["HOME"] + "/agents/coder/agent_state/memory/{other}'
    "/a.md\")' {{}} \\;",
    'python3 -c \'import os, sys; open(os.path.join(os.environ["HOME"], *sys.argv[1:]),'
    ' "w")\' agents/coder agent_state/memory {other} a.md',
    'python3 -c \'import os; open(os.environ["HOME"] + "/agents/coder/agent_state/memory/'
    '{own}/../{other}/a.md", "w")\'',
    'python3 -c \'import os, sys; open(os.path.join(os.environ["HOME"], "agents/coder",'
    ' "agent_state", "memory", sys.argv[1], "a.md"), "w")\' {other}',
    # a shell whose command text is built at run time runs what no text shows
    'sh -c "$(cat w.sh)" _ agents/coder/agent_state/memory {other}',
    # a program a program the guard reads runs by an option, the memory in its environment
    "D=agents/coder/agent_state/memory K={other} tar -cf /dev/null --checkpoint=1"
    " --checkpoint-action=exec=./w2.sh note.md",
    # a program the guard reads made to run another: its name found elsewhere, a script
    # every bash runs first, tar's options from the environment, curl's settings from a file
    "PATH=.:$PATH D=agents/coder/agent_state/memory K={other} ls",
    "export PATH=.:$PATH; D=agents/coder/agent_state/memory K={other} ls",
    'printf -v PATH %s ".:$PATH"; D=agents/coder/agent_state/memory K={other} ls',
    'read PATH <<< ".:/usr/bin:/bin"; D=agents/coder/agent_state/memory K={other} ls',
    "hash -p ./w2.sh ls; D=agents/coder/agent_state/memory K={other} ls",
    # the option in a bundle of flags, as the program's own parser reads it
    "hash -lp ./w2.sh ls; D=agents/coder/agent_state/memory K={other} ls",
    "D=agents/coder/agent_state/memory K={other} curl -sK cfg",
    "BASH_ENV=./w2.sh D=agents/coder/agent_state/memory K={other} bash -c :",
    "export BASH_ENV=./w2.sh D=agents/coder/agent_state/memory K={other}; bash -c :",
    "TAR_OPTIONS='--checkpoint=1 --checkpoint-action=exec=./w2.sh'"
    " D=agents/coder/agent_state/memory K={other} tar -cf /dev/null note.md",
    "D=agents/coder/agent_state/memory K={other} curl -s -K cfg",
    # more programs the guard reads running another by an option (on main too), and a long
    # option shortened as GNU getopt takes it
    "D=agents/coder/agent_state/memory K={other} split --filter=./w2.sh -l 1 note.md",
    "D=agents/coder/agent_state/memory K={other} install -s --strip-program=./w2.sh note.md out.md",
    "D=agents/coder/agent_state/memory K={other} tar -cf 127.0.0.1:x.tar"
    ' --rsh-command="$PWD/w2.sh" note.md || true',  # no rmt answers: tar then fails
    "D=agents/coder/agent_state/memory K={other} tar -cf /dev/null --checkpoint=1"
    " --checkpoint-act=exec=./w2.sh note.md",
]
"""Each was let through; bash writes into the other scope (``HOME`` holds the data dir)."""


@pytest.mark.parametrize("command", UNREAD_PROGRAMS_NAMING_MEMORY)
def test_p3_a_program_the_guard_cannot_read_naming_other_memory_is_refused(
    where: Layout, command: str
) -> None:
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "w.sh").write_text('cp note.md "$HOME/$1/$2/a.md"\n', encoding="utf-8")
    (where.workspace / "cfg").write_text(  # curl's settings: where it writes
        f'url = "file://{where.workspace}/note.md"\noutput = "{where.root / where.other}/a.md"\n',
        encoding="utf-8",
    )
    for name in ("w2.sh", "ls"):  # ``ls``: run by a PATH holding the Workspace
        script = where.workspace / name
        script.write_text('#!/bin/sh\ncp note.md "$HOME/$D/$K/a.md"\n', encoding="utf-8")
        script.chmod(0o755)
    assert_refused_by_every_harness_and_bash_writes(where, command)


def test_p3_the_refusal_names_the_program_and_the_memory(where: Layout) -> None:
    from tests.support.guard_cases import answer, fill, refusal

    command = fill(f"python3 -c 'import os; open({HOME_JOIN}, \"w\")'", where)

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None
    assert "runs python3, a program whose writes the guard cannot read" in reason
    assert "(agent_state/memory)" in reason


EVERYDAY_AGENT_COMMANDS = [
    # whole option names that start a longer one running a program (getopt takes them whole)
    "tar --checkpoint=1000 -czf /tmp/backup.tgz {root}/user",
    "install --strip -m 755 build/app ~/.local/bin/app",
    # reading and searching
    "ls -la",
    "pwd && ls",
    "cat package.json",
    "head -n 50 README.md",
    "tail -n 100 logs/app.log",
    "wc -l src/*.py",
    'grep -rn "TODO" src/ --include=*.py',
    'rg -n "def main" --type py',
    "find . -name '*.py' -not -path './.venv/*' | head -50",
    "tree -L 2 -I node_modules",
    "sed -n '1,80p' src/app.py",
    "awk -F, '{{print $2}}' data.csv | sort | uniq -c | sort -rn | head",
    "jq '.scripts' package.json",
    "diff -u old.txt new.txt",
    # git
    "git status",
    "git status --short && git diff --stat",
    "git log --oneline -20",
    "git diff HEAD~1 -- src/",
    "git show --stat HEAD",
    'git add -A && git commit -m "fix: handle empty input"',
    "git checkout -b fix-1a2b3c4d",
    "git stash list && git branch -a",
    "git apply --check fix.patch && git apply fix.patch",
    "git ls-files | xargs wc -l | tail -1",
    "git blame -L 10,20 src/app.py",
    # tests, builds, linters
    "python3 -m pytest -q tests/",
    "pytest -x -q tests/test_api.py::test_create",
    "npm test -- --watch=false",
    "npm run lint && npx tsc --noEmit",
    "cargo test --all",
    "go build ./... && go vet ./...",
    "make -C build -j4",
    "ruff check . --fix && mypy src/",
    "uv run pytest -k smoke",
    "pip install -r requirements.txt",
    "docker compose up -d && docker compose ps",
    # interpreters and scripts in the repository
    'python3 -c "import sys; print(sys.version)"',
    'python3 -c \'import json; print(json.load(open("package.json"))["version"])\'',
    "python3 scripts/migrate.py --dry-run",
    "python3 - <<'EOF'\nimport json\nprint(json.dumps({{'a': 1}}))\nEOF",
    "cat > /tmp/check.py <<'EOF'\nimport os\nprint(os.getcwd())\nEOF\npython3 /tmp/check.py",
    'node -e "console.log(process.version)"',
    "node scripts/build.js --prod",
    "perl -pi -e 's/foo/bar/g' src/*.c",
    "sed -i 's/old_name/new_name/g' src/config.py",
    "./scripts/setup.sh && bash scripts/test.sh",
    "find . -name '*.orig' | xargs rm -f",
    "xargs -n1 echo < list.txt",
    "curl -s http://localhost:8080/healthz | jq .",
    "ps aux | grep '[n]ode' | awk '{{print $2}}'",
    # the agent's own memory, by the paths its Session start gave it
    "ls {root}/{own}/",
    "cat {root}/{own}/MEMORY.md {root}/user/MEMORY.md",
    'grep -rn "deploy" {root}/{own}/ {root}/user/',
    "wc -l {root}/{own}/*.md",
    "cat >> {root}/{own}/MEMORY.md <<'EOF'\n- [Deploy](deploy.md) — how we deploy\nEOF",
    "python3 scripts/lint_notes.py {root}/{own}/MEMORY.md",
    "python3 -c 'print(open(\"{root}/user/MEMORY.md\").read())'",
    "ls ~/.local/share/agent-memory/agents/coder/agent_state/memory/{own}",
    "head -5 {root}/user/*.md && ls -la {root}/{own}",
    "python3 scripts/summarise.py --notes {root}/{own} > /tmp/summary.txt",
    'node -e \'console.log(require("fs").readdirSync("{root}/{own}"))\'',
    # a PATH, HOME or tar's options set for a tool, beside the agent's own memory
    'export PATH="$HOME/.local/bin:$PATH" && pip install -e . && cat {root}/{own}/MEMORY.md',
    "PATH=./node_modules/.bin:$PATH eslint src/ > {root}/{own}/lint.md",
    "HOME=/tmp/ci-home npm ci && ls {root}/user",
    "TAR_OPTIONS=--no-same-owner tar -xzf dist.tgz && cat {root}/{own}/MEMORY.md",
]
"""What coding agents run in a Workspace (their tool logs' usual commands); ``{root}`` is the
memory root in ``~/.local/share/agent-memory``, ``{own}`` the Session's scope, ``{other}``
another Workspace's (named by none: a literal word naming another scope or the memory root
itself is refused whatever the program, since the guard does not tell a program's reads from
its writes)."""


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, str]:
    """A home holding the data dir, a Workspace in it, the memory root with the user scope,
    the Workspace's scope and another Workspace's; returns (root, Workspace, other key)."""
    home = tmp_path / "home" / "dev"
    root = layout.memory_root(home / ".local" / "share" / "agent-memory", "coder")
    work = home / "src" / "my-app"
    work.mkdir(parents=True)
    other = workspace_memory_key(home / "src" / "billing")
    for scope in ("user", workspace_memory_key(work), other):
        (root / scope).mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    return root, work, other


def _refused(root: Path, work: Path, harness: str, command: str, state: Path) -> bool:
    event, tool = ("before-tool", "run_shell_command") if harness == "gemini" else SHELL[harness]
    hook = {
        "session_id": "s-1",
        "cwd": str(work),
        "hook_event_name": "BeforeTool" if harness == "gemini" else "PreToolUse",
        "tool_name": tool,
        "tool_input": {"command": command},
    }
    flags = ["--memory-root", str(root), "--state-dir", str(state)]
    out = io.StringIO()
    stdin = io.BytesIO(json.dumps(hook).encode())
    assert hook_main(["hook", harness, event, *flags], stdin=stdin, stdout=out) == 0
    return out.getvalue() != ""


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_no_everyday_agent_command_is_refused(
    home: tuple[Path, Path, str], tmp_path: Path, harness: str
) -> None:
    """Over-refusal measured: of the everyday agent commands, the share refused is 0."""
    root, work, other = home
    own = workspace_memory_key(work)
    commands = [c.format(root=root, own=own, other=other) for c in EVERYDAY_AGENT_COMMANDS]

    refused = [c for c in commands if _refused(root, work, harness, c, tmp_path / "state")]

    assert len(commands) >= 60
    assert refused == [], f"{len(refused)} of {len(commands)} refused"


def test_p3_git_apply_of_a_patch_naming_another_scope_is_refused(
    home: tuple[Path, Path, str], tmp_path: Path
) -> None:
    """``git apply`` outside a repository writes the files its patch names, from the folder it
    runs in: here another Workspace's ``a.md``, named from the home (``b/.local/share/…``),
    where no word of the command lands in the memory root. It was let through."""
    root, work, other = home
    command = (
        "cd ~ && git apply --unsafe-paths <<'EOF'\n--- /dev/null\n+++ b/.local/share/"
        f"agent-memory/agents/coder/agent_state/memory/{other}/a.md\n@@ -0,0 +1 @@\n+x\nEOF\n"
    )

    assert _refused(root, work, "claude-code", command, tmp_path / "state")

    subprocess.run(["bash", "-c", command], cwd=work, check=True, capture_output=True)
    assert (root / other / "a.md").read_text(encoding="utf-8") == "x\n"


@pytest.mark.parametrize(
    ("text", "root"),
    [
        (
            "python3 load_data.py /data/in.csv --out /data/out",
            "/data/agents/coder/agent_state/memory",
        ),
        ("python3 memory.py --mem /mem-cache", "/mem"),
        ("python3 /d/agents/coder/workspaces/w1/run.py", "/d/agents/coder/agent_state/memory"),
        ("node build.js --tag release-1234abcd", "/d/agents/coder/agent_state/memory"),
    ],
)
def test_p3_everyday_words_name_no_memory(text: str, root: str) -> None:
    """A data dir or memory root one folder deep is not looked for by its name alone (``data``,
    ``mem`` are everyday words), a temporary Workspace in the data dir is no memory, and a
    word shaped like a Workspace key names a scope only when the memory root holds it."""
    assert memory_named(text, root, "my-app-1234abcd", []) is None


def test_p3_past_the_keys_it_looks_up_a_key_shaped_word_seen_again_names_memory(
    tmp_path: Path,
) -> None:
    """Each word of a text is judged once (a big script repeats its words, H-5), yet past
    the :data:`KEYS_CAP` key-shaped words looked up, the next one names memory even when it
    was seen before; as many as the cap, none a scope, name none."""
    root = str(tmp_path / "m" / "agents" / "coder" / "agent_state" / "memory")
    words = [f"w{n:06d}-1234abcd" for n in range(KEYS_CAP)]
    named = "python3 x.py " + " ".join(words)

    assert memory_named(f"{named} --again {words[0]}", root, "own-1234abcd", []) == words[0]
    assert memory_named(f"{named} --again {named}", root, "own-1234abcd", []) == words[0]
    assert memory_named(named, root, "own-1234abcd", []) is None


def _lines_run_and_deepest(work: Callable[[], object]) -> tuple[int, int]:
    """How many Python lines ``work`` runs, and the most Python frames it has on the stack
    at once (counted, never timed)."""
    lines = depth = deepest = 0

    def trace(frame: FrameType, event: str, arg: object) -> TraceFunction:
        nonlocal lines, depth, deepest
        if event == "line":
            lines += 1
        elif event == "call":
            depth += 1
            deepest = max(deepest, depth)
        elif event == "return":
            depth -= 1
        return trace

    sys.settrace(trace)
    try:
        work()
    finally:
        sys.settrace(None)
    return lines, deepest


NAMING_MANY: dict[str, Callable[[int], str]] = {
    "the root into the own scope, again and again": lambda n: (
        "python3 x.py" + " /m/agents/coder/agent_state/memory/own-1234abcd/a.md" * n
    ),
    "key-shaped words": lambda n: "python3 x.py" + "".join(f" w{i:06d}-1234abcd" for i in range(n)),
    "unread programs": lambda n: "python3 a; " * n,
    # the readings of this stop's other changes, at the same sizes
    "continued here-document lines": lambda n: "cat <<EOF\n" + "EO\\\n" * n + "x\nEOF\n",
    "case patterns before a here-document": lambda n: (
        "case x in " + "a) echo;; " * n + "esac; cat <<E\nx\nE\n"
    ),
    "here-string lines": lambda n: 'cat <<< "' + "x $(date)\n" * n + '"',
    "eval words": lambda n: "eval " + "cp a b; eval " * n + "x",
    "wrappers": lambda n: "taskset 1 flock f " * n + "cp a b",
}
"""Commands of many mentions a model may send, by how many times their part repeats."""
_REPEATS = 80
"""The block of repeats whose lines are counted: each later block does the same work."""


@pytest.mark.parametrize("form", NAMING_MANY)
def test_p3_the_memory_a_command_names_is_read_in_work_linear_in_its_length(
    form: str, tmp_path: Path
) -> None:
    """H-5: reading a command (its words, here-data, ``eval``s and wrappers) and looking for
    the memory it names runs work and holds memory linear in its length (counted, never
    timed), once a reading of the longest command has filled the guard's caches:

    - each further block of 80 repeats runs as many Python lines as the block before it: a
      quadratic part of one Python line per pair of repeats adds 80 x 80 lines to the third
      block and fails four times over (a loop looking back at the words or here-document
      lines before each one fails every form), and doubling the command at most doubles
      the lines run; the stack is no deeper for three blocks than for one;
    - the memory the look holds at most doubles from 8 KiB to 16 KiB of command, or from 600
      to 1,200 repeats where a part is longer."""
    root = str(tmp_path / "m" / "agents" / "coder" / "agent_state" / "memory")
    unit = len(NAMING_MANY[form](1)) - len(NAMING_MANY[form](0))
    repeats = max(8 * 1024 // unit, 600)
    commands = [NAMING_MANY[form](n) for n in (repeats, 2 * repeats)]

    def read(command: str) -> None:
        shell_paths(command, "/tmp", {})
        memory_named(command, root, "own-1234abcd", [])

    def look(command: str) -> None:
        memory_named(command, root, "own-1234abcd", [])

    # patterns compiled, caches filled for every word counted below: the lines are counted
    # reading up to three blocks, the memory weighed looking only (the whole reading of the
    # command weighed was most of the time: 1,260 ``eval``s read for 240 counted)
    read(NAMING_MANY[form](3 * _REPEATS))
    look(commands[1])
    (lines, deepest), (lines_twice, _), (lines_thrice, deepest_thrice) = (
        _lines_run_and_deepest(functools.partial(read, NAMING_MANY[form](blocks * _REPEATS)))
        for blocks in (1, 2, 3)
    )
    peak, peak_twice = (_peak_bytes(functools.partial(look, c)) for c in commands)

    second_block, third_block = lines_twice - lines, lines_thrice - lines_twice
    assert third_block - second_block <= _REPEATS * _REPEATS // 4, (
        lines,
        lines_twice,
        lines_thrice,
    )
    assert lines_twice <= 2.2 * lines, (lines, lines_twice)
    assert deepest_thrice <= deepest, (deepest, deepest_thrice)
    assert len(commands[1]) >= 16 * 1024 - 2 * unit
    assert peak_twice <= 2.5 * peak, (peak, peak_twice)


def _peak_bytes(work: Callable[[], object]) -> int:
    """The most memory ``work`` holds at once (bytes)."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "command",
    [
        "python3 scripts/index.py ~/agents/coder/agent_state/memory/user --tag release-20261204",
        "node tools/build.js --out ~/agents/coder/agent_state/memory/{own}/index.md"
        " --id cafe-deadbeef",
        "python3 -m notesidx --root ~/agents/coder/agent_state/memory/user/ --since v2-20260101",
    ],
)
def test_p3_a_key_shaped_word_naming_no_scope_beside_the_root_passes(
    where: Layout, command: str
) -> None:
    """A word shaped like a Workspace key (``release-20261204``: a name, ``-``, 8 hex
    digits) beside the user scope's or the Session's own path was refused as if it named
    another scope; it names no folder of the memory root, so it passes. The same command
    naming an existing other scope's key is still refused."""
    shell = fill(command, where)
    assert answer(where, "claude-code", "Bash", {"command": shell}) is None, shell
    other = shell.replace("release-20261204", where.other).replace("cafe-deadbeef", where.other)
    other = other.replace("v2-20260101", where.other)
    assert refusal(answer(where, "claude-code", "Bash", {"command": other})) is not None


@pytest.mark.parametrize(
    "command",
    [
        'cd "$(cat target)" && python3 -c \'open("a.md", "w").write("x")\'',
        'cd $(cat target); perl -e \'open(my $f, ">", "a.md"); print $f "x"\'',
        'd=$(cat target); cd "$d" && git init -q',
        'read d < target; cd "$d"; node -e \'require("fs").writeFileSync("a.md", "x")\'',
        'cd `cat target` && awk \'BEGIN {{ print "x" > "a.md" }}\'',
        'cd $(dirname $(cat target)/x) && python3 -c \'open("a.md", "w").write("x")\'',
        "cd $(git rev-parse --show-toplevel 2>/dev/null || cat target)"
        " && make -f - <<< 'all:;@touch a.md'",
    ],
)
def test_p3_a_program_the_guard_cannot_read_after_a_cd_read_from_data_is_refused(
    where: Layout, command: str
) -> None:
    """A ``cd`` into a folder read from a file at run time, then a program whose writes the
    guard does not read, writing a relative name: it lands in that folder, which may be
    another scope. Each passed (no word named memory); run by bash, each writes there."""
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    assert_refused_by_every_harness_and_bash_writes(where, command)


@pytest.mark.parametrize(
    "command",
    [
        'cd "$(git rev-parse --show-toplevel)" && python3 -m pytest -q',
        'cd "$(dirname "$0")/.." && ./scripts/build.sh',
        "cd ${PROJECT_ROOT:-.} && make test",
        'cd "$(mktemp -d)" && git init -q',
        'cd "$(npm root -g)/typescript" && node bin/tsc --version',
        "cd $(git rev-parse --show-toplevel 2>/dev/null || pwd) && npm test",
    ],
)
def test_p3_a_program_after_a_cd_into_a_folder_a_program_names_passes(
    where: Layout, command: str
) -> None:
    """A ``cd`` into the folder git, ``dirname``, ``mktemp`` or npm prints, or an unset
    variable's default, is no data an earlier call wrote: the program after it passes."""
    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command
