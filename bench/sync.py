"""Machines synced over git (R-1): what a sync costs a hook, at 3,000 files.

Run: ``python -m bench.sync [--files N] [--runs N]``. The real application serves on a loopback
port in a thread of this process; a machine's local copy (:class:`harness_memory.remote.
RemoteCopy`, the real ``git`` over smart HTTP) of a user scope of ``--files`` topic files is
made once, then timed, p50 of ``--runs``:

- **no change**: a Session start's sync of the scope when neither side changed (commit check,
  fetch, nothing to move): the budget, ≤ 100 ms added to the hook;
- **one file sent**: the agent changed one file; the post-write hook's send-only sync commits
  and pushes it, the service merges and records it: ≤ 200 ms;
- **one file at a Session start** (information): a full sync that finds one changed file
  sends it as above, then fetches the service's version of it;
- **send-only, nothing to send**: what a post-write hook would cost after a tool call that wrote
  no memory (information).
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from aiohttp import web
from harness_memory.remote import RemoteCopy
from memory_api.app import create_app
from memory_api.settings import Settings
from memory_core import layout

from bench.history import AGENT, PROJECT, _write_scope

__all__ = ["sync_bench"]

SYNC_NO_CHANGE_BUDGET_MS = 100.0
SYNC_ONE_FILE_BUDGET_MS = 200.0


@contextmanager
def _serving(data_dir: Path) -> Iterator[str]:
    """The application on a free loopback port in a thread; yields its base URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(create_app(Settings(data_dir=data_dir)), access_log=None)
    ready = threading.Event()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(runner.setup())
        loop.run_until_complete(web.TCPSite(runner, "127.0.0.1", port).start())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    ready.wait(60)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(60)


def _timed(action: object) -> float:
    began = time.perf_counter()
    action()  # type: ignore[operator]
    return (time.perf_counter() - began) * 1000


def sync_bench(files: int, runs: int) -> dict[str, float]:
    """Measure the cases of the module docstring; p50s in milliseconds."""
    with tempfile.TemporaryDirectory(prefix="bench-sync-") as folder:
        base = Path(folder)
        data_dir = base / "data"
        with _serving(data_dir) as url:
            _create_agent(url)
            _write_scope(layout.scope_dir(data_dir, AGENT, "user"), files)
            copy = RemoteCopy(
                url=url,
                token=None,
                project=PROJECT,
                agent=AGENT,
                state_dir=base / "machine",
                timeout=60,
            )
            first = _timed(lambda: _ok(copy.sync_scope("user")))
            time.sleep(2.1)  # past git's racy window: the index trusts the files' stat from now
            _ok(copy.sync_scope("user"))
            unchanged, sent, at_start, idle = [], [], [], []
            scope = copy.memory_root / "user"
            for number in range(runs):
                unchanged.append(_timed(lambda: _ok(copy.sync_scope("user"))))
                idle.append(_timed(lambda: _ok(copy.sync_scope("user", send_only=True))))
                _change(scope, number, "post-write")
                sent.append(_timed(lambda: _sent(copy.sync_scope("user", send_only=True))))
                _change(scope, number, "start")
                at_start.append(_timed(lambda: _sent(copy.sync_scope("user"))))
    return {
        "first_sync_ms": first,
        "no_change_p50_ms": statistics.median(unchanged),
        "one_file_sent_p50_ms": statistics.median(sent),
        "one_file_at_start_p50_ms": statistics.median(at_start),
        "send_only_idle_p50_ms": statistics.median(idle),
    }


def _change(scope: Path, number: int, when: str) -> None:
    note = scope / f"note-{number:05d}.md"
    note.write_text(f"changed on the machine {number} ({when})\n", encoding="utf-8")


def _create_agent(url: str) -> None:
    import json
    import urllib.request

    body = json.dumps({"id": AGENT, "name": "Historian"}).encode()
    request = urllib.request.Request(  # noqa: S310 - the loopback service just started
        f"{url}/api/projects/{PROJECT}/agents",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310
        assert response.status == 201


def _ok(result: object) -> None:
    if not getattr(result, "ok", False):
        raise RuntimeError(f"the sync failed: {getattr(result, 'error', result)}")


def _sent(result: object) -> None:
    _ok(result)
    if not getattr(result, "sent", False):
        raise RuntimeError("the changed file was not sent")


def main(argv: list[str] | None = None) -> int:
    """Print the figures of :func:`sync_bench`."""
    parser = argparse.ArgumentParser(prog="python -m bench.sync")
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)
    for name, value in sync_bench(args.files, args.runs).items():
        print(f"{name}: {value:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
