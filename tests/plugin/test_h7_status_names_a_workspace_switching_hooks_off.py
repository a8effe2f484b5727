"""``harness-memory status``, run in a Workspace, says when what that repository checks in
switches the user install's hooks off, or the harness's own memory back on, for Claude Code and
Codex CLI (``tests/data/cases/repository-switches-hooks-off``; measured with the real CLIs in
``test_e2e_repository_switches_hooks_off.py`` and
``test_e2e_codex_repository_switches_hooks_off.py``; Gemini CLI:
``test_h7_status_names_a_workspace_switching_gemini_hooks_off.py``). The nearest such folder
from the Workspace up to its repository's root is read, never the user's own settings in the
home; over a managed install, which holds over all of it, nothing is said.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness_memory.cli import main

FLAGS = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder", "--no-check"]
FLAGS += ["--executable", "/opt/venv/bin/harness-memory"]

SWITCHES = {
    ("claude-code", ".claude/settings.json", '{"disableAllHooks": true}'): (
        'switches these hooks off in Sessions in this Workspace ("disableAllHooks": true)'
    ),
    (
        "claude-code",
        ".claude/settings.local.json",
        '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}}',
    ): (
        "turns the harness's own memory back on in Sessions in this Workspace "
        '(env.CLAUDE_CODE_DISABLE_AUTO_MEMORY = "0")'
    ),
    ("codex", ".codex/config.toml", "[features]\nhooks = false\n"): (
        "switches these hooks off in Sessions in this Workspace when you trust this project "
        "([features] hooks = false)"
    ),
    ("codex", ".codex/config.toml", "[features]\ncodex_hooks = false\n"): (
        "([features] codex_hooks = false)"
    ),
    ("codex", ".codex/config.toml", "\ufeff[features]\nhooks = false\n"): (
        "([features] hooks = false)"  # a byte order mark, which Codex skips
    ),
    ("codex", ".codex/config.toml", "features = { hooks = false }\n"): (
        "([features] hooks = false)"
    ),
    ("codex", ".codex/config.toml", "[features]\nunified_exec_tty = true\n"): (
        "turns terminals back on ([features] unified_exec_tty = true)"
    ),
    ("codex", ".codex/config.toml", "[features]\nmemories = true\n"): (
        "turns the harness's own memory back on in Sessions in this Workspace when you trust "
        "this project ([features] memories = true)"
    ),
}


def cli(tmp_path: Path, *words: str) -> str:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    out = io.StringIO()
    main([*words, "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    return out.getvalue()


def install(tmp_path: Path, harness: str, *managed: str) -> None:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    cli(tmp_path, "install", harness, *managed, *FLAGS, "--memory-root", str(root))


def repository(tmp_path: Path, name: str, text: str) -> tuple[Path, Path]:
    """A repository holding ``name`` (``.claude/settings.json`` …) and a folder inside it."""
    root = tmp_path / "src" / "app"
    (root / ".git").mkdir(parents=True)
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(text, encoding="utf-8")
    inside = root / "packages" / "web"
    inside.mkdir(parents=True)
    return root / name, inside


@pytest.mark.parametrize(("harness", "name", "text"), list(SWITCHES), ids=str)
def test_status_in_a_repository_that_switches_the_user_install_off_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str, name: str, text: str
) -> None:
    """Run in the repository's root, the Workspace (below it: :data:`WHERE_SHAPES`; Codex CLI
    reads its project's ``.codex/`` from any folder below too)."""
    install(tmp_path, harness)
    path, inside = repository(tmp_path, name, text)
    monkeypatch.chdir(inside if harness == "codex" else path.parents[1])

    said = cli(tmp_path, "status")

    assert f"{harness}: WARNING: {path} " in said
    assert SWITCHES[(harness, name, text)] in said
    assert f"harness-memory install {harness} --managed" in said


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
def test_status_reads_no_settings_above_the_repository_or_the_users_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str
) -> None:
    install(tmp_path, harness)
    name, text = (
        (".claude/settings.json", '{"disableAllHooks": true}')
        if harness == "claude-code"
        else (".codex/config.toml", "[features]\nhooks = false\n")
    )
    (tmp_path / name).parent.mkdir(parents=True)
    (tmp_path / name).write_text(text, encoding="utf-8")  # above the repository
    _, inside = repository(tmp_path, "README.md", "mine\n")
    monkeypatch.chdir(inside)
    assert "switches these hooks off" not in cli(tmp_path, "status")
    monkeypatch.chdir(tmp_path / "home")  # the user's own settings are no Workspace's
    assert "switches these hooks off" not in cli(tmp_path, "status")


@pytest.mark.parametrize(("harness", "name", "text"), list(SWITCHES)[:3], ids=str)
def test_status_over_a_managed_install_says_nothing_of_the_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str, name: str, text: str
) -> None:
    managed = tmp_path / "etc" / harness
    install(tmp_path, harness)
    install(tmp_path, harness, "--managed", str(managed))
    _, inside = repository(tmp_path, name, text)
    monkeypatch.chdir(inside)

    said = cli(tmp_path, "status", "--managed", str(managed))

    assert f"{harness} (managed): installed" in said
    assert "switches these hooks off" not in said and "memory back on" not in said


@pytest.mark.parametrize("key", ["repository", "main-checkout", "untrusted", "none"])
def test_status_says_plainly_that_a_trusted_codex_project_switches_the_hooks_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    """Codex CLI reads a project's ``.codex/config.toml`` once the user's ``config.toml`` trusts
    it: ``[projects."<folder>"] trust_level = "trusted"`` for the folder holding ``.codex/``,
    else the project's root (its ``.git``), else the repository's main checkout (a linked
    worktree's ``.git`` file names ``<main>/.git/worktrees/<name>``), as Codex looks them up.
    Trusted, the hooks are off in every Session there: said as a fact, naming the entry; not
    trusted (no entry, or ``"untrusted"``), "when you trust this project", as before. It said
    "when you trust" of a project the user trusts."""
    install(tmp_path, "codex")
    path, inside = repository(tmp_path, ".codex/config.toml", "[features]\nhooks = false\n")
    trusted = root = path.parents[1]
    if key == "main-checkout":  # the repository is a linked worktree of another checkout
        trusted = tmp_path / "main"
        (trusted / ".git" / "worktrees" / "app").mkdir(parents=True)
        (root / ".git").rmdir()
        (root / ".git").write_text(f"gitdir: {trusted}/.git/worktrees/app\n", encoding="utf-8")
    config = tmp_path / "home" / ".codex" / "config.toml"
    entry = f'[projects."{trusted}"]'
    level = "untrusted" if key == "untrusted" else "trusted"
    if key != "none":
        with config.open("a", encoding="utf-8") as handle:
            handle.write(f'\n{entry}\ntrust_level = "{level}"\n')
    monkeypatch.chdir(inside)

    said = cli(tmp_path, "status")

    line = next(line for line in said.splitlines() if f"codex: WARNING: {path} " in line)
    if level == "trusted" and key != "none":
        assert (
            f"{path} switches these hooks off in Sessions in this Workspace ([features] hooks = "
            f"false; you trust this project: {entry} in {config}): no memory and no write "
            "guard there."
        ) in line, line
    else:
        assert "in this Workspace when you trust this project ([features] hooks = false)" in line


DEEP = 100_000
"""Arrays nested deeper than Python's JSON and TOML readers recurse."""


@pytest.mark.parametrize(
    ("harness", "name", "text"),
    [
        ("claude-code", ".claude/settings.json", '{"a": ' + "[" * DEEP + "]" * DEEP + "}"),
        ("claude-code", ".claude/settings.local.json", '{"a": ' + "[" * DEEP + "]" * DEEP + "}"),
        ("codex", ".codex/config.toml", "a = " + "[" * DEEP + "]" * DEEP + "\n"),
    ],
    ids=["claude-settings", "claude-settings-local", "codex-config"],
)
def test_status_in_a_repository_whose_settings_nest_too_deep_says_nothing_of_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str, name: str, text: str
) -> None:
    """What a cloned repository checks in is anyone's text: nested past Python's recursion
    limit, it ended ``status`` in a ``RecursionError`` traceback. It is read as a file the
    harness cannot read either (nothing said of it), and the rest of the status is shown."""
    install(tmp_path, harness)
    _, inside = repository(tmp_path, name, text)
    monkeypatch.chdir(inside)

    said = cli(tmp_path, "status")

    assert f"{harness}: installed" in said
    assert "switches these hooks off" not in said and "memory back on" not in said


OWN_MEMORY_SHAPES: list[tuple[dict[str, str], str | None]] = [
    ({"settings.json": '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": 0}}'}, "= 0)"),
    ({"settings.json": '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": false}}'}, "= false)"),
    ({"settings.json": '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": " OFF "}}'}, '= " OFF ")'),
    (
        {
            "settings.json": (
                '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": ""}, "autoMemoryEnabled": true}'
            )
        },
        '= "", which is neither true nor false, and "autoMemoryEnabled": true)',
    ),
    (
        {
            "settings.json": '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "maybe"}}',
            "settings.local.json": '{"autoMemoryEnabled": true}',
        },
        '= "maybe", which is neither true nor false, and "autoMemoryEnabled": true)',
    ),
    ({"settings.json": '\ufeff{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}}'}, '= "0")'),
    ({"settings.json": '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": ""}}'}, None),
    ({"settings.json": '{"autoMemoryEnabled": true}'}, None),
    (
        {
            "settings.json": '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}}',
            "settings.local.json": '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "yes"}}',
        },
        None,
    ),
]
"""What a repository's ``.claude/`` files say about Claude Code's own memory, and the end of the
warning ``status`` gives (None: Claude Code's memory stays off, nothing said). Claude Code merges
``settings.local.json`` over ``settings.json`` key by key and reads the variable's text: a false
one turns its memory on, one neither true nor false leaves it to ``autoMemoryEnabled``. Each is
measured with the real CLI: ``test_e2e_h6_repository_turns_own_memory_on.py``."""


@pytest.mark.parametrize(("files", "said"), OWN_MEMORY_SHAPES, ids=str)
def test_status_names_every_repository_setting_that_turns_claude_codes_memory_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], said: str | None
) -> None:
    install(tmp_path, "claude-code")
    root = tmp_path / "src" / "app"
    (root / ".claude").mkdir(parents=True)
    for name, text in files.items():
        (root / ".claude" / name).write_text(text, encoding="utf-8")
    (root / ".git").mkdir()
    monkeypatch.chdir(root)

    out = cli(tmp_path, "status")

    if said is None:
        assert "own memory back on" not in out
    else:
        paths = " and ".join(str(root / ".claude" / name) for name in files)
        verb = "turns" if len(files) == 1 else "together turn"
        assert f"claude-code: WARNING: {paths} {verb} the harness's own memory back on" in out
        assert f"(env.CLAUDE_CODE_DISABLE_AUTO_MEMORY {said}" in out


HOOKS_OFF_SHAPES: list[tuple[dict[str, str], str | None]] = [
    ({"settings.json": '\ufeff{"disableAllHooks": true}'}, "settings.json"),
    ({"settings.json": '{"disableAllHooks": false, "disableAllHooks": true}'}, "settings.json"),
    (
        {
            "settings.json": '{"disableAllHooks": false}',
            "settings.local.json": '{"disableAllHooks": true}',
        },
        "settings.local.json",
    ),
    (
        {
            "settings.json": '{"disableAllHooks": true}',
            "settings.local.json": '{"disableAllHooks": false}',
        },
        None,
    ),
    ({"settings.json": '// hooks off\n{"disableAllHooks": true}'}, None),
    ({"settings.json": '{"disableAllHooks": "true"}'}, None),
    ({"settings.json": '{"disableAllHooks": 1}'}, None),
    ({"settings.json": '{"disableAllHooks": true,}'}, None),
    ({"settings.json": '{"disableAllHooks": true, "hooks": "none"}'}, "settings.json"),
    ({"settings.json": '[{"disableAllHooks": true}]'}, None),
    ({"settings.json": '{"disableAllHooks": true, "permissions": {"allow": 5}}'}, None),
    ({"settings.json": '{"disableAllHooks": true, "cleanupPeriodDays": "x"}'}, None),
    (
        {
            "settings.json": '{"disableAllHooks": true}',
            "settings.local.json": '{"disableAllHooks": false, "cleanupPeriodDays": "x"}',
        },
        "settings.json",
    ),
]
"""What a repository's ``.claude/`` files say about ``disableAllHooks``, and the file ``status``
names as switching the hooks off (None: the hooks run, nothing said). Claude Code skips a byte
order mark, keeps a key's last value, lets ``settings.local.json`` win over ``settings.json``
and reads no file with a comment or a trailing comma, nor one whose top level is no object;
only ``true`` switches hooks off (not ``"true"`` nor ``1``), also beside a ``hooks`` that is
no object; a file holding a setting Claude Code's schema refuses (``"permissions": {"allow":
5}``, ``"cleanupPeriodDays": "x"``) is skipped whole, its ``disableAllHooks`` too. Each is
measured with the real CLI: ``test_e2e_repository_switches_hooks_off.py``."""


@pytest.mark.parametrize(("files", "named"), HOOKS_OFF_SHAPES, ids=str)
def test_status_names_the_repository_file_that_switches_hooks_off_as_claude_code_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], named: str | None
) -> None:
    install(tmp_path, "claude-code")
    root = tmp_path / "src" / "app"
    (root / ".claude").mkdir(parents=True)
    for name, text in files.items():
        (root / ".claude" / name).write_text(text, encoding="utf-8")
    (root / ".git").mkdir()
    monkeypatch.chdir(root)

    out = cli(tmp_path, "status")

    if named is None:
        assert "switches these hooks off" not in out
    else:
        assert f"claude-code: WARNING: {root / '.claude' / named} switches these hooks off" in out
        assert out.count("switches these hooks off") == 1


_OFF_TEXT = '{"disableAllHooks": true}'
ENCODED_SHAPES: list[tuple[str, bytes, bool]] = [
    ("utf-16-le-with-mark", b"\xff\xfe" + _OFF_TEXT.encode("utf-16-le"), True),
    ("utf-16-be-with-mark", b"\xfe\xff" + _OFF_TEXT.encode("utf-16-be"), False),
    ("utf-16-le-without-mark", _OFF_TEXT.encode("utf-16-le"), False),
    ("utf-32-le-with-mark", _OFF_TEXT.encode("utf-32"), False),
]
"""A repository's ``.claude/settings.json`` saying ``"disableAllHooks": true`` in another
encoding, and whether Claude Code then switches the hooks off: it reads a file starting with
UTF-16LE's byte order mark (a Windows editor's "Unicode") as UTF-16LE, any other as UTF-8
(measured with the real CLI: ``test_e2e_repository_switches_hooks_off.py``)."""


@pytest.mark.parametrize(
    ("name", "data", "off"), ENCODED_SHAPES, ids=[s[0] for s in ENCODED_SHAPES]
)
def test_status_reads_a_repositorys_settings_in_the_encoding_claude_code_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, data: bytes, off: bool
) -> None:
    """H-6, P-3: a file saved as UTF-16LE switched the hooks off while status said nothing."""
    install(tmp_path, "claude-code")
    settings, _ = repository(tmp_path, ".claude/settings.json", "")
    settings.write_bytes(data)
    monkeypatch.chdir(settings.parents[1])

    said = cli(tmp_path, "status")

    line = f"claude-code: WARNING: {settings} switches these hooks off"
    assert (line in said) is off, said


OFF = '{"disableAllHooks": true}'
WHERE_SHAPES: list[tuple[bool, dict[str, str], str | None]] = [
    (True, {"root/settings.local.json": OFF}, "root/settings.local.json"),
    (True, {"here/settings.json": '{"theme": "x"}', "root/settings.local.json": OFF}, "root/"),
    (True, {"here/settings.local.json": OFF}, "here/settings.local.json"),
    (True, {"here/settings.json": OFF}, "here/settings.json"),
    (
        True,
        {"here/settings.local.json": '{"disableAllHooks": false}', "root/settings.local.json": OFF},
        "root/settings.local.json",
    ),
    (
        True,
        {"here/settings.local.json": OFF, "root/settings.local.json": '{"disableAllHooks": false}'},
        None,
    ),
    (True, {"root/settings.json": OFF}, None),
    (False, {"root/settings.json": OFF}, None),
    (False, {"root/settings.local.json": OFF}, None),
]
"""Where a repository's Claude Code files stand, for a Session in a folder below its root
(``here``: ``root/packages/web``; ``root`` a git repository or, False, a plain folder), and the
file ``status`` names as switching the hooks off (None: the hooks run). Claude Code reads the
folder's own ``settings.json`` and ``settings.local.json``, then the repository root's
``settings.local.json`` over them; never the root's ``settings.json`` from below it, nor a plain
folder above. Each measured with the real CLI: ``test_e2e_repository_switches_hooks_off.py``."""


def lay_out(tmp_path: Path, git: bool, files: dict[str, str]) -> tuple[Path, Path]:
    """The repository (``root``) and its folder ``here`` holding ``files``."""
    root = tmp_path / "src" / "app"
    here = root / "packages" / "web"
    here.mkdir(parents=True)
    if git:
        (root / ".git").mkdir()
    for spec, text in files.items():
        where, name = spec.split("/")
        folder = (root if where == "root" else here) / ".claude"
        folder.mkdir(exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return root, here


@pytest.mark.parametrize(("git", "files", "named"), WHERE_SHAPES, ids=str)
def test_status_reads_a_repositorys_claude_code_files_where_claude_code_does(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    git: bool,
    files: dict[str, str],
    named: str | None,
) -> None:
    install(tmp_path, "claude-code")
    root, here = lay_out(tmp_path, git, files)
    monkeypatch.chdir(here)

    said = cli(tmp_path, "status")

    if named is None:
        assert "switches these hooks off" not in said
    else:
        where, name = named.split("/")
        name = name or "settings.local.json"
        path = (root if where == "root" else here) / ".claude" / name
        assert f"claude-code: WARNING: {path} switches these hooks off" in said
