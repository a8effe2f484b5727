"""Where the scale case's measurements run (:mod:`bench.scale`, :mod:`bench.scale_pages`).

``make bench-scale`` runs each action on a service started for it and stopped after it, so
every "first after a start" row is the first request of a freshly started process. A smoke run
that checks only that every row is reported (``python -m bench.scale --one-start``) runs every
action on one service started once: the same requests in the same order, but its "first after
a start" and peak RSS figures are then not what their names say (the report marks the run).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bench.perf_server import Server, start

__all__ = ["Starts"]


class Starts:
    """Runs actions on the service over ``data_dir`` (logs in ``logs``): each on a fresh start,
    or, with ``one_start``, all on one service started at the first action. Use as a context
    manager: leaving it stops the shared service."""

    def __init__(self, data_dir: Path, logs: Path, *, one_start: bool = False) -> None:
        self.data_dir, self.logs, self.one_start = data_dir, logs, one_start
        self._shared: Server | None = None

    def run(self, action: Callable[[Server], None]) -> float:
        """Run ``action`` on a started service; that service's peak RSS meanwhile (MiB: since
        its start, or with ``one_start`` since the action began)."""
        if not self.one_start:
            server = start(self.data_dir, self.logs)
            try:
                action(server)
                return server.peak_rss_mb()
            finally:
                server.stop()
        if self._shared is None:
            self._shared = start(self.data_dir, self.logs)
        self._shared.reset_peak()
        action(self._shared)
        return self._shared.peak_rss_mb()

    def __enter__(self) -> Starts:
        return self

    def __exit__(self, *_: object) -> None:
        if self._shared is not None:
            self._shared.stop()
            self._shared = None
