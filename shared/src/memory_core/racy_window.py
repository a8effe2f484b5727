"""How long after a change a file's ``stat`` may still miss the next change (Q-4, A-10a).

A value kept by a file's ``stat`` (its inode, size, mtime and ctime) is right only while a new
write changes one of them. A same-size rewrite in place within one tick of the filesystem's
clock does not: Linux stamps files from a coarse clock, a few milliseconds per tick (since
6.13 ext4, xfs, btrfs and tmpfs switch to a fine-grained stamp once a file's stamp has been
looked at), and some filesystems keep whole seconds (FAT keeps two). So, as git does with its
"racily clean" index entries, nothing read from a file whose ctime is younger than
:data:`RACY_WINDOW_NS` is kept: it is read again until it has been quiet that long. The
service's stat-keyed caches (:mod:`memory_api.store.stat_cache`) and the kept access control
lists (:mod:`memory_core.account_access`) both follow this one window.
"""

from __future__ import annotations

__all__ = ["RACY_WINDOW_NS"]

RACY_WINDOW_NS = 2_000_000_000
"""2 s in nanoseconds (compare with ``st_ctime_ns``): above any timestamp granularity a local
filesystem has, and short enough that a file quiet for it is cached at the next read."""
