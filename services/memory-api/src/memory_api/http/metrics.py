"""Prometheus metrics of one application (A-11), exposed by ``GET /metrics``.

Each application owns a :class:`prometheus_client.CollectorRegistry`, so two apps in one process
(the tests) never share counters, and nothing global is touched. Requests are labelled by the
matched route's *template* (``/api/projects/{project}/agents``), never the raw path, so the
label set stays bounded whatever clients send. Several service processes are scraped one by
one, as Prometheus expects.
"""

from __future__ import annotations

import time

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import generate_latest

__all__ = ["CONTENT_TYPE_LATEST", "Metrics", "metrics_middleware", "route_template"]

UNMATCHED = "unmatched"


class Metrics:
    """The request counter, latency histogram and in-flight gauge of one application."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "memory_api_requests",
            "HTTP requests answered, by method, route template and status code.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "memory_api_request_duration_seconds",
            "Time from receiving a request to its response, by method and route template.",
            ["method", "route"],
            registry=self.registry,
        )
        self.in_flight = Gauge(
            "memory_api_requests_in_flight",
            "Requests being handled right now.",
            registry=self.registry,
        )

    def render(self) -> bytes:
        """Return the registry in the Prometheus text exposition format."""
        return generate_latest(self.registry)


def route_template(request: web.BaseRequest) -> str:
    """Return the matched route's template (``/static/{name}`` for files), or ``unmatched``.

    Used by the metrics and the access log alike. A request the HTTP parser refused (a bad
    header, a bad method) never reached the router: it has no match info at all, and asking for
    it fails an assertion inside aiohttp, which must not turn a log line into an error.
    """
    try:
        resource = request.match_info.route.resource  # type: ignore[attr-defined]
    except (AttributeError, AssertionError):
        return UNMATCHED
    return resource.canonical if resource is not None else UNMATCHED


def metrics_middleware(metrics: Metrics) -> Middleware:
    """Return a middleware that counts and times every request into ``metrics``."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        started = time.perf_counter()
        status = 500
        metrics.in_flight.inc()
        try:
            response = await handler(request)
            status = response.status
            return response
        except web.HTTPException as error:
            status = error.status
            raise
        finally:
            metrics.in_flight.dec()
            route = route_template(request)
            metrics.requests.labels(request.method, route, str(status)).inc()
            metrics.latency.labels(request.method, route).observe(time.perf_counter() - started)

    return middleware
