"""Keep a service process's resident memory flat while the files it reads grow (Q-3).

Python takes every object over 512 bytes from the C allocator, and a request reads an index
whole (bytes, decoded text, its hash input: a few hundred kilobytes each for an index of some
thousand lines). glibc serves such blocks from ``mmap`` at first, but the first time one is
freed it raises its mmap threshold to that block's size, so every later block of that size
comes from the worker threads' heaps (arenas) instead. Those heaps keep what they once held,
fragmented, and grow with the largest index seen times the threads reading it: in the soak
(``bench/soak.py``, an index growing from 300 to 4,000 lines) the process's RSS rose by 22 %
between the two halves of the run, and by 6 % once the threshold was fixed.

:func:`return_large_blocks_to_os` fixes the threshold (``mallopt(3)``), which also turns off that
adjustment: a large block is mapped for its request and unmapped when freed. Elsewhere (musl,
macOS) it does nothing.

The threshold sits just above the one large block every request takes: asyncio reads a socket
into a fresh 256 KiB ``bytes`` and shrinks it to what arrived. At glibc's default of 128 KiB that
buffer was an ``mmap``, an ``mremap`` and a ``munmap`` per read, and page faults — about 12 µs
of a ~95 µs ``/healthz`` (``docs/performance.md``). Above it, it is taken from the heap's top
and given back there; the trim threshold is raised with it so the heap is not shrunk and grown
again around each read.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os

__all__ = ["MMAP_THRESHOLD", "return_large_blocks_to_os"]

logger = logging.getLogger(__name__)

M_TRIM_THRESHOLD = -1
"""``mallopt`` parameter number of the trim threshold (``<malloc.h>``)."""
M_MMAP_THRESHOLD = -3
"""``mallopt`` parameter number of the mmap threshold (``<malloc.h>``)."""
SOCKET_READ = 256 * 1024
"""What asyncio's selector transports pass to ``recv`` (``max_size``): a ``bytes`` of this size
is allocated for every read."""
MMAP_THRESHOLD = SOCKET_READ + 32 * 1024
"""Blocks of at least this many bytes are mapped on their own and unmapped when freed."""
TRIM_THRESHOLD = 2 * MMAP_THRESHOLD
"""Free memory at the top of a heap is given back to the kernel only past this many bytes."""


def return_large_blocks_to_os() -> bool:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD` and its trim threshold at
    :data:`TRIM_THRESHOLD`; True when the mmap threshold was set.

    False where the C library is not glibc (no ``mallopt``) or refuses (logged at debug), and
    when the operator set the threshold already (``MALLOC_MMAP_THRESHOLD_``): theirs stands.
    """
    if "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        logger.debug("no mallopt in the C library (%s); allocator left as it is", name)
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    done = bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    if not done:
        logger.debug("mallopt(M_MMAP_THRESHOLD) refused; allocator left as it is")
        return False
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ and not mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD):
        logger.debug("mallopt(M_TRIM_THRESHOLD) refused; the heap is trimmed at 128 KiB")
    return True
