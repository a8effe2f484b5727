"""P-3: code the shell runs from a command's output leaves the rest of the call unknown.

``eval "$(cat script)"; echo x > a.md``: ``script`` holds ``cd`` into another scope, and the
shell runs it in its own process, so ``a.md`` lands there; the guard read ``a.md`` in the
Workspace and let it through. ``source <(…)`` and ``. <(…)`` run output the same way. Such
code is now read as a ``cd`` into a folder read from data (``cd "$(cat f)"``): a relative
write after it, or a program the guard does not read, is refused, and a write into a folder
not there yet is refused as after any program the guard does not read (it may make that
folder a link). Output of a program printing shell code of its own knowledge (``eval
"$(ssh-agent -s)"``, ``eval "$(pyenv init - bash)"``, as in the startup files of
``tests/data/startup-files``) is no data an earlier call wrote, and passes. Each refused
form is then run by bash, which writes into the other scope: the gap was real.
"""

from __future__ import annotations

import pytest

from tests.support.guard_cases import (
    Layout,
    answer,
    assert_refused_by_every_harness_and_bash_writes,
)

RUNS_OUTPUT = [
    'eval "$(cat script)"; echo x > a.md',
    "eval $(cat script) && echo x >> a.md",
    "eval `cat script`; echo x > a.md",
    "source <(cat script) && echo x > a.md",
    ". <(cat script); echo x | tee a.md",
    'eval "$(cat script)" && python3 -c \'open("a.md", "w").write("x")\'',
    'eval "$(cat links)" && echo x > lnk/a.md',
    "eval $(cat script); echo x > a.md",
    "source <(cat script); echo x > a.md",
    ". <(cat script); echo x > a.md",
    "eval $(cat script)&& echo x > a.md",
    'x=$(cat script); eval "$x"; echo x > a.md',
    'x="$(cat script)" && eval "${{x}}" && echo x > a.md',
    "source /dev/stdin < script; echo x > a.md",
    '. /dev/stdin <<< "$(cat script)"; echo x > a.md',
    "source /dev/fd/0 < script; echo x > a.md",
    "source /proc/self/fd/0 < script; echo x > a.md",
]
"""``script`` holds a ``cd`` into the other scope, ``links`` makes ``lnk`` lead there. The
lexer glues a ``)`` to the ``;`` or ``&&`` after it (``);``): that still ends the command.
A variable the command assigned from a substitution holds its output, and ``/dev/stdin`` (or
``/dev/fd/0``, ``/proc/self/fd/0``) what is redirected in: code run from data too."""


def _prepared(where: Layout) -> None:
    other = where.root / where.other
    (where.workspace / "script").write_text(f"cd {other}\n", encoding="utf-8")
    (where.workspace / "links").write_text(f"ln -s {other} lnk\n", encoding="utf-8")
    (where.workspace / "setup").write_text("cd build\n", encoding="utf-8")


@pytest.mark.parametrize("command", RUNS_OUTPUT)
def test_p3_a_write_after_code_run_from_output_is_refused(where: Layout, command: str) -> None:
    _prepared(where)
    assert_refused_by_every_harness_and_bash_writes(where, command)


@pytest.mark.parametrize(
    "command",
    [
        'eval "$(ssh-agent -s)" && ssh-add -l',
        'eval "$(pyenv init - bash)" && python -V',
        'eval "$(dircolors -b)"; ls --color=auto',
        'eval "$(/opt/homebrew/bin/brew shellenv)" && brew install jq',
        'eval "$(pyenv init -)" && echo x >> notes.md',
        "source <(kubectl completion bash)",
        "eval $(opam env) && dune build 2> build.log",
        'eval "$(minikube docker-env)" && docker build . > build.log',
        'eval "$(docker-machine env default)" && docker build . > build.log',
        'eval "$(nix print-dev-env)" && make > build.log',
        'eval "$(direnv hook bash)"; eval "$(zoxide init bash)"; echo x > notes.md',
        'x="$(pyenv init -)"; eval "$x"; echo x > notes.md',
        "eval $(opam env); echo x > notes.md",
        'eval "$(cat setup)"',
        'echo x > a.md; eval "$(cat setup)"',
    ],
)
def test_p3_everyday_code_from_output_passes(where: Layout, command: str) -> None:
    """Setup code printed by the program itself, and code from data with nothing after it
    (a file whose text names no other memory: ``eval "$(cat script)"`` of one naming another
    scope is refused as the script it is, round 56)."""
    _prepared(where)
    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command
