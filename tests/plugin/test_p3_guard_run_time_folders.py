"""P-3: a program the guard reads that writes into its folder by itself, run after a ``cd``
into a folder known only at run time, is refused.

``cd "$(cat target)" && touch a.md`` was refused already (a relative place after such a
``cd``), but the programs the guard reads that write into their folder with no word naming
the place (``curl -O``, ``wget URL``, ``tar -x``, ``unzip``, ``split``) were let through, and
bash wrote into another Workspace's scope. Each is now refused after such a ``cd``; after a
``cd`` into a literal folder, a ``for`` loop's folders, ``$(mktemp -d)`` or the top of the
repository git names, each passes. A program the guard does not read run there (``python3 -c
'open("a.md", "w")'``, ``git init``, ``./scripts/build.sh``) stays open (``docs/security.md``):
refusing it would refuse ``cd "$(dirname "$0")/.." && ./scripts/build.sh`` and its kin.
"""

from __future__ import annotations

import subprocess

import pytest

from tests.support.guard_cases import (
    Layout,
    answer,
    refusal,
    refusals_by_every_harness,
)

RUN_IN_A_FOLDER_BUILT_AT_RUN_TIME = [
    'cd "$(cat target)" && curl -sO "file://$OLDPWD/note.md"',
    'cd "$(cat target)" && tar -xf "$OLDPWD/a.tar"',
    'cd "$(cat target)" && unzip -q "$OLDPWD/a.zip"',
    'cd "$(cat target)" && split -l 1 "$OLDPWD/note.md"',
    'd=$(cat target); pushd "$d" > /dev/null && tar -xf "$OLDPWD/a.tar"',
    'env -C "$(cat target)" unzip -q "$PWD/a.zip"',
    'cd "$(cat target)"; bash -c \'curl -sO "file://$OLDPWD/note.md"\'',
]


@pytest.mark.parametrize("command", RUN_IN_A_FOLDER_BUILT_AT_RUN_TIME)
def test_p3_a_program_writing_in_a_folder_known_only_at_run_time_is_refused(
    where: Layout, command: str
) -> None:
    """Each was let through; run by bash, each writes into the other scope."""
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "w.sh").write_text("#!/bin/sh\necho x > a.md\n", encoding="utf-8")
    (where.workspace / "w.sh").chmod(0o755)
    subprocess.run(["tar", "-cf", "a.tar", "note.md"], cwd=where.workspace, check=True)
    subprocess.run(["zip", "-q", "a.zip", "note.md"], cwd=where.workspace, check=True)

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None, (harness, command)
        assert "known only" in reason or "builds at run time" in reason, harness
    subprocess.run(["bash", "-c", command], cwd=where.workspace, capture_output=True)
    assert sorted(path.name for path in other.iterdir()) != ["MEMORY.md"], command


@pytest.mark.parametrize(
    "command",
    [
        'for d in packages/*; do (cd "$d" && npm test); done',
        'for d in a b; do cd "$d" && make; cd ..; done',
        'cd "$(mktemp -d)" && git clone -q https://example.org/x.git',
        "cd $(mktemp -d) && curl -sLO https://example.org/a.tgz && tar xzf a.tgz",
        "cd ~/src && npm test",
        "find . -name package.json -execdir npm test \\;",
        'cd "$(git rev-parse --show-toplevel)" && python3 -m pytest -q',
        'cd "$(cat target)" && ls && grep -rn TODO . | head',
        'cd "$(dirname "$0")/.." && ./scripts/build.sh',
        "cd ${PROJECT_ROOT:-.} && make test",
        "cd $(git rev-parse --show-toplevel)",
        # a virtual environment's, a version manager's or a toolchain's folder, as printed
        'cd "$(poetry env info -p)" && bin/python -V',
        'cd "$(pipenv --venv)" && ./bin/pip list',
        'cd "$(pyenv prefix)" && bin/python3 -V',
        "cd $(rbenv prefix) && bin/ruby -v",
        'cd "$(bundle show rails)" && ./bin/setup',
        'cd "$(dirname "$(nvm which 20)")" && ./node -v',
        'cd "$(go env GOPATH)/src" && ./build.sh',
        'cd "$(rustc --print sysroot)" && ./bin/rustc -V',
        'cd "$(npm root -g)" && ./corepack/shims/pnpm -v',
        'cd "$(conda info --base)" && bin/python -V',
    ],
)
def test_p3_a_program_run_in_a_folder_known_here_passes(where: Layout, command: str) -> None:
    subprocess.run(["git", "init", "-q"], cwd=where.workspace, check=True)
    (where.workspace / "packages" / "web").mkdir(parents=True)
    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


@pytest.mark.parametrize(
    "command",
    [
        'cd "$(poetry run cat target)" && python3 -c \'open("a.md", "w")\'',
        'cd "$(pipenv run cat target)" && ./w.sh',
        'cd "$(bundle exec cat target)" && ./w.sh',
        'cd "$(go env GOPATH; cat target)" && ./w.sh',
    ],
)
def test_p3_a_folder_printer_running_what_prints_data_is_refused(
    where: Layout, command: str
) -> None:
    """The same programs' other commands may print what a file holds: a program the guard
    does not read run in that folder is refused, as after ``cd "$(cat target)"``."""
    (where.workspace / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")

    assert refusal(answer(where, "claude-code", "Bash", {"command": command})) is not None
