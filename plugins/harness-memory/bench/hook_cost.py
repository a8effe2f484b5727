"""H-5: what a hook process costs; the budget is 100 ms wall, what a user cannot feel.

Runs each hook command as the installers write it (H-3) ``--runs`` times (default 20),
interleaved with ``python -c pass`` so load on the machine hits all alike, and prints the median
wall time of each, then the same for CPU time (user + system of the child process), which a
busy machine distorts less than wall time; the ratio to ``python -c pass`` is information. The
hooks: Claude Code's SessionStart entries 1 and 4 of 4 (entry 1 also writes the Session
record), a single entry that must cut both indexes at the caps (H-1), its PreToolUse guard,
Codex CLI's SessionStart (reading its token file) and PreToolUse hooks, Gemini CLI's
SessionStart (likewise) and BeforeTool hooks, each harness's guard on its shell tool's call
(``git status && make test``: allowed, after the whole shell reader has read it; the call a
guard sees most), Codex CLI's guard in homes with real startup files (``tests/data/startup-files``:
oh-my-bash's, nvm's, root's bash-completion; :data:`STARTUP_HOMES`) on ``bash -lc 'git status'``
(how Codex runs every command: the guard reads the startup files that login shell runs and the
scripts they source) and on plain ``git status``, and each harness's post-write hook on a write into
the user scope (V-1: it decides, forks the process that records the version and exits; that
process is nobody's wait and its cost is in neither figure).
The SessionStart hooks talk to canned stand-ins of the service on loopback (one A-9 answer
each), so the figure is the hook process's own cost, not the service's.

    .venv/bin/python plugins/harness-memory/bench/hook_cost.py [--runs 20] [--json] [--hooks …]
        [--only TEXT …]

``--hooks wheels`` (the default, ``make bench-hooks``) measures the shape users run: the
checkout's ``shared`` and ``plugins/harness-memory`` built into wheels (``pip wheel``, as
``make wheels``) and installed with ``pip --no-index`` into a fresh virtual environment (bytecode
compiled at install, as pip and pipx do), whose ``harness-memory`` then runs every hook (the
build needs what ``make wheels`` needs: the index's ``hatchling``, or pip's cache of it).
``--hooks beside`` measures the ``harness-memory`` beside the Python that runs this script: the
development environment's with ``.venv/bin/python`` (editable installs; its test tools bring
``typing_extensions``, which msgspec then imports: about 33 M instructions, 10 %, more than an
install's hooks), or an existing install's with that install's Python (a pipx environment's
``bin/python``). The checkout's packages are byte-compiled first then, as an installed package
is: with ``PYTHONDONTWRITEBYTECODE`` set, an editable install would otherwise compile them on
every run.

``--only TEXT`` (repeatable) measures only the hooks whose row names hold one of the texts
(``--only 'bash -lc'``: the startup-file homes' rows), with the ``python -c pass`` baseline.
Exits 1 when a hook's median wall time is over ``--budget-ms`` (default 100).
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import msgspec
from harness_memory.hooks.claude_code import RECOMMENDED_PARTS
from harness_memory.installers.executable import isolated_interpreter
from harness_memory.installers.spec import ISOLATED
from memory_core.injection import cap_indexes, memory_sections
from memory_core.prompts import DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT
from memory_core.wire import SessionDirectories, SessionStartResponse

KEY = "shop-api-a81f32c4"
EVERYDAY_COMMAND = "git status && make test"
"""What the shell-tool guard rows judge: an everyday command, the call the guard sees most."""


STARTUP_FILES = Path(__file__).resolve().parents[3] / "tests" / "data" / "startup-files"
STARTUP_HOMES = {
    "oh-my-bash": {".oh-my-bash": "oh-my-bash"},
    "macos-nvm": {".nvm": "nvm"},
    "debian-root-bash-completion": {"usr/share/bash-completion": "bash-completion"},
}
"""The heaviest homes of ``tests/data/startup-files`` (its README says where each file comes
from), each with the folders of its ``installed/`` its installer puts in the home, as
``tests/plugin/test_p3_guard_real_startup_files.py`` builds them: a login shell of each
sources a script past 100 KiB (oh-my-bash's framework, nvm's ``nvm.sh``, bash-completion)."""
LOGIN_COMMAND = "bash -lc 'git status'"
"""How Codex CLI runs an everyday command: every shell call is ``bash -lc '<cmd>'``."""


def canned_answer(root: Path, user_lines: int = 60, workspace_lines: int = 40) -> bytes:
    """One A-9 answer: default prompts, a user index of ``user_lines`` lines and a Workspace
    index of ``workspace_lines`` (the defaults fit one Claude Code hook entry; 260 and 240 go
    over both injection caps, I-4, and then over one entry's 10,000 characters: a cut, H-1)."""
    user = "".join(
        f"- [Pref {n}](pref-{n}.md) — a standing preference {n}\n" for n in range(user_lines)
    )
    work = "".join(
        f"- [Decision {n}](dec-{n}.md) — a decision of this repo {n}\n"
        for n in range(workspace_lines)
    )
    capped = cap_indexes(user, work, workspace_key=KEY)
    sections = memory_sections(DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT, *capped)
    answer = SessionStartResponse(
        enabled=True,
        injected=True,
        memory="".join(section.text for section in sections),
        workspace_memory_key=KEY,
        key=KEY,
        workspace_kind="persistent",
        directories=SessionDirectories(
            app_data_dir=str(root),
            memory_root=str(root),
            user=str(root / "user"),
            workspace=str(root / KEY),
        ),
        manifests=[c.manifest for c in capped],
        template_has_memory=True,
        sections=sections,
    )
    return msgspec.json.encode(answer)


class CannedService:
    """A stand-in of the service on loopback that answers every request with one canned A-9
    answer, at as little cost as a server can: one thread, the request read up to its body, the
    prepared bytes sent, the connection closed. (``http.server`` parses headers with the
    ``email`` package and starts a thread per request; under load that wait would count in a
    Session-start hook's wall time though it is no part of the hook.)"""

    def __init__(self, body: bytes) -> None:
        head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}"
        self._answer = (head + "\r\nConnection: close\r\n\r\n").encode() + body
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:  # closed
                return
            with connection:
                request = b""
                while b"\r\n\r\n" not in request:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    request += chunk
                head, _, body = request.partition(b"\r\n\r\n")
                length = next(
                    (int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                     if line.lower().startswith(b"content-length:")),
                    0,
                )  # fmt: skip
                while len(body) < length:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    body += chunk
                connection.sendall(self._answer)

    def close(self) -> None:
        # shutdown() wakes the accept() blocked in the serving thread; close() alone would not.
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()


def timed(
    command: list[str], stdin: bytes, env: dict[str, str] | None = None
) -> tuple[float, float]:
    """Run ``command`` once (in ``env``, None: this process's environment): (wall seconds, CPU
    seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, check=False, env=env)  # noqa: S603
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{command} failed: {done.stderr.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def install_from_wheels(where: Path) -> Path:
    """Build the checkout's ``shared`` and ``plugins/harness-memory`` into wheels (with every
    dependency's wheel, as ``make wheels``), install ``agent-memory-harness`` from them into a
    fresh virtual environment under ``where`` with ``pip --no-index``; its ``harness-memory``."""
    checkout = Path(__file__).resolve().parents[3]
    dist, environment = where / "dist", where / "env"
    python = str(environment / "bin" / "python")
    packages = [str(checkout / "shared"), str(checkout / "plugins" / "harness-memory")]
    pip_install = [python, "-m", "pip", "install", "--quiet", "--no-index", "--find-links"]
    _quietly(sys.executable, "-m", "pip", "wheel", "--quiet", "--wheel-dir", str(dist), *packages)
    _quietly(sys.executable, "-m", "venv", str(environment))
    _quietly(*pip_install, str(dist), "agent-memory-harness")
    return environment / "bin" / "harness-memory"


def _quietly(*command: str) -> None:
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)  # noqa: S603


def beside_this_python() -> Path:
    """The ``harness-memory`` beside the running Python, its checkout's packages (an editable
    install's) byte-compiled first, as an installed package is."""
    import harness_memory
    import memory_core

    for package in (harness_memory, memory_core):
        compileall.compile_dir(str(Path(package.__file__ or "").parent), quiet=1)
    return Path(sys.executable).parent / "harness-memory"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--budget-ms", type=float, default=100.0, help="H-5: wall ms per hook")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--hooks",
        choices=("wheels", "beside"),
        default="wheels",
        help="wheels: install the checkout's wheels into a fresh environment and run its hooks "
        "(as users do); beside: the harness-memory beside this Python",
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="TEXT",
        help="measure only the hooks whose row names hold TEXT (repeatable; the baseline stays)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.hooks == "wheels":
            script = install_from_wheels(Path(tmp) / "install")
        else:
            script = beside_this_python()
        print(f"hooks: {script}", file=sys.stderr)
        server = CannedService(canned_answer(Path(tmp)))
        at_caps = CannedService(canned_answer(Path(tmp), 260, 240))
        cases = _cases(Path(tmp), script, server.url, at_caps.url)
        homes = _startup_homes(Path(tmp), script)
        cases.update({name: (command, stdin) for name, (command, stdin, _) in homes.items()})
        environments = {name: env for name, (_, _, env) in homes.items()}
        cases = _only(cases, args.only)
        wall: dict[str, list[float]] = {name: [] for name in cases}
        cpu: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.runs):
            for name, (command, stdin) in cases.items():
                spent = timed(command, stdin, environments.get(name))
                wall[name].append(spent[0])
                cpu[name].append(spent[1])
        server.close()
        at_caps.close()
    figures = {"wall": _medians(wall), "cpu": _medians(cpu)}
    tails = _p95s(wall)
    over = [name for name, (ms, _) in list(figures["wall"].items())[1:] if ms > args.budget_ms]
    if args.json:
        print(
            json.dumps(
                {"runs": args.runs, "budget_ms": args.budget_ms, **figures, "wall_p95": tails},
                indent=2,
            )
        )
    else:
        print(
            f"{'hook process':58} {'wall ms':>8} {'ratio':>7} {'p95 ms':>8} {'CPU ms':>8}"
            f" {'ratio':>7}"
        )
        for name, (wall_ms, wall_ratio) in figures["wall"].items():
            cpu_ms, cpu_ratio = figures["cpu"][name]
            p95 = tails[name]
            print(
                f"{name:58} {wall_ms:8.1f} {wall_ratio:6.2f}x {p95:8.1f} {cpu_ms:8.1f}"
                f" {cpu_ratio:6.2f}x"
            )
        verdict = f"over the {args.budget_ms:g} ms budget: {', '.join(over)}" if over else "ok"
        print(f"H-5, every hook within {args.budget_ms:g} ms wall (median): {verdict}")
    return 1 if over else 0


def _cases(tmp: Path, script: Path, url: str, cut_url: str) -> dict[str, tuple[list[str], bytes]]:
    """Each measured command with its stdin: the baseline first, then every hook as the
    installers write it; ``url`` answers the ordinary A-9 answer, ``cut_url`` one at the caps.
    The baseline runs the hooks' own Python (``script``'s environment)."""
    root = tmp / "agents" / "coder" / "agent_state" / "memory"
    state = ["--state-dir", str(tmp / "state")]
    target = str(root / "other-1" / "x.md")
    write = {
        "session_id": "s1",
        "cwd": str(tmp),
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": target},
    }
    start = json.dumps(
        {"session_id": "s1", "cwd": str(tmp), "hook_event_name": "SessionStart"}
    ).encode()
    patch = f"*** Begin Patch\n*** Add File: {target}\n+x\n*** End Patch\n"
    codex_patch = {**write, "tool_name": "apply_patch", "tool_input": {"command": patch}}
    gemini_write = {**write, "hook_event_name": "BeforeTool", "tool_name": "write_file"}
    own = {
        **write,
        "hook_event_name": "PostToolUse",
        "tool_input": {"file_path": str(root / "user" / "x.md")},
    }
    own_patch = patch.replace(target, str(root / "user" / "x.md"))
    codex_own = {**own, "tool_name": "apply_patch", "tool_input": {"command": own_patch}}
    gemini_own = {**own, "hook_event_name": "AfterTool", "tool_name": "write_file"}
    python = isolated_interpreter(str(script))  # as the installers write it: PYTHON -I … SCRIPT
    hook = [*([str(python), *ISOLATED] if python else []), str(script), "hook"]
    guard = ["--memory-root", str(root), *state]
    service = ["--url", url, "--project", "acme", "--agent", "coder", *guard]
    cut = ["--url", cut_url, *service[2:], "--part", "1", "--parts", "1"]
    token_file = tmp / "token"  # Codex and Gemini CLI's Session start reads its token file (H-7)
    token_file.write_text("bench-token\n", encoding="utf-8")
    token_file.chmod(0o600)
    with_token = [*service, "--token-file", str(token_file)]
    parts = str(RECOMMENDED_PARTS)
    return {
        "python -c pass": ([str(script.parent / "python"), "-c", "pass"], b""),
        "claude-code pre-tool-use (deny)": (
            [*hook, "claude-code", "pre-tool-use", *guard],
            json.dumps(write).encode(),
        ),
        "codex pre-tool-use (deny)": (
            [*hook, "codex", "pre-tool-use", *guard],
            json.dumps(codex_patch).encode(),
        ),
        "gemini before-tool (deny)": (
            [*hook, "gemini", "before-tool", *guard],
            json.dumps(gemini_write).encode(),
        ),
        **_shell_guards(hook, guard, write),
        f"claude-code session-start 1/{parts}": (
            [*hook, "claude-code", "session-start", *service, "--part", "1", "--parts", parts],
            start,
        ),
        f"claude-code session-start {parts}/{parts}": (
            [*hook, "claude-code", "session-start", *service, "--part", parts, "--parts", parts],
            start,
        ),
        "claude-code session-start 1/1 (cut)": (
            [*hook, "claude-code", "session-start", *cut],
            start,
        ),
        "codex session-start": ([*hook, "codex", "session-start", *with_token], start),
        "gemini session-start": ([*hook, "gemini", "session-start", *with_token], start),
        "claude-code post-tool-use (record)": (
            [*hook, "claude-code", "post-tool-use", *service],
            json.dumps(own).encode(),
        ),
        "codex post-tool-use (record)": (
            [*hook, "codex", "post-tool-use", *with_token],
            json.dumps(codex_own).encode(),
        ),
        "gemini after-tool (record)": (
            [*hook, "gemini", "after-tool", *with_token],
            json.dumps(gemini_own).encode(),
        ),
    }


def _shell_guards(
    hook: list[str], flags: list[str], call: dict[str, Any]
) -> dict[str, tuple[list[str], bytes]]:
    """Each harness's guard on its shell tool's call of :data:`EVERYDAY_COMMAND` (allowed),
    ``call`` a Claude Code PreToolUse input to make it from, ``flags`` the guard's."""
    shell = {**call, "tool_name": "Bash", "tool_input": {"command": EVERYDAY_COMMAND}}
    gemini = {**shell, "hook_event_name": "BeforeTool", "tool_name": "run_shell_command"}
    return {
        f"{harness} {event} {tool} (allow)": (
            [*hook, harness, event, *flags],
            json.dumps(payload).encode(),
        )
        for harness, event, tool, payload in (
            ("claude-code", "pre-tool-use", "Bash", shell),
            ("codex", "pre-tool-use", "Bash", shell),
            ("gemini", "before-tool", "shell", gemini),
        )
    }


def _startup_homes(tmp: Path, script: Path) -> dict[str, tuple[list[str], bytes, dict[str, str]]]:
    """Codex CLI's guard (allowed) in each home of :data:`STARTUP_HOMES`, built under ``tmp``
    with its memory root in it: :data:`LOGIN_COMMAND` and, for the first home, plain ``git
    status``; each case with its environment (``HOME`` the home, the system's ``PATH``, no
    ``BASH_ENV``, ``ENV`` or ``PS1``)."""
    python = isolated_interpreter(str(script))
    hook = [*([str(python), *ISOLATED] if python else []), str(script), "hook"]
    cases: dict[str, tuple[list[str], bytes, dict[str, str]]] = {}
    for number, (setup, installed) in enumerate(STARTUP_HOMES.items()):
        home = tmp / "homes" / setup
        shutil.copytree(STARTUP_FILES / "homes" / setup, home)
        for folder, source in installed.items():
            shutil.copytree(STARTUP_FILES / "installed" / source, home / folder)
        root = home / "agents" / "coder" / "agent_state" / "memory"
        workspace = home / "src" / "my-app"
        workspace.mkdir(parents=True)
        flags = ["--memory-root", str(root), "--state-dir", str(tmp / "state")]
        environment = {
            **{k: v for k, v in os.environ.items() if k not in ("BASH_ENV", "ENV", "PS1")},
            "HOME": str(home),
            "PATH": "/usr/local/bin:/usr/bin:/bin",
        }
        commands = [LOGIN_COMMAND, "git status"] if number == 0 else [LOGIN_COMMAND]
        for command in commands:
            call = {
                "session_id": "s1",
                "cwd": str(workspace),
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": command},
            }
            cases[f"codex {command} ({setup})"] = (
                [*hook, "codex", "pre-tool-use", *flags],
                json.dumps(call).encode(),
                environment,
            )
    return cases


def _only(
    cases: dict[str, tuple[list[str], bytes]], texts: list[str] | None
) -> dict[str, tuple[list[str], bytes]]:
    """``cases`` whose names hold one of ``texts`` (all of them when None), the first (the
    baseline every ratio is to) kept; exits 2 naming the rows when ``texts`` match none."""
    if not texts:
        return cases
    baseline, *rest = cases
    kept = [name for name in rest if any(text in name for text in texts)]
    if not kept:
        raise SystemExit(f"--only {texts}: no such hook; the rows are: {', '.join(rest)}")
    return {name: cases[name] for name in (baseline, *kept)}


def _medians(times: dict[str, list[float]]) -> dict[str, tuple[float, float]]:
    """Each case's median in ms and its ratio to the first case's (the baseline's) median."""
    medians = {name: statistics.median(values) * 1000 for name, values in times.items()}
    base = next(iter(medians.values())) or 1e-9
    return {name: (value, value / base) for name, value in medians.items()}


def _p95s(times: dict[str, list[float]]) -> dict[str, float]:
    """Each case's 95th percentile in ms (the budget is on the median; the tail as
    information: one run in twenty on a shared machine); a lone run is its own."""
    return {
        name: statistics.quantiles(values, n=20)[-1] * 1000 if len(values) > 1 else values[0] * 1000
        for name, values in times.items()
    }


if __name__ == "__main__":
    raise SystemExit(main())
