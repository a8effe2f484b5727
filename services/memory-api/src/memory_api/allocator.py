"""Keep a service process's resident memory flat while the files it reads grow (Q-3).

Python takes every object over 512 bytes from the C allocator, and a request reads an index
whole (bytes, decoded text, its hash input: a few hundred kilobytes each for an index of some
thousand lines). glibc serves such blocks from ``mmap`` at first, but the first time one is
freed it raises its mmap threshold to that block's size, so every later block of that size
comes from the worker threads' heaps (arenas) instead. Those heaps keep what they once held,
fragmented, and grow with the largest index seen times the threads reading it: in the soak
(``bench/soak.py``, an index growing from 300 to 4,000 lines) the process's RSS rose by 22 %
between the two halves of the run, and by 6 % once the threshold was fixed.

:func:`return_large_blocks_to_os` fixes the threshold at glibc's own default (128 KiB), which
also turns off that adjustment (``mallopt(3)``): a large block is mapped for its request and
unmapped when freed. Elsewhere (musl, macOS) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os

__all__ = ["MMAP_THRESHOLD", "return_large_blocks_to_os"]

logger = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3
"""``mallopt`` parameter number of the mmap threshold (``<malloc.h>``)."""
MMAP_THRESHOLD = 128 * 1024
"""Blocks of at least this many bytes are mapped on their own and unmapped when freed."""


def return_large_blocks_to_os() -> bool:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD`; True when it was set.

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
    return done
