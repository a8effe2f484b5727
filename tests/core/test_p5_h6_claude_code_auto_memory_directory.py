"""P-5, H-6: ``autoMemoryDirectory`` is taken as Claude Code takes it.

Claude Code 2.1.332 moves its auto memory to the folder the setting names only when the value is
an absolute path or ``~/…`` inside the home; any other value is ignored and the memory stays in
``<config dir>/projects/<folder>/memory/``. The import (which folder to read) and the install
(which folders hold notes) must agree with it, or they read a folder Claude Code never writes and
miss the one it does. The rule is checked against the CLI's own function (copied below, as
minified in the CLI) run by Node.js, with Node's ``path`` module for the CLI's path helpers.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from memory_core.claude_code_settings import auto_memory_directory

from tests.support.npm_cache import unavailable

HOME = "/home/ada"

# From @anthropic-ai/claude-code 2.1.332 (bin/claude.exe), line breaks added: Gg() calls
# Bu(dir, true). Its helpers are Node's path functions (qs: normalize, Vo: join, wI: isAbsolute,
# co: sep) and CI: the home directory; za (a Windows UNC check) never holds for a POSIX path and
# is left out.
CLAUDE_CODE_JS = """
const path = require("path");
const qs = path.normalize, Vo = path.join, wI = path.isAbsolute, co = path.sep;
const CI = () => process.argv[1];
function Bu(e,n){if(!e)return;let o=e;if(n&&(o.startsWith("~/")||o.startsWith("~\\\\"))){
let h=o.slice(2),y=qs(h||".");
if(y==="."||y===".."||y.startsWith(`..${co}`)||y.startsWith("../")||y.startsWith("..\\\\"))return;
o=Vo(CI(),h)}let g=qs(o).replace(/[/\\\\]+$/,"");if(XWs(g))return;return(g+co).normalize("NFC")}
function XWs(e){return!wI(e)||e.length<3||/^[A-Za-z]:$/.test(e)||e.includes("\\x00")}
const values = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(values.map((v) => Bu(v, true) ?? null)));
"""

VALUES = [
    "~/notes/memory",
    "~/notes/memory/",
    "/srv/memory//claude/./x/../y",
    "/srv/memory///",
    "notes/memory",
    "./notes",
    "~",
    "~/",
    "~/.",
    "~/..",
    "~/../bob/memory",
    "~/a/../../bob",
    "~/a/../b",
    "~bob/memory",
    " /srv/memory",
    "/a",
    "/ab",
    "/",
    "",
    "/srv/me\x00mory",
    "/srv/cafe\u0301",
]


def node() -> str:
    """The Node.js binary; the port check cannot run without it."""
    found = shutil.which("node")
    if found is None:
        unavailable("CLAUDE CODE SETTING CHECK", "node is not installed")
    return found


def test_p5_auto_memory_directory_matches_claude_codes_own_function() -> None:
    done = subprocess.run(
        [node(), "-e", CLAUDE_CODE_JS, HOME],
        input=json.dumps(VALUES),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    expected = [None if v is None else v.rstrip("/") for v in json.loads(done.stdout)]
    ours = [auto_memory_directory(value, Path(HOME)) for value in VALUES]
    assert [None if p is None else str(p) for p in ours] == expected
    assert None in expected and len({e for e in expected if e}) > 3  # both kinds exercised


@pytest.mark.parametrize(
    ("value", "folder"),
    [
        ("~/notes/memory", "/home/ada/notes/memory"),
        ("/srv/claude-memory/", "/srv/claude-memory"),
    ],
)
def test_p5_a_value_claude_code_takes_names_its_folder(value: str, folder: str) -> None:
    assert auto_memory_directory(value, Path(HOME)) == Path(folder)


@pytest.mark.parametrize(
    "value", ["notes/memory", "~", "~/", "~/../bob/memory", "~bob/memory", "", 7, None]
)
def test_p5_a_value_claude_code_ignores_names_no_folder(value: object) -> None:
    assert auto_memory_directory(value, Path(HOME)) is None
