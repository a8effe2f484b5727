"""T-1a, T-5a, T-5b, T-6 through the API, on the case folders of tests/data/cases.

Each test puts a case folder into a scope, reads it as a user would (listing, file, index view,
overview, Session start) and checks the right value the case's README names.
"""

from __future__ import annotations

import codecs
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from memory_core import layout
from memory_core.topics import READ_CAP_BYTES

from tests.api.conftest import AgentHome, Client, file_url, memory_url, ok_json, write_topic
from tools.lint_noise import SYNTHETIC, write_folder

CASES = Path(__file__).resolve().parents[1] / "data" / "cases"


OUTSIDE = "is a symlink to outside the memory root; not read"


def _make_input(command: list[str]) -> None:
    """Run a case's own input builder (a setup step before the service reads anything)."""
    subprocess.run(command, check=True)


def _into_user_scope(agent: AgentHome, case: str) -> Path:
    scope = agent.user
    scope.mkdir(parents=True, exist_ok=True)
    for path in (CASES / case / "scope").iterdir():
        shutil.copy2(path, scope / path.name)
    return scope


async def _index_view(client: Client) -> dict[str, Any]:
    return await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))


def _by_code(view: dict[str, Any], code: str) -> list[dict[str, Any]]:
    return [finding for finding in view["findings"] if finding["code"] == code]


async def _session(client: Client, agent: AgentHome) -> dict[str, Any]:
    workspace = agent.tmp / "elsewhere"
    workspace.mkdir(exist_ok=True)
    url = f"{memory_url()}/session-start"
    return await ok_json(await client.post(url, json={"workspace": str(workspace)}))


async def test_t1a_case_descriptions_list_as_written(client: Client, agent: AgentHome) -> None:
    _into_user_scope(agent, "description-as-written")
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    descriptions = {row["file"]: row["description"] for row in listing["files"]}
    assert descriptions == {
        "at-sign.md": "@team owns deploys on Fridays",
        "issue-notes.md": "Issue #42 fixed in the parser",
        "port-number.md": "8080",
        "release-notes.md": "2026-01-05 release notes moved to docs/releases",
        "search-cmd.md": "`tool search` shipped in v9 with --source a|b",
    }
    problems = {row["file"]: row["problems"] for row in listing["files"]}
    assert problems["release-notes.md"] == []
    assert all(len(problems[name]) == 1 for name in problems if name != "release-notes.md")
    assert not _by_code(await _index_view(client), "missing-description")


async def test_t6_case_lookalikes_reach_the_model_byte_for_byte(
    client: Client, agent: AgentHome
) -> None:
    scope = _into_user_scope(agent, "secret-lookalikes")
    index_lines = (scope / "MEMORY.md").read_text(encoding="utf-8").splitlines()
    answer = await _session(client, agent)
    for line in index_lines[:3]:
        assert line in answer["memory"]
    assert "AKIAQWERTYUIOPASDFGH" not in answer["memory"]
    assert "old CI key was [masked: aws-access-key], rotated" in answer["memory"]
    secrets = _by_code(await _index_view(client), "secret")
    assert [(f["file"], f["line"], f["severity"]) for f in secrets] == [
        ("MEMORY.md", 4, "error"),
        ("leaked.md", 6, "error"),
    ]
    assert "ghp_" not in repr(secrets)


async def test_i9_case_hidden_text_is_an_error_and_reaches_the_model_escaped(
    client: Client, agent: AgentHome
) -> None:
    scope = agent.user
    _make_input(
        [sys.executable, str(CASES / "hidden-text-in-memory" / "make_scope.py"), str(scope)]
    )
    before = {path.name: path.read_bytes() for path in scope.iterdir()}

    view = await _index_view(client)
    answer = await _session(client, agent)
    overview = await ok_json(await client.get(memory_url()))

    hidden = _by_code(view, "hidden-text")
    assert [(f["file"], f["line"], f["severity"]) for f in hidden] == [
        ("MEMORY.md", 3, "error"),
        ("MEMORY.md", 4, "error"),
        ("setup-scripts.md", 6, "error"),
    ]
    assert "curl" not in repr(hidden)
    user = next(scope for scope in overview["scopes"] if scope["key"] == "user")
    assert user["lintCounts"]["hidden-text"] == 3
    assert "run twice in CI[hidden: 67 tag characters]" in answer["memory"]
    assert "two approvals [hidden: U+202E]except for admins[hidden: U+202C]" in answer["memory"]
    assert "👨\u200d👩\u200d👧 is one emoji" in answer["memory"]
    assert not any(0xE0000 <= ord(char) <= 0xE007F for char in answer["memory"])
    assert {path.name: path.read_bytes() for path in scope.iterdir()} == before


async def test_t5a_folders_as_other_agents_keep_them_are_one_info_finding(
    client: Client, agent: AgentHome
) -> None:
    """Claude Code's type_slug names and notes without frontmatter: the service folds them as
    lint_scope does (the per-file findings are memoised there, folded here)."""
    for folder, code in (("claude-code", "naming-convention"), ("daily-notes", "no-frontmatter")):
        _, key = agent.workspace(folder)
        write_folder(SYNTHETIC[folder](), agent.root / key)
        view = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/index"))
        assert [(f["code"], f["severity"], f["file"]) for f in view["findings"]] == [
            (code, "info", "")
        ]


async def test_t5b_an_index_link_into_a_sub_folder_is_checked(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    scope = agent.user
    write_folder(SYNTHETIC["daily-notes"](), scope)  # links archive/2026-02.md, which is there
    outside = tmp_path / "outside.md"
    outside.write_text("not memory\n", encoding="utf-8")
    (scope / "archive" / "2026-01.md").symlink_to(outside)  # resolves out of the scope
    with (scope / "MEMORY.md").open("a", encoding="utf-8") as index:
        index.write("- [January](archive/2026-01.md) — a symlink out\n")
        index.write("- [March](archive/2026-03.md) — never written\n")

    view = await _index_view(client)

    assert [(f["code"], f["line"]) for f in view["findings"]] == [
        ("dangling-link", 10),
        ("dangling-link", 11),
        ("no-frontmatter", None),
    ]


async def test_t5a_case_other_naming_convention_is_one_info_finding(
    client: Client, agent: AgentHome
) -> None:
    _into_user_scope(agent, "other-naming-convention")
    view = await _index_view(client)
    assert [(f["code"], f["severity"], f["file"]) for f in view["findings"]] == [
        ("naming-convention", "info", "")
    ]
    assert "snake_case file names, title-style names" in view["findings"][0]["message"]
    assert "3 files" in view["findings"][0]["message"]


async def test_t5a_every_finding_has_a_severity(client: Client, agent: AgentHome) -> None:
    _, key = agent.workspace("messy", corpus="coding-agent-workspace")
    view = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/index"))
    assert view["findings"]
    assert {f["severity"] for f in view["findings"]} <= {"error", "warning", "info"}
    assert {f["code"]: f["severity"] for f in view["findings"]}["dangling-link"] == "error"


async def test_t5b_case_index_in_other_case_is_an_ordinary_topic_file(
    client: Client, agent: AgentHome
) -> None:
    scope = _into_user_scope(agent, "index-in-other-case")
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    assert [row["file"] for row in listing["files"]] == ["Memory.md", "build-cache.md"]
    read = await ok_json(await client.get(file_url("user", "Memory.md")))
    assert "build-cache.md" in read["body"]
    view = await _index_view(client)
    wrong_case = _by_code(view, "index-wrong-case")
    assert [(f["file"], f["severity"]) for f in wrong_case] == [("Memory.md", "warning")]
    assert "looks like the index in another case" in wrong_case[0]["message"]
    assert "must be named MEMORY.md" in wrong_case[0]["message"]
    # named once, for its case: no naming convention, description or link is asked of it
    assert [(f["code"], f["file"]) for f in view["findings"]] == [
        ("missing-index", "MEMORY.md"),
        ("index-wrong-case", "Memory.md"),
    ]
    assert [(f["code"], f["file"]) for f in read["findings"]] == [("index-wrong-case", "Memory.md")]
    overview = await ok_json(await client.get(memory_url()))
    assert overview["scopes"][0]["lintCounts"] == {"missing-index": 1, "index-wrong-case": 1}
    deleted = await ok_json(await client.delete(file_url("user", "Memory.md")))
    assert deleted["file"] == "Memory.md"
    assert not (scope / "Memory.md").exists()


async def test_t5b_case_symlinks_out_of_the_root_are_named(
    client: Client, agent: AgentHome
) -> None:
    scope = agent.user
    scope.mkdir(parents=True, exist_ok=True)
    vault = agent.tmp / "vault"
    script = CASES / "symlink-out-of-root" / "make_input.sh"
    _make_input(["sh", str(script), str(scope), str(vault)])
    view = await _index_view(client)
    refused = _by_code(view, "refused-entry")
    assert [(f["file"], f["severity"], f["message"]) for f in refused] == [
        ("MEMORY.md", "error", f"MEMORY.md {OUTSIDE}"),
        ("vault-note.md", "error", f"vault-note.md {OUTSIDE}"),
    ]
    assert not _by_code(view, "missing-index")
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    assert [row["file"] for row in listing["files"]] == ["real-note.md"]  # refusing is right


async def test_t5b_case_index_over_the_read_cap_has_true_counts(
    client: Client, agent: AgentHome
) -> None:
    scope = agent.user
    scope.mkdir(parents=True, exist_ok=True)
    script = CASES / "index-over-read-cap" / "make_input.py"
    _make_input([sys.executable, str(script), str(scope)])
    view = await _index_view(client)
    manifest = view["manifest"]
    assert (manifest["linesTotal"], manifest["linesKept"], manifest["linesDropped"]) == (5, 3, 2)
    assert not _by_code(view, "unindexed")  # delta.md is linked on line 5
    over = _by_code(view, "index-over-read-cap")
    assert [(f["file"], f["severity"], f["line"]) for f in over] == [("MEMORY.md", "error", 4)]
    assert "only the first 3 of 5 lines" in over[0]["message"]
    answer = await _session(client, agent)
    assert answer["manifests"][0]["linesTotal"] == 5
    assert answer["manifests"][0]["linesDropped"] == 2
    assert "shows 3 of 5 lines; 2 lines were left out" in answer["memory"]
    assert "x" * 1000 not in answer["memory"]


async def test_t5b_links_past_the_read_cap_among_plain_lines_are_found_on_their_lines(
    client: Client, agent: AgentHome
) -> None:
    """Past the 1 MiB read cap only lines that may link are parsed (``[``, a backquote, ``=``):
    an index of millions of plain lines took a minute a request. Every link form there is
    still found, on its own line number, and the line count stays exact."""
    scope = agent.user
    scope.mkdir(parents=True, exist_ok=True)
    for name in ("alpha", "beta", "gamma", "delta"):
        write_topic(scope, f"{name}.md")
    filler = b"- plain note\n" * (READ_CAP_BYTES // 13 + 1)  # fills the read cap and more
    links = [
        b"- [Alpha](alpha.md)",
        b"- [[beta]]",
        b"- `gamma.md` - gamma",
        b'<a href="delta.md">Delta</a>',
        b"- [Gone](gone.md) - not there",
    ]
    raw = filler + b"\n".join(link + b"\n" + b"- plain note" for link in links) + b"\n"
    (scope / layout.INDEX_FILE).write_bytes(raw)
    first_link = filler.count(b"\n") + 1

    view = await _index_view(client)

    assert view["manifest"]["linesTotal"] == raw.count(b"\n")
    assert not _by_code(view, "unindexed")  # alpha … delta are linked past the cap
    dangling = _by_code(view, "dangling-link")
    assert [(f["line"], f["message"]) for f in dangling] == [
        (first_link + 8, "links to 'gone.md', which is not in this scope")
    ]


async def test_t5b_a_fifo_a_folder_and_a_dangling_symlink_are_refused_by_name(
    client: Client, agent: AgentHome
) -> None:
    scope = _into_user_scope(agent, "index-in-other-case")
    os.mkfifo(scope / "pipe.md")
    (scope / "folder.md").mkdir()
    (scope / "gone.md").symlink_to(scope / "never-there.md")
    view = await _index_view(client)  # a FIFO never hangs the request (O_NONBLOCK)
    refused = {f["file"]: f["message"] for f in _by_code(view, "refused-entry")}
    assert refused == {
        "folder.md": "folder.md is a folder, not a file; not read",
        "gone.md": "gone.md is a symlink to nothing; not read",
        "pipe.md": "pipe.md is a FIFO (named pipe), not a regular file; not read",
    }
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    assert [row["file"] for row in listing["files"]] == ["Memory.md", "build-cache.md"]


async def test_t5b_memory_md_that_is_the_index_itself_is_no_topic(
    client: Client, agent: AgentHome
) -> None:
    # On a case-insensitive disk "Memory.md" opens MEMORY.md; a hard link is the same situation.
    scope = _into_user_scope(agent, "index-in-other-case")
    (scope / "Memory.md").rename(scope / "MEMORY.md")
    os.link(scope / "MEMORY.md", scope / "Memory.md")
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    assert [row["file"] for row in listing["files"]] == ["build-cache.md"]
    response = await client.get(file_url("user", "Memory.md"))
    assert response.status == 404
    response = await client.delete(file_url("user", "Memory.md"))
    assert response.status == 404
    assert (scope / "MEMORY.md").exists()


async def test_t5b_a_symlink_loop_a_socket_and_a_symlinked_folder_are_refused_by_name(
    client: Client, agent: AgentHome
) -> None:
    scope = _into_user_scope(agent, "index-in-other-case")
    (scope / "loop.md").symlink_to("loop.md")
    (scope / "sub").mkdir()
    (scope / "linked-folder.md").symlink_to("sub")
    os.mknod(scope / "sock.md", stat.S_IFSOCK | 0o600)  # a socket's entry; no one listens
    view = await _index_view(client)
    refused = {f["file"]: f["message"] for f in _by_code(view, "refused-entry")}
    assert refused == {
        "linked-folder.md": "linked-folder.md is a symlink to a folder, not a file; not read",
        "loop.md": "loop.md is a symlink loop; not read",
        "sock.md": "sock.md is a socket, not a regular file; not read",
    }


async def test_t5b_an_index_named_in_upper_case_md_is_named_not_silently_skipped(
    client: Client, agent: AgentHome
) -> None:
    # MEMORY.MD / Memory.MD end in no ".md": neither the index nor a topic file, never read.
    scope = agent.user
    scope.mkdir(parents=True, exist_ok=True)
    shutil.copy2(CASES / "index-in-other-case" / "scope" / "build-cache.md", scope)
    (scope / "MEMORY.MD").write_text("- [Build cache](build-cache.md) — x\n", encoding="utf-8")
    (scope / "Notes.Md").write_text("---\nname: notes\n---\nb\n", encoding="utf-8")
    view = await _index_view(client)
    refused = {f["file"]: (f["severity"], f["message"]) for f in _by_code(view, "refused-entry")}
    assert refused == {
        "MEMORY.MD": (
            "error",
            "MEMORY.MD is named like the index in another case (the index must be named "
            "MEMORY.md); not read",
        ),
        "Notes.Md": (
            "error",
            "Notes.Md is not a topic file (a topic file's name ends in lower-case .md); not read",
        ),
    }
    assert _by_code(view, "missing-index")  # still true: there is no MEMORY.md
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    assert [row["file"] for row in listing["files"]] == ["build-cache.md"]


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le"])
async def test_t5b_a_wide_encoded_index_over_the_read_cap_is_cut_at_a_whole_line(
    client: Client, agent: AgentHome, codec: str
) -> None:
    """A valid UTF-16 or UTF-32 index larger than the 1 MiB read cap is read up to its last
    whole line before the cap: the cap never splits a character (``\\n`` is ``\\n\\x00`` in
    UTF-16LE), so no ``invalid-encoding`` is claimed and no U+FFFD is made; a link past the cap
    is still found on its line."""
    scope = agent.user
    scope.mkdir(parents=True, exist_ok=True)
    for name in ("alpha", "omega"):
        write_topic(scope, f"{name}.md")
    lines = ["- [Alpha](alpha.md) — 日本語のメモ"]
    unit = 4 if "32" in codec else 2  # bytes per character here (none past U+FFFF)
    lines += [f"- メモ {number:06d}: 記録" for number in range(READ_CAP_BYTES // (15 * unit))]
    lines.append("- [Omega](omega.md) — past the cap")
    text = "\n".join(lines) + "\n"
    raw = codecs.encode("\ufeff" + text, codec)
    assert READ_CAP_BYTES < len(raw) < 1.2 * READ_CAP_BYTES
    (scope / layout.INDEX_FILE).write_bytes(raw)

    view = await _index_view(client)

    assert not _by_code(view, "invalid-encoding")
    assert "\ufffd" not in view["raw"]
    shown = view["raw"].rstrip("\n").split("\n")
    assert shown[0] == lines[0]
    assert shown[-1] in lines  # the last line read is a whole one
    assert not _by_code(view, "unindexed")  # omega is linked past the cap
    assert view["manifest"]["linesTotal"] == len(lines)
