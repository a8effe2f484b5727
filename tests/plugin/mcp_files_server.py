"""A minimal MCP server over stdio (JSON-RPC 2.0, one message per line) with one tool,
``write_file(path, content)``, that writes wherever it is told: the kind of MCP tool the P-3
guard must see in Claude Code (``mcp__files__write_file``). Run as a script by the CLI."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

TOOL = {
    "name": "write_file",
    "description": "Write text to a file.",
    "inputSchema": {
        "type": "object",
        "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
        "required": ["path", "content"],
    },
}


def answer(request: dict[str, Any]) -> dict[str, Any] | None:
    method, ident = request.get("method"), request.get("id")
    if ident is None:  # a notification
        return None
    if method == "initialize":
        result: Any = {
            "protocolVersion": request["params"].get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "files", "version": "1.0.0"},
        }
    elif method == "tools/list":
        result = {"tools": [TOOL]}
    elif method == "tools/call":
        arguments = request["params"]["arguments"]
        Path(arguments["path"]).write_text(arguments["content"], encoding="utf-8")
        result = {"content": [{"type": "text", "text": f"wrote {arguments['path']}"}]}
    else:
        return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "no"}}
    return {"jsonrpc": "2.0", "id": ident, "result": result}


def main() -> None:
    for line in sys.stdin:
        if line.strip():
            reply = answer(json.loads(line))
            if reply is not None:
                sys.stdout.write(json.dumps(reply) + "\n")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
