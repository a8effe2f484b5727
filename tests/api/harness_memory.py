"""Shared steps of the ``--from HARNESS`` import tests (P-5): fixtures placed, reports checked.

The fixtures in ``tests/data/harness-memory/<harness>/`` are made-up memories in each coding
agent's real layout; ``{WORKSPACE}``, ``{OTHER}`` and ``{HOME}`` in them stand for the test's
Workspace, another project's directory and the HOME they are placed under.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_api.store.locks import Locks
from memory_api.transfer.harnesses import HarnessRequest
from memory_api.transfer.importer import ImportReport
from memory_api.transfer.runner import Target, offered_scopes, run_import
from memory_core import layout
from memory_core.index import linked_topic_files
from memory_core.topics import parse_topic

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "harness-memory"
PROJECT = "acme"
AGENT = "coder"


def place(fixture: str, target: Path, words: Mapping[str, object]) -> Path:
    """Copy ``tests/data/harness-memory/<fixture>`` to ``target``, each ``{KEY}`` of ``words``
    replaced by its path; returns ``target``."""
    source = FIXTURES / fixture
    for path in sorted(source.rglob("*")):
        copy = target / path.relative_to(source)
        if path.is_dir():
            copy.mkdir(parents=True, exist_ok=True)
            continue
        copy.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_text(encoding="utf-8")
        for key, value in words.items():
            text = text.replace("{" + key + "}", str(value))
        copy.write_text(text, encoding="utf-8")
    return target


def run(
    data_dir: Path,
    harness: str,
    workspace: Path | None,
    env: dict[str, str],
    *,
    dry_run: bool = False,
) -> list[ImportReport]:
    """``memory import --from HARNESS`` as the CLI runs it, with ``env`` as the environment
    the harness's folders are found in; returns the reports."""
    request = HarnessRequest(
        harness=harness,
        workspace=None if workspace is None else str(workspace),
        user=workspace is None,
        source=None,
        project=PROJECT,
        agent=AGENT,
    )
    old = dict(os.environ)
    os.environ.update(env)
    try:
        sources = offered_scopes(None, None, request)
    finally:
        os.environ.clear()
        os.environ.update(old)
    target = Target("harness", None if workspace is None else str(workspace))
    locks = Locks(data_dir / "locks")
    return run_import(data_dir, AGENT, target, sources, locks=locks, dry_run=dry_run)


def agent_made(data_dir: Path, monkeypatch: pytest.MonkeyPatch, **environ: str | None) -> None:
    """The CLI's environment for an import into ``data_dir`` (``COLUMNS`` wide, so report lines
    stay whole; each of ``environ`` set, or unset where None) and the agent ``coder`` made by
    the CLI, as a user would."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "250")
    for name, value in environ.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert main(["agent", "create", "--project", PROJECT, "--id", AGENT, "--name", "C"]) == 0


def import_argv(harness: str, workspace: Path | None, *extra: str) -> list[str]:
    """``memory import --from HARNESS`` with ``--workspace W`` (``--user`` without one) for the
    agent ``coder``, then ``extra``: the command line a user types."""
    where = ["--workspace", str(workspace)] if workspace is not None else ["--user"]
    ids = ["--project", PROJECT, "--agent", AGENT]
    return ["memory", "import", "--from", harness, *where, *ids, *extra]


def topic_texts(scope: Path) -> dict[str, str]:
    """Each topic file of ``scope`` (its index left out): name → text."""
    return {
        p.name: p.read_text(encoding="utf-8")
        for p in scope.glob("*.md")
        if p.name != layout.INDEX_FILE
    }


def scope_dir(data_dir: Path, key: str) -> Path:
    return layout.memory_root(data_dir, AGENT) / key


def every_topic_indexed(scope: Path) -> None:
    """Every topic file of ``scope`` has a line in its index, and reads without frontmatter
    trouble when it was made by the import."""
    index = (scope / layout.INDEX_FILE).read_text(encoding="utf-8")
    linked = set(linked_topic_files(index))
    topics = {p.name for p in scope.glob("*.md") if p.name != layout.INDEX_FILE}
    assert topics, scope
    assert topics <= linked, topics - linked
    for name in topics:
        topic = parse_topic((scope / name).read_bytes(), name)
        if b"imported_from:" in (scope / name).read_bytes():
            assert not topic.problems, (name, topic.problems)
            assert topic.description and topic.updated_at, name


def accounted(reports: Iterable[ImportReport], root: Path) -> list[Path]:
    """The files under ``root`` that no report accounts for (imported, made into topic
    files, merged, or skipped with a reason — directly or as a skipped folder)."""
    reports = list(reports)
    named: set[str] = set()
    for report in reports:
        named |= {o.origin.split(" § ")[0] for o in report.files}
        named |= {s.origin for s in report.skipped}
        named |= {m.origin.split(" § ")[0] for m in report.merged}
    missing = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() or p.is_symlink()):
        covered = {str(path), *(str(parent) for parent in path.parents)}
        if not covered & named:
            missing.append(path)
    return missing


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` but the locks and the versions (V-1), by relative path."""
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and not {"locks", "history"} & set(p.relative_to(directory).parts)
    }
