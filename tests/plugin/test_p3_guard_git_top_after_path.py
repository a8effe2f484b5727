"""P-3: a script putting folders before ``PATH`` ahead of its ``cd "$(git rev-parse
--show-toplevel)"``.

Only a strict allowlist may stand before that ``cd`` for the guard to ask git where it leads
(``named_scripts._git_answer_kept``): anything that could change git's answer leaves the top
unknown, and a relative write after it refused. ``export PATH="$HOME/.local/bin:$PATH"``, a
first line of many build scripts, was outside it, and so the whole script was refused. A
folder put first on ``PATH`` changes git's answer only by holding a program ``git`` (bash then
runs that one); the guard now lets such a line stand when each folder it puts first is an
absolute one (literal or under ``$HOME``) holding no ``git``, and asks git with that ``PATH``.
A folder holding a ``git``, a relative, empty or run-time folder still leaves the top unknown.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from harness_memory.hooks import git_toplevel

from tests.support.guard_cases import (
    Layout,
    assert_each_refused_by_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    refusals_by_every_harness,
)

TOP = 'cd "$(git rev-parse --show-toplevel)"'


@pytest.fixture(autouse=True)
def _git_answers_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Git given all the time it needs, however busy the machine (``GIT_TIMEOUT``)."""
    monkeypatch.setattr(git_toplevel, "GIT_TIMEOUT", 60.0)


def _repository(where: Layout, scripts: dict[str, str]) -> None:
    subprocess.run(["git", "init", "-q"], cwd=where.workspace, check=True)
    (where.workspace / "src").mkdir()
    for name, text in scripts.items():
        (where.workspace / name).write_text(text, encoding="utf-8")


PATH_FIRST = {
    "h1.sh": f'export PATH="$HOME/.local/bin:$PATH"\n{TOP}\necho x > h1.txt\n',
    "h2.sh": f"PATH=$HOME/.cargo/bin:/opt/tools/bin:$PATH\n{TOP}\necho x > h2.txt\n",
    "h3.sh": f'set -e\nexport PATH="${{HOME}}/bin:${{PATH}}"\n{TOP} && echo x > h3.txt\n',
}
"""Scripts putting absolute folders holding no ``git`` first on ``PATH`` before the ``cd``."""


def test_p3_a_script_putting_folders_without_git_first_on_path_is_followed_to_its_top(
    where: Layout,
) -> None:
    _repository(where, PATH_FIRST)
    (where.data / ".local/bin").mkdir(parents=True)
    commands = [f"cd src && bash ../{name}" for name in PATH_FIRST]

    refused = {c: refusals_by_every_harness(where, c) for c in commands}

    assert {c: seen for c, seen in refused.items() if any(seen.values())} == {}
    environment = {"PATH": os.environ["PATH"], "HOME": str(where.data)}
    subprocess.run(["bash", "-c", " && ".join(commands[:1])], cwd=where.workspace, env=environment)
    assert (where.workspace / "h1.txt").exists()


PATH_MAY_CHANGE_GIT = {
    "bash k1.sh": f'export PATH="$HOME/.local/bin:$PATH"\n{TOP}; echo x > k1.md\n',
    "bash k2.sh": f'PATH="bin:$PATH"\n{TOP}; echo x > k2.md\n',
    "bash k3.sh": f'PATH=":$PATH"\n{TOP}; echo x > k3.md\n',
    "bash k4.sh": f'PATH="$PWD/bin:$PATH"\n{TOP}; echo x > k4.md\n',
    "bash k5.sh": f'PATH="$(cat p):$PATH"\n{TOP}; echo x > k5.md\n',
    "bash k6.sh": f'PATH="/usr/bin/../../$PWD/bin:$PATH"\n{TOP}; echo x > k6.md\n',
    "bash k7.sh": f'PATH="$HOME/.local/bin:$PATH" git() {{ :; }}\n{TOP}; echo x > k7.md\n',
    "bash k8.sh": f'PATH="$PATH:$HOME/x"; hash -p bin/git git\n{TOP}; echo x > k8.md\n',
    "bash k9.sh": f"PATH=~/.local/bin:$PATH\n{TOP}; echo x > k9.md\n",
    "bash k10.sh": f'export PATH="$HOME/.local/bin:$PATH" GIT_DIR=x\n{TOP}; echo x > k10.md\n',
    "bash k11.sh": f'PATH="{{bin}}:$PATH"\n{TOP}; echo x > k11.md\n',
}
"""``PATH`` set before the ``cd`` so that bash may run another ``git``: a folder holding one
(``~/.local/bin/git``, ``bin/git`` as an absolute path), a relative or empty folder (found
from the folder bash is in), one built at run time, a tilde; or more on the same line."""


def test_p3_a_script_whose_path_may_find_another_git_stays_unknown(where: Layout) -> None:
    _repository(where, {})
    other = where.root / where.other
    for folder in (where.data / ".local/bin", where.workspace / "bin"):
        folder.mkdir(parents=True)
        (folder / "git").write_text(f"#!/bin/sh\necho {other}\n", encoding="utf-8")
        (folder / "git").chmod(0o755)
    for command, text in PATH_MAY_CHANGE_GIT.items():
        text = text.replace("{bin}", str(where.workspace / "bin"))
        (where.workspace / command.split()[1]).write_text(text, encoding="utf-8")

    assert_each_refused_by_every_harness(
        where, list(PATH_MAY_CHANGE_GIT), "a cd into a folder known only"
    )
    assert_refused_by_every_harness_and_bash_writes(where, "bash k1.sh")
    assert_refused_by_every_harness_and_bash_writes(where, "bash k11.sh")


def test_p3_the_path_git_is_asked_with_is_the_one_the_script_set(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Git asked with the ``PATH`` the script set, as bash runs it: the guard's answer is that
    git's (``GIT_EXEC_PATH`` and the helpers git finds there follow ``PATH`` too)."""
    _repository(where, {"h1.sh": PATH_FIRST["h1.sh"]})
    (where.data / ".local/bin").mkdir(parents=True)
    seen: list[str] = []

    def asked(folder: str, environ: dict[str, str]) -> str | None:
        seen.append(environ["PATH"])
        return str(where.workspace)

    monkeypatch.setattr("harness_memory.hooks.named_scripts.toplevel", asked)

    assert refusals_by_every_harness(where, "bash h1.sh") == dict.fromkeys(
        ("claude-code", "codex", "gemini")
    )
    assert seen and all(p.startswith(f"{where.data}/.local/bin:") for p in seen), seen
    assert Path(seen[0].split(":", 1)[1].split(":")[0]).is_absolute()


def test_p3_a_home_holding_a_colon_puts_a_relative_folder_on_path_and_stays_unknown(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``HOME=/w:rel``: bash splits ``$HOME/.local/bin`` put on ``PATH`` at the ``:``, and
    finds ``git`` in the relative ``rel/.local/bin`` of the folder it is in."""
    home = f"{where.data}:rel"
    monkeypatch.setenv("HOME", home)
    _repository(
        where, {"k12.sh": f'export PATH="$HOME/.local/bin:$PATH"\n{TOP}; echo x > k12.md\n'}
    )
    fake = where.workspace / "rel/.local/bin/git"
    fake.parent.mkdir(parents=True)
    fake.write_text(f"#!/bin/sh\necho {where.root / where.other}\n", encoding="utf-8")
    fake.chmod(0o755)

    assert_each_refused_by_every_harness(where, ["bash k12.sh"], "a cd into a folder known only")
    environment = {"PATH": os.environ["PATH"], "HOME": home}
    subprocess.run(["bash", "k12.sh"], cwd=where.workspace, env=environment, check=True)
    assert (where.root / where.other / "k12.md").exists(), "bash wrote nothing there"
