"""R-1, Q-2: a push cannot make the service's git spend memory it never sent (attack56).

A pack's delta object declares the size of the object it makes, and one byte of delta copies
64 KiB of its base: a 160-byte pack made git's ``unpack-objects`` allocate and fill a 512 MiB
blob (measured: 528 MB resident, 19 s), and a push may declare any size, up to all the memory
of the service's machine, once per scope at a time. git under ``receive-pack`` now runs with
its data segment capped (:func:`memory_api.store.sync.backend.push_data_cap`): such a pack is
refused as git refuses it (``unpacker error``) and nothing is taken; an everyday push is taken
as before (``tests/api/test_r1_git_sync.py``).

A push of 100 objects or more is taken by ``git index-pack`` rather than ``unpack-objects``
(``receive.unpackLimit``): the same bomb is refused there too, and an everyday pack with deltas
is taken whatever the stack limit git inherits, since index-pack resolves deltas in one thread
(``pack.threads=1``; its default, one thread a CPU up to 20, each stack counted against the
cap, failed ``unable to create thread``) (attackfix56).
"""

from __future__ import annotations

import hashlib
import resource
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_api.settings import Settings
from memory_api.store.sync.backend import push_data_cap

from tests.api.conftest import AgentHome, Client, memory_url
from tests.api.test_r1_git_sync import MACHINE, scope_holds, service_ref
from tests.api.test_r1_push_report import pkt
from tests.support.receive_pack import pushed

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


def pack_of(entries: list[bytes]) -> bytes:
    """A pack (version 2) of ``entries``, each an object's header and data, with its trailer."""
    pack = b"PACK" + struct.pack(">II", 2, len(entries)) + b"".join(entries)
    return pack + hashlib.sha1(pack, usedforsecurity=False).digest()


def fillers(count: int) -> list[bytes]:
    """``count`` small blobs, each its own: enough of them make git take the pack with
    ``index-pack`` (``receive.unpackLimit``, 100 objects)."""
    return [_object_header(3, len(text)) + zlib.compress(text) for text in _filler_texts(count)]


def _filler_texts(count: int) -> Iterator[bytes]:
    return (f"filler {number}\n".encode() for number in range(count))


def delta_on_base(size: int) -> tuple[list[bytes], str]:
    """A 64 KiB blob and a delta on it making a blob of ``size`` bytes (a multiple of 64 KiB),
    as two pack entries, and that blob's id."""
    base = b"a" * _COPY
    delta = _varint(len(base)) + _varint(size) + b"\x80" * (size // _COPY)
    stored = _object_header(3, len(base)) + zlib.compress(base)
    distance = len(stored)  # an ofs-delta's distance back to its base, under 128
    made = _object_header(6, len(delta)) + bytes([distance]) + zlib.compress(delta, 9)
    blob = hashlib.sha1(f"blob {size}\0".encode(), usedforsecurity=False)
    for _ in range(size // _COPY):
        blob.update(base)
    return [stored, made], blob.hexdigest()


def costly_deltas(count: int) -> list[bytes]:
    """Pack entries of a 64 KiB blob and ``count`` deltas on it (by its id), each making its
    own blob of about 64 MiB: some 30 bytes of pack each, and for git 64 MiB to copy and hash
    in memory its data cap allows, once the whole pack is read."""
    base = b"a" * _COPY
    stored = _object_header(3, len(base)) + zlib.compress(base)
    base_id = hashlib.sha1(b"blob %d\0" % len(base) + base, usedforsecurity=False).digest()
    entries = [stored]
    for number in range(count):
        size = (1024 - number) * _COPY
        delta = _varint(len(base)) + _varint(size) + b"\x80" * (size // _COPY)
        entries.append(_object_header(7, len(delta)) + base_id + zlib.compress(delta, 9))
    return entries


def bomb_pack(size: int) -> tuple[bytes, str]:
    """A pack of a 64 KiB blob and a delta on it making a blob of ``size`` bytes (a multiple
    of 64 KiB), and that blob's id."""
    entries, blob = delta_on_base(size)
    return pack_of(entries), blob


@pytest.fixture
def settings(data_dir: Path) -> Settings:
    return Settings(data_dir=data_dir, sync_max_push=PUSH_LIMIT)


async def test_r1_a_pack_declaring_a_blob_beyond_gits_memory_cap_is_refused(
    client: Client, agent: AgentHome
) -> None:
    scope_holds(agent.user, {"MEMORY.md": "- [Uv](uv.md) use uv\n"})
    before = service_ref(agent, REF)
    size = push_data_cap(PUSH_LIMIT) + 16 * _COPY  # 1 MiB past git's cap
    pack, blob = bomb_pack(size)
    command = f"{'0' * 40} {blob} {REF}\0report-status".encode()
    assert len(pack) < 16 * 1024, "a few kilobytes of push"

    report = await pushed(client, pkt(command) + b"0000" + pack)

    assert b"unpack ok" not in report, report
    assert b"ng " + REF.encode() + b" unpacker error" in report, report
    assert service_ref(agent, REF) == before


async def test_r1_a_bomb_among_a_hundred_objects_is_refused_by_index_pack(
    client: Client, agent: AgentHome
) -> None:
    scope_holds(agent.user, {"MEMORY.md": "- [Uv](uv.md) use uv\n"})
    before = service_ref(agent, REF)
    size = push_data_cap(PUSH_LIMIT) + 16 * _COPY
    entries, blob = delta_on_base(size)
    command = f"{'0' * 40} {blob} {REF}\0report-status".encode()

    report = await pushed(client, pkt(command) + b"0000" + pack_of(fillers(100) + entries))

    assert b"unpack index-pack abnormal exit" in report, report
    assert b"ng " + REF.encode() in report, report
    assert service_ref(agent, REF) == before


@pytest.fixture
def large_stack_limit() -> Iterator[None]:
    """The service's git started under a 1 GiB stack limit (``ulimit -s``), which each thread
    git starts reserves as its stack, counted against the data cap (as a host's higher
    ``LimitSTACK`` or a container's ``ulimit -s`` does)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    wanted = 1024 * 1024 * 1024
    resource.setrlimit(
        resource.RLIMIT_STACK,
        (wanted if hard == resource.RLIM_INFINITY else min(hard, wanted), hard),
    )
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_STACK, (soft, hard))


@pytest.mark.usefixtures("large_stack_limit")
async def test_r1_a_everyday_pack_with_deltas_is_taken_whatever_the_stack_limit(
    client: Client, agent: AgentHome
) -> None:
    scope_holds(agent.user, {"MEMORY.md": "- [Uv](uv.md) use uv\n"})
    fetched = await client.get(  # the machine fetches: its ref names the version it holds
        f"{memory_url()}/git/user.git/info/refs",
        params={"service": "git-upload-pack"},
        headers={"X-Memory-Machine": MACHINE},
    )
    assert fetched.status == 200
    held = service_ref(agent, REF)
    assert held, "the machine's ref names a version"
    entries, _ = delta_on_base(2 * _COPY)  # 128 KiB made of a 64 KiB blob: an everyday delta
    command = f"{held} {held} {REF}\0report-status".encode()

    report = await pushed(client, pkt(command) + b"0000" + pack_of(fillers(100) + entries))

    assert b"unpack ok" in report, report
