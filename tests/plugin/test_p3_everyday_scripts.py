"""P-3: everyday build, test and release scripts a developer runs pass the write guard.

Each script below changes folder before it writes, as such scripts do (to the repository's
top, to its own folder, into a build folder, a temporary one, back with ``cd -`` or
``popd``), and none can write into another Workspace's scope. The guard follows each ``cd`` as
the command's own: ``cd "$(git rev-parse --show-toplevel)"`` by asking git, as typed (every
relative write after it was refused in a script, ``bash script.sh``, though it passed typed),
``$(dirname "$0")``, ``${BASH_SOURCE%/*}``, ``$(mktemp -d)``, a subshell's ``cd`` given back
at its ``)``. Each is asked of every harness in this process.
"""

from __future__ import annotations

import subprocess

import pytest
from harness_memory.hooks import git_toplevel

from tests.support.guard_cases import Layout, refusals_by_every_harness

TOP = 'cd "$(git rev-parse --show-toplevel)"'
OUT = "echo x > out.txt"
EVERYDAY_SCRIPTS = {
    "bash t01.sh": f"{TOP}; {OUT}\n",
    "bash t02.sh": f"cd $(git rev-parse --show-toplevel)\n{OUT}\n",
    "bash t03.sh": f"{TOP} || exit 1\n{OUT}\n",
    "bash t04.sh": f'ROOT=$(git rev-parse --show-toplevel); cd "$ROOT"; {OUT}\n',
    "bash t05.sh": f'cd -- "$(git rev-parse --show-toplevel)"\n{OUT}\n',
    "bash t06.sh": f"#!/usr/bin/env bash\nset -euo pipefail\n{TOP}\nmkdir -p b\necho x > b/log\n",
    "bash t07.sh": f'ROOT="$(git rev-parse --show-toplevel)"\ncd "$ROOT/sub"\n{OUT}\n',
    "bash sub/t08.sh": f'cd "$(dirname "$0")/.."\n{OUT}\n',
    "bash t16.sh": 'for d in */; do (cd "$d" && ls); done\necho done > out.txt\n',
    "bash t19.sh": f"{TOP} && pytest -q --co >/dev/null 2>&1; {OUT}\n",
    "bash t20.sh": f"{TOP}\ngit status --short > status.txt\n",
    "bash t21.sh": "set -e\nROOT=$(git rev-parse --show-toplevel)\ncd $ROOT\ntar czf d.tgz sub\n",
    "bash t23.sh": 'tmp=$(mktemp -d)\ntrap \'rm -rf "$tmp"\' EXIT\ncd "$tmp"\necho x > a.txt\n',
    "bash t25.sh": f'cd "$(git rev-parse --show-toplevel)/sub"\n{OUT}\n',
    "bash t26.sh": f"{TOP}\ncp sub/a.txt out/\n",
    "bash t27.sh": f"{TOP}\ncd sub && {OUT}\n",
    "bash t28.sh 1.2": f'set -eu\nversion="$1"\n{TOP}\necho "$version" > VERSION\n',
    "bash t29.sh": f'{TOP}\nfor f in *.txt; do wc -l "$f"; done > counts.txt\n',
    "bash sub/t31.sh": f'cd "$(dirname "$0")" && {TOP} && {OUT}\n',
    "bash t32.sh": f"cd `git rev-parse --show-toplevel`; {OUT}\n",
    "bash t33.sh": f'usage() {{ echo "usage: $0"; }}\n{TOP}\n{OUT}\n',
    "bash t34.sh": f'if [ -n "${{CI:-}}" ]; then echo ci; fi\n{TOP}\n{OUT}\n',
    "bash t35.sh": f'echo "building" >&2\ncommand -v git >/dev/null || exit 1\n{TOP}\n{OUT}\n',
    "bash t36.sh": f'cd "$(git rev-parse --show-toplevel 2>/dev/null)"\n{OUT}\n',
    "bash t37.sh --verbose": f"{TOP}\n{OUT}\n",
    "bash -e t38.sh -- --fix": f"{TOP}\n{OUT}\n",
    "bash t39.sh -l": f"{TOP}\n{OUT}\n",
    "bash t40.sh": 'for p in pkg/*; do (cd "$p" && echo x > build.log); done\n',
    "bash t41.sh": 'for pkg in api web; do\n  (cd "pkg/$pkg" && echo x > build.log)\ndone\n',
}
"""Scripts by the command running them; all but ``t02``, ``t08``, ``t16``, ``t23`` and
``t32`` were refused (a relative write after the top's ``cd``; ``t02`` and ``t32`` passed
as a bare ``cd`` home, now followed to the top)."""
EVERYDAY_CALLS = [
    "cd sub && bash ../t01.sh",
    "bash t35.sh > build.log 2>&1",
    "FOO=1 bash -ex t35.sh",
    "set -e; ./t35.sh | tee log.txt",
    "./t35.sh --release",
    "./t35.sh -l",
    "time bash t01.sh",
    "env CI=1 bash t01.sh",
    "timeout 600 bash t01.sh",
    "nice -n 5 bash t01.sh",
]
"""Calls running such a script: from another folder, logging, with options or variables, given
words that look like bash's options (``--release``, ``-l``: only the words before the
script's name are bash's), under ``time``, ``env``, ``timeout``, ``nice`` (each refused before
guardfix62b, as ``t36``-``t41``: review guard62 O1; ``t40``, ``t41`` a subshell's ``cd`` into
each folder a loop names, judged in each)."""


@pytest.fixture(autouse=True)
def _git_answers_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Git given all the time it needs, however busy the machine (``GIT_TIMEOUT``)."""
    monkeypatch.setattr(git_toplevel, "GIT_TIMEOUT", 60.0)


def test_p3_everyday_scripts_that_change_folder_pass(where: Layout) -> None:
    workspace = where.workspace
    for folder in ("sub", "out", "pkg/api", "pkg/web"):
        (workspace / folder).mkdir(parents=True)
    (workspace / "sub" / "a.txt").write_text("a\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=workspace, check=True)
    for command, text in EVERYDAY_SCRIPTS.items():
        name = next(word for word in command.split() if word.endswith(".sh"))
        (workspace / name).write_text(text, encoding="utf-8")
    (workspace / "t35.sh").chmod(0o755)

    refused = {c: refusals_by_every_harness(where, c) for c in [*EVERYDAY_SCRIPTS, *EVERYDAY_CALLS]}

    assert {command: seen for command, seen in refused.items() if any(seen.values())} == {}
