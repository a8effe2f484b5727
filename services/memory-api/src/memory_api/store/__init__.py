"""The filesystem under the data dir; everything that touches the disk lives here.

Memory (this package's memory half):

- :mod:`~memory_api.store.containment` — resolve and re-check paths inside the memory root (A-7)
- atomic file replacement lives in :mod:`memory_core.atomic` (shared with the plugin, Q-2)
- :mod:`~memory_api.store.locks` — cross-process locks on ``<app_data_dir>/locks`` (Q-4)
- :mod:`~memory_api.store.scopes` — scopes, topic files, index and marker as found on disk
- :mod:`~memory_api.store.stat_cache` — the one cache helper: values valid for one file version
- :mod:`~memory_api.store.topic_cache` — topic parses and their lint, per file version
- :mod:`~memory_api.store.scope_files` — indexes (masked and linted once per version) and markers
- :mod:`~memory_api.store.answers` — overview, listing, file and index answers (A-3, A-5)
- :mod:`~memory_api.store.wiki_notes` — the sub-folders' notes an index's wiki links name (T-5b)
- :mod:`~memory_api.store.pruning` — delete a topic file and prune its index lines (A-6)
- :mod:`~memory_api.store.sessions` — Session start: prepare scopes, build the injection (A-9)
- :mod:`~memory_api.store.memory` — :class:`MemoryStore`, the async facade the routes call
- :mod:`~memory_api.store.history` — every change kept as a version on git, one repository per
  scope beside the memory tree (V-1 … V-3); :class:`~memory_api.store.history.service.HistoryStore`

Platform: agents (``agent.json``), tokens, drafts, exclusive file creation and counts.
"""
