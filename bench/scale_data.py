"""The data set of the scale case (issue 30): one agent with many Workspace scopes.

At :data:`FULL` size: 20,000 Workspace scopes holding about 100,000 topic files, the biggest
scope 5,000 of them, the others 1–9; each scope's index ``MEMORY.md`` has 20–200 lines; each topic
file is 0.5–5 KB of frontmatter and body. :data:`SMALL` (the default of ``make bench-scale``) is a
tenth of that. Every Workspace scope has its ``.workspace`` marker naming a real folder under
``<base>/workspaces``, as a real agent leaves behind, so every row of the scale table (overview,
search, read, list, Session start) can run on the same data.

Text: sentences of a small engineering vocabulary (``deploy`` in about a third of the files, as
the demo), some Chinese and Japanese sentences, a few credential-like lines (I-8), and per file a
unique word ``itemNNNNNN`` (a search that finds exactly one file).

Usage as a library: :func:`build_scale_data`; as a script, to keep a data set for several runs::

    python -m bench.scale_data DIR [--full] [--seed N]
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from pathlib import Path

from memory_core import layout
from memory_core.keys import USER_SCOPE, key_for_real_path

from bench.perf_data import WORDS

__all__ = [
    "AGENT",
    "FULL",
    "PROJECT",
    "SMALL",
    "TINY",
    "ScaleData",
    "ScaleSize",
    "build_scale_data",
]

PROJECT = "scale"
AGENT = "scale"

_WORDS = [
    *WORDS,
    "replica",
    "shard",
    "window",
    "cursor",
    "batch",
    "stream",
    "limit",
    "quota",
    "page",
    "log",
    "lint",
    "span",
    "chunk",
    "flake",
]
"""The benchmark's vocabulary (:data:`bench.perf_data.WORDS`) and more words of its kind."""
_CJK = [
    "部署之前先跑迁移脚本并确认回滚步骤",
    "用户喜欢在周末玩成语接龙游戏",
    "今日はカタカナのしりとりをした",
    "数据库迁移必须在预发环境先执行",
    "本番環境へのデプロイは金曜日に行わない",
]


@dataclass(frozen=True, slots=True)
class ScaleSize:
    """How big the data set is: Workspace scopes, topic files in all, the biggest scope."""

    scopes: int
    files: int
    big_files: int
    index_lines: tuple[int, int] = (20, 200)
    topic_bytes: tuple[int, int] = (500, 5000)


FULL = ScaleSize(scopes=20_000, files=100_000, big_files=5_000)
"""The issue's size."""
SMALL = ScaleSize(scopes=2_000, files=10_000, big_files=500)
"""A tenth of it: builds and runs in a few minutes."""
TINY = ScaleSize(scopes=20, files=100, big_files=20, index_lines=(5, 20))
"""For the smoke test of the bench itself."""


@dataclass(frozen=True, slots=True)
class ScaleData:
    """What was built: the data dir, the agent, the biggest scope and its Workspace."""

    data_dir: Path
    memory_root: Path
    big_key: str
    big_workspace: Path
    scopes: int
    files: int


class _Text:
    """Reproducible sentences, built from a pool so that 300 MB of text is quick to write."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.pool = [" ".join(rng.choices(_WORDS, k=rng.randint(6, 18))) + "." for _ in range(4000)]
        self.pool += _CJK * 40

    def sentence(self) -> str:
        return self.rng.choice(self.pool)

    def body(self, size: int, unique: str) -> str:
        parts, length = [f"Note about {unique}."], 0
        while length < size:
            part = self.sentence()
            if self.rng.random() < 0.01:
                part = f"api_key=sk-test-{self.rng.getrandbits(128):032x}"
            parts.append(part)
            length += len(part.encode("utf-8")) + 1
        return "\n".join(parts)


def _topic(text: _Text, name: str, unique: str, size: int) -> str:
    description = text.sentence()
    return (
        f"---\nname: {name}\ndescription: {description}\ntype: project\n"
        f"updated_at: 2026-11-{text.rng.randint(1, 28):02d}\n---\n{text.body(size, unique)}\n"
    )


def _index(text: _Text, names: list[str], lines: int) -> str:
    rows = ["# Memory index", ""]
    for number in range(lines):
        file = names[number % len(names)]
        rows.append(f"- [{file.removesuffix('.md')}]({file}) — {text.sentence()}")
    return "\n".join(rows) + "\n"


def _fill(text: _Text, scope: Path, first: int, files: int, size: ScaleSize) -> None:
    scope.mkdir(parents=True, exist_ok=True)
    names = []
    for number in range(first, first + files):
        words = text.rng.sample(_WORDS, 2)
        name = f"{words[0]}-{words[1]}-{number:06d}"
        names.append(f"{name}.md")
        body_size = text.rng.randint(*size.topic_bytes) - 120
        (scope / names[-1]).write_text(
            _topic(text, name, f"item{number:06d}", body_size), encoding="utf-8"
        )
    lines = text.rng.randint(*size.index_lines)
    (scope / layout.INDEX_FILE).write_text(_index(text, names, lines), encoding="utf-8")


def _spread(rng: random.Random, size: ScaleSize) -> list[int]:
    """Files per Workspace scope: the biggest first, the rest 1–9 adding up to the total."""
    others = size.scopes - 1
    counts = [size.big_files] + [1] * others
    left = size.files - size.big_files - others
    while left > 0:
        index = rng.randrange(1, size.scopes)
        if counts[index] < 9:
            counts[index] += 1
            left -= 1
    return counts


BUILT = ".built"
"""Made in ``base`` once its data set is whole: :mod:`bench.scale` never reuses one a build
cut short."""


def build_scale_data(base: Path, size: ScaleSize = SMALL, *, seed: int = 30) -> ScaleData:
    """Write the agent's memory under ``base/data`` (the agent itself is created by the
    service's CLI, :mod:`bench.scale`); Workspaces under ``base/workspaces``; :data:`BUILT`
    last."""
    rng = random.Random(seed)  # noqa: S311 - reproducible sample text, no secrets
    text = _Text(rng)
    data_dir = base / "data"
    root = layout.memory_root(data_dir, AGENT)
    _fill(text, root / USER_SCOPE, 0, 12, size)
    first = 12
    big_key, big_workspace = "", base
    for number, files in enumerate(_spread(rng, size)):
        workspace = base / "workspaces" / f"repo-{number:05d}"
        workspace.mkdir(parents=True, exist_ok=True)
        real = str(workspace.resolve())
        key = key_for_real_path(real)
        _fill(text, root / key, first, files, size)
        (root / key / layout.MARKER_FILE).write_text(real + "\n", encoding="utf-8")
        first += files
        if number == 0:
            big_key, big_workspace = key, workspace.resolve()
    (base / BUILT).touch()
    return ScaleData(data_dir, root, big_key, big_workspace, size.scopes, first)


def main() -> None:
    """Build the data set into a folder (kept), print where and how long it took."""
    parser = argparse.ArgumentParser(prog="python -m bench.scale_data")
    parser.add_argument("base", type=Path, help="an empty folder to build in")
    parser.add_argument("--full", action="store_true", help="20,000 scopes / 100,000 files")
    parser.add_argument("--seed", type=int, default=30)
    args = parser.parse_args()
    began = time.perf_counter()
    data = build_scale_data(args.base, FULL if args.full else SMALL, seed=args.seed)
    print(
        f"{data.scopes:,} Workspace scopes, {data.files:,} topic files in {data.data_dir} "
        f"({time.perf_counter() - began:.0f} s)"
    )


if __name__ == "__main__":
    main()
