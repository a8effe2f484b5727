"""Shared steps of the Codex CLI and Gemini CLI end-to-end tests (H-2).

A test plants memory (the corpus's user index, another Workspace's scope), installs the hooks
with the real ``harness-memory install``, serves a model stand-in, and runs the real CLI inside a
loopback-only network namespace with the model and the memory service bridged in.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import web
from memory_core.keys import workspace_memory_key

from tests.plugin.fake_model_apis import FakeGemini, FakeResponses, Turn, serve_app
from tests.plugin.helpers import HARNESS_MEMORY, Completed, run_cli
from tests.plugin.loopback_only import run_isolated, unix_bridges
from tests.plugin.npm_cli import CODEX, GEMINI, npm_cli
from tests.plugin.real_service import RealService
from tests.support.serve import code_under_test

RUN_LIMIT_S = 180  # a hang guard for the CLI run, not an assertion about speed
GEMINI_ONE_PROCESS = {"GEMINI_CLI_NO_RELAUNCH": "true"}
"""Gemini CLI starts Node, then starts it again as a child with a bigger heap and this variable
set, and the child runs the Session (its hooks, its model calls). Set from the start, the first
Node runs that same Session with the same environment, and the second start is saved."""
TOPIC = """---
name: harness-hooks
description: Memory reaches this coding agent through its Session-start and pre-tool hooks
updated_at: 2026-11-30
---
The Session-start hook adds the indexes; the pre-tool hook guards memory writes.
"""


def index_lines(memory_root: Path) -> list[str]:
    """The planted user index's lines (the corpus's ``user-scope``), blank ones left out."""
    text = (memory_root / "user" / "MEMORY.md").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.startswith("- ")]


def workspace_with_key(tmp_path: Path) -> tuple[Path, str]:
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    return workspace, workspace_memory_key(workspace)


def other_scope(memory_root: Path, tmp_path: Path) -> Path:
    """Another Workspace's scope, as a Session there would have left it."""
    scope = memory_root / workspace_memory_key(tmp_path / "another-app")
    scope.mkdir(parents=True)
    (scope / "MEMORY.md").write_text("- [Theirs](theirs.md) — not yours\n", encoding="utf-8")
    return scope


def install(
    harness: str,
    home: Path,
    service: RealService,
    memory_root: Path,
    *extra: str,
    agent: str = "coder",
    env: Mapping[str, str] | None = None,
) -> str:
    """``harness-memory install HARNESS`` into ``home`` for ``acme/{agent}``, as a user would
    run it (``extra`` flags last, so they win; ``env``: more variables, ``CODEX_HOME``);
    returns what it printed."""
    done = subprocess.run(
        [
            str(HARNESS_MEMORY),
            "install",
            harness,
            "--home",
            str(home),
            "--url",
            service.url,
            "--project",
            "acme",
            "--agent",
            agent,
            "--memory-root",
            str(memory_root),
            "--token",
            service.token,
            "--executable",
            str(HARNESS_MEMORY),
            *extra,
        ],
        capture_output=True,
        text=True,
        check=False,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin", **code_under_test(), **(env or {})},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


async def install_managed_claude_code(
    service: RealService, memory_root: Path, agent: str, tmp_path: Path
) -> tuple[Path, Completed]:
    """``harness-memory install claude-code --managed`` for ``acme/{agent}`` into an ``/etc``
    overlay folder under ``tmp_path`` (its ``upper/claude-code`` is the managed settings'
    folder), as an administrator would run it; ``(overlay, what install printed)``."""
    overlay = tmp_path / "etc-overlay"
    (overlay / "upper" / "claude-code").mkdir(parents=True)
    (overlay / "work").mkdir()
    flags = ["--url", service.url, "--project", "acme", "--agent", agent]
    flags += ["--memory-root", str(memory_root), "--executable", str(HARNESS_MEMORY)]
    managed = str(overlay / "upper" / "claude-code")
    installed = await run_cli("install", "claude-code", "--managed", managed, *flags)
    assert installed.returncode == 0, installed.stderr
    return overlay, installed


class InstalledHomes:
    """``harness-memory install`` run once per test worker for each set of arguments, into a
    template HOME under ``root``; each test gets a copy at its own HOME path.

    What an install writes names its HOME (the hook commands' ``--token-file`` and
    ``--state-dir``, its record): the copy's files name the test's HOME instead, byte for byte
    what the install writes there. A CLI run writes into its HOME (its Session records), so each
    test gets its own copy, never the template. The install is a Python process of its own;
    tests that install the same way into a fresh HOME share one.
    """

    def __init__(self, root: Path) -> None:
        self._root = root
        self._made: dict[tuple[str, ...], tuple[Path, str]] = {}

    def install(
        self,
        harness: str,
        home: Path,
        service: RealService,
        memory_root: Path,
        *extra: str,
        agent: str = "coder",
        prepare: Callable[[Path], None] | None = None,
    ) -> str:
        """:func:`install` ``harness`` into a fresh ``home`` (made here, or empty), as a copy of
        the template installed with the same arguments, ``prepare`` (given the HOME, e.g.
        :func:`gemini_home`) run on it before the install; what that install printed, its HOME
        named ``home``. Raises ValueError for Codex CLI, whose ``config.toml`` trusts each
        hook by a hash of its command (``trusted_hash``), which names the HOME: a copy would
        hold hooks Codex no longer trusts."""
        if harness == "codex":
            raise ValueError("install Codex CLI's hooks in place: their trusted_hash names HOME")
        prepared = "" if prepare is None else f"{prepare.__module__}.{prepare.__qualname__}"
        key = (harness, service.url, str(memory_root), agent, prepared, *extra)
        if key not in self._made:
            template = self._root / str(len(self._made)) / "home"
            template.mkdir(parents=True)
            if prepare is not None:
                prepare(template)
            said = install(harness, template, service, memory_root, *extra, agent=agent)
            self._made[key] = (template, said)
        template, said = self._made[key]
        relocate(template, home)
        return said.replace(str(template), str(home))


def relocate(template: Path, home: Path) -> None:
    """Copy the HOME ``template`` to ``home`` (modes kept), each file's mention of the
    template's path made ``home``'s, and each SHA-256 (hex) of a file so changed that
    another file records (the installer's ``install.json``) made the new bytes' digest: the
    same bytes an install into ``home`` writes."""
    shutil.copytree(template, home, symlinks=True, dirs_exist_ok=True)
    old, new = str(template).encode(), str(home).encode()
    files = [path for path in home.rglob("*") if path.is_file() and not path.is_symlink()]
    digests: dict[bytes, bytes] = {}
    for path in files:
        data = path.read_bytes()
        if old in data:
            moved = data.replace(old, new)
            path.write_bytes(moved)
            digests[_sha256(data)] = _sha256(moved)
    for path in files:
        data = path.read_bytes()
        recorded = data
        for before, after in digests.items():
            recorded = recorded.replace(before, after)
        if recorded != data:
            path.write_bytes(recorded)


def _sha256(data: bytes) -> bytes:
    """The lowercase hex SHA-256 of ``data``, as bytes."""
    return hashlib.sha256(data).hexdigest().encode()


def account_home(uid: int, home: Path) -> str:
    """``/etc/passwd`` with the home of account ``uid`` made ``home``."""
    lines = Path("/etc/passwd").read_text(encoding="utf-8").splitlines()
    fields = [line.split(":") for line in lines]
    moved = [[*f[:5], str(home), *f[6:]] if f[2:3] == [str(uid)] else f for f in fields]
    return "".join(":".join(f) + "\n" for f in moved)


def managed_hooks_user(overlay: Path, home: Path, token: str) -> None:
    """The user the managed hooks serve: the overlay's ``/etc/passwd`` makes ``home`` the home
    of the namespace's root account (no variable a repository can set moves it), and the token
    file the managed hooks read there (``.claude/harness-memory/token``, mode 0600) holds
    ``token``."""
    (overlay / "upper" / "passwd").write_text(account_home(0, home), encoding="utf-8")
    token_file = home / ".claude" / "harness-memory" / "token"
    token_file.parent.mkdir(parents=True, exist_ok=True)
    token_file.write_text(token + "\n", encoding="utf-8")
    token_file.chmod(0o600)


async def run_in_loopback(
    command: Sequence[str],
    *,
    app_factory: Callable[[], web.Application],
    service: RealService,
    cwd: Path,
    env: Mapping[str, str],
    files: Sequence[Path] = (),
    hidden: Sequence[Path] = (),
    etc_overlay: Path | None = None,
) -> tuple[int, str, str, int]:
    """Run ``command`` (``{port}`` in its words, env and ``files`` replaced by the stand-in's
    port) in a loopback-only namespace with the stand-in and the service bridged in, and the
    ``hidden`` folders out of its sight and ``etc_overlay``'s ``upper/`` over ``/etc`` (as in
    :func:`~tests.plugin.loopback_only.wrap`); returns ``(exit status, stdout, stderr, model
    port)``."""
    service_port = urlsplit(service.url).port
    assert service_port is not None
    async with (
        serve_app(app_factory) as port,
        unix_bridges([port, service_port]) as bridges,
    ):
        for path in files:
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace("{port}", str(port)), encoding="utf-8")
        words = [word.replace("{port}", str(port)) for word in command]
        environment = {k: v.replace("{port}", str(port)) for k, v in env.items()}
        code, out, err = await run_isolated(
            words,
            bridges,
            cwd=cwd,
            env=environment,
            limit_s=RUN_LIMIT_S,
            hidden=hidden,
            etc_overlay=etc_overlay,
        )
    return code, out.decode(errors="replace"), err.decode(errors="replace"), port


CODEX_SANDBOX = (
    "--skip-git-repo-check",
    "--sandbox",
    "workspace-write",
    # /tmp and $TMPDIR are not made writable roots: Codex protects each writable root's .git by
    # binding over it, and makes a missing one as an empty /tmp/.git for as long as it runs, which
    # puts every other test's tmp_path inside a "git repository" meanwhile
    "-c",
    "sandbox_workspace_write.exclude_slash_tmp=true",
    "-c",
    "sandbox_workspace_write.exclude_tmpdir_env_var=true",
)
"""``codex exec`` flags for a Session in a Workspace-write sandbox."""

CODEX_CONFIG = """
model = "gpt-5.5"
model_provider = "stand_in"
check_for_update_on_startup = false

[model_providers.stand_in]
name = "loopback stand-in"
base_url = "http://127.0.0.1:{port}/v1"
wire_api = "responses"
env_key = "STAND_IN_API_KEY"

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"
"""
GEMINI_SETTINGS = (
    '{"security": {"auth": {"selectedType": "gemini-api-key"}},'
    ' "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false},'
    ' "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}}'
)
"""The user settings every real Gemini CLI run starts from: API-key auth, no usage statistics,
telemetry or update check. The names of Gemini CLI 0.61's schema (its
docs/reference/configuration.md): it rewrites a settings file holding a renamed one
(``general.disableAutoUpdate``, ``disableUpdateNag``: its ``migrateDeprecatedSettings``)."""
PROMPT = "Remember that memory reaches this agent through hooks."


async def run_codex(
    turns: Sequence[Turn],
    service: RealService,
    memory_root: Path,
    workspace: Path,
    tmp: Path,
    *,
    config_extra: str = "",
    hooks: bool = True,
    install_flags: Sequence[str] = (),
    etc_overlay: Path | None = None,
    agent: str = "coder",
    exec_flags: Sequence[str] = (),
    after_install: Callable[[], None] | None = None,
) -> tuple[FakeResponses, int, str, str]:
    """Codex ``exec`` headless with the hooks installed into a fresh HOME under ``tmp``: the
    stand-in's provider (and ``config_extra``) in the user's ``config.toml`` first, then
    ``harness-memory install`` (unless not ``hooks``); ``etc_overlay`` as in
    :func:`run_in_loopback` (an administrator's ``/etc/codex``); the hooks serve ``agent``;
    ``exec_flags`` go after ``exec`` (``--profile NAME``); ``after_install`` runs then."""
    codex = npm_cli(CODEX)
    home = tmp / "home"
    (home / ".codex").mkdir(parents=True, exist_ok=True)
    (home / ".codex" / "config.toml").write_text(CODEX_CONFIG + config_extra, encoding="utf-8")
    if hooks:
        install("codex", home, service, memory_root, *install_flags, agent=agent)  # config.toml
    if after_install is not None:
        after_install()
    fake = FakeResponses(turns=turns)
    command = [str(codex), "exec", *exec_flags, *CODEX_SANDBOX, PROMPT]
    status, out, err, _ = await run_in_loopback(
        command,
        app_factory=fake.app,
        service=service,
        cwd=workspace,
        env={
            "HOME": str(home),
            "CODEX_HOME": str(home / ".codex"),
            "STAND_IN_API_KEY": "sk-test-dummy",
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "NO_COLOR": "1",
            **code_under_test(),
        },
        files=[home / ".codex" / "config.toml"],
        etc_overlay=etc_overlay,
    )
    return fake, status, out, err


async def run_gemini(
    turns: Sequence[Turn],
    service: RealService,
    memory_root: Path,
    workspace: Path,
    tmp: Path,
    *,
    install_flags: Sequence[str] = (),
    home: Path | None = None,
    agent: str = "coder",
    homes: InstalledHomes | None = None,
) -> tuple[FakeGemini, int, str, str]:
    """Gemini CLI ``-p --yolo`` headless with the hooks installed into a fresh HOME (``home``,
    default ``tmp/home``; :func:`gemini_home`) serving ``agent``; with ``homes``, the HOME is
    a copy of the one installed there with the same arguments (one install per test worker)."""
    home = tmp / "home" if home is None else home
    if homes is None:
        gemini_home(home)
        install("gemini", home, service, memory_root, *install_flags, agent=agent)
    else:
        homes.install(
            "gemini", home, service, memory_root, *install_flags, agent=agent, prepare=gemini_home
        )
    return await run_gemini_in(turns, service, workspace, home)


def gemini_home(home: Path) -> None:
    """``home/.gemini/settings.json`` as a user's would be before the hooks are installed into
    it: API-key auth, telemetry and updates off."""
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text(GEMINI_SETTINGS, encoding="utf-8")


async def run_gemini_in(
    turns: Sequence[Turn],
    service: RealService,
    workspace: Path,
    home: Path,
    *,
    hidden: Sequence[Path] = (),
    etc_overlay: Path | None = None,
    relaunch: bool = False,
) -> tuple[FakeGemini, int, str, str]:
    """One Gemini CLI ``-p --yolo`` Session in ``workspace`` with the ``home`` whose hooks are
    installed, against a stand-in scripted with ``turns``, ``hidden`` folders out of its sight
    and ``etc_overlay`` as in :func:`run_in_loopback` (an administrator's ``/etc/gemini-cli``);
    with ``relaunch``, Gemini CLI starts its second Node as it does for a user
    (:data:`GEMINI_ONE_PROCESS`); ``(stand-in, exit status, stdout, stderr)``."""
    fake = FakeGemini(turns=turns)
    status, out, err, _ = await run_in_loopback(
        [str(npm_cli(GEMINI)), "--yolo", "-p", PROMPT],
        app_factory=fake.app,
        service=service,
        cwd=workspace,
        env={
            "HOME": str(home),
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "GEMINI_API_KEY": "test-dummy-key",
            "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:{port}",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
            "NO_COLOR": "1",
            **({} if relaunch else GEMINI_ONE_PROCESS),
            **code_under_test(),
        },
        hidden=hidden,
        etc_overlay=etc_overlay,
    )
    return fake, status, out, err
