"""A-5: a page of a scope's file listing costs its own rows, not the scope's.

A reviewer saw a scope of 30,018 files take 31 pages of ~22 s each: every page read, parsed
and linted the whole scope, then kept the rows of its slice. A page now reads and lints only
its own topic files; the scope-wide findings from the names and the index come on the first
page, the conventions (every file's frontmatter) on the last, and following every page gives
the scope's whole lint, each finding once.
"""

from __future__ import annotations

import errno
import gc
import os
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from memory_api.store import answers, containment, stat_cache
from memory_api.store.topic_cache import TopicCache
from memory_core import layout
from memory_core.swap import open_waiting_for_lease
from memory_core.topics import parse_topic
from memory_core.wiki_links import link_key, link_keys

from tests.api.conftest import AgentHome, Client, file_url, memory_url, ok_json, write_topic

FILES = f"{memory_url()}/scopes/user/files"


def _names(count: int) -> list[str]:
    return [f"note-{number:04d}.md" for number in range(count)]


def _count_work(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """The files the topic cache is asked to read, and those it is asked to lint."""
    read: list[str] = []
    linted: list[str] = []
    load, lint = TopicCache.load, TopicCache.lint

    def loading(self: TopicCache, path: Any, file: str, *args: Any, **kwargs: Any) -> Any:
        read.append(file)
        return load(self, path, file, *args, **kwargs)

    def linting(self: TopicCache, real: Any, topic: Any) -> Any:
        linted.append(topic.file)
        return lint(self, real, topic)

    monkeypatch.setattr(TopicCache, "load", loading)
    monkeypatch.setattr(TopicCache, "lint", linting)
    return read, linted


async def test_a5_a_later_page_reads_and_lints_its_own_files_only(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in _names(200):
        write_topic(agent.user, name)
    read, linted = _count_work(monkeypatch)

    page = await ok_json(await client.get(FILES, params={"limit": "5", "cursor": "note-0099.md"}))

    assert [row["file"] for row in page["files"]] == _names(200)[100:105]
    assert sorted(read) == _names(200)[100:105]
    assert sorted(linted) == _names(200)[100:105]


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The topic files parsed (frontmatter, body: ``parse_topic``) while the test runs."""
    parsed: list[str] = []

    def parsing(raw: bytes, file: str) -> Any:
        parsed.append(file)
        return parse_topic(raw, file)

    monkeypatch.setattr("memory_api.store.topic_cache.parse_topic", parsing)
    return parsed


async def test_a5_the_first_page_parses_its_own_files_only(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scope of 30,000 files took seconds for its first page after a restart: the page named
    the scope's conventions, for which it parsed every file's frontmatter. On a cold cache the
    first page parses the files it shows and no other (the conventions come on the last page,
    and nothing about these files hangs on another's frontmatter)."""
    for name in _names(200):
        write_topic(agent.user, name)
    parsed = _count_parses(monkeypatch)

    page = await ok_json(await client.get(FILES, params={"limit": "5"}))

    assert [row["file"] for row in page["files"]] == _names(200)[:5]
    assert (page["total"], page["nextCursor"]) == (200, "note-0004.md")
    assert sorted(parsed) == _names(200)[:5]


def _not_kebab_case(scope: Path, count: int) -> list[str]:
    """``count`` topic files named as an Obsidian vault names notes (``Note 0001.md``, ``name``
    the same): each has a ``name-not-kebab`` finding the scope's ``naming-convention`` stands
    for (T-5a)."""
    names = [f"Note {number:04d}.md" for number in range(count)]
    for name in names:
        stem = name.removesuffix(".md")
        text = f"---\nname: {stem}\ndescription: about {stem}\n---\nbody\n"
        (scope / name).write_text(text, encoding="utf-8")
    return names


def _linking(scope: Path, count: int) -> list[str]:
    """``count`` kebab-case topic files, each linking to a file of another page by its words
    (``[[Note 0199]]``: ``note-0199.md``) and to a note in a folder that is not there."""
    names = _names(count)
    for name in names:
        text = f"---\ndescription: {name}\n---\nsee [[Note 0199]] and [[drafts/not-yet]]\n"
        (scope / name).write_text(text, encoding="utf-8")
    return names


@pytest.mark.parametrize("shape", ["names not kebab-case", "links off the page"])
async def test_a5_the_first_page_parses_its_own_files_only_for_every_shape_of_scope(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, shape: str
) -> None:
    """A scope whose names are not kebab-case (a naming finding on every file, folded into the
    scope's ``naming-convention``) and one whose files link off the page still had their first
    page parse every file: the convention was judged from every file's parse, and a link with
    a folder drew every topic for a frontmatter ``name`` none can match. Whether the names
    follow a convention is the names' alone (of the files that open, Q-2b), a link to a file
    is resolved by the names: the first page parses its own files, and its findings are those
    the scope's whole lint gives about them."""
    write = _not_kebab_case if shape == "names not kebab-case" else _linking
    names = sorted(write(agent.user, 200))
    parsed = _count_parses(monkeypatch)

    page = await ok_json(await client.get(FILES, params={"limit": "5"}))

    assert sorted(parsed) == names[:5]
    whole = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    on_page = [f for f in page["findings"] if f["file"] in names[:5]]
    assert on_page == [f for f in whole["findings"] if f["file"] in names[:5]]
    said = {(f["code"], f["file"]) for f in whole["findings"]}
    if shape == "names not kebab-case":  # one finding for the scope, none per file
        assert ("naming-convention", "") in said
        assert not {code for code, file in said if file} & {"name-not-kebab", "name-mismatch"}
    else:  # [[Note 0199]] opens note-0199.md; the note in a folder is named by none
        assert {code for code, file in said if file == names[0]} == {"dangling-wiki-link"}
        assert len([f for f in on_page if f["code"] == "dangling-wiki-link"]) == 5


async def test_a5_t5b_a_link_to_a_note_not_written_yet_draws_the_scope_once_not_once_a_page(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An Obsidian vault links notes not written yet (``[[Not Written Yet]]``). Such a link may
    name a topic's frontmatter ``name`` (T-5b), so the page it is on reads every file's; a
    30,000-file scope did so on every page (the parse cache holds fewer). The names are kept
    by every topic file's stat key: a later page reads its own files only, and a file changed
    since (one now named so) is read again, its name resolving the link."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))  # files written just now kept
    names = _names(200)
    for name in names:
        text = f"---\ndescription: {name}\n---\nsee [[Not Written Yet]]\n"
        (agent.user / name).write_text(text, encoding="utf-8")
    first = await ok_json(await client.get(FILES, params={"limit": "5"}))
    read, _ = _count_work(monkeypatch)

    page = await ok_json(await client.get(FILES, params={"limit": "5", "cursor": names[99]}))

    assert sorted(read) == names[100:105]
    codes = [(f["code"], f["file"]) for f in [*first["findings"], *page["findings"]]]
    dangling = [("dangling-wiki-link", name) for name in [*names[:5], *names[100:105]]]
    assert [code for code in codes if code[0] == "dangling-wiki-link"] == dangling
    (agent.user / names[150]).write_text("---\nname: Not Written Yet\n---\nnow it is\n", "utf-8")
    page = await ok_json(await client.get(FILES, params={"limit": "5", "cursor": names[99]}))
    assert not [f for f in page["findings"] if f["code"] == "dangling-wiki-link"]


async def test_a5_the_first_page_lints_its_own_files_only(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It lints (secrets, hidden text, links…) only the files on it."""
    for name in _names(200):
        write_topic(agent.user, name)
    _, linted = _count_work(monkeypatch)

    await ok_json(await client.get(FILES, params={"limit": "5"}))

    assert sorted(linted) == _names(200)[:5]


async def test_a5_every_page_together_carries_the_scopes_whole_lint_once(
    client: Client, agent: AgentHome
) -> None:
    """The same findings as the index view's whole lint of the scope: about the index, the
    names (look-alike, unindexed), the conventions and each file (dangling ``[[links]]``, one
    resolved by a frontmatter name on another page)."""
    for name in ("Deploy_Steps.md", "Release_Notes.md", "Api_Keys.md", "Api_keys.md"):
        (agent.user / name).write_text("plain text, [[nowhere]] and [[Deploy]]\n", "utf-8")
    (agent.user / "zz-target.md").write_text("---\nname: Deploy\n---\nbody\n", "utf-8")
    (agent.user / layout.INDEX_FILE).write_text(
        "- [gone](gone.md)\n- [Api](Api_Keys.md)\n", encoding="utf-8"
    )
    whole = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))

    found: list[dict[str, Any]] = []
    page = await ok_json(await client.get(FILES, params={"limit": "2"}))
    found.extend(page["findings"])
    while page["nextCursor"] is not None:
        page = await ok_json(
            await client.get(FILES, params={"limit": "2", "cursor": page["nextCursor"]})
        )
        found.extend(page["findings"])

    def key(finding: dict[str, Any]) -> tuple[str, str, str]:
        return finding["code"], finding["file"], finding["message"]

    assert Counter(map(key, found)) == Counter(map(key, whole["findings"]))
    assert {"dangling-link", "unindexed", "dangling-wiki-link"} <= {f["code"] for f in found}


def _convention_scope(kind: str, scope: Path) -> str:
    """Five files following another convention (T-5a); the code of its one finding."""
    for number, words in enumerate(["deploy steps", "release notes", "api keys", "ci", "db"]):
        stem = words.replace(" ", "_" if kind == "snake_case" else "-")
        if kind == "no frontmatter":
            text = f"# {words}\n\nplain notes {number}\n"
        else:  # title-style names: a name that is not the file's stem
            text = f"---\nname: {words.title()}\ndescription: about {words}\n---\nbody\n"
        (scope / f"{stem}.md").write_text(text, encoding="utf-8")
    return "no-frontmatter" if kind == "no frontmatter" else "naming-convention"


async def _every_page(client: Client, limit: int) -> list[dict[str, Any]]:
    pages = [await ok_json(await client.get(FILES, params={"limit": str(limit)}))]
    while pages[-1]["nextCursor"] is not None:
        cursor = pages[-1]["nextCursor"]
        pages.append(
            await ok_json(await client.get(FILES, params={"limit": str(limit), "cursor": cursor}))
        )
    return pages


@pytest.mark.parametrize("kind", ["snake_case", "kebab-case titled", "no frontmatter"])
async def test_a5_t5a_a_convention_comes_once_on_the_last_page_and_folds_on_every_page(
    client: Client, agent: AgentHome, kind: str
) -> None:
    """A scope following another convention gets its one finding (about every file's
    frontmatter) on the last page, and no page names the per-file findings it stands for: the
    pages together give the index view's whole lint."""
    code = _convention_scope(kind, agent.user)
    whole = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))

    pages = await _every_page(client, limit=2)

    def key(finding: dict[str, Any]) -> tuple[str, str, str]:
        return finding["code"], finding["file"], finding["message"]

    found = [finding for page in pages for finding in page["findings"]]
    assert len(pages) == 3
    assert Counter(map(key, found)) == Counter(map(key, whole["findings"]))
    assert [f["code"] for f in pages[-1]["findings"] if f["file"] == ""] == [code]
    assert {f["code"] for f in found} == {code, "missing-index"}


def _unreadable(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """``name`` is there but the service may not open it (Q-2b; the tests may run as root,
    whom a file's mode does not stop): every open of it is refused, a read's and a page's
    look at whether it opens (``TopicCache.readable``) alike."""

    def refusing(
        path: Path | str, flags: int, wait: float = 2.0, *, dir_fd: int | None = None
    ) -> int:
        if Path(path).name == name:
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return open_waiting_for_lease(path, flags, wait, dir_fd=dir_fd)

    monkeypatch.setattr(containment, "open_waiting_for_lease", refusing)


def _scope_of(scope: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (scope / name).write_text(text, encoding="utf-8")
    links = "".join(f"- [{name}]({name}) — a hook\n" for name in files)
    (scope / layout.INDEX_FILE).write_text(links, encoding="utf-8")


_BARE, _WITH_FRONTMATTER = "plain notes\n", "---\nname: {stem}\ndescription: notes\n---\nbody\n"


@pytest.mark.parametrize(
    ("files", "unreadable", "kept"),
    [
        pytest.param(  # only a.md is parsed: no no-frontmatter convention for one file
            {"a.md": _BARE, "b.md": _WITH_FRONTMATTER.format(stem="b")},
            "b.md",
            ("missing-description", "a.md"),
            id="missing-description",
        ),
        pytest.param(  # the parsed files are all snake_case: one naming-convention finding
            {
                "Weird Name.md": _WITH_FRONTMATTER.format(stem="Weird Name"),
                "deploy_steps.md": _WITH_FRONTMATTER.format(stem="deploy_steps"),
                "release_notes.md": _WITH_FRONTMATTER.format(stem="release_notes"),
            },
            "Weird Name.md",
            ("naming-convention", ""),
            id="naming-convention",
        ),
    ],
)
async def test_a5_every_page_together_and_one_file_say_the_whole_lint_with_an_unreadable_file(
    client: Client,
    agent: AgentHome,
    monkeypatch: pytest.MonkeyPatch,
    files: dict[str, str],
    unreadable: str,
    kept: tuple[str, str],
) -> None:
    """A file that cannot be read is no topic of a convention (T-5a, Q-2b): the whole lint
    decides the conventions from the files it parsed, and so do the pages and the one-file
    view, which once counted every name of the scope (a ``missing-description`` dropped for a
    ``no-frontmatter`` no page named; ``name-not-kebab`` kept where the whole lint folds it)."""
    _scope_of(agent.user, files)
    _unreadable(monkeypatch, unreadable)
    whole = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))

    def key(finding: dict[str, Any]) -> tuple[str, str, str]:
        return finding["code"], finding["file"], finding["message"]

    found = [f for page in await _every_page(client, limit=1) for f in page["findings"]]
    assert Counter(map(key, found)) == Counter(map(key, whole["findings"]))
    assert {("unreadable", unreadable), kept} <= {(f["code"], f["file"]) for f in found}
    for name in files.keys() - {unreadable}:
        one = await ok_json(await client.get(file_url("user", name)))
        assert one["findings"] == [f for f in whole["findings"] if f["file"] == name]


@pytest.mark.parametrize(
    "title",
    [
        pytest.param(lambda number: f"Note {number}", id="short"),
        pytest.param(lambda number: f"feedback_Prefers pnpm over npm {number}", id="typed"),
        pytest.param(lambda number: f"Заметка о деплое 🚀 {number}", id="non-ASCII"),
    ],
)
def test_a5_kept_titles_keep_alive_no_more_than_their_weight(title: Any) -> None:
    """The link keys of every topic's name a listing keeps (``_beside_page``, bounded by
    weight in ``SCOPE_TITLE_BYTES``) are weighed honestly: what ``tracemalloc`` measures the
    kept set keeping alive, its keys included, is never more than its weight."""
    link_keys.cache_clear()
    link_key.cache_clear()
    gc.collect()
    tracemalloc.start()
    try:
        titles = frozenset().union(*(link_keys(title(number)) for number in range(5462)))
        link_keys.cache_clear()
        link_key.cache_clear()
        gc.collect()
        kept_alive = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()

    assert 0 < kept_alive <= answers._titles_weight(titles) < 2 * kept_alive
