"""H-5: every hook is a process of its own that needs only the plugin's own dependencies.

How long a hook process takes is measured by ``plugins/harness-memory/bench/hook_cost.py``
(``make bench-hooks``: each at most 100 ms wall), never timed here. These tests run each hook as
the installers write it (H-3), as a separate process in which the service's packages (aiohttp,
``memory_api``) and ``typing_extensions`` cannot be imported: the plugin declares none of them,
so no hook may need them. What a hook process costs is what it imports: the last tests name
the modules each kind of hook must not load (checked in the process, not timed).
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import json
import os
import pkgutil
import sys
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from harness_memory.fitting import utf16_units
from harness_memory.records import read_record

from tests.plugin.helpers import hook_fixture
from tests.plugin.scripted_service import ScriptedService

NOT_THE_PLUGINS = ("aiohttp", "memory_api", "typing_extensions")
"""Packages of the service (and of the test tools) that a plugin install does not bring."""

RUN_WITHOUT_THEM = (
    "import os, sys\n"
    f"for name in {NOT_THE_PLUGINS!r}:\n"
    "    sys.modules[name] = None  # import fails, as where they are not installed\n"
    "from harness_memory.cli import main\n"
    "try:\n"
    "    status = main(sys.argv[1:])\n"
    "finally:\n"
    "    if 'HOOK_MODULES' in os.environ:  # what the hook process loaded, one name a line\n"
    "        with open(os.environ['HOOK_MODULES'], 'w') as out:\n"
    "            out.write('\\n'.join(sorted(sys.modules)))\n"
    "sys.exit(status)\n"
)

SESSION_ID = "6ae0bd3a-31ab-479d-8199-c610bd3ebf18"  # as recorded in fixtures/session_start.json


async def run_hook(args: list[str], stdin: bytes, *, modules: Path | None = None) -> Any:
    """Run ``harness-memory ARGS`` without the service's packages; its JSON answer or None.
    With ``modules``, the names of the modules the process loaded are written there."""
    env = {**os.environ, "HOOK_MODULES": str(modules)} if modules is not None else None
    out = await run_python(RUN_WITHOUT_THEM, args, stdin, env=env)
    return json.loads(out) if out.strip() else None


async def run_python(
    code: str, args: list[str], stdin: bytes = b"", *, env: dict[str, str] | None = None
) -> bytes:
    """Run ``python -c CODE ARGS`` in a process of its own, which must succeed; its output."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        code,
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    out, err = await process.communicate(stdin)
    assert process.returncode == 0, err.decode()
    assert b"Traceback" not in err, err.decode()
    return out


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "src" / "my-app"
    path.mkdir(parents=True)
    return path


def settings_flags(service: ScriptedService, tmp_path: Path) -> list[str]:
    """The flags the installers write into a hook command (H-3)."""
    return [
        "--url",
        service.url,
        "--project",
        "acme",
        "--agent",
        "coder",
        "--memory-root",
        str(service.memory_root),
        "--timeout",
        "5",
        "--state-dir",
        str(tmp_path / "state"),
    ]


@pytest.mark.parametrize(
    ("harness", "parts"),
    # --parts 6 as installs before the four entries wrote it: such command lines keep working
    [("claude-code", ["--part", "1", "--parts", "6"]), ("codex", []), ("gemini", [])],
)
async def test_h5_a_session_start_hook_needs_only_the_plugins_packages(
    service: ScriptedService, workspace: Path, tmp_path: Path, harness: str, parts: list[str]
) -> None:
    flags = settings_flags(service, tmp_path)
    stdin = hook_fixture("session_start.json", workspace=str(workspace))
    answer = await run_hook(["hook", harness, "session-start", *flags, *parts], stdin)
    assert answer is not None
    assert "additionalContext" in answer["hookSpecificOutput"]
    assert "systemMessage" not in answer  # the service answered: the ordinary path
    record = read_record(tmp_path / "state", SESSION_ID)  # a full SessionMeta, read by msgspec
    assert record is not None and record.status == "injected"
    assert record.workspace == str(workspace)


async def test_h5_a_later_session_start_entry_needs_only_the_plugins_packages(
    service: ScriptedService, workspace: Path, tmp_path: Path
) -> None:
    flags = settings_flags(service, tmp_path)
    stdin = hook_fixture("session_start.json", workspace=str(workspace))
    args = ["hook", "claude-code", "session-start", *flags, "--part", "6", "--parts", "6"]
    answer = await run_hook(args, stdin)
    assert answer is None  # the prompt needs fewer pieces: entry 6 has nothing to add
    assert read_record(tmp_path / "state", SESSION_ID) is None  # entry 1 writes the record


def capped_answer(root: Path) -> bytes:
    """An A-9 answer with sections whose indexes are over the caps (I-4), so over one hook
    entry: the one ``plugins/harness-memory/bench/hook_cost.py`` measures the cut with."""
    answer: bytes = bench_module().canned_answer(root, 260, 240)
    return answer


def bench_module() -> Any:
    """``plugins/harness-memory/bench/hook_cost.py``, loaded as a module."""
    path = Path(__file__).resolve().parents[2] / "plugins/harness-memory/bench/hook_cost.py"
    spec = importlib.util.spec_from_file_location("hook_cost", path)
    assert spec is not None and spec.loader is not None
    hook_cost = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook_cost)
    return hook_cost


def test_h5_the_bench_runs_codex_guard_in_real_startup_file_homes(tmp_path: Path) -> None:
    """``make bench-hooks`` measures Codex's guard on ``bash -lc 'git status'`` (how Codex runs
    every command) in homes of the P-3 corpus built as its test builds them, the login
    shell's files and the scripts they source in place, and plain ``git status`` in one."""
    from tests.plugin.test_p3_guard_real_startup_files import INSTALLED

    hook_cost = bench_module()
    script = Path(sys.executable).parent / "harness-memory"

    cases = hook_cost._startup_homes(tmp_path, script)

    assert {setup: INSTALLED[setup] for setup in hook_cost.STARTUP_HOMES} == (
        hook_cost.STARTUP_HOMES
    )
    commands = [json.loads(stdin)["tool_input"]["command"] for _, stdin, _ in cases.values()]
    assert commands.count("bash -lc 'git status'") == len(hook_cost.STARTUP_HOMES)
    assert "git status" in commands
    for command, _, environment in cases.values():
        home = Path(environment["HOME"])
        assert command[command.index("codex") + 1] == "pre-tool-use"
        assert (home / ".bashrc").is_file() or (home / ".bash_profile").is_file()
        assert not {"BASH_ENV", "ENV", "PS1"} & set(environment)


def test_h5_the_bench_measures_only_the_rows_asked_with_the_baseline() -> None:
    """``hook_cost.py --only 'bash -lc'`` times the startup-file homes' rows alone (each run of
    the whole table is minutes on a loaded machine), beside the ``python -c pass`` baseline
    every ratio is to; a text naming no row stops it, listing the rows."""
    hook_cost = bench_module()
    cases = {
        "python -c pass": (["python"], b""),
        "codex pre-tool-use (deny)": (["hook"], b"{}"),
        "codex bash -lc 'git status' (oh-my-bash)": (["hook"], b"{}"),
        "codex git status (oh-my-bash)": (["hook"], b"{}"),
    }

    only = hook_cost._only(cases, ["bash -lc", "(deny)"])

    assert list(only) == [
        "python -c pass",
        "codex pre-tool-use (deny)",
        "codex bash -lc 'git status' (oh-my-bash)",
    ]
    assert hook_cost._only(cases, None) == cases
    with pytest.raises(SystemExit, match="no such hook; the rows are: codex pre-tool-use"):
        hook_cost._only(cases, ["zsh -lc"])


async def test_h5_a_session_start_entry_that_must_cut_needs_only_the_plugins_packages(
    aiohttp_server: Any, workspace: Path, tmp_path: Path
) -> None:
    """One SessionStart entry cannot carry both indexes at the caps: the hook leaves lines out
    and restates the I-4 note (H-1)."""
    body = capped_answer(tmp_path / "memory")

    async def handle(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(body=body, content_type="application/json")

    app = web.Application()
    app.router.add_post("/{tail:.*}", handle)
    server = await aiohttp_server(app)
    flags = ["--url", str(server.make_url("")).rstrip("/"), "--project", "acme", "--agent"]
    flags += ["coder", "--timeout", "5", "--state-dir", str(tmp_path / "state")]
    stdin = hook_fixture("session_start.json", workspace=str(workspace))
    args = ["hook", "claude-code", "session-start", *flags, "--part", "1", "--parts", "1"]
    answer = await run_hook(args, stdin)
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert utf16_units(context) <= 10_000
    assert "(Truncated: the " in context and "Claude Code's limit of 10,000" in context
    assert "memory was cut" in answer["systemMessage"]


@pytest.mark.parametrize(
    ("harness", "event", "fixture"),
    [
        ("claude-code", "pre-tool-use", "pre_tool_use_write.json"),
        ("codex", "pre-tool-use", "codex_pre_tool_use_apply_patch.json"),
        ("gemini", "before-tool", "gemini_before_tool_write_file.json"),
    ],
)
@pytest.mark.parametrize("with_record", [True, False], ids=["record", "memory-root"])
async def test_h5_a_write_guard_needs_only_the_plugins_packages(
    service: ScriptedService,
    workspace: Path,
    tmp_path: Path,
    harness: str,
    event: str,
    fixture: str,
    with_record: bool,
) -> None:
    flags = settings_flags(service, tmp_path)
    if with_record:
        start = hook_fixture("session_start.json", workspace=str(workspace))
        await run_hook(["hook", "claude-code", "session-start", *flags], start)
    target = service.memory_root / "other-1a2b3c4d" / "note.md"
    stdin = hook_fixture(fixture, workspace=str(workspace), target=str(target))
    if with_record:  # the recorded inputs carry their own harness's Session id
        stdin = stdin.replace(json.loads(stdin)["session_id"].encode(), SESSION_ID.encode())
    answer = await run_hook(["hook", harness, event, *flags], stdin)
    assert answer is not None and "deny" in json.dumps(answer)  # the guard ran and refused


NO_HOOK_LOADS = (
    "asyncio",  # only an async harness's event loop
    "dataclasses",  # and with it inspect, ast, dis: hook paths hold msgspec Structs
    "inspect",
    "frontmatter",  # topic files are the service's and the offline fallback's
    "yaml",
    "merge3",
    "charset_normalizer",  # only for an index that is not UTF-8
    "chardet",  # only for a short index in a CJK encoding its characters leave undecided
    "tomlkit",  # the installers' Codex config editing
    "harness_memory.installers",
    "harness_memory.offline",  # only when the service cannot be reached (H-4)
    "memory_core.injection",
    "memory_core.credentials",
    "memory_core.lint",  # the service's and the CLI's, with the Unicode confusables it reads
    "memory_core.confusables",
    "shlex",  # the installers quote their commands with it; a hook runs none
    "logging",  # and with it traceback, threading: a warning imports it when it is said
    "traceback",
    "threading",
)
"""Modules no hook process loads on its ordinary path (H-5: each one is milliseconds of a
process that runs before every file write or at every Session start)."""

NO_GUARD_LOADS = (
    "http.client",  # and with it email, ssl, socket: the guard never calls the service
    "email",
    "ssl",
    "socket",
    "tempfile",  # the guard writes nothing
    "memory_core.wire",  # it reads its own view of the Session record (guard_view)
    "harness_memory.records",
    "harness_memory.client",
    "harness_memory.session",
    "harness_memory.fitting",
    "harness_memory.hooks.session_start",
    "hashlib",  # and with it OpenSSL's libcrypto: the guard reads its Session's key from the
    "_hashlib",  # record, and derives one (sha256, K-1) only without a record
    "memory_core.placeholder_typos",  # the prompt and template rules' (I-1), never a guard's
    "memory_core.placeholder_sight",
    "memory_core.markdown",  # and the Markdown reader they and an .npmrc's lines took
)
"""What a write guard or a post-write hook (which leaves the request to a detached child) must
not load besides: their process answers from the files alone."""


NO_FILE_TOOL_LOADS = (
    "harness_memory.hooks.guarding",  # the judge of shell commands and MCP text arguments
    "harness_memory.hooks.tool_targets",  # and the shell reader it judges them with
    "harness_memory.hooks.shell_statements",
    "harness_memory.hooks.link_texts",
    "harness_memory.hooks.here_data",
    "harness_memory.hooks.named_scripts",
)
"""What a guard or post-write hook on a file tool's call (``Write``, ``apply_patch``,
``write_file``: paths alone, no text in which a word may be a path) must not load besides: the
shell reader's modules and the regular expressions they compile are about a third of a guard
process's work (H-5)."""

NO_START_LOADS = (
    "hashlib",  # the service derives the Workspace key; the hook sends the path (K-1)
    "_hashlib",
    "harness_memory.guard",  # the write guard (P-3) and what it reads tool calls with
    "harness_memory.mounts",
    "harness_memory.hooks.guarding",
    "harness_memory.hooks.tool_targets",
    "harness_memory.hooks.here_data",
    "harness_memory.hooks.unread_programs",
    "harness_memory.hooks.program_settings",
    "harness_memory.hooks.git_toplevel",
    "harness_memory.hooks.in_place",
)
"""What a Session-start hook must not load besides: its harness's module (or Claude Code's
shared hook input) holds the write guard's entries too, which import the guard only when they
run."""


def loaded(path: Path) -> set[str]:
    return set(path.read_text(encoding="utf-8").split())


@pytest.mark.parametrize(
    ("harness", "event", "fixture"),
    [
        ("claude-code", "pre-tool-use", "pre_tool_use_write.json"),
        ("codex", "pre-tool-use", "codex_pre_tool_use_apply_patch.json"),
        ("gemini", "before-tool", "gemini_before_tool_write_file.json"),
        ("claude-code", "post-tool-use", "post_tool_use_write.json"),
        ("codex", "post-tool-use", "codex_post_tool_use_apply_patch.json"),
        ("gemini", "after-tool", "gemini_after_tool_write_file.json"),
    ],
)
async def test_h5_a_file_tools_guard_or_post_write_hook_loads_no_http_client_nor_shell_reader(
    service: ScriptedService,
    workspace: Path,
    tmp_path: Path,
    harness: str,
    event: str,
    fixture: str,
) -> None:
    flags = settings_flags(service, tmp_path)
    start = hook_fixture("session_start.json", workspace=str(workspace))
    await run_hook(["hook", "claude-code", "session-start", *flags], start)  # the record
    target = service.memory_root / "user" / "note.md"  # a write the post-write hook records
    stdin = hook_fixture(fixture, workspace=str(workspace), target=str(target))
    stdin = stdin.replace(json.loads(stdin)["session_id"].encode(), SESSION_ID.encode())
    modules = tmp_path / "modules.txt"
    await run_hook(["hook", harness, event, *flags], stdin, modules=modules)
    names = loaded(modules)
    assert "harness_memory.guard" in names  # the hook ran its adapter
    assert sorted(names & {*NO_HOOK_LOADS, *NO_GUARD_LOADS, *NO_FILE_TOOL_LOADS}) == []


NO_SHELL_GUARD_LOADS = (
    "glob",  # only for a command with a pattern (``rm *.log``): compiles its own at import
)
"""What a guard on the shell tool's call of an everyday command (``git status && make test``)
must not load besides: ``shlex`` (in :data:`NO_HOOK_LOADS`) quotes only a word ``xargs``
runs or a Git top-level, ``glob`` reads only a pattern's files."""

EVERYDAY_COMMAND = "git status && make test"


@pytest.mark.parametrize(
    ("harness", "event", "fixture"),
    [
        ("claude-code", "pre-tool-use", "pre_tool_use_bash.json"),
        ("codex", "pre-tool-use", "codex_pre_tool_use_bash.json"),
        ("gemini", "before-tool", "gemini_before_tool_shell.json"),
    ],
)
async def test_h5_a_shell_guard_on_an_everyday_command_loads_no_quoting_nor_globbing(
    service: ScriptedService,
    workspace: Path,
    tmp_path: Path,
    harness: str,
    event: str,
    fixture: str,
) -> None:
    flags = settings_flags(service, tmp_path)
    start = hook_fixture("session_start.json", workspace=str(workspace))
    await run_hook(["hook", "claude-code", "session-start", *flags], start)  # the record
    call = json.loads(hook_fixture(fixture, workspace=str(workspace), target="unused"))
    call["session_id"], call["tool_input"]["command"] = SESSION_ID, EVERYDAY_COMMAND
    modules = tmp_path / "modules.txt"
    answer = await run_hook(
        ["hook", harness, event, *flags], json.dumps(call).encode(), modules=modules
    )
    assert "deny" not in json.dumps(answer)  # allowed
    names = loaded(modules)
    assert "harness_memory.hooks.tool_targets" in names  # the shell reader read it
    assert sorted(names & {*NO_HOOK_LOADS, *NO_GUARD_LOADS, *NO_SHELL_GUARD_LOADS}) == []


@pytest.mark.parametrize(
    ("harness", "parts"),
    [("claude-code", ["--part", "1", "--parts", "4"]), ("codex", []), ("gemini", [])],
)
async def test_h5_a_session_start_hook_loads_only_the_session_start(
    service: ScriptedService, workspace: Path, tmp_path: Path, harness: str, parts: list[str]
) -> None:
    flags = settings_flags(service, tmp_path)
    stdin = hook_fixture("session_start.json", workspace=str(workspace))
    modules = tmp_path / "modules.txt"
    args = ["hook", harness, "session-start", *flags, *parts]
    answer = await run_hook(args, stdin, modules=modules)
    assert "additionalContext" in answer["hookSpecificOutput"]
    names = loaded(modules)
    assert "http.client" in names  # it asked the service
    assert sorted(names & {*NO_HOOK_LOADS, *NO_START_LOADS}) == []


COMPILED_AT_IMPORT = (
    "import json, re, sys\n"
    "by = []\n"
    "compile = re.compile\n"
    "def counted(pattern, flags=0):\n"
    "    by.append(sys._getframe(1).f_globals.get('__name__'))\n"
    "    return compile(pattern, flags)\n"
    "re.compile = counted\n"
    "import importlib\n"
    "for name in sys.argv[1:]:\n"
    "    importlib.import_module(name)\n"
    "print(json.dumps(by))\n"
)
"""Import the modules named in argv with ``re.compile`` counted; print the module that called it
for each pattern compiled."""

SHARED_TEXT_RULES = ("memory_core.hidden_text", "memory_core.markdown")
"""What every Session-start hook imports to show a prompt's hidden characters (I-9) and to cut
an index at its lines (H-1): the hidden-text rule's 13 patterns and the Markdown reader's 21
were compiled at import, several milliseconds of each such process, most never used by it."""

HOOK_MODULES = tuple(
    f"harness_memory.hooks.{module.name}"
    for module in pkgutil.iter_modules(importlib.import_module("harness_memory.hooks").__path__)
)
"""Every module of the hooks, the shell guard's reader of a command (P-3) among them: about 150
patterns were compiled at import, 78 in ``tool_targets`` alone, a third of the process's work
for ``git status && make test``, which matches few of them (H-5); then 6 more in
``called_names`` and ``script_writers`` (a perl program's substitutions), 2 % of its work."""

START_RULES = (
    "memory_core.rules",  # the id and template rules every hook checks its flags with
    "memory_core.keys",
    "memory_core.addresses",  # a service address shown without its secret
    "memory_core.placeholder_typos",
    "memory_core.mount_fields",
    "harness_memory.settings",
    "harness_memory.guard_view",
)
"""What every hook process imports besides: their patterns are compiled where first matched."""


@pytest.mark.parametrize(
    "modules",
    [SHARED_TEXT_RULES, HOOK_MODULES, START_RULES],
    ids=["shared-text-rules", "hook-modules", "start-rules"],
)
async def test_h5_the_hooks_modules_compile_their_patterns_when_first_used(
    modules: tuple[str, ...],
) -> None:
    compiled_by = json.loads(await run_python(COMPILED_AT_IMPORT, list(modules)))
    assert sorted(set(compiled_by) & set(modules)) == []


COMPILED_FOR_AN_EVERYDAY_COMMAND = (
    "import json, sys\n"
    "from re import _compiler\n"
    "compiled = []\n"
    "compile = _compiler.compile\n"
    "def counted(pattern, flags=0):\n"
    "    compiled.append(pattern)\n"
    "    return compile(pattern, flags)\n"
    "_compiler.compile = counted\n"
    "from harness_memory.hooks.tool_targets import shell_paths\n"
    "shell_paths(sys.argv[1], sys.argv[2], {'PATH': '/usr/bin:/bin'})\n"
    "print(json.dumps(compiled))\n"
)
"""Read the command in argv[1] from the folder argv[2] with the shell guard's reader, with every
pattern ``re`` compiles counted (its cache misses); print them."""

LOOKED_FOR_ONLY_WHERE_THEY_MAY_MATCH = (
    "harness_memory.hooks.definitions:_LOOKUP_RE",
    "harness_memory.hooks.definitions:_AFTER_LONG_WORD",
    "harness_memory.hooks.definitions:_DECLARED",
    "harness_memory.hooks.definitions:_FUNCTION_RE",
    "harness_memory.hooks.definitions:_ALIAS_RE",
    "harness_memory.hooks.git_toplevel:_OPENING_RE",
    "harness_memory.hooks.tool_targets:_ZONE_SET_RE",
    "harness_memory.hooks.tool_targets:_CODE_FILE_RE",
    "harness_memory.hooks.tool_targets:_DESCRIPTOR_NAME_RE",
    "harness_memory.hooks.tool_targets:_VARIABLE_RE",
    "harness_memory.hooks.tool_targets:_UNBRACED_VARIABLE_RE",
    "harness_memory.hooks.tool_writes:_PATCH_TARGET_RE",
)
"""The shell reader's patterns no match of which an everyday command holds: the words each match
holds are looked for first (the lookup pattern alone took about a millisecond to compile, a
tenth of the shell guard's patterns' cost, H-5)."""


async def test_h5_the_shell_reader_compiles_no_pattern_an_everyday_command_cannot_match(
    tmp_path: Path,
) -> None:
    compiled = json.loads(
        await run_python(COMPILED_FOR_AN_EVERYDAY_COMMAND, [EVERYDAY_COMMAND, str(tmp_path)])
    )
    assert compiled  # the reader ran and its other patterns were compiled when first used
    patterns = {}
    for each in LOOKED_FOR_ONLY_WHERE_THEY_MAY_MATCH:
        module, _, name = each.partition(":")
        patterns[each] = getattr(importlib.import_module(module), name)
    assert sorted(each for each, pattern in patterns.items() if pattern in compiled) == []


COLLECTIONS_OF_THE_SCRIPT = (
    "import atexit, gc, importlib, sys, tomllib\n"
    "with open(sys.argv.pop(1), 'rb') as project:\n"
    "    entry = tomllib.load(project)['project']['scripts']['harness-memory']\n"
    "collected = []\n"
    "gc.callbacks.append(lambda phase, info: collected.append(phase))\n"
    "atexit.register(lambda: print(len(collected), gc.isenabled()))\n"
    "module, _, function = entry.partition(':')\n"
    "getattr(importlib.import_module(module), function)()\n"
)
"""Run the ``harness-memory`` console script's entry point (the plugin's ``pyproject.toml``) on
argv, as the script pip writes does; at the exit print how many cyclic garbage collections ran
and whether the collector is on."""


@pytest.mark.parametrize(
    ("args", "stdin", "said"),
    [
        (
            ["hook", "claude-code", "pre-tool-use", "--flags-only", "--memory-root"],
            hook_fixture("pre_tool_use_write.json", workspace="/w", target="/m/other/x.md"),
            b"0 False",
        ),
        (["token", "set", "--help"], b"", b"True"),
    ],
    ids=["hook", "other-command"],
)
async def test_h5_a_hook_process_runs_without_the_cyclic_garbage_collector(
    tmp_path: Path, args: list[str], stdin: bytes, said: bytes
) -> None:
    """A hook process frees its memory at its exit: the collections that ran while its modules
    loaded (about 3 % of its work) are left out; every other command collects as usual."""
    project = Path(__file__).parents[2] / "plugins" / "harness-memory" / "pyproject.toml"
    if args[0] == "hook":
        args = [*args, str(tmp_path / "m"), "--state-dir", str(tmp_path / "state")]
    out = await run_python(COLLECTIONS_OF_THE_SCRIPT, [str(project), *args], stdin)
    assert out.splitlines()[-1].endswith(said)
