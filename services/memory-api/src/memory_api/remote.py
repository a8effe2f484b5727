"""The command line's client of a running service: its JSON API over HTTP (A-1, Q-1).

A command that changes data goes through the service that answers, so what it does is what the
service (and its web page) shows. Plain ``urllib`` and the wire DTOs: a CLI command starts
without importing aiohttp, and ``urllib.request`` (with ``http.client``, ``email`` and ``ssl``,
about a third of the command line's import) is imported by the first call only: ``--help`` and
a command working in a named data dir never make one. Answers are read as
:class:`~memory_core.wire.Answer` types, which ignore fields they do not know (a service newer
than this command line, A-11). Every call either returns the decoded answer or raises
:class:`RemoteError` with the service's problem ``detail`` (RFC 9457) or why none came.
"""

from __future__ import annotations

import functools
import urllib.error
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote, urlsplit

import msgspec
from memory_core import json_text
from memory_core.addresses import bind_host, shown_url, url_secret, usual_host
from memory_core.wire import (
    AgentConfig,
    AgentCreate,
    AgentList,
    AgentSummary,
    Answer,
    ProjectList,
)

if TYPE_CHECKING:
    import urllib.request

__all__ = ["ANSWER_WAIT_S", "Remote", "RemoteError", "default_url"]

ANSWER_WAIT_S = 5.0
"""Seconds a request may take before the service counts as not answering."""

_A = TypeVar("_A", bound=Answer)


class RemoteError(Exception):
    """A request the service refused (``status`` and its ``detail``) or that got no answer
    (``status`` 0)."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def default_url(host: str, port: int) -> str:
    """The service's address for a client on this machine (a wildcard bind → loopback), written
    as a browser writes it, so that the ``Host`` it sends passes the service's Host rule (A-10a):
    an address in its usual form (``127.1`` → ``127.0.0.1``, ``0:0::1`` → ``[::1]``), a name as
    given. ``127.1`` was sent as ``Host: 127.1:PORT``, which the service refuses (400), so the
    CLI took the service for absent and worked in the default data dir.

    >>> default_url("0.0.0.0", 8765), default_url("127.1", 8765)
    ('http://127.0.0.1:8765', 'http://127.0.0.1:8765')
    >>> default_url("::1", 9000), default_url("[0:0::1]", 9000)
    ('http://[::1]:9000', 'http://[::1]:9000')
    """
    shown = usual_host(bind_host(host))
    if shown in ("0.0.0.0", "", "::"):  # noqa: S104 - asked, not bound
        shown = "127.0.0.1"
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


@dataclass(frozen=True, slots=True)
class Remote:
    """The service at ``url`` (``http(s)://host:port``, no trailing slash), called with the
    bearer ``token`` when one is given (A-10). Raises ValueError for a URL that is no
    http(s) URL or holds a secret (:func:`memory_core.addresses.url_secret`: a user name or
    password, a query or fragment, a key in its path), which the message shows masked."""

    url: str
    token: str | None = None

    def __post_init__(self) -> None:
        masked = shown_url(self.url)
        if (secret := url_secret(self.url)) is not None:  # the plugin's rule
            raise ValueError(
                f"a service URL must not hold {secret}: the service takes a bearer token, "
                f"given with --token or MEMORY_API_TOKEN; got {masked!r}"
            )
        try:
            parts = urlsplit(self.url)
            host, _ = parts.hostname, parts.port
        except ValueError as error:  # http://[::1 said only "Invalid IPv6 URL"
            raise ValueError(f"not an http(s) URL: {masked!r} ({error})") from None
        if parts.scheme not in ("http", "https") or not host:
            raise ValueError(f"not an http(s) URL: {masked!r}")
        if (usual := usual_host(host)) != host:  # --url http://127.1:8765: sent as a browser would
            shown = f"[{usual}]" if ":" in usual else usual
            port = f":{parts.port}" if parts.port is not None else ""
            object.__setattr__(self, "url", parts._replace(netloc=shown + port).geturl())

    @property
    def shown(self) -> str:
        """The URL as a message shows it: an id in its path (a UUID, plain hex) as ``***``
        (:func:`memory_core.addresses.shown_url`)."""
        return shown_url(self.url)

    def answers(self) -> bool:
        """Whether a memory-api service answers here (``/healthz`` says ``ok``). Raises
        :class:`RemoteError` for a redirect, which names where it leads (never followed)."""
        try:
            body = self._call("GET", "/healthz", None, auth=False)
        except RemoteError as error:
            if 300 <= error.status < 400:
                raise
            return False
        return isinstance(body, dict) and body.get("status") == "ok"

    def create_agent(self, project: str, body: AgentCreate) -> AgentConfig:
        """``POST /api/projects/{project}/agents``: the new agent's config. Raises RemoteError."""
        answer = self._call("POST", f"/api/projects/{_segment(project)}/agents", body)
        return self._read(answer, AgentConfig)

    def agents(self, project: str | None) -> list[AgentSummary]:
        """The agents of ``project`` (None: of every project the token reaches), sorted by
        project, then id. Raises RemoteError."""
        return self.agents_with_unreadable(project)[0]

    def agents_with_unreadable(
        self, project: str | None
    ) -> tuple[list[AgentSummary], list[tuple[str, str]]]:
        """:meth:`agents`, and ``(id, why)`` of every agent the service names ``unreadable``
        (Q-2b: settings it cannot read, so its project is unknown; shown to a token reaching
        every project), each once, by id. Raises RemoteError."""
        unreadable: dict[str, str] = {}
        if project is None:
            listed = self._read(self._call("GET", "/api/projects", None), ProjectList)
            projects = listed.projects
            unreadable.update((entry.id, entry.problem) for entry in listed.unreadable)
        else:
            projects = [project]
        agents: list[AgentSummary] = []
        for name in projects:
            answer = self._read(
                self._call("GET", f"/api/projects/{_segment(name)}/agents", None), AgentList
            )
            agents.extend(answer.agents)
            unreadable.update((entry.id, entry.problem) for entry in answer.unreadable)
        return agents, sorted(unreadable.items())

    def _read(self, answer: Any, kind: type[_A]) -> _A:
        """``answer`` (decoded JSON) as ``kind``; fields it does not know are ignored. Raises
        RemoteError (status 0) for an answer of another shape."""
        try:
            return msgspec.convert(answer, kind)
        except msgspec.ValidationError as error:
            raise RemoteError(0, f"{self.shown} answered no {kind.__name__}: {error}") from None

    def _call(self, method: str, path: str, body: Any, *, auth: bool = True) -> Any:
        import urllib.request  # on the first call: see the module doc

        data = None if body is None else msgspec.json.encode(body)
        request = urllib.request.Request(  # noqa: S310 - the scheme is checked in __post_init__
            self.url + path, data=data, method=method
        )
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if auth and self.token:  # never sent on, should a redirect ever be followed
            request.add_unredirected_header("Authorization", f"Bearer {self.token}")
        try:
            with _opener().open(request, timeout=ANSWER_WAIT_S) as answer:
                raw = answer.read()
        except urllib.error.HTTPError as error:
            if 300 <= error.code < 400:
                raise RemoteError(error.code, self._redirected(error)) from None
            raise RemoteError(error.code, _detail(error)) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise RemoteError(0, f"no answer from {self.shown}: {reason}") from None
        try:
            return json_text.loads(raw) if raw else None
        except ValueError:
            raise RemoteError(0, f"{self.shown} answered something other than JSON") from None

    def _redirected(self, error: urllib.error.HTTPError) -> str:
        where = urlsplit(error.headers.get("Location") or "")
        shown = f" to {where.scheme}://{where.hostname}" if where.hostname else ""
        return (
            f"{self.shown} answered a redirect ({error.code}){shown}, which is not followed (the "
            "bearer token is never sent on to another address): give the service's own "
            "address with --url or MEMORY_API_URL"
        )


@functools.cache
def _opener() -> urllib.request.OpenerDirector:
    """An opener that follows no redirect: ``urllib`` sends every header added with
    ``add_header``, the ``Authorization`` one included, on to whatever address a ``Location``
    names (another host, plain ``http``), so a proxy's redirect to a sign-in page took the
    bearer token there and its answer was read as the service's (``memory-api agent list``:
    "no agents"). A 3xx is an :class:`urllib.error.HTTPError` instead."""
    import urllib.request

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        """Returns no request for a redirect: the 3xx is raised."""

        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    return urllib.request.build_opener(NoRedirect)


def _segment(value: str) -> str:
    return quote(value, safe="")


def _detail(error: urllib.error.HTTPError) -> str:
    """The problem's ``detail``, or the status line when the body is not a problem."""
    try:
        body = json_text.loads(error.read() or b"null")
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("detail"), str):
        return str(body["detail"])
    return f"HTTP {error.code} {error.reason}"
