"""Every change to memory kept as a version, on git: one repository per scope (V-1 … V-3).

- :mod:`~.git` — running ``git`` on a history repository, creating one, stale git locks
- :mod:`~.repo` — a repository's newest version, trees, new versions (``fast-import``), the log
- :mod:`~.snapshot` — what a version holds: a scope's memory files as found on disk
- :mod:`~.recorder` — :class:`~.recorder.ScopeHistories`: record what changed, around a change
- :mod:`~.reading` — a file's versions, the file at a version, diffs, changes, deleted files
- :mod:`~.deletions` — the index of which versions deleted which files (recently deleted)
- :mod:`~.clocks` — the bound on clocks running behind that lets changes ``since`` stop early
- :mod:`~.side_files` — the small JSON files those two keep in a history's git folder
- :mod:`~.diffs` — hunks and unified diff text of two versions of a file
- :mod:`~.restore` — bring a file and its index lines back from a version (V-2)
- :mod:`~.maintenance` — repacking, the operator's retention (V-3)
- :mod:`~.bundles` — a scope's history as a git bundle, for export and import (V-3)
- :mod:`~.service` — :class:`~.service.HistoryStore`, the async facade the routes call
"""
