"""Scope folders' listings by the folder's stat: what a scope holds without a look at each file.

A folder's entries are its content: creating, deleting or renaming an entry (a topic file, the
index, a temp file renamed over one) gives the folder a new mtime and ctime, so the listing of
one version of a folder is valid exactly while the folder's
:func:`~memory_api.store.stat_cache.file_key` is unchanged (the racy rule of
:mod:`~memory_api.store.stat_cache` included: a folder changed in the last 2 s is listed again).
A topic file edited in place leaves its folder alone, so whatever comes from a file's content or
stat is never taken from here: a listing gives names and their file types only.

This lets a listing (A-5) and a read of one topic file know the scope's file names without a
look at each file; the overview and the agents list count topic files from the counts kept on
disk by the same rule (:mod:`~memory_api.store.scope_records`).
"""

from __future__ import annotations

import os
from pathlib import Path

from memory_api.store.scopes import FolderListing, list_folder
from memory_api.store.stat_cache import StatCache, file_key

__all__ = ["FolderListings"]


def _weight(listing: FolderListing) -> int:
    return listing.weight


class FolderListings:
    """:class:`~memory_api.store.scopes.FolderListing` of scope folders by real path; thread-safe.

    ``max_entries`` bounds the number of folders kept, ``max_bytes`` the bytes their names take
    (estimated by :attr:`FolderListing.weight`): 100,000 topic files take about 10 MB.
    """

    def __init__(self, *, max_entries: int = 50_000, max_bytes: int = 24 * 1024 * 1024) -> None:
        self._cache: StatCache[str, FolderListing] = StatCache(
            max_entries=max_entries, max_weight=max_bytes, weigh=_weight
        )

    def listing(
        self, scope: Path | str, info: os.stat_result | None = None
    ) -> FolderListing | None:
        """The listing of the real scope folder ``scope``; None when it is gone.

        ``info`` is the folder's ``stat`` when the caller has just taken it (the overview does,
        for the scope's activity); else it is taken here. Raises nothing: a folder gone is None,
        one that cannot be listed (or whose ``stat`` fails for another reason than "not there":
        an I/O error, a stale mount) a listing whose ``error`` says why (Q-2b; logged by
        :func:`~memory_api.store.scopes.list_folder`), never kept.
        """
        path = os.fspath(scope)
        if info is None:
            try:
                info = os.stat(path)  # noqa: PTH116 - a string: the overview passes thousands
            except (FileNotFoundError, NotADirectoryError):
                return None
            except OSError:  # there, or cannot tell: the listing names why, never "gone" (Q-2b)
                return list_folder(scope, real=True)
        key = file_key(info)
        hit = self._cache.get(path, key)
        if hit is not None:
            return hit
        found = list_folder(scope, real=True)
        if found is not None and found.error is None:
            # Stored under the key seen before the listing: a change in between makes a miss.
            self._cache.put(path, key, found)
        return found
