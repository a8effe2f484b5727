"""The real ``memory-api`` service for browser tests, with a JSON client for checking the page.

:func:`seed` fills a fresh data dir with ``memory-api demo seed --corpus tests/data/corpus``
(project ``demo``, agent ``demo``: the user scope plus two Workspace scopes); :func:`start_service`
runs ``memory-api serve`` over it (see :mod:`tests.support.serve`). :class:`Service` also speaks
the JSON API directly (urllib), so tests can check what the page did.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from memory_api.demo import DEMO_AGENT, DEMO_WORKSPACES_DIR, SEED_MARKER
from memory_core import layout
from memory_core.keys import key_for_real_path, workspace_memory_key

from tests.support.serve import ServedProcess, ServedWrapper, serve
from tests.support.zygote import Zygote

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "data" / "corpus"


class ApiFailure(Exception):
    """A non-2xx answer from the API: ``status`` and the decoded problem body."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


@dataclass
class Service(ServedWrapper):
    """A running service (``served``) and the bearer token tests may use (None: open API)."""

    served: ServedProcess
    token: str | None = None

    def url(self, path: str) -> str:
        """Absolute URL of ``path`` (``/api/…`` or a hash route like ``/#/projects/demo``)."""
        return self.base_url + path

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[Any, dict[str, str]]:
        """Send a JSON request; return (decoded body or None, headers). Raises ApiFailure."""
        sent = dict(headers or {})
        if self.token:
            sent.setdefault("Authorization", f"Bearer {self.token}")
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        # Only http://127.0.0.1 URLs are built here (S310 guards against file: and the like).
        request = urllib.request.Request(  # noqa: S310
            self.url(path), data=data, method=method, headers=sent
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
                raw = response.read()
                answer_headers = dict(response.headers.items())
        except urllib.error.HTTPError as error:
            raw = error.read()
            raise ApiFailure(error.code, json.loads(raw) if raw else None) from None
        return (json.loads(raw) if raw else None), answer_headers

    def get(self, path: str) -> Any:
        """GET ``path`` and return the decoded body."""
        return self.call("GET", path)[0]

    def agent_path(self, project: str = "demo", agent: str = "demo") -> str:
        """``/api/projects/{project}/agents/{agent}``."""
        return f"/api/projects/{quote(project, safe='')}/agents/{quote(agent, safe='')}"

    def config(self) -> Any:
        """The demo agent's config (``GET …/config``)."""
        return self.get(self.agent_path() + "/config")

    def patch_config(self, body: Any) -> None:
        """Change the demo agent's config as another client would (``PATCH …/config``)."""
        self.call("PATCH", self.agent_path() + "/config", body)

    def overview(self) -> Any:
        """The demo agent's memory overview (``GET …/memory``)."""
        return self.get(self.agent_path() + "/memory")

    def scope(self, kind: str, title: str | None = None) -> Any:
        """The overview entry of the demo agent's scope of ``kind`` (and ``title`` for a
        Workspace). Raises LookupError when there is none."""
        scopes = self.overview()["scopes"]
        for scope in scopes:
            if scope["kind"] == kind and (title is None or scope["title"] == title):
                return scope
        raise LookupError(f"no {kind} scope {title!r} in {scopes}")

    def scope_key(self, kind: str, title: str | None = None) -> str:
        """The key of the demo agent's scope of ``kind`` (and ``title`` for a Workspace)."""
        return str(self.scope(kind, title)["key"])

    def scope_dir(self, key: str) -> Path:
        """The directory of the demo agent's scope ``key`` in the service's data dir."""
        return layout.scope_dir(self.data_dir, "demo", key)

    def add_workspace_scope(self, workspace: str) -> Path:
        """Create the demo agent's scope of the Workspace at the real path ``workspace``, with
        its marker (K-5), as a Session would; return the scope directory."""
        scope = self.scope_dir(workspace_memory_key(workspace))
        scope.mkdir(parents=True)
        (scope / layout.MARKER_FILE).write_text(workspace + "\n", encoding="utf-8")
        return scope


def write_topic(
    scope: Path, file: str, *, name: str, description: str, updated_at: str, body: str
) -> None:
    """Write the topic file ``scope/file`` with frontmatter, as an agent saving a memory would."""
    (scope / file).write_text(
        f"---\nname: {name}\ndescription: {description}\nupdated_at: {updated_at}\n---\n{body}",
        encoding="utf-8",
    )


def seed(data_dir: Path, env: dict[str, str]) -> None:
    """Run ``memory-api demo seed --corpus tests/data/corpus`` into ``data_dir`` (forked from
    this test process's :class:`~tests.support.zygote.Zygote`, its output in
    ``seed-<name>.log`` beside it); raises subprocess.CalledProcessError when it fails."""
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    Zygote.shared().run(
        ["demo", "seed", "--corpus", str(CORPUS)],
        {**env, "MEMORY_API_DATA_DIR": str(data_dir)},
        data_dir.parent / f"seed-{data_dir.name}.log",
        timeout=60,
    )


def relocate_seed(data_dir: Path, seeded_at: Path) -> None:
    """Make ``data_dir``, a copy of the data dir a seed left at ``seeded_at``, what a seed at
    ``data_dir`` leaves (nothing to do when they are one path). Only the demo Workspaces'
    scopes depend on where the data dir is: each is keyed by the real path of
    ``<data dir>/demo-workspaces/<name>`` and its ``.workspace`` marker names that path (K-1,
    K-5), and the seed's ``demo-seed.json`` records the keys. Each scope is renamed to its new
    key, its marker names the new path and the record the new keys; every file and folder
    touched keeps the copy's mode and times. Raises OSError, or KeyError on a record that
    names no Workspaces (not a seed's)."""
    if data_dir == seeded_at:
        return
    root = layout.memory_root(data_dir, DEMO_AGENT)
    record = layout.agent_dir(data_dir, DEMO_AGENT) / SEED_MARKER
    touched = [root, record]
    times = {path: path.stat() for path in touched}
    text = record.read_text(encoding="utf-8")
    for name, old_key in json.loads(text)["workspaces"].items():
        new_real = os.path.realpath(data_dir / DEMO_WORKSPACES_DIR / name)
        new_key = key_for_real_path(new_real)
        marker = root / new_key / layout.MARKER_FILE
        (root / old_key).rename(root / new_key)
        times[marker] = marker.stat()
        touched.append(marker)
        marker.write_text(new_real + "\n", encoding="utf-8")
        text = text.replace(json.dumps(old_key), json.dumps(new_key))
    record.write_text(text, encoding="utf-8")
    for path in touched:
        os.utime(path, ns=(times[path].st_atime_ns, times[path].st_mtime_ns))


def start_service(
    data_dir: Path, extra_env: dict[str, str] | None = None, token: str | None = None
) -> Service:
    """Start ``memory-api serve`` over ``data_dir`` with this process's environment plus
    ``extra_env`` (log level WARNING unless given); wait for /readyz. It is forked from this
    test process's :class:`~tests.support.zygote.Zygote`: the same ``main(["serve"])``, without
    a second or more of imports per service started.

    Raises RuntimeError (with the service's log) when it exits or never becomes ready.
    """
    env = {**os.environ, "MEMORY_API_LOG_LEVEL": "WARNING", **(extra_env or {})}
    return Service(serve(data_dir, env, zygote=Zygote.shared()), token)
