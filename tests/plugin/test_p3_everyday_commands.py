"""P-3: the write guard refuses no everyday developer command.

Commands as they stand in real projects' scripts, READMEs and CI files (git, npm, make, docker,
find -exec, awk programs, parameter expansions with defaults and patterns, here-documents, cd
into a folder known at run time) are run by the hooks in a Workspace whose data dir holds the
memory root in the user's home, as an install puts it: none is refused, and none crashes the
hook (``find … -exec rm {} \\;`` and ``awk '{print $1}'`` once ended it with a RecursionError,
which the harness takes as no answer and runs the command unguarded).
"""

from __future__ import annotations

import gc
import io
import json
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, SupportsIndex

import pytest
from harness_memory.hooks.called_names import called_patterns
from harness_memory.hooks.code_sources import unread_substitution
from harness_memory.hooks.definitions import read_definitions
from harness_memory.hooks.shell_comments import uncommented
from harness_memory.hooks.tool_targets import shell_paths
from memory_core import layout
from memory_core.keys import workspace_memory_key

from tests.support.guard_cases import SYSTEM_PATH
from tests.support.hook_in_process import hook_main

if TYPE_CHECKING:
    from _typeshed import TraceFunction

_SENTENCE = " ".join(["Fix the parser so that a long line is read as the shell reads it"] * 5)
"""A sentence of 325 characters: one shell word when quoted, longer than a file name may be."""

EVERYDAY = [
    'git commit -m "$(cat msg)"',
    "npm test",
    "cd $(git rev-parse --show-toplevel)",
    "find . -name '*.pyc' -exec rm {} \\;",
    "find . -type f -name '*.log' -print0 | xargs -0 rm -f",
    "awk '{print $1}' README.md | sort | uniq -c",
    "git log --format='%h %s' -n 20 > /tmp/log.txt",
    'for f in src/*.py; do python -m py_compile "$f"; done',
    'export PATH="$HOME/.local/bin:$PATH" && pip install -e .',
    "python -m venv .venv && . .venv/bin/activate && pip install -r requirements.txt",
    "make -j$(nproc) all",
    "docker build -t app:${VERSION:-latest} .",
    'docker run --rm -v "$PWD":/app -w /app node:20 npm ci',
    "tar -czf dist/app-$(date +%Y%m%d).tar.gz build/",
    "mkdir -p build && cd build && cmake .. && make",
    "sed -i 's/foo/bar/g' src/*.js",
    "rsync -av --exclude node_modules ./ /tmp/backup/",
    'cp -r templates/ "${OUT_DIR:-dist}/templates"',
    'echo "${GITHUB_SHA::7}" > version.txt',
    "git diff --name-only HEAD~1 | grep '\\.py$' | xargs ruff check",
    'npx prettier --write "src/**/*.{ts,tsx}"',
    "go test ./... 2>&1 | tee test.log",
    "cargo build --release && cp target/release/app ~/bin/",
    "jq '.version' package.json > /tmp/v",
    "curl -fsSL https://example.com/install.sh -o /tmp/install.sh",
    'cd "$(dirname "$0")/.." && ./scripts/build.sh',
    'DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; echo "$DIR"',
    'while read -r line; do echo "$line"; done < input.txt > output.txt',
    "if [ -f .env ]; then set -a; . ./.env; set +a; fi",
    "test -d node_modules || npm install",
    "git stash && git pull --rebase && git stash pop",
    "ssh-keygen -t ed25519 -f ~/.ssh/id_test -N ''",
    "kill -9 $(lsof -t -i:3000) 2>/dev/null || true",
    "printf '%s\\n' \"${ARR[@]}\" > list.txt",
    "echo ${PWD##*/} > name.txt",
    "cp config/${ENV}.yaml config/current.yaml",
    'pytest -k "not slow" --junitxml=reports/junit-${CI_JOB_ID:-local}.xml',
    'mv "${file%.txt}.md" docs/',
    'git log --pretty=format:\'{"h":"%h"}\' > log.json',
    "npm run build -- --outDir=dist/{cjs,esm}",
    "ls -la {src,tests}/ && wc -l $(git ls-files '*.py')",
    'touch "${TMPDIR:-/tmp}/lock"',
    "cd ${PROJECT_ROOT:-.} && make test",
    "echo x > ${HOME}/notes.txt",
    'echo "${HOME%/}/cache" > .cachedir',
    "X=$HOME/src; echo ${X/src/build} > /tmp/o",
    "python - <<'PY' > out.txt\nprint(1)\nPY",
    "ls /proc/self/fd/ && cat /proc/self/status && echo hi > /dev/stderr",
    "cat /proc/self/cwd/README.md > /dev/null; cat < /dev/stdin > /dev/stdout",
    "cat /proc/cpuinfo && ls /proc/self/fd && echo x > /dev/null",
    "make 2> /dev/stderr | tee /dev/stderr && ls /proc/self/root/etc > /dev/null",
    'cat > /tmp/conf.json <<EOF\n{"a": 1}\nEOF',
    # run-time words where nothing is written, or written places the guard reads (P-3)
    'mkdir -p "$(dirname build/out/app.js)" && cp app.js build/out/',
    'cd "$(git rev-parse --show-toplevel)" && git status --short',
    'echo "built $(date -u +%FT%TZ)" >> logs/build-$(date +%Y%m%d).log',
    'tmp=$(mktemp -d) && cp -r src "$tmp/" && ls "$tmp"',
    'out="$(mktemp)"; pytest -q > "$out" 2>&1; tail -n 20 "$out"',
    "docker rm $(docker ps -aq --filter status=exited)",
    "echo $(nproc) > .jobs && make -j$(nproc) > build.log 2>&1",
    'echo "v-$(git rev-parse --short HEAD)" > version.txt',
    "git diff > /tmp/patch-$(git rev-parse --short HEAD).diff",
    "cp $(git ls-files '*.md') /tmp/docs/",
    "rsync -t $(git ls-files '*.md') /tmp/docs/",  # rsync's -t keeps times: no target folder
    'for f in src/*.js; do mv "$f" "${f%.js}.ts"; done',
    "for i in 1 2 3; do ./bench > out_$i.txt; done",
    'for f in *.md; do cp "$f" "/tmp/backup/$f"; done',
    'ln -sf "$(pwd)/bin/tool" ~/.local/bin/tool',
    # links made and then used in the same command: a write through one to a place built at
    # run time is refused, these are not
    'ln -s "$(pwd)/build" out && ls out/ && python3 gen.py --out out/',
    "ln -sf ../shared/x.py x.py && python x.py",
    'mkdir -p venv/bin && ln -s "$(brew --prefix)/bin/python3" venv/bin/python',
    "ln -sfn build/current latest && cp dist/app.js latest/",
    'cp "$(command -v python3)" /tmp/py && pushd "$(git rev-parse --show-toplevel)" > /dev/null',
    "sudo -u www-data touch /tmp/app.lock && timeout 30 tee /tmp/out.txt < input.txt",
    "if (( $(nproc) > 2 )); then make -j4 > build.log; fi",
    '[[ "$(git branch --show-current)" > "main" ]] && echo later > /tmp/order.txt',
    "source .venv/bin/activate && pytest -q > out.txt 2>&1",
    "sed -n '1,20p' $(git ls-files '*.py' | head -1) && sed -i 's/foo/bar/' src/app.py",
    # here-documents and here-strings: their text is data, however much it reads like a command
    "tee notes.txt <<EOF\n$(git describe --tags 2>/dev/null)\nEOF",
    'cat > NOTES.md <<EOF\nRun: cd "$(git rev-parse --show-toplevel)" && make > out.txt\nEOF',
    "cat >> CHANGELOG.md <<EOF\n## $(git describe --tags)\n- rm -rf ~/.cache/app first\nEOF",
    "git commit -F - <<EOF\nfix: $(cat msg)\n\nSigned-off-by: $(git config user.name)\nEOF",
    'cat <<\'EOF\' > deploy.sh\n#!/bin/sh\ncd "$(dirname "$0")"\nrsync -a dist/ "$T"/\nEOF',
    'tee -a build.log <<< "$(date) built > $(hostname)"',
    "gh pr create --title fix --body-file - <<'EOF'\nRun `make > out.txt`, `cp x $(cat f)`\nEOF",
    # unpacking and sorting into folders the guard reads
    "mkdir -p build && tar -xzf dist.tgz -C build/ && unzip -q -o pkg.zip -d vendor/",
    'sort -u -o words.txt words.txt && patch -p1 -d "$PWD" < fix.diff',
    # a script of several lines, with comments
    "# install the tools first (don't skip this)\nnpm ci\n\nnpm test  # it's quick",
    # a find over the home holding the data dir whose -name tests keep the memory files out
    "cd ~ && find . -name '*.pyc' -delete",
    "find ~ -type d -name __pycache__ -prune -exec rm -rf {} +",
    # files and folders named like a program's settings, read or given to it, while it runs:
    # only a place the command writes that is such a file (by its last parts) is refused
    "sed -n 1,20p src/git/config.ts && git status",
    "python3 -m pytest tests/git/config_test.py && git status",
    "npx vitest run src/lib/git/config.test.ts && git add -A",
    "pytest tests/pip/ -q && pip list",
    "pip install --cache-dir ~/.cache/pip/ x",
    "python3 -m pip install -e ./vendor/pip/",
    "npm run lint -- --fix src/npmrc.ts",
    "bash -c 'source ~/.profile && make'",
    "cp ~/.npmrc /tmp/npmrc.bak && npm test",
    "echo x > notes/pip.conf.md && pip list",
    # a program's settings read by a sed that only prints, then the program run
    "sed -n 1,20p .git/config && git status",
    "sed -n '/^\\[remote/,/^\\[/p' .git/config; git remote -v",
    "sed -e 's/^/  /' -e '/token/d' ~/.npmrc && npm ci",
    "sed -n -E '/^(index|extra)/p' ~/.config/pip/pip.conf && pip list",
    "cat .git/config | sed -n 1,5p && git log -1",
    # a build, install, clone or generator, then a write into a folder it or mkdir makes:
    # programs whose code the guard does not read (or reads and finds making no link)
    "git clone https://x/y.git repo && echo hi > repo/NOTES.md",
    "npm run build && mkdir -p dist && echo ok > dist/stamp",
    "npm install && mkdir -p out && cp a.txt out/",
    "cargo build && mkdir -p release && cp target/release/app release/",
    "python3 gen.py && mkdir -p reports && echo x > reports/sum.txt",
    "pip install -r req.txt && mkdir -p logs && echo started > logs/run.log",
    "./configure && make && mkdir -p /tmp/out && cp app /tmp/out/",
    "go build ./... && mkdir -p bin && echo x > bin/VERSION",
    "python3 run.py; mkdir newdir; echo x > newdir/a.txt",
    "npx create-react-app web && echo '# web' > web/README.md",
    # a backup of a file named by a variable whose value is known, kept in the Workspace
    "f=src/a.py; sed -i.bak 's/a/b/' \"$f\"",
    "for f in src/*.py; do sed -i.orig 's/a/b/' \"$f\"; done",
    "for f in src/*.py; do perl -pi.bak -e 's/a/b/' \"$f\"; done",
    'for f in src/*.py; do cp -b note.md "$f"; done',
    "sed -i.bak 's/a/b/' \"$PWD/config.ini\"",
    'cp -b note.md "$HOME/x.md"',
    'f=config.ini; cp -b "$f" "$f.new"',
    # a quoted word longer than a file name may be (255 bytes): a commit message, a JSON body,
    # a sentence; the guard took each for a path and, the kernel refusing to look it up
    # (ENAMETOOLONG), for a file with other names (hard links), and refused the call
    f'git commit -m "{_SENTENCE}"',
    f'curl -s -d \'{{"text": "{_SENTENCE}"}}\' http://localhost:8080/notes',
    f"echo '{_SENTENCE}' > notes.txt",
    f"gh issue comment 12 --body '{_SENTENCE}'",
    # an awk program, perl's or ruby's code after a clustered -e (-ne, -lane, -pe): code the
    # guard reads for links, never a script file's name (one with $1 in it was taken for a
    # script named at run time, so a file the pipeline then wrote was refused as written after
    # a program that may make a link)
    "awk '{print $1}' README.md | sort | uniq -c > counts.txt",
    "awk -F, '{s+=$3} END {print s}' data.csv > total.txt",
    "gawk -v OFS=, '{print $2, $1}' data.csv | sort > swapped.csv",
    "perl -ne 'print if /TODO/' src/a.py | sort > todo.txt",
    "perl -lane 'print $F[0]' data.txt > first.txt",
    "ruby -ne 'puts $_ if /x/' README.md | sort > out.txt",
    # a word with white space a program only reads (a message, a pattern, a header) is data,
    # not a command: its first word named at run time ($USER) was taken for a program that
    # may make links, and the next new file the command wrote was refused
    'echo "$USER did it" | tee log.txt',
    'git commit -m "$TICKET fix the parser" && echo done > stamp.txt',
    'echo "${BRANCH} build ok" > status.txt',
    'grep -E "$PATTERN|TODO" src/a.py | sort > todo.txt',
    'curl -H "$AUTH_HEADER x" https://example.com -o page.html',
    'git stash push -m "$BRANCH wip" && echo ok > stashed.txt',
    "awk -v name=\"$USER\" '{print name, $0}' README.md > named.txt",
    # values assigned by export/readonly/printf -v, options taking a value before a script or
    # code (python3 -W ignore, perl -Mstrict -we, -F, -lane, ruby -rjson -e): nothing links
    'export MSG="build done"; echo "$MSG" > msg.txt',
    "readonly VERSION=1.2.3; echo $VERSION > version.txt",
    'export JAVA_OPTS="$JAVA_OPTS -Xmx2g" && ./gradlew build > build.log',
    'export NODE_OPTIONS="${NODE_OPTIONS:-} --max-old-space-size=4096"; npm run build > b.log',
    'CFLAGS="$CFLAGS -O2 -g" make > build.log',
    'printf -v NOW \'%s\' "$(date +%F)"; echo "$NOW" > now.txt',
    "python3 -W ignore -X dev gen.py > report.txt",
    "perl -Mstrict -we 'print 1' > one.txt",
    "perl -MList::Util=sum -le 'print sum(1, 2)' > sum.txt",
    "perl -F, -lane 'print $F[1]' data.csv > second.txt",
    "perl -l0e 'print 1' > nul.txt",
    "perl -I lib -ne 'print if /x/' README.md > xs.txt",
    "ruby -rjson -e 'puts JSON.generate([1])' > list.json",
    "trap 'rm -f /tmp/app.lock' EXIT; make > build.log",
    "docker run --rm alpine sh -c 'echo hi' > hi.txt",
    # a value adding options to its own variable; preloaded modules named without a path
    'CMD="$CMD --verbose"; echo "$CMD" > cmd.txt',
    'ARGS="$ARGS --flag"; echo "$ARGS" > args.txt',
    'CFLAGS="${CFLAGS} -O2"; echo "$CFLAGS" > flags.txt',
    "node -r dotenv/config app.js > out.txt",
    "node --require ts-node/register app.ts > out.txt",
    "node --import tsx app.ts > out.txt",
    "node --require=dotenv/config app.js > out.txt",
    "ruby -r json -e 'puts 1' > one.txt",
    # a program named by a path inside a data word (a sed, awk, grep pattern, a message)
    "sed -i 's/ln -s /ln -sfn /' data.csv && echo ok > done.txt",
    "sed -e 's/ln -s/ln -sf/g' data.csv > out.csv",
    "sed -i 's/cp -r/cp -a/' data.csv && echo ok > done.txt",
    "awk '{gsub(/ln -s/, \"ln -sf\")} 1' data.csv > out.csv",
    'grep -rn "s/ln -s" src > hits.txt',
    'grep -rn "/bin/ln -s" src > hits.txt',
    'git commit -m "fix/ln -s on macOS" && echo ok > done.txt',
    'echo "usr/bin/ln -s x y" > notes.txt',
]


def _lay_out(base: Path) -> tuple[Path, Path, Path]:
    """Under ``base``: a home holding the data dir (``~/.local/share/agent-memory``), ``~/bin``,
    ``~/x.md``, a Workspace in it (``src/a.py``, ``config.ini``), and the memory root with the
    user scope and the Workspace's scope. ``(home, memory root, Workspace)``."""
    home = base / "home" / "dev"
    data = home / ".local" / "share" / "agent-memory"
    root = layout.memory_root(data, "coder")
    work = home / "src" / "my-app"
    work.mkdir(parents=True)
    (home / "bin").mkdir()  # ``cp … ~/bin/`` after a build: a home's own folder, there already
    (work / "src").mkdir()
    for there in (work / "src" / "a.py", work / "config.ini", home / "x.md"):
        there.write_text("a\n", encoding="utf-8")  # a backup is kept of a file there already
    for scope in ("user", workspace_memory_key(work)):
        (root / scope).mkdir(parents=True)
    return home, root, work


def _in(home: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's process environment: the home, the Workspace as ``$PWD``, the system's
    ``PATH`` (``$(date +%F)``: the system's, run as root too)."""
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PWD", str(work))
    monkeypatch.setenv("PATH", SYSTEM_PATH)


@pytest.fixture(scope="module")
def judged_layout(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path, Path]:
    """:func:`_lay_out` once for the module's commands that are only judged, and the hooks'
    state dir beside the home as after a first Session: no test runs the commands, and a
    pre-tool hook writes nothing (neither in the home nor in the state dir), so each judgment
    reads the same files as on a layout of its own. ``(home, memory root, Workspace, state)``."""
    base = tmp_path_factory.mktemp("everyday")
    (base / "state" / "sessions").mkdir(parents=True)
    return (*_lay_out(base), base / "state")


@pytest.fixture
def judged(
    judged_layout: tuple[Path, Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path, Path]:
    """The shared layout in its environment: ``(memory root, Workspace, state dir)``."""
    home, root, work, state = judged_layout
    _in(home, work, monkeypatch)
    return root, work, state


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """:func:`_lay_out` of this test's own, for a command bash then runs:
    ``(memory root, Workspace)``."""
    home, root, work = _lay_out(tmp_path)
    _in(home, work, monkeypatch)
    return root, work


def _hook_says(root: Path, work: Path, state: Path, harness: str, command: str) -> str:
    """What ``harness``'s pre-tool hook prints for its shell tool running ``command`` in the
    Workspace ``work`` (``""``: allowed), asserted to exit 0."""
    event, tool = (
        ("before-tool", "run_shell_command") if harness == "gemini" else ("pre-tool-use", "Bash")
    )
    hook = {
        "session_id": "s-1",
        "cwd": str(work),
        "hook_event_name": "BeforeTool" if harness == "gemini" else "PreToolUse",
        "tool_name": tool,
        "tool_input": {"command": command},
    }
    flags = ["--memory-root", str(root), "--state-dir", str(state)]
    (state / "sessions").mkdir(parents=True, exist_ok=True)  # the records, after a first Session
    out = io.StringIO()
    stdin = io.BytesIO(json.dumps(hook).encode())
    assert hook_main(["hook", harness, event, *flags], stdin=stdin, stdout=out) == 0
    return out.getvalue()


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize("command", EVERYDAY)
def test_p3_everyday_commands_are_not_refused(
    judged: tuple[Path, Path, Path], harness: str, command: str
) -> None:
    root, work, state = judged

    said = _hook_says(root, work, state, harness, command)

    assert said == "", (command, said)


EVERYDAY_NOTES = [
    ("cp -t {own} note.md", "{own}/note.md"),
    ("mv -t {own} note.md", "{own}/note.md"),
    ("cp -vt {own} note.md", "{own}/note.md"),
    ("cp -t {user} note.md", "{user}/note.md"),
    ("install -m 644 note.md {own}/", "{own}/note.md"),
    ("cp -S .bak -b note.md {own}/", "{own}/note.md"),
    ("rsync -a --chmod F644 note.md {own}/", "{own}/note.md"),
    ("pax -rw note.md {own}", "{own}/note.md"),
    (
        "cd {own} && grep -v old MEMORY.md > MEMORY.md.tmp && mv MEMORY.md.tmp MEMORY.md",
        "{own}/MEMORY.md",
    ),
]
"""A note copied into the Session's own or the user's scope by a name the service addresses
(K-7), with options and values before it, or a scope file rewritten through a temporary name:
each was refused, the guard taking an option's value or the ``-t`` folder for the name."""


@pytest.mark.parametrize(("command", "place"), EVERYDAY_NOTES)
def test_p3_everyday_note_writes_into_a_scope_pass_and_land_where_the_guard_said(
    workspace: tuple[Path, Path], tmp_path: Path, command: str, place: str
) -> None:
    """Each harness's hook lets the command through; bash then runs it once (what it writes
    does not depend on the harness that judged it) and it lands where the guard said."""
    root, work = workspace
    own = root / workspace_memory_key(work)
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (own / "MEMORY.md").write_text("keep\nold\n", encoding="utf-8")
    shell = command.format(own=own, user=root / "user")

    said = {
        harness: _hook_says(root, work, tmp_path / "state", harness, shell)
        for harness in ("claude-code", "codex", "gemini")
    }
    subprocess.run(["bash", "-c", shell], cwd=work, check=True, capture_output=True)

    assert said == {"claude-code": "", "codex": "", "gemini": ""}, (shell, said)
    landed = Path(place.format(own=own, user=root / "user"))
    wanted = "keep\n" if landed.name == "MEMORY.md" else "x\n"
    assert landed.read_text(encoding="utf-8") == wanted, landed
    assert {path.name for path in own.iterdir()} <= {"MEMORY.md", "note.md"}  # no temporary


HOSTILE: dict[str, Callable[[int], str]] = {
    # never closed: each once scanned to the end (7 s at 20 000)
    "unclosed braces": lambda n: "echo " + "{" * n,
    "nested braces": lambda n: "echo " + "{" * n + "a,b" + "}" * n,
    "nested defaults": lambda n: "echo " + "${X:-" * n + "}" * n,  # once a RecursionError
    "cd chain": lambda n: "cd a && " * n + "echo x > y",  # every folder kept: killed for memory
    # each once read in time quadratic in its length (or, the second, a RecursionError)
    "unclosed arithmetic": lambda n: "echo " + "$((" * n,
    "nested substitutions and a here-document": lambda n: "echo " + "$(" * n + " <<E\nx\nE\n",
    "here-documents on one line": lambda n: "cat " + "<<A " * n + "\n" + "A\n" * n,
    "here-strings": lambda n: "cat " + "<<< x " * n,
    # read as bash reads them since the here-data fallbacks were narrowed
    "continued body lines": lambda n: "cat <<EOF\n" + "EO\\\n" * n + "x\nEOF\n",
    "case patterns": lambda n: "case x in " + "a) echo;; " * n + "esac; cat <<E\nx\nE\n",
    "here-string lines": lambda n: 'cat <<< "' + "x $(date)\n" * n + '"',
    # an eval's words joined and read again, wrappers taking operands
    "eval words": lambda n: "eval " + "cp a b; eval " * n + "x",
    "one long eval": lambda n: "eval " + "a " * n,
    "wrappers": lambda n: "taskset 1 flock f " * n + "cp a b",
    # one simple command of assignments, as an MCP tool's 1 MiB text may be (each once copied
    # the rest of the command while looking for ``hash -p``: 30 s at 320 KiB)
    "assignments": lambda n: "x=1 " * n,
    # links made, each kept for the words after it: past 64 every path is taken as unknown
    "made links": lambda n: "".join(f"ln -s a l{i}; echo x > l{i}/b; " for i in range(n)),
    # each once read in time quadratic in its length (minutes at 100,000 characters): a glob's
    # ``[`` never closed (fnmatch searched the rest for a ``]`` from each), a line of ANSI-C
    # quoting (decoded once for each ``$'`` on it)
    "unclosed brackets": lambda n: "echo " + "[" * n,
    "ANSI-C quoting on one line": lambda n: "echo " + "$'" * n,
    # the code an interpreter takes from a pipe (review59b): each stage read once; the
    # backslashes before a ``#`` counted once (the substitutions: TEXT_READERS)
    "pipes into shells": lambda n: "base64 -d f | " * n + "sh",
    "backslashes before a comment": lambda n: "echo " + "\\\\" * n + " #x",
    # ``unset`` read its options again for each name it unsets: quadratic in their count
    "unset names": lambda n: "unset " + "IFS " * n,
}
"""Commands a model may send, by how many times their hostile part repeats."""
_NESTED = {
    "unclosed braces": 100_000,
    "nested braces": 10_000,
    "nested defaults": 3000,
    "nested substitutions and a here-document": 5000,
}
"""The forms nested in themselves, by the size they were first seen at: reading one may go a
frame deeper per level (a ``$(`` in a ``$(`` is read until Python's depth, then as written),
so each is read at that size too, and ends (each in a few hundredths of a second)."""
_REPEATS = 80
"""The block of repeats whose lines are counted: past every per-repeat cap (64 folders a
``cd`` chain went into, 64 links made), so each later block does the same work."""
_MEMORY_REPEATS = 3 * _REPEATS // 2
"""The fewest repeats whose memory is weighed (120, past every per-repeat cap), and twice as
many: the longest command whose lines are counted, so one reading fills the caches for both
(a ``cd`` chain, held at 16.8 KiB a folder past the first 64, weighs 2.36 times as much at
240 as at 120)."""
_MEMORY_CHARACTERS = 1000
"""The shortest command whose memory is weighed, up to 250 repeats (as all were once): a
form of short repeats (``x=1 ``) is weighed at as many as make it this long, so a copy of
the rest of the command held for each word still shows; at 120 it added too little to the
100 KiB a reading holds anyway."""


def _lines_run_and_deepest(command: str) -> tuple[int, int]:
    """How many Python lines reading ``command`` runs, and the most Python frames it has on
    the stack at once: counts that grow with the work done and the recursion, and do not
    depend on how busy the machine is."""
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
        shell_paths(command, "/tmp", {"X": "/tmp/x"})
    finally:
        sys.settrace(None)
    return lines, deepest


def _peak_bytes(command: str) -> int:
    """The most memory reading ``command`` holds at once (bytes), apart from the line count:
    under the line tracer and ``tracemalloc`` at once, each slowed the other."""
    gc.collect()  # every reading starts from no garbage and the collector's counts at zero:
    tracemalloc.start()  # the peak then depends on the command, not on the tests run before
    try:
        shell_paths(command, "/tmp", {"X": "/tmp/x"})
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("form", HOSTILE)
def test_p3_a_hostile_command_is_read_in_work_linear_in_its_length(form: str) -> None:
    """The guard reads any command a model may send in work and memory linear in its length:
    nothing in the lexer is quadratic in a word's braces, recursive in its expansions, or
    multiplies words by every folder a chain of ``cd`` went into (folders past 64 are taken as
    unknown). Counted, never timed, after a reading of the longest command counted has filled
    the guard's caches:

    - each further block of 80 repeats runs as many Python lines as the block before it (a
      step looking back at the repeats before each one, one line per pair of repeats, adds
      80 x 80 lines to the third block: it fails four times over), and doubling the command
      at most doubles the lines run;
    - the stack is no deeper for three blocks than for one: no recursion grows with the
      command, so no length ends in a RecursionError; a form nested in itself is read at
      the size it was first seen at instead, and ends;
    - doubling the hostile part from 120 repeats (or 1,000 characters, where a repeat is
      short) at most doubles the memory held."""
    command = HOSTILE[form]
    if form in _NESTED:
        shell_paths(command(_NESTED[form]), "/tmp", {"X": "/tmp/x"})
    # patterns compiled, caches filled for every word the counts below read (each reading
    # then starts from the same state: read first, the 250 new link names past 250 filled
    # a cache, and the peak at 500 links made came out 3.45 times that at 250, not 1.9)
    unit = len(command(1)) - len(command(0))
    weighed = min(max(_MEMORY_REPEATS, _MEMORY_CHARACTERS // unit), 250)
    shell_paths(command(max(3 * _REPEATS, 2 * weighed)), "/tmp", {"X": "/tmp/x"})
    (lines, deepest), (lines_twice, _), (lines_thrice, deepest_thrice) = (
        _lines_run_and_deepest(command(blocks * _REPEATS)) for blocks in (1, 2, 3)
    )
    peak, peak_twice = (_peak_bytes(command(n)) for n in (weighed, 2 * weighed))

    second_block, third_block = lines_twice - lines, lines_thrice - lines_twice
    assert third_block - second_block <= _REPEATS * _REPEATS // 4, (
        lines,
        lines_twice,
        lines_thrice,
    )
    assert lines_twice <= 2.2 * lines, (lines, lines_twice)
    assert form in _NESTED or deepest_thrice <= deepest, (deepest, deepest_thrice)
    assert peak_twice <= 2.5 * peak, (peak, peak_twice)


class _CountedText(str):
    """A command's text counting the characters its slices copy (a reader copying the rest of
    the text at each position copies a number quadratic in its length: C-level work no count
    of Python lines sees)."""

    copied = 0

    def __getitem__(self, key: SupportsIndex | slice) -> str:
        part = str.__getitem__(self, key)
        if isinstance(key, slice):
            self.copied += len(part)
        return part


def _patterns_called(text: str) -> object:
    return called_patterns(text, {"X": "/tmp/x"}, ())


TEXT_READERS: dict[str, tuple[Callable[[str], object], Callable[[int], str]]] = {
    # each copied the rest of the text at each brace: 6.6 s at 100,000
    "unclosed braces": (_patterns_called, lambda n: "echo " + "{" * n),
    "nested braces holding spaces": (_patterns_called, lambda n: "echo " + "{ " * n + " }" * n),
    # each bare mention of an expanded name copied the rest of the text, looking for ``=``
    "a name expanded, then named bare": (_patterns_called, lambda n: "echo $X" + " X" * n),
    # each ``$'`` copied its whole line once more
    # (the reader itself, not its memo: a text read before would cost nothing here)
    "ANSI-C quoting on one line": (read_definitions.__wrapped__, lambda n: "echo " + "$'" * n),
    # each ``#`` after an escaped blank, dropped or kept by one rule (review59b)
    "comments after escaped blanks": (uncommented, lambda n: "echo a\\ #b " * n + "# c"),
    "substitutions in a shell's code": (
        lambda text: unread_substitution(text, lambda name: False),
        lambda n: "$(pwd) `b` $((1))" * n,
    ),
}
"""A reader of a command's (plain) text with the hostile command it copied quadratically."""


@pytest.mark.parametrize("reader", TEXT_READERS)
def test_p3_a_reader_of_a_hostile_command_copies_characters_linear_in_its_length(
    reader: str,
) -> None:
    """H-5: the readers of a command's text (the names it may call, the definitions it makes)
    decide what each brace or quote means from marks read once per text, never from a copy of
    the rest of the text at each one: doubling the command at most doubles the characters its
    slices copy (counted, never timed; a copy per brace fails four times over)."""
    read, command = TEXT_READERS[reader]
    texts = [_CountedText(command(n)) for n in (500, 1000)]
    for text in texts:
        read(text)

    assert texts[1].copied <= 2.5 * max(texts[0].copied, len(texts[0])), [
        text.copied for text in texts
    ]


DEFINITIONS_SEARCHED: dict[str, Callable[[int], str]] = {
    "process substitutions": lambda n: "cat " + "<(a) " * n,
    "array assignments": lambda n: "a=(x) " * n,
    "assigned substitutions": lambda n: "x=$(a); " * n,
    "exported names": lambda n: "export a " * n,
}
"""Commands whose definitions the guard searched in time quadratic in their length (a minute
at 40,000 characters): from each ``(``, ``)``, ``;`` or ``export`` the search read every word
after it, to the end, before failing."""


@pytest.mark.parametrize("form", DEFINITIONS_SEARCHED)
def test_p3_the_definitions_search_reads_a_few_words_from_each_command_start(form: str) -> None:
    """P-3: the search for what a command defines (``. ./f``, ``$e``, ``export "$n=…"`` after
    a command's assignments, redirections and keywords) reads at most 16 words of 256
    characters from each place a command may start (64 of a declaring builtin's), failing
    closed past them, never the rest of the command: the memory it holds is a copy or two of
    the text, not a frame per word it read on (counted, never timed: the search is C-level
    work no count of Python lines sees, but each word read on in one attempt held 90 bytes,
    and each attempt read to the end)."""
    text = DEFINITIONS_SEARCHED[form](2000)
    read_definitions(text)  # patterns compiled, caches filled
    gc.collect()
    tracemalloc.start()
    try:
        held = tracemalloc.get_traced_memory()[0]
        read_definitions(text)
        peak = tracemalloc.get_traced_memory()[1] - held
    finally:
        tracemalloc.stop()

    assert peak <= 3 * len(text), (peak, len(text))


def test_p3_the_definitions_search_fails_closed_past_the_words_it_reads() -> None:
    """What the bounded search no longer reads counts as a definition: a 17th word before a
    command's name, a 65th option or word of a declaring builtin, a word of 257 characters or
    more before a name built at run time; fewer, and everyday long words, are read as before."""
    long = "x" * 300
    defining = [
        "x=1 . ./f",
        "; " + "a=1 " * 17 + "make",
        "declare " + "-x " * 66 + "r",
        "export " + "a " * 65 + "b",
        f"X={long} . ./f",
        f"export X={long} $n=1",
        f"export {long} $n=1",
        "a=1 b=2 2>/dev/null $e foo",
        'export "$n=1"',
    ]
    plain = [
        "; " + "a=1 " * 15 + "make",
        "export " + "a " * 63,
        f"export TOKEN={long}; curl -o out-$(date +%F).json https://example.com",
        f'curl -o o.json "https://example.com/?a=1&b={long}"',
        "git commit -m msg",
    ]

    assert [text[:40] for text in defining if not read_definitions(text).lookup] == []
    assert [text[:40] for text in plain if read_definitions(text).lookup] == []
