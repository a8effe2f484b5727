"""A chain of nested folders deeper than Python recurses (T-5b): a walk of a scope's
sub-folders must not recurse per level. Built and removed one folder at a time, since
``os.makedirs`` and ``shutil.rmtree`` (which would clear pytest's temp folder) both recurse."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def folder_chain(where: Path, depth: int) -> Iterator[Path]:
    """``depth`` folders ``where/d/d/…`` nested one in another while the block runs (the
    deepest yielded), removed deepest first after it."""
    deepest = where
    for _ in range(depth):
        deepest /= "d"
        deepest.mkdir()
    try:
        yield deepest
    finally:
        for _ in range(depth):
            deepest.rmdir()
            deepest = deepest.parent
