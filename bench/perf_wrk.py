"""Drive the service with ``wrk`` (a C load generator) for a fixed time at concurrency C.

On a 2-core machine the load generator shares the cores with the service: the Python driver
(:mod:`bench.perf_load`, aiohttp) spends about as much CPU per request as a ``/healthz`` costs
the service, so at concurrency 64 it measured itself as much as the service. ``wrk`` spends a
fraction of that (its CPU per request is reported with each case, see :class:`WrkFigures`).

The request (method, JSON body, headers) is set by a Lua script written for the case; its
``done()`` hook prints one JSON line with the counts and the latency percentiles (wrk measures
each request from its write to the last byte of the answer, in microseconds). Any answer that
is not 2xx/3xx, and any socket error or timeout, aborts the case like the Python driver does.

Install ``wrk`` with ``apt-get install wrk`` (Debian, Ubuntu); ``make bench`` does so when it
runs as root with apt, and falls back to the Python driver when ``wrk`` is missing.
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench.perf_load import Figures, Request

__all__ = ["WRK_TIMEOUT_S", "WrkFigures", "drive_wrk", "lua_script", "wrk_path"]

WRK_TIMEOUT_S = 30
"""wrk's per-request timeout (its default, 2 s, would count a slow cold answer as an error)."""

_DONE_HOOK = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\\n{"requests": %d, "duration_us": %d, "bytes": %d, "p50_us": %d, "p99_us": %d, '
    .. '"max_us": %d, "connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}\\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
"""


@dataclass(slots=True)
class WrkFigures:
    """One wrk run: its :class:`Figures` and wrk's own CPU time per request (µs)."""

    figures: Figures
    driver_cpu_us: float


def wrk_path() -> str | None:
    """The ``wrk`` executable on ``PATH``, or None."""
    return shutil.which("wrk")


def _lua_string(text: str) -> str:
    """``text`` as a Lua long string that no content can close (``[==[ … ]==]``)."""
    level = 0
    while f"]{'=' * level}]" in text:
        level += 1
    fence = "=" * level
    return f"[{fence}[{text}]{fence}]"


def lua_script(request: Request) -> str:
    """The wrk script sending ``request``: method, JSON body and its Content-Type, and the
    ``done()`` hook printing the figures as one JSON line."""
    lines = [f"wrk.method = {_lua_string(request.method)}"]
    if request.body is not None:
        lines.append(f"wrk.body = {_lua_string(json.dumps(request.body))}")
        lines.append('wrk.headers["Content-Type"] = "application/json"')
    return "\n".join(lines) + "\n" + _DONE_HOOK


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def drive_wrk(base: str, request: Request, seconds: float, concurrency: int) -> WrkFigures:
    """Send ``request`` for ``seconds`` over ``concurrency`` keep-alive connections (one wrk
    thread: its CPU is what the cores the service needs lose).

    Raises FileNotFoundError when ``wrk`` is not installed and RuntimeError when wrk fails or
    reports any error (a non-2xx/3xx answer, a socket error, a timeout).
    """
    wrk = wrk_path()
    if wrk is None:
        raise FileNotFoundError("wrk is not installed (apt-get install wrk)")
    with tempfile.TemporaryDirectory(prefix="bench-wrk-") as scratch:
        script = Path(scratch) / "case.lua"
        script.write_text(lua_script(request), encoding="utf-8")
        command = [
            wrk,
            "--threads",
            "1",
            "--connections",
            str(concurrency),
            "--duration",
            f"{max(1, round(seconds))}s",
            "--timeout",
            f"{WRK_TIMEOUT_S}s",
            "--script",
            str(script),
            base + request.path,
        ]
        cpu_before = _children_cpu_s()
        done = subprocess.run(  # noqa: S603 - wrk from PATH with our own arguments
            command, capture_output=True, text=True, check=False
        )
        cpu_s = _children_cpu_s() - cpu_before
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    errors = {name: result[name] for name in ("connect", "read", "write", "status", "timeout")}
    if any(errors.values()):
        raise RuntimeError(f"{request.method} {request.path}: wrk saw errors {errors}")
    count = int(result["requests"])
    wall_s = result["duration_us"] / 1e6
    figures = Figures(
        requests=count,
        seconds=wall_s,
        throughput=count / wall_s if wall_s > 0 else 0.0,
        p50_ms=result["p50_us"] / 1000,
        p99_ms=result["p99_us"] / 1000,
    )
    return WrkFigures(figures, cpu_s * 1e6 / count if count else 0.0)
