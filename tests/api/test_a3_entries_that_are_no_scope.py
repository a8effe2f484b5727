"""A-3, A-1, A-7: what in a memory root is no scope is named, never read, never a 500.

A memory root holds one folder per scope (``user``, a Workspace key). A stray file, a folder
named otherwise (notes copied in by hand), a symlink out of the root or to nothing, a file or
FIFO in a scope's place were skipped silently: the Memory tab and the agents list showed no
memory and no reason. The overview and the agents list (the API, ``memory-api agent list``)
now name each by name with why it is never read; the target of a symlink out of the root is
never read nor named.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_api.store.not_scopes import SKIPPED_NAMED

from tests.api.conftest import AgentHome, Client, memory_url, ok_json

OUTSIDE_SECRET = "OUTSIDE THE MEMORY ROOT: never read"
WORKSPACE_KEY = "stray-0123abcd"
"""Named like a Workspace scope (K-7)."""


def plant(agent: AgentHome, outside: Path) -> dict[str, str]:
    """Plant one entry of each kind that is no scope; return name → the words its reason
    must hold."""
    root = agent.root
    outside.mkdir()
    (outside / "secret.md").write_text(OUTSIDE_SECRET, encoding="utf-8")
    (root / "notes.txt").write_text("a stray file\n", encoding="utf-8")
    (root / "notes").mkdir()
    (root / "notes" / "deploy.md").write_text("---\nname: deploy\n---\nbody\n", encoding="utf-8")
    (root / "locked").mkdir(mode=0o000)
    (root / "elsewhere").symlink_to(outside)
    (root / WORKSPACE_KEY).symlink_to(outside)  # named like a scope, leads out of the root
    (root / "dangling-0123abcd").symlink_to(root / "gone-0123abcd")
    (root / "file-0123abcd").write_text("a file in a scope's place\n", encoding="utf-8")
    os.mkfifo(root / "pipe")
    (root / ".DS_Store").write_bytes(b"\0")  # the system's: never named
    # A name that is not UTF-8 (Latin-1 "café") and one with a control character: each named
    # escaped, never sent as is (surrogates no JSON encoder takes: the answer was a 500).
    Path(os.fsdecode(os.fsencode(root) + b"/caf\xe9")).mkdir()
    (root / "bell\a").mkdir()
    return {
        "caf\\xe9": "a folder whose name is no scope key",
        "bell\\x07": "a folder whose name is no scope key",
        "notes.txt": "a regular file whose name is no scope key",
        "notes": "a folder whose name is no scope key",
        "locked": "a folder whose name is no scope key",
        "elsewhere": "a symlink whose name is no scope key",
        WORKSPACE_KEY: "does not lead to another scope folder",
        "dangling-0123abcd": "does not lead to another scope folder",
        "file-0123abcd": "a regular file in a scope's place",
        "pipe": "a FIFO whose name is no scope key",
    }


def named(skipped: list[dict[str, str]]) -> dict[str, str]:
    return {entry["name"]: entry["problem"] for entry in skipped}


async def test_a3_the_overview_names_each_entry_that_is_no_scope(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    agent.workspace("app")
    expected = plant(agent, tmp_path / "outside")

    overview = await ok_json(await client.get(memory_url()))

    said = named(overview["skipped"])
    assert sorted(said) == sorted(expected)
    for name, words in expected.items():
        assert words in said[name], (name, said[name])
        assert "never" in said[name]
    assert overview["skippedCount"] == len(expected)
    assert overview["totals"]["scopes"] == 2  # the user scope and the Workspace's, as before
    assert OUTSIDE_SECRET not in str(overview)
    assert str(tmp_path / "outside") not in str(overview)  # a link's target is never named


async def test_a3_an_entry_added_later_is_named_by_the_next_overview(
    client: Client, agent: AgentHome
) -> None:
    """The overview's rows are kept between requests under a change feed; what is skipped is
    the root's latest listing, not the first one's."""
    first = await ok_json(await client.get(memory_url()))
    assert first["skipped"] == [] and first["skippedCount"] == 0

    (agent.root / "copied-by-hand").mkdir()
    then = await ok_json(await client.get(memory_url()))
    assert list(named(then["skipped"])) == ["copied-by-hand"]

    (agent.root / "copied-by-hand").rmdir()
    again = await ok_json(await client.get(memory_url()))
    assert again["skipped"] == [] and again["skippedCount"] == 0


async def test_a3_many_entries_are_counted_and_the_first_named(
    client: Client, agent: AgentHome
) -> None:
    names = [f"stray-{number:03}.txt" for number in range(SKIPPED_NAMED + 5)]
    for name in reversed(names):
        (agent.root / name).write_text("x\n", encoding="utf-8")

    overview = await ok_json(await client.get(memory_url()))

    assert [entry["name"] for entry in overview["skipped"]] == names[:SKIPPED_NAMED]
    assert overview["skippedCount"] == len(names)


async def test_a1_the_agents_list_names_them_beside_the_count(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    expected = plant(agent, tmp_path / "outside")

    listed = await ok_json(await client.get("/api/projects/acme/agents"))

    (card,) = listed["agents"]
    assert card["memoryCount"] == 0  # the stray notes/deploy.md is no memory the service reads
    assert sorted(named(card["skipped"])) == sorted(expected)
    assert card["skippedCount"] == len(expected)
    assert OUTSIDE_SECRET not in str(listed)


async def test_a1_an_agent_without_such_entries_has_no_skipped_field(
    client: Client, agent: AgentHome
) -> None:
    """The usual answer is as it was (``omit_defaults``, A-11)."""
    (card,) = (await ok_json(await client.get("/api/projects/acme/agents")))["agents"]
    assert "skipped" not in card and "skippedCount" not in card


@pytest.fixture
def planted_by_cli(
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> dict[str, str]:
    """An agent ``coder`` made by ``memory-api agent create`` in ``data_dir`` (the commands'
    data dir from now on), its memory root planted (:func:`plant`); what it says is cleared."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]) == 0
    agent = AgentHome(data_dir=data_dir, project="acme", id="coder", tmp=tmp_path)
    expected = plant(agent, tmp_path / "outside")
    capsys.readouterr()
    return expected


def test_a1_memory_api_agent_list_says_them_on_stderr(
    planted_by_cli: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    expected = planted_by_cli

    assert main(["agent", "list"]) == 0  # the count is whole: they hold nothing it reads

    captured = capsys.readouterr()
    assert "coder" in captured.out
    assert f"agent coder: {len(expected)} entries of its memory root are no scope" in (captured.err)
    for name, words in expected.items():
        assert f"  '{name}': " in captured.err and words in captured.err
    assert "'bell\\x07'" in captured.err and "\a" not in captured.err
    assert "'caf\\xe9'" in captured.err
    assert OUTSIDE_SECRET not in captured.out + captured.err


async def test_a3_a_name_no_json_text_can_carry_is_named_escaped_never_a_500(
    client: Client, agent: AgentHome
) -> None:
    """An entry named with a byte that is not UTF-8 (``notes\\xff``, a name copied from a
    Latin-1 disk) reached the JSON encoder as a lone surrogate: the overview and the whole
    project's agents list answered 500. Each name is shown as a listing shows one (T-5b): such
    bytes as ``\\xff``, a line break as ``\\n``, a right-to-left override marked."""
    (agent.root / os.fsdecode(b"notes\xff")).mkdir()
    (agent.root / "two\nlines").write_text("x\n", encoding="utf-8")
    (agent.root / "evil\u202egnp.md").write_text("x\n", encoding="utf-8")
    shown = {"notes\\xff", "two\\nlines", "evil[hidden: U+202E]gnp.md"}

    overview = await ok_json(await client.get(memory_url()))
    listed = await ok_json(await client.get("/api/projects/acme/agents"))

    assert set(named(overview["skipped"])) == shown
    (card,) = listed["agents"]
    assert set(named(card["skipped"])) == shown


def test_a3_memory_api_memory_export_names_them_escaped(
    planted_by_cli: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The export's report names each, escaped as the API does (never a crash on a name that
    is not UTF-8, never a control character on the terminal)."""
    expected = planted_by_cli
    argv = ["memory", "export", "--project", "acme", "--agent", "coder"]

    assert main([*argv, "-o", str(tmp_path / "coder.tar.gz")]) == 0

    printed = capsys.readouterr().out
    flat = " ".join(printed.split())  # as said, whatever the terminal's width wrapped
    for name, words in expected.items():
        assert f"not archived, no scope: {name}: " in flat and words in flat, name
    assert "\a" not in printed and OUTSIDE_SECRET not in printed


async def test_a3_a_hidden_folder_in_the_memory_root_is_named_with_why(
    client: Client, agent: AgentHome
) -> None:
    """A folder named with a leading ``.`` (notes copied in as ``.user-backup``) was skipped by
    every listing, the overview's ``skipped`` list not naming it; the system's and the service's
    own dot-named files (``.DS_Store``, a lock) and temp folders (``.*.tmp``) stay unnamed."""
    root = agent.root
    (root / ".user-backup").mkdir()
    (root / ".user-backup" / "deploy.md").write_text("---\nname: d\n---\nbody\n", "utf-8")
    (root / ".DS_Store").write_bytes(b"\0")
    (root / ".history.0a1b2c.tmp").mkdir()

    overview = await ok_json(await client.get(memory_url()))

    said = named(overview["skipped"])
    assert list(said) == [".user-backup"], said
    assert said[".user-backup"].startswith("a hidden folder (its name starts with '.')")
    assert "never read" in said[".user-backup"] and "rename it" in said[".user-backup"]
    assert overview["skippedCount"] == 1


async def test_a3_a_tool_folder_in_the_memory_root_is_no_problem_to_report(
    client: Client, agent: AgentHome
) -> None:
    """A memory root kept in git, opened in Obsidian or synced by Syncthing holds ``.git``,
    ``.obsidian``, ``.stfolder``, ``.trash``: they were each reported in ``skipped`` as "a hidden
    folder … rename it to its scope's key". Only a dot-named folder that looks meant as a scope
    is named: its name without the dot a scope key or one followed by more (``.user``,
    ``.user-backup``), or holding a ``MEMORY.md`` (``.old-notes``)."""
    root = agent.root
    for tool in (".git", ".obsidian", ".stfolder", ".trash"):
        (root / tool).mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n", "utf-8")
    (root / ".trash" / "deploy.md").write_text("body\n", "utf-8")
    (root / ".user").mkdir()
    (root / ".old-notes").mkdir()
    (root / ".old-notes" / "MEMORY.md").write_text("- [d](d.md) — d\n", "utf-8")

    overview = await ok_json(await client.get(memory_url()))

    said = named(overview["skipped"])
    assert sorted(said) == [".old-notes", ".user"], said
    assert all("rename it" in why for why in said.values()), said
    assert overview["skippedCount"] == 2


async def test_a3_a_tool_folder_is_never_named_even_holding_a_memory_index(
    client: Client, agent: AgentHome
) -> None:
    """Obsidian's trash took a scope's ``MEMORY.md`` (``.trash/MEMORY.md``), and a git
    checkout of a scope folder sits in ``.git`` … : the overview named ``.trash`` "a hidden
    folder … rename it to its scope's key" though the docs say a tool's folder is never named.
    A tool's folder is never named, whatever it holds; another dot folder with a ``MEMORY.md``
    still is."""
    root = agent.root
    for tool in (".trash", ".obsidian", ".git", ".stversions"):
        (root / tool).mkdir()
        (root / tool / "MEMORY.md").write_text("- [d](d.md) — d\n", "utf-8")
    (root / ".old-notes").mkdir()
    (root / ".old-notes" / "MEMORY.md").write_text("- [d](d.md) — d\n", "utf-8")

    overview = await ok_json(await client.get(memory_url()))

    assert sorted(named(overview["skipped"])) == [".old-notes"], overview["skipped"]
