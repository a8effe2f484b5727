"""Which load generator measures the throughput and percentile cases: ``wrk`` or Python.

``--driver auto`` (the default) uses ``wrk`` when it is installed (:mod:`bench.perf_wrk`),
else the aiohttp driver (:mod:`bench.perf_load`); ``--driver python`` forces the latter (the
suite's smoke test runs it, so it keeps working on a machine without wrk). Each measured case
also records the CPU the service's processes and the driver spent per request, the figures a
busy shared machine moves least.
"""

from __future__ import annotations

import resource
from dataclasses import dataclass
from typing import Literal

from bench.perf_load import Figures, Request, drive
from bench.perf_server import Server
from bench.perf_wrk import drive_wrk, wrk_path

__all__ = ["DRIVERS", "Driver", "Measured", "choose"]

DriverName = Literal["wrk", "python"]
DRIVERS = ("auto", "wrk", "python")


@dataclass(slots=True)
class Measured:
    """One case's figures, the driver that measured them and the CPU per request (µs) spent
    by the service (all its processes) and by the driver."""

    figures: Figures
    driver: DriverName
    service_cpu_us: float
    driver_cpu_us: float


def _self_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass(frozen=True, slots=True)
class Driver:
    """Runs a case with ``name``'s generator: ``count`` requests at most ``max_s`` seconds
    (Python), or for ``wrk_s`` seconds (wrk)."""

    name: DriverName
    wrk_s: float
    max_s: float

    def run(self, server: Server, request: Request, count: int, concurrency: int) -> Measured:
        """Measure ``request`` at ``concurrency``; raises RuntimeError on any error answer."""
        service_before = server.cpu_s()
        if self.name == "wrk":
            result = drive_wrk(server.base_url, request, self.wrk_s, concurrency)
            figures, driver_cpu_us = result.figures, result.driver_cpu_us
        else:
            own_before = _self_cpu_s()
            figures = drive(server.base_url, request, count, concurrency, self.max_s)
            own_s = _self_cpu_s() - own_before
            driver_cpu_us = own_s * 1e6 / figures.requests if figures.requests else 0.0
        service_s = server.cpu_s() - service_before
        service_cpu_us = service_s * 1e6 / figures.requests if figures.requests else 0.0
        return Measured(figures, self.name, service_cpu_us, driver_cpu_us)

    def warm_up(self, server: Server, request: Request, count: int, concurrency: int) -> None:
        """A short run whose figures are dropped (caches filled, connections opened)."""
        if self.name == "wrk":
            drive_wrk(server.base_url, request, 1, concurrency)
        else:
            drive(server.base_url, request, max(1, count // 20), concurrency, self.max_s)


def choose(wanted: str, wrk_s: float, max_s: float) -> Driver:
    """The driver for ``--driver wanted`` (``auto``, ``wrk``, ``python``).

    Raises SystemExit with how to install wrk when ``wrk`` is asked for and missing."""
    if wanted == "python" or (wanted == "auto" and wrk_path() is None):
        return Driver("python", wrk_s, max_s)
    if wrk_path() is None:
        raise SystemExit("--driver wrk: wrk is not installed (apt-get install wrk)")
    return Driver("wrk", wrk_s, max_s)
