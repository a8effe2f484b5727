"""R-1, Q-2: a push cannot make the service's git spend memory it never sent (attack56).

A pack's delta object declares the size of the object it makes, and one byte of delta copies
64 KiB of its base: a 160-byte pack made git's ``unpack-objects`` allocate and fill a 512 MiB
blob (measured: 528 MB resident, 19 s), and a push may declare any size, up to all the memory
of the service's machine, once per scope at a time. git under ``receive-pack`` now runs with
its data segment capped (:func:`memory_api.store.sync.backend.push_data_cap`): such a pack is
refused as git refuses it (``unpacker error``) and nothing is taken; an everyday push is taken
as before (``tests/api/test_r1_git_sync.py``).
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from pathlib import Path

import pytest
from memory_api.settings import Settings
from memory_api.store.sync.backend import push_data_cap

from tests.api.conftest import AgentHome, Client, memory_url
from tests.api.test_r1_git_sync import MACHINE, scope_holds, service_ref

REF = f"refs/machines/{MACHINE}"
PUSH_LIMIT = 1024 * 1024
"""``MEMORY_API_SYNC_MAX_PUSH`` here: the smallest cap, so the bomb stays small."""
_COPY = 64 * 1024
"""Bytes one delta instruction ``0x80`` copies (offset 0, size 0 meaning 64 KiB)."""


def _varint(number: int) -> bytes:
    out = bytearray()
    while True:
        byte, number = number & 0x7F, number >> 7
        out.append(byte | (0x80 if number else 0))
        if not number:
            return bytes(out)


def _object_header(kind: int, size: int) -> bytes:
    out = bytearray()
    byte, size = (kind << 4) | (size & 0x0F), size >> 4
    while size:
        out.append(byte | 0x80)
        byte, size = size & 0x7F, size >> 7
    out.append(byte)
    return bytes(out)


def bomb_pack(size: int) -> tuple[bytes, str]:
    """A pack of a 64 KiB blob and a delta on it making a blob of ``size`` bytes (a multiple
    of 64 KiB), and that blob's id."""
    base = b"a" * _COPY
    delta = _varint(len(base)) + _varint(size) + b"\x80" * (size // _COPY)
    pack = bytearray(b"PACK" + struct.pack(">II", 2, 2))
    base_at = len(pack)
    pack += _object_header(3, len(base)) + zlib.compress(base)
    distance = len(pack) - base_at  # an ofs-delta's distance back to its base, under 128
    pack += _object_header(6, len(delta)) + bytes([distance]) + zlib.compress(delta, 9)
    pack += hashlib.sha1(pack, usedforsecurity=False).digest()
    blob = hashlib.sha1(f"blob {size}\0".encode(), usedforsecurity=False)
    for _ in range(size // _COPY):
        blob.update(base)
    return bytes(pack), blob.hexdigest()


@pytest.fixture
def settings(data_dir: Path) -> Settings:
    return Settings(data_dir=data_dir, sync_max_push=PUSH_LIMIT)


def pkt(data: bytes) -> bytes:
    return f"{len(data) + 4:04x}".encode() + data


async def test_r1_a_pack_declaring_a_blob_beyond_gits_memory_cap_is_refused(
    client: Client, agent: AgentHome
) -> None:
    scope_holds(agent.user, {"MEMORY.md": "- [Uv](uv.md) use uv\n"})
    before = service_ref(agent, REF)
    size = push_data_cap(PUSH_LIMIT) + 16 * _COPY  # 1 MiB past git's cap
    pack, blob = bomb_pack(size)
    command = f"{'0' * 40} {blob} {REF}\0report-status".encode()
    assert len(pack) < 16 * 1024, "a few kilobytes of push"

    answer = await client.post(
        f"{memory_url()}/git/user.git/git-receive-pack",
        data=pkt(command) + b"0000" + pack,
        headers={
            "Content-Type": "application/x-git-receive-pack-request",
            "X-Memory-Machine": MACHINE,
        },
    )

    assert answer.status == 200
    report = await answer.read()
    assert b"unpack ok" not in report, report
    assert b"ng " + REF.encode() + b" unpacker error" in report, report
    assert service_ref(agent, REF) == before
