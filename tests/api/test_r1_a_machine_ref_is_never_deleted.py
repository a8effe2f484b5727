"""R-1: a machine cannot delete its ref, and is told so (attack56).

``receive.denyDeletes`` holds only for ``refs/heads/*`` in git, so ``git push origin
:refs/machines/<id>`` was run by ``git receive-pack``: the service then put the ref back, but
answered git's ``ok``, so the machine printed ``[deleted]`` and exited 0, and the machines list
noted a push that sent nothing, the outcomes of the machine's last real push wiped.

The service reads the commands as git does (attackfix56): a pkt-line length in upper-case hex
(``008F``, which git's ``packet_length`` reads) and a push certificate (``push-cert``, whose body
git takes commands from though the service never advertises it) hid a deletion from it. And
whatever it missed, a push after which the machine's ref is gone is refused, never ``ok``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from memory_api.store.sync import service
from memory_api.store.sync.service import CERTIFICATE_REFUSED, DELETION_REFUSED
from memory_core import layout

from tests.api.conftest import AgentHome, Client, memory_url, ok_json
from tests.api.test_r1_git_sync import MACHINE, GitMachine, git_url, scope_holds, service_ref
from tests.api.test_r1_push_report import pkt
from tests.support.receive_pack import pushed

ZERO = "0" * 40


async def _machine_note(client: Client, machine_id: str) -> dict[str, Any]:
    listed = await ok_json(await client.get(f"{memory_url()}/machines"))
    (scope,) = [item for item in listed["scopes"] if item["scope"] == "user"]
    (note,) = [item for item in scope["machines"] if item["id"] == machine_id]
    return dict(note)


async def test_r1_a_push_deleting_the_machines_ref_is_refused_and_nothing_is_noted(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    laptop = GitMachine(tmp_path / "laptop", git_url(client), MACHINE, "laptop")
    scope_holds(agent.user, {"MEMORY.md": "- [OK](OK.md) the service's\n", "OK.md": "service\n"})
    await laptop.fetch()
    laptop.write("ok.md", "laptop\n")
    await laptop.push()
    pushed_at = service_ref(agent, laptop.ref)
    noted = await _machine_note(client, MACHINE)
    assert noted["outcomes"], "the case twin's push has an outcome to keep"

    deleted = await asyncio.to_thread(laptop.run, "push", "origin", f":{laptop.ref}", check=False)

    assert deleted.returncode != 0, deleted.stderr
    assert f"! [remote rejected] {laptop.ref} (deletion prohibited" in deleted.stderr
    assert service_ref(agent, laptop.ref) == pushed_at
    assert await _machine_note(client, MACHINE) == noted


async def _pushed_once(client: Client, agent: AgentHome, tmp_path: Path) -> GitMachine:
    laptop = GitMachine(tmp_path / "laptop", git_url(client), MACHINE, "laptop")
    scope_holds(agent.user, {"MEMORY.md": "- [OK](OK.md) the service's\n", "OK.md": "service\n"})
    await laptop.fetch()
    laptop.write("ok.md", "laptop\n")
    await laptop.push()
    return laptop


def _ref_file(agent: AgentHome, ref: str) -> tuple[int, int]:
    """The service's file of the machine's ``ref`` (a loose ref) as (inode, mtime in ns):
    git deleting it and the service putting it back after git ran change both."""
    found = (layout.history_root(agent.data_dir, agent.id) / "user.git" / ref).stat()
    return found.st_ino, found.st_mtime_ns


def _upper_case_pkt(data: bytes) -> bytes:
    length = f"{len(data) + 4:04X}"
    assert length != length.lower(), "a length git reads, written with a digit A to F"
    return length.encode() + data


def _certified(command: str) -> bytes:
    """A push whose ``command`` comes in a push certificate (git's ``read_head_info`` joins
    its packets into one text, so the command may be cut across two)."""
    cut = len(command) // 2
    lines = [
        "certificate version 0.1\n",
        "pusher laptop 1700000000 +0000\n",
        "nonce 1700000000-0123456789abcdef\n",
        "\n",
        command[:cut],
        command[cut:] + "\n",
        "push-cert-end\n",
    ]
    return pkt(b"push-cert\0report-status") + b"".join(pkt(line.encode()) for line in lines)


@pytest.mark.parametrize(
    ("framing", "reason"),
    [("upper-case length", DELETION_REFUSED), ("push certificate", CERTIFICATE_REFUSED)],
)
async def test_r1_a_deletion_hidden_from_a_simple_reader_is_refused(
    client: Client, agent: AgentHome, tmp_path: Path, framing: str, reason: str
) -> None:
    laptop = await _pushed_once(client, agent, tmp_path)
    pushed_at = service_ref(agent, laptop.ref)
    ref_file = _ref_file(agent, laptop.ref)
    noted = await _machine_note(client, MACHINE)
    command = f"{pushed_at} {ZERO} {laptop.ref}"
    if framing == "upper-case length":
        body = _upper_case_pkt(f"{command}\0report-status agent=git/2.39.5".encode()) + b"0000"
    else:
        body = _certified(command) + b"0000"

    report = await pushed(client, body)

    assert b"unpack ok" in report and b"ok " + laptop.ref.encode() not in report, report
    assert pkt(f"ng {laptop.ref} {reason}\n".encode()) in report, report
    assert _ref_file(agent, laptop.ref) == ref_file, "refused before git ran"
    assert service_ref(agent, laptop.ref) == pushed_at
    assert await _machine_note(client, MACHINE) == noted


async def test_r1_a_push_leaving_no_machine_ref_is_refused_whatever_the_service_missed(
    client: Client, agent: AgentHome, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    laptop = await _pushed_once(client, agent, tmp_path)
    pushed_at = service_ref(agent, laptop.ref)
    noted = await _machine_note(client, MACHINE)
    monkeypatch.setattr(service, "deleted_refs", lambda request: [])  # a reader that missed it

    deleted = await asyncio.to_thread(laptop.run, "push", "origin", f":{laptop.ref}", check=False)

    assert deleted.returncode != 0, deleted.stderr
    assert f"! [remote rejected] {laptop.ref} (deletion prohibited" in deleted.stderr
    assert service_ref(agent, laptop.ref) == pushed_at
    assert await _machine_note(client, MACHINE) == noted
