"""P-5, T-5b: an import reads a source index's ``[[wiki links]]`` as the lint does.

An Obsidian-kept source writes ``- [[Deploy Freeze]] …`` for ``deploy-freeze.md``. The import
took the link for one to ``Deploy Freeze.md``: it left the line out ("neither the source nor
this scope holds" it, though the file was imported), made a line of its own for the file ("the
source index never linked it"), and, where the file was imported under a new name, left the
link naming the scope's own file of the old name.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_core import layout

from tests.api.test_p5_import_leaves_no_dangling_link import env, left_out_rows, run, user_scope

__all__ = ["env"]  # the fixture, used by name

TOPIC = "---\nname: {0}\ndescription: about {0}\n---\nbody of {0}\n"


@pytest.fixture
def source(tmp_path: Path) -> Path:
    folder = tmp_path / "src"
    folder.mkdir()
    for name in ("deploy-freeze", "review-style"):
        (folder / f"{name}.md").write_text(TOPIC.format(name), encoding="utf-8")
    (folder / layout.INDEX_FILE).write_text(
        "- [[Deploy Freeze|freeze]] — no Friday deploys\n- [[./review-style]] — terse\n",
        encoding="utf-8",
    )
    return folder


def test_p5_a_wiki_link_to_an_imported_file_is_merged_as_written(
    env: Path, source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(str(source)) == 0
    out = capsys.readouterr().out
    assert left_out_rows(out) == {}
    assert "index line made" not in out
    index = (user_scope(env) / layout.INDEX_FILE).read_text(encoding="utf-8")
    assert index.splitlines() == [
        "- [[Deploy Freeze|freeze]] — no Friday deploys",
        "- [[./review-style]] — terse",
    ]


def test_p5_a_wiki_link_follows_its_file_imported_under_a_new_name(
    env: Path, source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scope = user_scope(env)
    scope.mkdir(parents=True, exist_ok=True)
    (scope / "deploy-freeze.md").write_text(TOPIC.format("mine"), encoding="utf-8")
    (scope / layout.INDEX_FILE).write_text("- [[deploy-freeze]] — mine\n", encoding="utf-8")

    assert run(str(source)) == 0

    assert "kept as deploy-freeze-imported.md" in capsys.readouterr().out
    index = (scope / layout.INDEX_FILE).read_text(encoding="utf-8")
    assert index.splitlines() == [
        "- [[deploy-freeze]] — mine",
        "- [[deploy-freeze-imported|freeze]] — no Friday deploys",
        "- [[./review-style]] — terse",
    ]


def test_p5_a_bare_wiki_link_to_a_note_in_a_sub_folder_of_the_scope_is_merged(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``[[feb]]`` names the scope's ``archive/2026/feb.md`` (a name unique in the vault, as
    Obsidian and the lint read it): the line is merged, not left out as linking nothing;
    ``[[mar]]``, which no file answers, is."""
    scope = user_scope(env)
    (scope / "archive" / "2026").mkdir(parents=True)
    (scope / "archive" / "2026" / "feb.md").write_text("February\n", encoding="utf-8")
    folder = tmp_path / "months"
    folder.mkdir()
    (folder / "review-style.md").write_text(TOPIC.format("review-style"), encoding="utf-8")
    (folder / layout.INDEX_FILE).write_text(
        "- [[review-style]] — terse\n- [[feb]] — February\n- [[mar]] — March\n",
        encoding="utf-8",
    )

    assert run(str(folder)) == 0

    assert list(left_out_rows(capsys.readouterr().out)) == ["- [[mar]] — March"]
    index = (scope / layout.INDEX_FILE).read_text(encoding="utf-8")
    assert index.splitlines() == ["- [[review-style]] — terse", "- [[feb]] — February"]
