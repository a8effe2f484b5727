"""The data dir the benchmark measures: agents with a user scope and many Workspace scopes.

Default size (the budgets'): a user index of 150 lines, 500 Workspace scopes of a few topic files
each, and one "big" Workspace scope with 3,000 topic files and a 260-line index (over both
injection caps, I-4). Every Workspace scope has its ``.workspace`` marker naming a real
directory under ``<base>/workspaces/<agent>``, so Session starts and the overview see what a
real agent leaves behind. Index lines carry a few credential-like strings, as real notes do
(I-8). A second agent holds the same shape at half the size (:meth:`Size.half`): the growth
budget compares the two.

The sizes are :data:`SIZES`. The scale case (20,000 scopes / 100,000 files, where the overview
pages through scopes) is one more entry there, with the linear-growth budget of
:mod:`bench.perf` comparing it with the default size; it is not built yet.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from pathlib import Path

from memory_core import layout
from memory_core.keys import USER_SCOPE, key_for_real_path

__all__ = [
    "AGENT",
    "HALF_AGENT",
    "PROJECT",
    "SIZES",
    "WORDS",
    "BenchData",
    "Size",
    "build_data",
]

PROJECT = "bench"
AGENT = "bench"
HALF_AGENT = "bench-half"
"""The agent holding the same shape at half the size (the linear-growth budget)."""

WORDS = [
    "deploy",
    "build",
    "cache",
    "index",
    "release",
    "staging",
    "pytest",
    "ruff",
    "docker",
    "schema",
    "migration",
    "retry",
    "queue",
    "worker",
    "token",
    "budget",
    "owner",
    "review",
    "branch",
    "rollback",
    "feature",
    "flag",
    "metric",
    "alert",
    "trace",
    "latency",
]
"""A small engineering vocabulary the made-up notes are written in (the scale data set adds
to it)."""


@dataclass(frozen=True, slots=True)
class Size:
    """How much the data dir holds: index lines and scope counts (the issue's default)."""

    user_lines: int = 150
    scopes: int = 500
    files_per_scope: int = 4
    big_files: int = 3000
    big_lines: int = 260

    def half(self) -> Size:
        """Half the scopes and half the big scope's files; the indexes as they are."""
        return dataclasses.replace(self, scopes=self.scopes // 2, big_files=self.big_files // 2)


QUICK = Size(user_lines=20, scopes=6, files_per_scope=2, big_files=40, big_lines=30)
"""A tiny size for smoke runs (``--quick``): the same shape, seconds to build."""
SIZES = {"default": Size(), "quick": QUICK}
"""The sizes ``python -m bench.perf`` builds (``--quick`` picks ``quick``)."""


@dataclass(frozen=True, slots=True)
class BenchData:
    """Where things are: the data dir, the agent, the big Workspace, its scope and the index
    files."""

    data_dir: Path
    agent: str
    big_workspace: Path
    big_key: str
    user_index: Path
    big_index: Path


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def _index_line(rng: random.Random, number: int, file: str) -> str:
    hook = _sentence(rng, rng.randint(6, 18))
    if number % 37 == 5:
        hook += " — api_key=sk-test-" + "".join(rng.choice("abcdef0123456789") for _ in range(32))
    if number % 53 == 7:
        hook += " " + _sentence(rng, 120)  # a few very long lines, as people write them
    return f"- [{file.removesuffix('.md').replace('-', ' ').title()}]({file}) — {hook}"


def _topic_text(rng: random.Random, name: str) -> str:
    body = "\n\n".join(_sentence(rng, rng.randint(20, 60)) for _ in range(rng.randint(2, 5)))
    return (
        f"---\nname: {name}\ndescription: {_sentence(rng, 8)}\n"
        f"updated_at: 2026-11-{rng.randint(1, 28):02d}\n---\n\n{body}\n"
    )


def _fill_scope(rng: random.Random, scope: Path, files: int, index_lines: int) -> None:
    scope.mkdir(parents=True, exist_ok=True)
    names = [f"topic-{n:04d}.md" for n in range(files)]
    for name in names:
        (scope / name).write_text(_topic_text(rng, name.removesuffix(".md")), encoding="utf-8")
    lines = ["# Memory index", ""]
    lines += [_index_line(rng, n, names[n % len(names)]) for n in range(index_lines)]
    (scope / layout.INDEX_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _workspace_scope(
    rng: random.Random, root: Path, workspace: Path, files: int, lines: int
) -> str:
    workspace.mkdir(parents=True, exist_ok=True)
    real = str(workspace.resolve())
    key = key_for_real_path(real)
    _fill_scope(rng, root / key, files, lines)
    (root / key / layout.MARKER_FILE).write_text(real + "\n", encoding="utf-8")
    return key


def build_data(base: Path, size: Size, *, agent: str = AGENT, seed: int = 11) -> BenchData:
    """Write the memory files of ``agent`` under ``base/data`` (the agent itself is created by
    the service's CLI, see :mod:`bench.perf`); returns where the measured files are."""
    rng = random.Random(seed)  # noqa: S311 (reproducible sample text, no secrets)
    data_dir = base / "data"
    workspaces = base / "workspaces" / agent
    root = layout.memory_root(data_dir, agent)
    _fill_scope(rng, root / USER_SCOPE, max(size.user_lines // 3, 1), size.user_lines)
    for number in range(size.scopes):
        _workspace_scope(
            rng,
            root,
            workspaces / f"repo-{number:04d}",
            size.files_per_scope,
            size.files_per_scope * 2,
        )
    big_workspace = workspaces / "big-repo"
    big_key = _workspace_scope(rng, root, big_workspace, size.big_files, size.big_lines)
    return BenchData(
        data_dir=data_dir,
        agent=agent,
        big_workspace=big_workspace.resolve(),
        big_key=big_key,
        user_index=root / USER_SCOPE / layout.INDEX_FILE,
        big_index=root / big_key / layout.INDEX_FILE,
    )
