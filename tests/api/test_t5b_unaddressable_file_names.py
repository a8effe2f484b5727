"""T-5b, case ``unaddressable-file-names``: every entry is named, none skipped unsaid.

Linux allows any byte in a file name but ``/`` and NUL; K-7 refuses names no route could
address (bytes that are not UTF-8, a control character, a backslash, over 255 bytes). Such a
``*.md`` file is never read, but the listing, the index view and the overview say it is there,
escaped, with why, as a ``refused-entry`` finding; nothing on disk is renamed or changed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path, PurePosixPath

import pytest
from memory_api.cli import main

from tests.api.conftest import AgentHome, Client, file_url, memory_url, ok_json

CASE = Path(__file__).parents[1] / "data" / "cases" / "unaddressable-file-names"

UTF8 = "is not UTF-8 (bytes of another encoding, e.g. Latin-1)"
CONTROL = "holds a control character (a line break, a tab …)"


def refusal(what: str, kind: str = "a regular file") -> str:
    return f"{kind} whose name {what}, so no route can read or delete it (rename it)"


def make_input(scope: Path) -> None:
    """The case's own script, run as the case says."""
    done = subprocess.run(
        [sys.executable, str(CASE / "make_input.py"), str(scope)],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def raw_names(folder: Path) -> list[bytes]:
    """The entry names of ``folder`` as bytes, sorted (a name need not be UTF-8)."""
    return sorted(os.listdir(os.fsencode(folder)))  # noqa: PTH208 - names as bytes


async def test_unaddressable_file_names_are_refused_entries_named_escaped_with_why(
    client: Client, agent: AgentHome
) -> None:
    make_input(agent.user)
    (agent.user / "back\\slash.md").write_text("---\ndescription: x\n---\n", encoding="utf-8")
    on_disk = raw_names(agent.user)

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    overview = await ok_json(await client.get(memory_url()))

    assert [row["file"] for row in listing["files"]] == ["ok-topic.md"]
    expected = {
        "back\\slash.md": refusal("holds a backslash"),
        "caf\\xe9-notes.md": refusal(UTF8),
        "deploy\\nsteps.md": refusal(CONTROL),
        "review\\trules.md": refusal(CONTROL),
    }
    for findings in (listing["findings"], view["findings"]):
        refused = {f["file"]: f["message"] for f in findings if f["code"] == "refused-entry"}
        assert refused == {name: f"{name} is {why}; not read" for name, why in expected.items()}
        assert {f["severity"] for f in findings if f["code"] == "refused-entry"} == {"error"}
    user = overview["scopes"][0]
    assert user["lintCounts"]["refused-entry"] == 4
    assert user["fileCount"] == 1  # never a topic file, but counted among the findings
    assert raw_names(agent.user) == on_disk  # nothing renamed or changed


async def test_unaddressable_file_names_an_index_line_linking_one_is_no_dangling_link(
    client: Client, agent: AgentHome
) -> None:
    """An index line that links such a file by its name (the line break percent-encoded, the
    tab inside ``<…>``) links a file that is there: the finding says it is never read and why,
    never that it "is not in this scope"."""
    make_input(agent.user)
    index = agent.user / "MEMORY.md"
    with index.open("a", encoding="utf-8") as lines:
        lines.write("- [Deploy](deploy%0Asteps.md) — steps\n")
        lines.write("- [Review](<review\trules.md>) — rules\n")
        lines.write("- [Gone](never-written.md) — not there\n")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))

    dangling = {
        f["line"]: f["message"] for f in listing["findings"] if f["code"] == "dangling-link"
    }
    assert dangling == {
        2: f"links to 'deploy\\nsteps.md', which is {refusal(CONTROL)}: never read",
        3: f"links to 'review\\trules.md', which is {refusal(CONTROL)}: never read",
        4: "links to 'never-written.md', which is not in this scope",
    }


async def test_unaddressable_file_names_in_a_workspace_scope_count_in_its_overview_entry(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("app")
    make_input(agent.root / key)

    scope = await ok_json(await client.get(f"{memory_url()}/scopes/{key}"))

    assert scope["lintCounts"]["refused-entry"] == 3
    assert scope["severityCounts"]["error"] >= 3


def test_unaddressable_file_names_the_export_report_names_them(
    agent: AgentHome, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The export keeps them byte for byte, as every file of a scope, and its report names each
    one escaped with why: the same words as the listing's finding, so the archive holds no file
    nobody was told of."""
    make_input(agent.user)
    output = tmp_path / "coder.tar.gz"
    argv = ["memory", "export", "--project", agent.project, "--agent", agent.id, "-o"]

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMORY_API_DATA_DIR", str(agent.data_dir))
        patch.setenv("COLUMNS", "300")
        assert main([*argv, str(output)]) == 0
    printed = capsys.readouterr().out

    for name, why in (
        ("caf\\xe9-notes.md", UTF8),
        ("deploy\\nsteps.md", CONTROL),
        ("review\\trules.md", CONTROL),
    ):
        assert f"archived, never read by the service: user/{name}: {refusal(why)}" in printed
    assert "deploy\nsteps.md" not in printed  # escaped, never printed raw
    with tarfile.open(output) as archive:
        members = {os.fsencode(PurePosixPath(name).name) for name in archive.getnames()}
    assert set(raw_names(agent.user)) <= members


async def test_a_dot_named_topic_file_is_a_refused_entry_not_skipped_unsaid(
    client: Client, agent: AgentHome
) -> None:
    """K-7 refuses a name that starts with ``.`` (``.deploy-notes.md``, which an agent's file
    tool writes as readily as any other): it is never read, so it is named like every other
    refused name. The atomic writes' dot-named temp files (``.*.tmp``) and a dot-named entry
    that does not end in ``.md`` stay unsaid, as before."""
    body = "---\nname: deploy-notes\ndescription: x\n---\nbody\n"
    (agent.user / ".deploy-notes.md").write_text(body, encoding="utf-8")
    (agent.user / ".hidden.MD").write_text(body, encoding="utf-8")
    (agent.user / ".ok-topic.md.4f1c.tmp").write_text(body, encoding="utf-8")
    (agent.user / ".DS_Store").write_bytes(b"\0")
    (agent.user / "ok-topic.md").write_text(body.replace("deploy-notes", "ok-topic"), "utf-8")
    on_disk = raw_names(agent.user)

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    overview = await ok_json(await client.get(memory_url()))

    assert [row["file"] for row in listing["files"]] == ["ok-topic.md"]
    refused = {f["file"]: f["message"] for f in listing["findings"] if f["code"] == "refused-entry"}
    assert refused == {
        ".deploy-notes.md": f".deploy-notes.md is {refusal(STARTS_WITH_DOT)}; not read",
    }
    assert overview["scopes"][0]["lintCounts"]["refused-entry"] == 1
    assert raw_names(agent.user) == on_disk


STARTS_WITH_DOT = "starts with '.' (a hidden file)"


async def test_a_name_going_on_after_md_is_a_refused_entry_not_skipped_unsaid(
    client: Client, agent: AgentHome
) -> None:
    """A topic file's name with a blank, a dot or a character shown as nothing after its
    ``.md`` (``notes.md ``, a title a script pasted with its trailing space or line break, or
    copied from a page with a zero-width space or byte order mark) is never read: it is named,
    escaped, with why (``zero.md`` then U+200B was skipped unsaid). An editor's backup or swap
    file (``notes.md~``, ``notes.md.swp``) stays unsaid."""
    body = "---\nname: notes\ndescription: x\n---\nbody\n"
    unseen = ("zero.md\u200b", "mark.md\ufeff", "mixed.md \u200e.")
    for name in ("trail.md ", "dot.md.", "line.md\n", "wide.MD\u3000", "ok-topic.md~", *unseen):
        (agent.user / name).write_text(body, encoding="utf-8")
    (agent.user / "a.md.swp").write_text(body, encoding="utf-8")
    on_disk = raw_names(agent.user)

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    overview = await ok_json(await client.get(memory_url()))

    assert listing["files"] == []
    refused = {f["file"]: f["message"] for f in listing["findings"] if f["code"] == "refused-entry"}
    after_md = refusal("goes on after '.md' (a trailing space, dot or unseen character)")
    assert refused == {
        "trail.md ": f"trail.md  is {after_md}; not read",
        "dot.md.": f"dot.md. is {after_md}; not read",
        "line.md\\n": f"line.md\\n is {refusal(CONTROL)}; not read",
        "wide.MD\u3000": f"wide.MD\u3000 is {after_md}; not read",
        "zero.md[hidden: U+200B]": f"zero.md[hidden: U+200B] is {after_md}; not read",
        "mark.md[hidden: U+FEFF]": f"mark.md[hidden: U+FEFF] is {after_md}; not read",
        "mixed.md [hidden: U+200E].": f"mixed.md [hidden: U+200E]. is {after_md}; not read",
    }
    assert overview["scopes"][0]["lintCounts"]["refused-entry"] == 7
    assert raw_names(agent.user) == on_disk


async def test_an_unaddressable_name_says_what_the_entry_is(
    client: Client, agent: AgentHome
) -> None:
    """A folder, a symlink or a FIFO whose ``*.md`` name no route can address is named as what
    it is, never as "a file" (a folder ``notes\xe9.md`` copied from an old archive holds no
    text to read); nothing on disk is followed, renamed or changed."""
    scope = os.fsencode(agent.user)
    os.mkdir(os.path.join(scope, b"old\xe9.md"))  # noqa: PTH102, PTH118 - a name in bytes
    os.mkdir(os.path.join(scope, b"fold\tx.md"))  # noqa: PTH102, PTH118
    os.symlink(b"ok-topic.md", os.path.join(scope, b"alias\xe9.md"))  # noqa: PTH211, PTH118
    os.mkfifo(os.path.join(scope, b"pipe\xe9.md"))  # noqa: PTH118
    (agent.user / "ok-topic.md").write_text("---\nname: ok-topic\ndescription: x\n---\n", "utf-8")
    on_disk = raw_names(agent.user)

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))

    refused = {f["file"]: f["message"] for f in listing["findings"] if f["code"] == "refused-entry"}
    assert refused == {
        "old\\xe9.md": f"old\\xe9.md is {refusal(UTF8, 'a folder')}; not read",
        "fold\\tx.md": f"fold\\tx.md is {refusal(CONTROL, 'a folder')}; not read",
        "alias\\xe9.md": f"alias\\xe9.md is {refusal(UTF8, 'a symlink')}; not read",
        "pipe\\xe9.md": f"pipe\\xe9.md is {refusal(UTF8, 'a FIFO')}; not read",
    }
    assert raw_names(agent.user) == on_disk


# Names K-7 allows that hold a character a URL or a route pattern gives a meaning of its own.
URL_MEANINGFUL_NAMES = [
    "brace{x}.md",
    "{{MEMORY}}.md",
    "open{.md",
    "close}.md",
    "what?.md",
    "hash#1.md",
    "50%.md",
    "a%2Fb.md",
    "plus+sign.md",
    "semi;colon.md",
    "[brackets].md",
]


@pytest.mark.parametrize("name", URL_MEANINGFUL_NAMES)
async def test_every_listed_topic_file_is_read_its_history_shown_and_deleted_by_its_route(
    client: Client, agent: AgentHome, name: str
) -> None:
    """What the listing names, a route reads, shows the history of and deletes (A-5, A-6,
    V-2), whatever K-7-allowed characters its name holds: ``brace{x}.md`` was listed, and every
    route of it answered 404 "nothing is served at …" (the router's own segment pattern stops
    at a brace), so it could be neither read nor deleted."""
    (agent.user / name).write_text("---\nname: x\ndescription: d\n---\nbody\n", "utf-8")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    read = await ok_json(await client.get(file_url("user", name)))
    history = await ok_json(await client.get(f"{file_url('user', name)}/history"))
    deleted = await ok_json(await client.delete(file_url("user", name)))

    assert [row["file"] for row in listing["files"]] == [name]
    assert read["file"] == name and read["body"] == "body"
    assert history["file"] == name
    assert deleted["file"] == name
    assert not (agent.user / name).exists()


async def test_a_name_going_on_after_md_with_a_format_or_ignorable_character_is_refused(
    client: Client, agent: AgentHome
) -> None:
    """Every format character (category Cf: U+FFFB, the prepended marks U+0600, U+06DD,
    U+110BD, which are not default-ignorable) and every default-ignorable one (the Hangul filler
    U+3164, a letter) after a name's ``.md`` makes it a refused entry, named with why: neither
    rule alone names them all (U+FFFB and the others were skipped unsaid by the second)."""
    body = "---\nname: notes\ndescription: x\n---\nbody\n"
    names = [f"n{at}.md{char}" for at, char in enumerate("\ufffb\u0600\u06dd\U000110bd\u3164")]
    for name in names:
        (agent.user / name).write_text(body, encoding="utf-8")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))

    after_md = refusal("goes on after '.md' (a trailing space, dot or unseen character)")
    refused = [f["message"] for f in listing["findings"] if f["code"] == "refused-entry"]
    assert listing["files"] == []
    assert len(refused) == len(names), refused
    assert all(message.endswith(f"is {after_md}; not read") for message in refused), refused
