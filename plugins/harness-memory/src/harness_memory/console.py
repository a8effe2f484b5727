"""The ``harness-memory`` console script (``pyproject.toml``): the process of every hook (H-5).

A hook process loads its modules, answers one event and exits, in about 100 ms: the cyclic
garbage collector's passes while the modules load (each over every object made so far) are
about 3 % of its work and free nothing the exit does not. :func:`run` turns the collector off
before :mod:`harness_memory.cli` is imported, and on again for every command but ``hook``
(``install``, ``sync`` and the others run as long as they must and collect as usual).
"""

from __future__ import annotations

import gc
import sys
from typing import NoReturn

__all__ = ["run"]


def run() -> NoReturn:
    """Run :func:`harness_memory.cli.run` on the process's arguments: for ``hook`` with the
    cyclic garbage collector off (the exit frees the memory), else as usual."""
    gc.disable()
    from harness_memory import cli

    if sys.argv[1:2] != ["hook"]:
        gc.enable()
    cli.run()
