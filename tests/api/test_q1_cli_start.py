"""Q-1: a ``memory-api`` command other than ``serve`` starts without the web application (it
took 1.4–1.7 s when every command imported it), and one that neither searches nor indexes
without search's Unicode tables (scans of every code point, 0.1–0.4 s when computed at
import; the default-ignorable class, 20–65 ms); ``agent`` and ``token`` commands load no
memory, search, history, sync or lint code. Its time is ``make bench``'s (a budget of one
second, docs/performance.md); this checks what it loads, never how long it takes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.api.conftest import CORPUS

PROBE = """
import json, sys
from memory_api.cli import main
codes = [main(argv) for argv in json.loads(sys.argv[1])]
web = sorted(m for m in sys.modules if m.split(".")[0] == "aiohttp" or m == "memory_api.app")
text = sys.modules.get("memory_api.store.search_text")
tables = (text.sign_separators, text._spelled_as, text._compat, text._marks) if text else ()
ignorable = sys.modules.get("memory_core.ignorable")  # every code point matched: ~65 ms
tables += (ignorable._ranges,) if ignorable else ()
computed = [table.__name__ for table in tables if table.cache_info().currsize]
print(json.dumps({"codes": codes, "web": web, "tables": computed}))
"""
LOADED = """
import json, sys
from memory_api.cli import main
try:
    main(json.loads(sys.argv[1]))
except SystemExit:  # --help
    pass
print(json.dumps(sorted(sys.modules)))
"""
OTHER_STORES = tuple(f"memory_api.store.{name}" for name in ("memory", "search", "history", "sync"))


def test_q1_commands_but_serve_never_load_the_web_application(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    named = ["--data-dir", data]
    coder = ["--project", "acme", "--agent", "coder"]
    commands = [
        ["token", "create", *named, "--name", "ci"],  # makes the data dir (a new server's first)
        ["agent", "create", *named, "--project", "acme", "--id", "coder", "--name", "C"],
        ["agent", "list", *named],
        ["token", "list", *named],
        ["token", "revoke", *named, "--name", "ci", "--reopen"],
        ["demo", "seed", *named, "--corpus", str(CORPUS)],
        ["memory", "import", str(CORPUS / "user-scope"), *named, *coder, "--user", "--dry-run"],
        ["memory", "export", *named, *coder, "-o", str(tmp_path / "coder.tar.gz")],
        ["history", "prune", *named],
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_API_")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(commands)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = json.loads(done.stdout.splitlines()[-1])
    assert loaded["codes"] == [0] * len(commands), done.stderr
    assert loaded["web"] == []
    assert loaded["tables"] == []


def _loaded(argv: list[str]) -> list[str]:
    """The modules a fresh ``memory-api`` process has loaded once ``argv`` ran."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_API_")}
    done = subprocess.run(
        [sys.executable, "-c", LOADED, json.dumps(argv)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return list(json.loads(done.stdout.splitlines()[-1]))


def test_q1_agent_and_token_commands_load_no_other_store_nor_the_lint(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    named = ["--data-dir", str(tmp_path / "data")]
    commands = [
        ["agent", "create", *named, "--project", "acme", "--id", "coder", "--name", "C"],
        ["agent", "list", *named],
        ["token", "list", *named],
    ]
    for argv in commands:
        loaded = _loaded(argv)
        assert [name for name in loaded if name.startswith(OTHER_STORES)] == [], argv
        assert "memory_core.lint" not in loaded, argv


def test_q1_help_and_commands_in_a_named_data_dir_load_no_http_client(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    named = ["--data-dir", str(tmp_path / "data")]
    for argv in (["--help"], ["agent", "list", *named], ["token", "list", *named]):
        assert "http.client" not in _loaded(argv), argv
