"""A-6, case ``delete-keeps-index-line``: a delete removes the file and its index line, or nothing.

The case builds three indexes the service reads (every line lists, is injected, is linted) but
used not to rewrite: Windows-1252, classic Mac line ends (CR only) and UTF-16 with its BOM. The
delete answered 200, removed the file and left the line, and a retry answered 404. Now each is
pruned in its own form, every other byte unchanged; where the index truly cannot be rewritten
(it cannot be read, it is over the pruning cap, its bytes do not decode exactly, the disk is
full) the delete is refused with 409 or 503 and the file and its line stay.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from memory_api.app import create_app
from memory_api.settings import Settings
from memory_api.store import pruning
from memory_core import file_edit, layout
from memory_core.swap import read_when_idle
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import (
    AgentHome,
    Client,
    expect_problem,
    file_url,
    memory_url,
    ok_json,
    versions_of,
)
from tests.api.test_v1_versions import checkpoint
from tests.support.read_only_mount import read_only
from tests.support.refused_account import refused_service, request_json
from tests.support.serve import ServedProcess

AGENT = "/api/projects/acme/agents/coder"


def call(base: str, method: str, path: str, body: object = None) -> tuple[int, Any]:
    """One request to the real service (it has no token): status and decoded JSON."""
    return request_json(base, method, path, None, body)


CASE = Path(__file__).resolve().parents[1] / "data" / "cases" / "delete-keeps-index-line"
GONE = "- [Café notes](cafe-notes.md) — the café's wifi"
STAYS = "- [Other](other.md) — stays"
TOPIC = "---\nname: {0}\ndescription: a topic to delete\nupdated_at: 2026-11-20\n---\nbody\n"


@pytest.fixture(scope="module")
def case_scopes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The case's three scopes, built by its own ``make_input.py``."""
    out = tmp_path_factory.mktemp("delete-keeps-index-line")
    subprocess.run([sys.executable, str(CASE / "make_input.py"), str(out)], check=True)
    return out


def _copy_scope(source: Path, scope: Path) -> bytes:
    for path in source.iterdir():
        (scope / path.name).write_bytes(path.read_bytes())
    return (scope / layout.INDEX_FILE).read_bytes()


async def _index_view(client: Client) -> dict[str, Any]:
    return await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))


async def _assert_pruned(
    client: Client, agent: AgentHome, gone: str, stays: str, expected: bytes
) -> None:
    index = agent.user / layout.INDEX_FILE
    result = await ok_json(await client.delete(file_url("user", "cafe-notes.md")))
    assert result == {
        "file": "cafe-notes.md",
        "removedIndexLines": [gone],
        "unindexedFiles": [],
        **versions_of(result),
    }
    assert not (agent.user / "cafe-notes.md").exists()
    assert index.read_bytes() == expected
    view = await _index_view(client)
    assert [line["text"] for line in view["lines"]] == [stays]
    assert "dangling-link" not in {finding["code"] for finding in view["findings"]}
    assert [path.name for path in agent.user.glob(".*")] == []
    await expect_problem(await client.delete(file_url("user", "cafe-notes.md")), 404, "cafe")


LATIN1_STAYS = STAYS.replace("—", "–")  # the case's cp1252 index has en dashes


@pytest.mark.parametrize(
    ("variant", "gone", "stays", "expected"),
    [
        ("latin1", GONE.replace("—", "–"), LATIN1_STAYS, f"{LATIN1_STAYS}\n".encode("cp1252")),
        ("cr", GONE, STAYS, f"{STAYS}\r".encode()),
        ("utf16", GONE, STAYS, f"{STAYS}\n".encode("utf-16")),
    ],
)
async def test_delete_keeps_index_line_case_indexes_are_pruned_in_their_own_form(
    client: Client,
    agent: AgentHome,
    case_scopes: Path,
    variant: str,
    gone: str,
    stays: str,
    expected: bytes,
) -> None:
    _copy_scope(case_scopes / variant, agent.user)
    await _assert_pruned(client, agent, gone, stays, expected)


@pytest.mark.parametrize(
    ("end", "codec", "bom", "final"),
    [
        ("\n", "utf-16-be", codecs.BOM_UTF16_BE, True),
        ("\r", "utf-16-le", codecs.BOM_UTF16_LE, True),
        ("\r\n", "utf-8", codecs.BOM_UTF8, True),
        ("\r\n", "cp1252", b"", False),
        ("\r", "utf-8", b"", False),
        ("\n", "utf-32-le", codecs.BOM_UTF32_LE, True),
        ("\r\n", "utf-32-be", codecs.BOM_UTF32_BE, False),
        ("\r\n", "utf-16-le", b"", True),
        ("\n", "utf-16-be", b"", False),
    ],
    ids=["utf-16-be-bom", "utf-16-le-bom-cr-only", "utf-8-bom-crlf", "cp1252-crlf-no-final-end",
         "cr-only-no-final-end", "utf-32-le-bom", "utf-32-be-bom-crlf-no-final-end",
         "utf-16-le-without-bom-crlf", "utf-16-be-without-bom-no-final-end"],
)  # fmt: skip
async def test_delete_keeps_index_line_more_encodings_and_line_ends_are_pruned_exactly(
    client: Client, agent: AgentHome, end: str, codec: str, bom: bytes, final: bool
) -> None:
    def encoded(lines: list[str]) -> bytes:
        return bom + (end.join(lines) + (end if final else "")).encode(codec)

    for stem in ("cafe-notes", "other"):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    head = "# Memory index"
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(encoded([head, GONE, STAYS]))
    view = await _index_view(client)
    assert [line["text"] for line in view["lines"]] == [head, GONE, STAYS]  # read as written
    result = await ok_json(await client.delete(file_url("user", "cafe-notes.md")))
    assert result["removedIndexLines"] == [GONE]
    assert index.read_bytes() == encoded([head, STAYS])


@pytest.mark.parametrize(
    ("end", "codec", "bom"),
    [
        ("\n", "cp1252", b""),
        ("\r", "utf-8", b""),
        ("\r\n", "utf-16-le", codecs.BOM_UTF16_LE),
        ("\n", "utf-16-be", b""),
    ],
    ids=["cp1252", "cr-only", "utf-16-le-bom-crlf", "utf-16-be-without-bom"],
)
async def test_delete_keeps_index_line_its_undo_puts_the_line_back_in_the_same_form(
    client: Client, agent: AgentHome, end: str, codec: str, bom: bytes
) -> None:
    """V-2: restoring the deleted file (the undo) merges its line back into the index, at its
    place, as the index is written: its encoding, BOM and line ends, every other byte
    unchanged."""

    def encoded(lines: list[str]) -> bytes:
        return bom + end.join([*lines, ""]).encode(codec)

    for stem in ("cafe-notes", "other"):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(encoded([GONE, STAYS]))
    deleted = await ok_json(await client.delete(file_url("user", "cafe-notes.md")))
    assert index.read_bytes() == encoded([STAYS])

    url = f"{file_url('user', 'cafe-notes.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))

    assert restored["indexLinesAdded"] == [GONE]
    assert index.read_bytes() == encoded([GONE, STAYS])  # where it stood: the index as it was
    assert (agent.user / "cafe-notes.md").exists()


@pytest.mark.parametrize("codec", ["cp1252", "latin-1"])
async def test_delete_keeps_index_line_its_undo_writes_the_line_in_the_version_s_encoding(
    client: Client, agent: AgentHome, codec: str
) -> None:
    """V-2: the deleted line held the index's only non-ASCII characters (``Café``), so what
    the delete left is ASCII, which reads alike in every 8-bit encoding and in UTF-8: the undo
    writes the line back as the version had it, in Windows-1252 or Latin-1, never as UTF-8
    (an editor set to the index's encoding would show ``CafÃ©``)."""
    gone, stays = "- [Café notes](cafe-notes.md) - the café's wifi", "- [Other](other.md) - stays"
    for stem in ("cafe-notes", "other"):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(f"{gone}\r\n{stays}\r\n".encode(codec))
    deleted = await ok_json(await client.delete(file_url("user", "cafe-notes.md")))
    assert index.read_bytes() == f"{stays}\r\n".encode()  # ASCII: every encoding's bytes

    url = f"{file_url('user', 'cafe-notes.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))

    assert restored["indexLinesAdded"] == [gone]
    assert index.read_bytes() == f"{gone}\r\n{stays}\r\n".encode(codec)


@pytest.mark.parametrize("codec", ["cp1252", "latin-1"])
async def test_v2_restoring_the_index_itself_writes_its_lines_in_the_version_s_encoding(
    client: Client, agent: AgentHome, codec: str
) -> None:
    """V-2: the line removed by hand held the index's only non-ASCII characters, so what is
    left is ASCII: restoring ``MEMORY.md`` of before puts the line back as that version had
    it, in Windows-1252 or Latin-1, never as UTF-8 (``CafÃ©`` in an editor set to it)."""
    gone, stays = "- [Café notes](cafe-notes.md) - the café's wifi", "- [Other](other.md) - stays"
    for stem in ("cafe-notes", "other"):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(f"{gone}\r\n{stays}\r\n".encode(codec))
    first = (await checkpoint(client))["version"]
    index.write_bytes(f"{stays}\r\n".encode())
    await checkpoint(client)

    url = f"{file_url('user', layout.INDEX_FILE)}/restore"
    restored = await ok_json(await client.post(url, json={"version": first}))

    assert restored["indexLinesAdded"] == [gone]
    assert index.read_bytes() == f"{gone}\r\n{stays}\r\n".encode(codec)


async def test_delete_keeps_index_line_a_utf8_index_with_one_line_of_latin1_is_read_line_by_line(
    client: Client, agent: AgentHome
) -> None:
    """T-2, A-6: a UTF-8 index with one line pasted from a Latin-1 file (a stray ``\\xe9``) was
    read as cp1252 as a whole: every other line reached the model and the page as mojibake
    (``CafÃ©``, ``â€”`` linted as hidden control characters), the link to ``café.md`` read
    as ``cafÃ©.md`` (a dangling link, the file unindexed), and its delete answered 200 with
    the line left behind. Each line is read in its own encoding; the delete prunes the line,
    every other byte kept, and the undo puts it back."""
    for stem in ("café", "other"):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    gone, stays = "- [Café](café.md) — the café's wifi", "- [Other](other.md) — stays"
    old_note = "- [Thé](other.md) - from an old note"
    pasted = old_note.encode("latin-1")
    index = agent.user / layout.INDEX_FILE
    raw = f"{gone}\n{stays}\n".encode() + pasted + b"\n"
    index.write_bytes(raw)

    view = await _index_view(client)
    assert [line["text"] for line in view["lines"]] == [
        gone,
        stays,
        old_note,
    ]
    found = {finding["code"] for finding in view["findings"]}
    assert not found & {"dangling-link", "unindexed", "hidden-text"}, view["findings"]
    url = f"{memory_url()}/session-start"
    started = await ok_json(await client.post(url, json={"workspace": str(agent.tmp)}))
    assert f"{gone}\n{stays}\n- [Thé](other.md)" in started["memory"]

    deleted = await ok_json(await client.delete(file_url("user", "café.md")))
    assert deleted["removedIndexLines"] == [gone]
    assert index.read_bytes() == raw.removeprefix(f"{gone}\n".encode())
    url = f"{file_url('user', 'café.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["indexLinesAdded"] == [gone]
    assert index.read_bytes() == raw


async def test_delete_keeps_index_line_latin1_bytes_cp1252_cannot_map_are_kept(
    client: Client, agent: AgentHome
) -> None:
    """0x81 is no cp1252 character: such an index is read as cp1252 byte by byte (0x81 as
    U+0081) and pruned alike, every byte kept."""
    for stem in ("cafe-notes", "other"):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    odd = b"- [Odd \x81 name](other.md)\n"
    (agent.user / layout.INDEX_FILE).write_bytes(b"- [Caf\xe9](cafe-notes.md)\n" + odd)
    result = await ok_json(await client.delete(file_url("user", "cafe-notes.md")))
    assert result["removedIndexLines"] == ["- [Café](cafe-notes.md)"]
    assert (agent.user / layout.INDEX_FILE).read_bytes() == odd


async def test_delete_keeps_index_line_a_cp1252_index_with_an_undefined_byte_reads_its_letters(
    client: Client, agent: AgentHome
) -> None:
    """T-2, I-9, A-6: a Windows-1252 index whose line holds a byte cp1252 does not define
    (``\\x81``) was read as Latin-1 on that line: its ``Š š`` became C1 controls, the link to
    ``šárka.md`` dangled, the model saw its dash as hidden text, and a delete left the line.
    Each byte cp1252 defines is its letter; only the undefined byte is hidden text."""
    for stem in ("šárka", "žena"):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    odd, fine = (
        b"- [\x8a\xe1rka](\x9a\xe1rka.md) \x96 Czech \x81\n",
        b"- [\x8eena](\x9eena.md) \x96 fine\n",
    )
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(b"# Memory\n" + odd + fine)
    view = await _index_view(client)
    gone = "- [Šárka](šárka.md) \u2013 Czech \x81"
    assert [line["text"] for line in view["lines"]][1:] == [gone, "- [Žena](žena.md) \u2013 fine"]
    found = [(finding["code"], finding.get("line")) for finding in view["findings"]]
    assert not {code for code, _ in found} & {"dangling-link", "unindexed"}, found
    url = f"{memory_url()}/session-start"
    started = await ok_json(await client.post(url, json={"workspace": str(agent.tmp)}))
    assert "[Šárka](šárka.md) \u2013 Czech [hidden: U+0081]" in started["memory"]
    assert started["memory"].count("[hidden:") == 1  # the undefined byte alone
    (agent.user / "žena.md").write_bytes(  # a topic file alike: searched as read
        b"---\nname: \x8eena\ndescription: \x93quoted\x94 \x96 \x8a\xe1rka \x81\n---\nbody\n"
    )
    [hit] = (await ok_json(await client.get(f"{memory_url()}/search?q=quoted")))["hits"]
    assert hit["description"] == "\u201cquoted\u201d \u2013 Šárka [hidden: U+0081]"

    deleted = await ok_json(await client.delete(file_url("user", "šárka.md")))
    assert deleted["removedIndexLines"] == [gone]
    assert index.read_bytes() == b"# Memory\n" + fine
    url = f"{file_url('user', 'šárka.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["indexLinesAdded"] == [gone]
    assert index.read_bytes() == b"# Memory\n" + odd + fine


# --- refused: nothing deleted, the line stays, the detail says why ------------------------


@pytest.fixture
def cafe(agent: AgentHome, case_scopes: Path) -> bytes:
    """The case's UTF-8 (CR) scope in the user scope; returns its index bytes."""
    return _copy_scope(case_scopes / "cr", agent.user)


async def _assert_refused(
    client: Client, agent: AgentHome, before: bytes, status: int, detail: str
) -> dict[str, Any]:
    response = await client.delete(file_url("user", "cafe-notes.md"))
    body = await expect_problem(response, status, "'cafe-notes.md' was not deleted")
    assert detail in body["detail"], body["detail"]
    assert str(agent.data_dir) not in body["detail"]
    assert (agent.user / "cafe-notes.md").exists()
    index = agent.user / layout.INDEX_FILE
    assert index.is_symlink() or index.read_bytes() == before
    assert [path.name for path in agent.user.glob(".*")] == []
    return body


async def test_delete_keeps_index_line_a_utf16_index_that_does_not_decode_exactly_is_409(
    client: Client, agent: AgentHome, cafe: bytes
) -> None:
    broken = codecs.BOM_UTF16_LE + f"{GONE}\n{STAYS}\n".encode("utf-16-le") + b"\x00"
    (agent.user / layout.INDEX_FILE).write_bytes(broken)
    await _assert_refused(client, agent, broken, 409, "UTF-16 text with an odd byte")


async def test_delete_keeps_index_line_a_utf32_index_that_does_not_decode_exactly_is_409(
    client: Client, agent: AgentHome, cafe: bytes
) -> None:
    broken = codecs.BOM_UTF32_LE + f"{GONE}\n{STAYS}\n".encode("utf-32-le") + b"\x00"
    (agent.user / layout.INDEX_FILE).write_bytes(broken)
    await _assert_refused(client, agent, broken, 409, "UTF-32 text with a cut code unit")


async def test_delete_keeps_index_line_a_utf32_index_without_a_bom_that_does_not_decode_is_409(
    client: Client, agent: AgentHome, cafe: bytes
) -> None:
    """UTF-32 without its mark, told by its first 4 KiB, with a lone surrogate after them: the
    refusal names UTF-32 (it named "UTF-16 … an odd byte or a lone surrogate")."""
    text = f"{GONE}\n{STAYS}\n" + "a note of the index\n" * 60
    broken = text.encode("utf-32-le") + b"\x00\xd8\x00\x00" + b"\n\x00\x00\x00"
    (agent.user / layout.INDEX_FILE).write_bytes(broken)
    await _assert_refused(client, agent, broken, 409, "UTF-32 text with a cut code unit")


async def test_delete_keeps_index_line_an_index_over_the_pruning_cap_is_409(
    client: Client, agent: AgentHome, cafe: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pruning, "PRUNE_READ_CAP", len(cafe) - 1)
    await _assert_refused(client, agent, cafe, 409, "never rewrites from a partial read")
    monkeypatch.setattr(pruning, "PRUNE_READ_CAP", len(cafe))
    assert (await ok_json(await client.delete(file_url("user", "cafe-notes.md"))))[
        "removedIndexLines"
    ] == [GONE]


async def test_delete_keeps_index_line_an_index_that_cannot_be_read_is_503(
    client: Client, agent: AgentHome, cafe: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """EACCES at the read (root reads past permission bits, so it is injected where it would
    be met); a symlink loop below is the kernel's own refusal."""
    original = read_when_idle

    def refusing(path: Path, *args: Any, **kwargs: Any) -> Any:
        if path.name == layout.INDEX_FILE:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return original(path, *args, **kwargs)

    monkeypatch.setattr(file_edit, "read_when_idle", refusing)
    await _assert_refused(client, agent, cafe, 503, "could not be read or replaced (Permission")


async def test_delete_keeps_index_line_an_index_that_is_a_symlink_loop_is_503(
    client: Client, agent: AgentHome, cafe: bytes
) -> None:
    index = agent.user / layout.INDEX_FILE
    index.unlink()
    index.symlink_to(layout.INDEX_FILE)
    await _assert_refused(client, agent, cafe, 503, "could not be read or replaced")


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EIO])
async def test_delete_keeps_index_line_a_disk_that_refuses_the_new_index_is_503(
    client: Client, agent: AgentHome, cafe: bytes, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    """The refusal injected where the new index is written (the write boundary)."""

    def refusing(*args: object, **kwargs: object) -> Path:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(file_edit, "write_temp_beside", refusing)
    await _assert_refused(client, agent, cafe, 503, os.strerror(code))


@pytest.fixture
def read_only_scope(agent: AgentHome, cafe: bytes) -> Iterator[Path]:
    """The user scope (the case's CR scope in it) on a file system mounted read-only."""
    with read_only(agent.user) as scope:
        yield scope


async def test_delete_keeps_index_line_on_a_read_only_file_system_says_so_for_real(
    client: Client, agent: AgentHome, cafe: bytes, read_only_scope: Path
) -> None:
    """The file system, not the file's mode, refuses the new index: the detail names the
    read-only file system (never "its mode does not let the service's account write it",
    which sent the operator to chmod a file whose mode was fine) and what to do about it."""
    body = await _assert_refused(client, agent, cafe, 503, "Read-only file system")
    assert "mode" not in body["detail"]
    assert "mounted read-only" in body["detail"]
    assert "mount the file system holding it read-write" in body["detail"]


# --- an index another account owns (an agent under its own uid, a shared volume) ---------

NOBODY = 65534


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another account needs root")
async def test_delete_keeps_index_line_a_pruned_index_keeps_its_owner_group_and_mode(
    client: Client, agent: AgentHome, cafe: bytes
) -> None:
    """The new index is renamed over the old one: without handing it back, a delete gave the
    agent's ``MEMORY.md`` to the service's account, and the agent could no longer write it."""
    index = agent.user / layout.INDEX_FILE
    os.chown(index, NOBODY, NOBODY)
    index.chmod(0o640)

    deleted = await ok_json(await client.delete(file_url("user", "cafe-notes.md")))

    assert deleted["removedIndexLines"] == [GONE]
    after = index.stat()
    assert (after.st_uid, after.st_gid, after.st_mode & 0o7777) == (NOBODY, NOBODY, 0o640)


@pytest.fixture
def refused(tmp_path: Path) -> Iterator[ServedProcess]:
    yield from refused_service(tmp_path, "giving a file to another account needs root")


@pytest.mark.parametrize(
    ("mode", "deleted"),
    [(0o644, False), (0o444, False), (0o666, True)],
    ids=["owner-writes-only", "read-only", "every-account-writes"],
)
def test_delete_keeps_index_line_an_index_the_service_may_not_write_is_refused_for_real(
    refused: ServedProcess, case_scopes: Path, mode: int, deleted: bool
) -> None:
    """The service without ``CAP_DAC_OVERRIDE`` (as another account would be), the index
    another account's: its folder lets a new index be renamed over it, but the file's own mode
    refuses the service a write, so the delete is refused (503) and nothing changes; an index
    every account may write is pruned, its owner and mode kept."""
    base = refused.base_url
    assert call(base, "POST", "/api/projects/acme/agents", {"id": "coder", "name": "C"})[0] == 201
    user = layout.scope_dir(refused.data_dir, "coder", "user")
    before = _copy_scope(case_scopes / "cr", user)
    index = user / layout.INDEX_FILE
    os.chown(index, NOBODY, NOBODY)
    index.chmod(mode)

    status, body = call(base, "DELETE", f"{AGENT}/memory/scopes/user/files/cafe-notes.md")

    after = index.stat()
    assert (after.st_uid, after.st_gid, after.st_mode & 0o7777) == (NOBODY, NOBODY, mode)
    if deleted:
        assert status == 200, body
        assert body["removedIndexLines"] == [GONE]
        assert not (user / "cafe-notes.md").exists()
        return
    assert status == 503, body
    assert "'cafe-notes.md' was not deleted" in body["detail"]
    assert "its mode does not let the service's account write it" in body["detail"]
    assert index.read_bytes() == before
    assert (user / "cafe-notes.md").exists()
    assert [path.name for path in user.glob(".*") if path.name != layout.MARKER_FILE] == []


# --- a full disk for real: a small tmpfs --------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 512 KiB tmpfs (root only; skipped where it cannot be mounted)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.decode().strip()}); ENOSPC is "
                    "injected by the test above")  # fmt: skip
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(disk: Path) -> Path:
    """Fill ``disk`` to its last byte (unbuffered writes until ENOSPC); return the filler."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for size in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)
    return filler


async def test_delete_keeps_index_line_on_a_full_disk_is_503_then_goes_through_once_freed(
    aiohttp_client: AiohttpClient, small_disk: Path, case_scopes: Path
) -> None:
    data_dir = small_disk / "data"
    data_dir.mkdir()
    # History off: with it on, the version recorded before the delete meets the full disk first
    # (503 too, nothing deleted); this test is about the index's own write.
    settings = Settings(data_dir=data_dir, history=False)
    client = await aiohttp_client(create_app(settings))
    response = await client.post("/api/projects/acme/agents", json={"id": "coder", "name": "C"})
    assert response.status == 201
    agent = AgentHome(data_dir=data_dir, project="acme", id="coder", tmp=small_disk)
    before = _copy_scope(case_scopes / "cr", agent.user)
    filler = _fill(small_disk)

    await _assert_refused(client, agent, before, 503, "No space left on device")

    filler.unlink()
    result = await ok_json(await client.delete(file_url("user", "cafe-notes.md")))
    assert result["removedIndexLines"] == [GONE]
    assert (agent.user / layout.INDEX_FILE).read_bytes() == f"{STAYS}\r".encode()
