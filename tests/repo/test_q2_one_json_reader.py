"""Q-2: the product reads JSON text through one reader, :func:`memory_core.json_text.loads`.

``json.loads`` raises ``RecursionError`` for a text nested some 1000 deep, which no
``except ValueError`` of a reader takes: each reader of a file a user or an agent may write
(``agent.json``, a sync state, a harness's settings, an import's source, a peer's answer)
crashed with a traceback or answered 500. The shared reader turns it into a ``ValueError``, so
this test holds that no module of the service, the plugin or the shared code calls
:mod:`json`'s readers itself (``json.load``, ``json.loads``, a ``JSONDecoder``'s ``decode``),
except the shared reader and :mod:`memory_core.json_members` (which guards its own reading).
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).parents[2]
TREES = ("shared/src", "services/memory-api/src", "plugins/harness-memory/src")
OWN_READERS = {"memory_core/json_text.py", "memory_core/json_members.py"}


def _json_reads(path: Path) -> list[str]:
    """``file:line`` of each call of ``json.load``/``json.loads``/``json.JSONDecoder`` in
    ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        call = node.func if isinstance(node, ast.Call) else None
        if (
            isinstance(call, ast.Attribute)
            and isinstance(call.value, ast.Name)
            and call.value.id == "json"
            and call.attr in {"load", "loads", "JSONDecoder", "raw_decode"}
        ):
            found.append(f"{path.relative_to(REPO)}:{call.lineno}")
    return found


def test_q2_no_module_reads_json_but_the_shared_reader() -> None:
    calls = [
        where
        for tree in TREES
        for path in sorted((REPO / tree).rglob("*.py"))
        if "/".join(path.parts[-2:]) not in OWN_READERS
        for where in _json_reads(path)
    ]

    assert calls == []


def test_q2_the_scan_sees_a_json_read() -> None:
    assert _json_reads(REPO / "shared/src/memory_core/json_text.py") != []
