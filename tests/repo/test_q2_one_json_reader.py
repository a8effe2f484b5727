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
from collections.abc import Callable
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


def _calls_outside(own: set[str], scan: Callable[[Path], list[str]]) -> list[str]:
    """What ``scan`` finds in each module of the product but the ``own`` readers."""
    return [
        where
        for tree in TREES
        for path in sorted((REPO / tree).rglob("*.py"))
        if "/".join(path.parts[-2:]) not in own
        for where in scan(path)
    ]


def test_q2_no_module_reads_json_but_the_shared_reader() -> None:
    assert _calls_outside(OWN_READERS, _json_reads) == []


def test_q2_the_scans_see_a_json_read_and_a_msgspec_decode() -> None:
    assert _json_reads(REPO / "shared/src/memory_core/json_text.py") != []
    assert _msgspec_decodes(REPO / "shared/src/memory_core/json_text.py") != []


def _msgspec_decodes(path: Path) -> list[str]:
    """``file:line`` of each msgspec decode in ``path`` that is not
    :func:`memory_core.json_text.decode`: ``msgspec.json.decode`` / ``msgspec.msgpack.decode``,
    or ``.decode(...)`` on a name bound to a msgspec ``Decoder`` (a module's decoder, or a
    parameter annotated as one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    decoders = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr == "Decoder"
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    decoders |= {
        node.arg
        for node in ast.walk(tree)
        if isinstance(node, ast.arg)
        and node.annotation is not None
        and "Decoder" in ast.unparse(node.annotation)
    }
    found = []
    for node in ast.walk(tree):
        call = node.func if isinstance(node, ast.Call) else None
        if not isinstance(call, ast.Attribute) or call.attr != "decode":
            continue
        spelt = ast.unparse(call.value)
        if spelt in {"msgspec.json", "msgspec.msgpack"} or spelt in decoders:
            found.append(f"{path.relative_to(REPO)}:{call.lineno}")
    return found


def test_q2_no_module_decodes_with_msgspec_but_the_shared_reader() -> None:
    # msgspec raises RecursionError (no DecodeError) for a text nested some 1000 deep, even in
    # a field it skips: a Session record of 200 000 "[" crashed the post-write hook
    assert _calls_outside({"memory_core/json_text.py"}, _msgspec_decodes) == []
