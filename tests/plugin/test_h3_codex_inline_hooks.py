"""H-3, H-6: our hooks inline in Codex's ``config.toml`` are taken out, the user's stay trusted.

Codex CLI runs the hooks of ``hooks.json`` and of the inline ``[hooks]`` tables of
``config.toml`` alike; a hook of ours written inline beside the installed ones injects memory
twice per Session and guards twice. The install and the uninstall take ours out of
``config.toml`` (and of a profile file ``NAME.config.toml``); the user's own inline hooks keep
their trust entries, re-keyed where they move up (Codex keys trust by position:
``<config.toml>:<event label>:<group>:<handler>``). ``status`` names inline hooks of ours.
"""

from __future__ import annotations

import io
import json
import tomllib
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.codex import trust_hash

from tests.plugin.helpers import HARNESS_MEMORY

OURS = (
    "harness-memory hook codex session-start --url http://127.0.0.1:9 --project acme --agent coder"
)
OUR_GUARD = "harness-memory hook codex pre-tool-use --project acme --agent coder"
MINE = "/usr/local/bin/notify-start"


def memory_root(tmp_path: Path) -> Path:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    return root


def run(home: Path, root: Path, verb: str, *extra: str) -> tuple[int, str]:
    out = io.StringIO()
    flags = ["--home", str(home)]
    if verb != "status":
        flags = ["codex", *flags, "--memory-root", str(root)]
    if verb == "install":
        flags += ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
        flags += ["--executable", str(HARNESS_MEMORY)]
    status = main([verb, *flags, *extra], environ={"HOME": str(home)}, stdout=out)
    return status, out.getvalue()


def handler(command: str) -> str:
    return f'type = "command"\ncommand = "{command}"\n'


def mine_trust() -> str:
    """The trusted hash of the user's own SessionStart hook (no matcher, one handler)."""
    return trust_hash("SessionStart", {}, {"command": MINE})


def config_with(home: Path, text: str) -> Path:
    config = home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text, encoding="utf-8")
    return config


def old_trust(key: str, label: str) -> str:
    """The trust entry Codex keeps for our old hook, first in ``key``'s ``label`` event."""
    return f'[hooks.state."{key}:{label}:0:0"]\ntrusted_hash = "sha256:old-ours"\n'


def read_toml(path: Path) -> dict[str, object]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def session_starts(home: Path) -> list[str]:
    """Every SessionStart command Codex runs from the user layer: hooks.json's, then inline."""
    codex = home / ".codex"
    commands: list[str] = []
    sources = [json.loads((codex / "hooks.json").read_text(encoding="utf-8"))]
    sources.append(read_toml(codex / "config.toml"))
    for source in sources:
        hooks = source.get("hooks")
        assert isinstance(hooks, dict)
        for group in hooks.get("SessionStart", []):
            commands += [h["command"] for h in group["hooks"]]
    return commands


def test_install_takes_our_inline_hook_out_and_keeps_the_users_trusted(tmp_path: Path) -> None:
    """Ours is the first inline group, the user's own the second (trusted at ``:1:0``): after
    the install one SessionStart of ours runs (from hooks.json), the user's hook is the first
    inline group and its trust entry moved to ``:0:0`` with the same hash."""
    home = tmp_path / "home"
    config = config_with(home, "")
    key = str(config.absolute())
    config_with(
        home,
        f'model = "o3"\n\n[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\n{handler(OURS)}'
        f"\n[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\n{handler(MINE)}"
        f"\n{old_trust(key, 'session_start')}"
        f'\n[hooks.state."{key}:session_start:1:0"]\ntrusted_hash = "{mine_trust()}"\n',
    )
    root = memory_root(tmp_path)

    status, shown = run(home, root, "install", "--dry-run")
    assert status == 0, shown
    assert f'-command = "{OURS}"' in shown
    assert "inline [hooks]" in shown

    status, said = run(home, root, "install")
    assert status == 0, said
    starts = session_starts(home)
    assert len([c for c in starts if "hook codex session-start" in c]) == 1, starts
    assert starts[-1] == MINE
    written = read_toml(config)
    assert written["model"] == "o3"
    state = written["hooks"]["state"]  # type: ignore[index]
    assert state[f"{key}:session_start:0:0"] == {"trusted_hash": mine_trust()}
    assert f"{key}:session_start:1:0" not in state


def test_install_takes_ours_out_of_a_group_it_shares_with_the_users_hook(tmp_path: Path) -> None:
    """A group holding our guard and the user's own handler keeps the user's, now handler 0,
    its trust entry re-keyed from ``:0:1``; the entry of ours goes."""
    home = tmp_path / "home"
    config = config_with(home, "")
    key = str(config.absolute())
    mine = trust_hash("PreToolUse", {"matcher": "Bash"}, {"command": MINE})
    config_with(
        home,
        '[hooks]\nPreToolUse = [{matcher = "Bash", hooks = ['
        f'{{type = "command", command = "{OUR_GUARD}"}}, '
        f'{{type = "command", command = "{MINE}"}}]}}]\n\n'
        f"{old_trust(key, 'pre_tool_use')}\n"
        f'[hooks.state."{key}:pre_tool_use:0:1"]\ntrusted_hash = "{mine}"\n',
    )

    status, said = run(home, memory_root(tmp_path), "install")

    assert status == 0, said
    written = read_toml(config)
    hooks = written["hooks"]
    assert isinstance(hooks, dict)
    assert hooks["PreToolUse"] == [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": MINE}]}
    ]
    assert hooks["state"][f"{key}:pre_tool_use:0:0"] == {"trusted_hash": mine}
    assert f"{key}:pre_tool_use:0:1" not in hooks["state"]


def test_uninstall_takes_our_inline_hooks_out_too(tmp_path: Path) -> None:
    """An uninstall with nothing in hooks.json still takes our inline hooks (and their trust
    entries) out of config.toml; the user's settings stay."""
    home = tmp_path / "home"
    config = home / ".codex" / "config.toml"
    inline = f"[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\n{handler(OURS)}"
    config_with(home, f'model = "o3"\n\n{inline}\n{old_trust(str(config), "session_start")}')

    status, said = run(home, memory_root(tmp_path), "uninstall")

    assert status == 0, said
    assert read_toml(config) == {"model": "o3"}


def test_install_takes_our_inline_hook_out_of_a_profile_file(tmp_path: Path) -> None:
    """A profile file is a config layer too: ours inline there runs in Sessions started with
    ``--profile work``, so the install takes it out there as well; neither file keeps the
    blank lines around the tables taken out."""
    home = tmp_path / "home"
    inline = f"[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\n{handler(OURS)}"
    config = config_with(home, f'model = "o3"\n\n{inline}')
    profile = home / ".codex" / "work.config.toml"
    profile.write_text(
        f'model = "o4"\n\n[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\n{handler(OURS)}',
        encoding="utf-8",
    )

    status, said = run(home, memory_root(tmp_path), "install")

    assert status == 0, said
    assert profile.read_text(encoding="utf-8") == 'model = "o4"\n'
    assert "\n\n\n" not in config.read_text(encoding="utf-8")  # no gap where ours was
    assert str(profile) in said


def test_status_names_our_inline_hooks(tmp_path: Path) -> None:
    """Inline only: installed there (Codex runs it); beside an install in hooks.json: a
    PROBLEM, both run, and the install that takes it out is named."""
    home = tmp_path / "home"
    config = config_with(
        home, f"[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\n{handler(OURS)}"
    )
    status, said = run(home, memory_root(tmp_path), "status")
    assert "codex: not installed" not in said, said
    assert f"codex: installed in {config}" in said, said

    hooks_json = home / ".codex" / "hooks.json"
    hooks_json.write_text(
        json.dumps(
            {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": OURS}]}]}}
        ),
        encoding="utf-8",
    )
    status, said = run(home, memory_root(tmp_path), "status")
    assert f"codex: installed in {hooks_json}" in said, said
    problem = [line for line in said.splitlines() if "inline [hooks]" in line]
    assert problem and "PROBLEM" in problem[0] and "duplicate" in problem[0], said
    assert "harness-memory install codex" in problem[0]
    assert status != 0


def test_status_names_our_inline_hooks_in_the_projects_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A repository's ``.codex/config.toml`` is a layer Codex reads once the project is
    trusted: a hook of ours inline there runs beside the installed ones, which status in that
    repository names (the install does not edit a repository's files)."""
    home = tmp_path / "home"
    root = memory_root(tmp_path)
    assert run(home, root, "install")[0] == 0
    project = tmp_path / "src" / "app"
    (project / ".git").mkdir(parents=True)
    (project / ".codex").mkdir()
    shared = project / ".codex" / "config.toml"
    shared.write_text(
        f'[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\n{handler(OUR_GUARD)}',
        encoding="utf-8",
    )
    monkeypatch.chdir(project)

    said = run(home, root, "status")[1]

    warned = [line for line in said.splitlines() if str(shared) in line]
    assert warned and "codex: WARNING:" in warned[0] and "inline [hooks]" in warned[0], said


def test_install_rekeys_the_users_handler_in_a_hooks_json_group_it_shared_with_ours(
    tmp_path: Path,
) -> None:
    """The same positions in ``hooks.json``: the user's handler after our guard in one group
    becomes handler 0 when ours goes, and its trust entry moves with it (it used to keep our
    old hash at ``:0:0``, so Codex saw the user's hook as modified and skipped it)."""
    home = tmp_path / "home"
    config = config_with(home, "")
    hooks_json = home / ".codex" / "hooks.json"
    key = str(hooks_json.absolute())
    group = {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": c} for c in (OUR_GUARD, MINE)],
    }
    hooks_json.write_text(json.dumps({"hooks": {"PreToolUse": [group]}}), encoding="utf-8")
    mine = trust_hash("PreToolUse", {"matcher": "Bash"}, {"command": MINE})
    config_with(
        home,
        f"{old_trust(key, 'pre_tool_use')}\n"
        f'[hooks.state."{key}:pre_tool_use:0:1"]\ntrusted_hash = "{mine}"\n',
    )

    status, said = run(home, memory_root(tmp_path), "install")

    assert status == 0, said
    written = json.loads(hooks_json.read_text(encoding="utf-8"))["hooks"]["PreToolUse"]
    assert written[0] == {"matcher": "Bash", "hooks": [{"type": "command", "command": MINE}]}
    state = read_toml(config)["hooks"]["state"]  # type: ignore[index]
    assert state[f"{key}:pre_tool_use:0:0"] == {"trusted_hash": mine}
    assert f"{key}:pre_tool_use:0:1" not in state
    assert state[f"{key}:pre_tool_use:1:0"]["trusted_hash"] == trust_hash(
        "PreToolUse", written[1], written[1]["hooks"][0]
    )


def test_uninstall_keeps_the_users_comment_above_the_next_table(tmp_path: Path) -> None:
    """A comment of the user's above the table after ours stays where it was once ours goes
    (``tomlkit`` keeps it in the table before it: ours), and so does the one inside ours."""
    home = tmp_path / "home"
    inline = f"[[hooks.SessionStart]]\n# c2\n[[hooks.SessionStart.hooks]]\n{handler(OURS)}"
    config = config_with(home, f"{inline}\n# my x comment\n[x]\na = 1\n")

    status, said = run(home, memory_root(tmp_path), "uninstall")

    assert status == 0, said
    assert config.read_text(encoding="utf-8") == "# c2\n\n# my x comment\n[x]\na = 1\n"


def test_install_keeps_the_users_comment_above_their_handler_after_ours(tmp_path: Path) -> None:
    """In a group shared with ours, the user's comment above their own handler right after
    ours stays above it."""
    home = tmp_path / "home"
    config = config_with(
        home,
        f'[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\n{handler(OUR_GUARD)}'
        f"\n# between\n[[hooks.PreToolUse.hooks]]\n{handler(MINE)}",
    )

    status, said = run(home, memory_root(tmp_path), "install")

    assert status == 0, said
    written = config.read_text(encoding="utf-8")
    assert f"# between\n[[hooks.PreToolUse.hooks]]\n{handler(MINE)}" in written, written
    assert OUR_GUARD not in written


def test_status_names_our_inline_hooks_in_a_profile_file(tmp_path: Path) -> None:
    """A profile file's inline hooks run in a Session started with ``--profile work``: ours
    there beside the install in hooks.json are a PROBLEM status names, as in config.toml."""
    home = tmp_path / "home"
    root = memory_root(tmp_path)
    assert run(home, root, "install")[0] == 0
    installed = json.loads((home / ".codex" / "hooks.json").read_text(encoding="utf-8"))
    [group] = installed["hooks"]["SessionStart"]
    command = group["hooks"][0]["command"]
    profile = home / ".codex" / "work.config.toml"
    profile.write_text(
        "[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\n"
        f'type = "command"\ncommand = {json.dumps(command)}\n'
        f"[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\n{handler(OURS)}",
        encoding="utf-8",
    )

    status, said = run(home, root, "status")

    problem = [line for line in said.splitlines() if str(profile) in line]
    assert problem and "codex: PROBLEM:" in problem[0], said
    assert "SessionStart duplicate, SessionStart stale" in problem[0], said
    assert status != 0


def test_status_says_it_cannot_read_the_config_toml_beside_the_install(tmp_path: Path) -> None:
    """A ``config.toml`` that is not TOML: Codex CLI refuses to start with it ("Error loading
    config.toml", exit 1, measured with codex-cli 0.171), so no hook runs; status names the
    file and the parse error and fails, as for any settings it cannot read."""
    home = tmp_path / "home"
    root = memory_root(tmp_path)
    assert run(home, root, "install")[0] == 0
    config = config_with(home, "model = \n")

    status, said = run(home, root, "status")

    named = [line for line in said.splitlines() if str(config) in line]
    assert named and "codex: PROBLEM:" in named[0] and "not valid TOML" in named[0], said
    assert status != 0


def test_uninstall_keeps_the_comments_inside_our_inline_table(tmp_path: Path) -> None:
    """Comments the user wrote inside an inline table of ours (after its header, among its
    values, after a value) stay in the file when the table goes: the install never writes
    inline hooks, so every comment there is the user's."""
    home = tmp_path / "home"
    config = config_with(
        home,
        "[[hooks.SessionStart]]\n# c1\n[[hooks.SessionStart.hooks]] # c2\n# c3\n"
        f'type = "command"\ncommand = "{OURS}" # c4\ntimeout = 30\n\n[x]\na = 1\n',
    )

    status, said = run(home, memory_root(tmp_path), "uninstall")

    assert status == 0, said
    written = config.read_text(encoding="utf-8")
    assert written == "# c1\n# c2\n# c3\n# c4\n[x]\na = 1\n", written


def test_our_inline_hooks_memory_root_leaves_writable_roots_with_them(tmp_path: Path) -> None:
    """The memory root an inline hook of ours names was put into
    ``sandbox_workspace_write.writable_roots`` for it: the install that takes the hook out
    takes that root out (and says so), the user's own roots stay; the uninstall takes out the
    root it added, so the list is the user's alone again."""
    home = tmp_path / "home"
    old = tmp_path / "old" / "agents" / "coder" / "agent_state" / "memory"
    inline = f'command = "{OURS} --memory-root {old}"\n'
    config = config_with(
        home,
        f'[sandbox_workspace_write]\nwritable_roots = ["/srv/mine", "{old}"]\n\n'
        f'[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = "command"\n{inline}',
    )
    root = memory_root(tmp_path)

    status, said = run(home, root, "install")

    assert status == 0, said
    roots = read_toml(config)["sandbox_workspace_write"]["writable_roots"]  # type: ignore[index]
    assert roots == ["/srv/mine", str(root)], roots
    assert f"the former memory root {old} taken out" in said, said
    status, said = run(home, root, "uninstall")
    assert status == 0, said
    assert read_toml(config)["sandbox_workspace_write"] == {"writable_roots": ["/srv/mine"]}


def test_uninstall_takes_out_the_root_of_an_inline_hook_of_ours(tmp_path: Path) -> None:
    """Inline only (no install in hooks.json): the uninstall takes the hook and its memory
    root out, the user's root stays."""
    home = tmp_path / "home"
    root = memory_root(tmp_path)
    config = config_with(
        home,
        f'[sandbox_workspace_write]\nwritable_roots = ["/srv/mine", "{root}"]\n\n'
        "[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\n"
        f'type = "command"\ncommand = "{OURS} --memory-root {root}"\n',
    )

    status, said = run(home, root.parent / "elsewhere", "uninstall")

    assert status == 0, said
    assert read_toml(config) == {"sandbox_workspace_write": {"writable_roots": ["/srv/mine"]}}


OLD_INLINE = (
    'model = "o3"\n\n[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = "command"\n'
    "# I copied this from hooks.json in March\n"
    'command = "{ours} --memory-root /old/mem"{after}\n\n'
    '# sandbox: the old memory folder\n[sandbox_workspace_write]\nwritable_roots = ["/old/mem"]\n'
)


@pytest.mark.parametrize("verb", ["install", "uninstall"])
def test_the_comments_kept_from_our_inline_table_stay_when_its_root_empties_the_sandbox_table(
    tmp_path: Path, verb: str
) -> None:
    """Our inline hook named the only writable root: taking the root out leaves
    ``[sandbox_workspace_write]`` empty. The comments of the hook's table (moved above that
    table) and the one above that table stay in the file, in order, with no run of blank
    lines left where the tables were."""
    home = tmp_path / "home"
    config = config_with(home, OLD_INLINE.format(ours=OURS, after=" # c"))
    root = memory_root(tmp_path)

    status, said = run(home, root, verb)

    assert status == 0, said
    written = config.read_text(encoding="utf-8")
    kept = ["# I copied this from hooks.json in March", "# c", "# sandbox: the old memory folder"]
    assert [line for line in written.splitlines() if line.startswith("#")] == kept, written
    assert "\n\n\n" not in written, written
    assert "/old/mem" not in written, written
    if verb == "install":
        assert read_toml(config)["sandbox_workspace_write"] == {"writable_roots": [str(root)]}
    else:
        assert read_toml(config) == {"model": "o3"}


def test_the_comment_after_our_inline_array_stays(tmp_path: Path) -> None:
    """``SessionStart = [{…ours…}]  # note``: the event goes with our hook, the user's
    comment after it stays in the file."""
    home = tmp_path / "home"
    ours = f'{{hooks = [{{type = "command", command = "{OURS}"}}]}}'
    config = config_with(home, f'model = "o3"\n\n[hooks]\nSessionStart = [{ours}]  # note\n')

    status, said = run(home, memory_root(tmp_path), "uninstall")

    assert status == 0, said
    written = config.read_text(encoding="utf-8")
    assert "# note" in written and OURS not in written, written
    assert read_toml(config) == {"model": "o3"}


def test_the_comment_after_writable_roots_stays_when_the_list_goes(tmp_path: Path) -> None:
    """The list held only the root of our inline hook, the table a setting of the user's too:
    the list goes with the root, the user's comment after it stays in the table."""
    home = tmp_path / "home"
    config = config_with(home, OLD_INLINE.format(ours=OURS, after=""))
    text = config.read_text(encoding="utf-8").replace(
        'writable_roots = ["/old/mem"]\n',
        'network_access = true\nwritable_roots = ["/old/mem"] # mine\n',
    )
    config.write_text(text, encoding="utf-8")

    status, said = run(home, memory_root(tmp_path), "uninstall")

    assert status == 0, said
    written = config.read_text(encoding="utf-8")
    assert "# mine" in written and "/old/mem" not in written, written
    assert read_toml(config) == {"model": "o3", "sandbox_workspace_write": {"network_access": True}}
