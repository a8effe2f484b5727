"""H-6: one memory per Session. ``install`` turns the harness's own memory off and says so,
``uninstall`` puts back exactly what was there
(``tests/data/cases/claude-code-own-memory-stays-on``); where a harness cannot turn its own
memory off, the install says what stays on."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import tomlkit
from harness_memory.cli import main

from tests.plugin.helpers import HARNESS_MEMORY

FILES = {
    "claude-code": ".claude/settings.json",
    "codex": ".codex/config.toml",
    "gemini": ".gemini/settings.json",
}
KEYS = {
    "claude-code": ("autoMemoryEnabled",),
    "codex": ("features", "memories"),
    "gemini": ("experimental", "autoMemory"),
}


def memory_root(tmp_path: Path) -> Path:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    return root


def run(home: Path, verb: str, harness: str, *extra: str) -> tuple[int, str]:
    out = io.StringIO()
    flags = ["--home", str(home)]
    if verb == "install":
        flags += ["--memory-root", str(memory_root(home.parent))]
        flags += ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
        flags += ["--executable", str(HARNESS_MEMORY)]
    status = main([verb, harness, *flags, *extra], environ={"HOME": str(home)}, stdout=out)
    return status, out.getvalue()


def load(home: Path, harness: str) -> Any:
    text = (home / FILES[harness]).read_text(encoding="utf-8")
    return tomlkit.parse(text).unwrap() if harness == "codex" else json.loads(text)


def value_at(document: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        if not isinstance(document, dict) or key not in document:
            return "absent"
        document = document[key]
    return document


def write_setting(home: Path, harness: str, value: bool) -> str:
    path = home / FILES[harness]
    path.parent.mkdir(parents=True, exist_ok=True)
    keys = KEYS[harness]
    if harness == "codex":
        text = f'model = "o3"\n\n[{keys[0]}]\n{keys[1]} = {str(value).lower()}\n'
    else:
        document: dict[str, Any] = {"theme": "dark"}
        (document if len(keys) == 1 else document.setdefault(keys[0], {}))[keys[-1]] = value
        text = json.dumps(document, indent=2) + "\n"
    path.write_text(text, encoding="utf-8")
    return text


def test_claude_code_own_memory_stays_on(tmp_path: Path) -> None:
    """The case: an install into an empty home turns Claude Code's auto memory off, says so, and
    uninstall takes the key out again (it was absent); ``--verbose`` adds that its CLAUDE.md
    files stay loaded."""
    home = tmp_path / "home"
    status, said = run(home, "install", "claude-code", "--verbose")
    assert status == 0
    assert load(home, "claude-code")["autoMemoryEnabled"] is False
    assert "Claude Code's own auto memory: turned off (autoMemoryEnabled = false" in said
    assert "on by default" in said
    assert "CLAUDE.md files stay loaded" in said

    status, said = run(home, "uninstall", "claude-code")
    assert status == 0
    assert not (home / ".claude" / "settings.json").exists()  # the install created it
    assert "autoMemoryEnabled taken out again" in said


def test_claude_code_own_memory_stays_on_dry_run_shows_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    status, shown = run(home, "install", "claude-code", "--dry-run")
    assert status == 0
    assert '+  "autoMemoryEnabled": false' in shown
    assert "turned off (autoMemoryEnabled = false" in shown
    assert not (home / ".claude").exists()


def test_claude_code_own_memory_stays_on_names_the_folders_that_hold_notes(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    folder = home / ".claude" / "projects" / "-home-ada-src-shop-api" / "memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- [a](a.md) — a\n", encoding="utf-8")
    (folder / "a.md").write_text("a\n", encoding="utf-8")
    other = home / ".claude" / "projects" / "-home-ada-src-blog" / "memory"
    other.mkdir(parents=True)
    (other / "MEMORY.md").write_text("- a fact\n", encoding="utf-8")
    status, said = run(home, "install", "claude-code")
    assert status == 0
    assert f"{folder} (2 files)" in said
    assert f"{other} (1 file);" in said or f"{other} (1 file)." in said
    assert "memory-api memory import --from claude-code" in said


@pytest.mark.parametrize("setting", ["~/notes/claude-memory", "{home}/notes/claude-memory/"])
def test_h6_names_the_folder_auto_memory_directory_moves_notes_to(
    tmp_path: Path, setting: str
) -> None:
    """``autoMemoryDirectory`` ``~/…`` is taken inside the home the install is given (``--home``),
    as Claude Code takes it inside that user's home; its notes are named like the others."""
    home = tmp_path / "home"
    folder = home / "notes" / "claude-memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- [a](a.md) — a\n", encoding="utf-8")
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    value = setting.format(home=home)
    settings.write_text(json.dumps({"autoMemoryDirectory": value}), encoding="utf-8")
    status, said = run(home, "install", "claude-code")
    assert status == 0
    assert f"Claude Code's auto memory holds notes in {folder} (1 file)" in said


def test_h6_names_no_folder_for_an_auto_memory_directory_claude_code_ignores(
    tmp_path: Path,
) -> None:
    """A relative ``autoMemoryDirectory`` is ignored by Claude Code (its notes stay in
    ``projects/…/memory``): the install names that folder, not one relative to where it runs."""
    home = tmp_path / "home"
    default = home / ".claude" / "projects" / "-home-ada-shop" / "memory"
    default.mkdir(parents=True)
    (default / "a.md").write_text("a\n", encoding="utf-8")
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"autoMemoryDirectory": "."}), encoding="utf-8"
    )
    status, said = run(home, "install", "claude-code")
    assert status == 0
    assert f"holds notes in {default} (1 file)." in said


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize("before", [True, False])
def test_h6_uninstall_restores_exactly_what_was_there(
    tmp_path: Path, harness: str, before: bool
) -> None:
    home = tmp_path / "home"
    text = write_setting(home, harness, before)
    assert run(home, "install", harness)[0] == 0
    assert value_at(load(home, harness), KEYS[harness]) is False
    assert run(home, "install", harness)[0] == 0  # a re-install must not record its own value
    assert run(home, "uninstall", harness)[0] == 0
    assert value_at(load(home, harness), KEYS[harness]) is before
    if harness == "codex":
        assert (home / FILES[harness]).read_text(encoding="utf-8") == text
    else:
        assert load(home, harness) == json.loads(text)


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h6_absent_key_is_absent_again(tmp_path: Path, harness: str) -> None:
    home = tmp_path / "home"
    assert run(home, "install", harness)[0] == 0
    assert value_at(load(home, harness), KEYS[harness]) is False
    assert run(home, "uninstall", harness)[0] == 0
    path = home / FILES[harness]
    assert not path.exists() or value_at(load(home, harness), KEYS[harness]) == "absent"


@pytest.mark.parametrize(
    ("value", "spelled"), [(None, "null"), ("yes", '"yes"'), (1, "1"), (True, "true")]
)
def test_h6_what_was_there_is_said_as_the_settings_file_spells_it(
    tmp_path: Path, value: Any, spelled: str
) -> None:
    """The install and the uninstall name the value they found as JSON spells it (``null``,
    ``"yes"``), never as Python does (``None``, ``'yes'``)."""
    home = tmp_path / "home"
    path = home / FILES["claude-code"]
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"autoMemoryEnabled": value}), encoding="utf-8")

    said = run(home, "install", "claude-code")[1] + run(home, "uninstall", "claude-code")[1]

    assert f"autoMemoryEnabled was {spelled})." in said
    assert f"autoMemoryEnabled = {spelled} again, as before the install." in said
    assert "None" not in said and "'" + "yes" not in said


AUTO_MEMORY_VARIABLE = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"


def test_h6_claude_code_install_sets_the_variable_that_switches_its_memory_off(
    tmp_path: Path,
) -> None:
    """Claude Code reads ``CLAUDE_CODE_DISABLE_AUTO_MEMORY`` before ``autoMemoryEnabled``: the
    install sets it to ``"1"`` in the settings' ``env`` beside ``autoMemoryEnabled: false``, in
    the dry-run diff and in what it says; uninstall takes it out again (it was absent)."""
    home = tmp_path / "home"
    status, shown = run(home, "install", "claude-code", "--dry-run")
    assert status == 0
    assert f'+    "{AUTO_MEMORY_VARIABLE}": "1"' in shown
    status, said = run(home, "install", "claude-code", "--verbose")  # absent before: a detail
    assert status == 0
    assert load(home, "claude-code")["env"] == {AUTO_MEMORY_VARIABLE: "1"}
    assert f'(env.{AUTO_MEMORY_VARIABLE} = "1"' in said
    status, said = run(home, "uninstall", "claude-code")
    assert status == 0
    assert not (home / ".claude" / "settings.json").exists()  # the install created it


@pytest.mark.parametrize("spelling", ["0", "false", "No", " off "])
def test_h6_a_variable_forcing_claude_codes_memory_on_is_switched_off_and_put_back(
    tmp_path: Path, spelling: str
) -> None:
    """A false value of ``CLAUDE_CODE_DISABLE_AUTO_MEMORY`` in the user's ``env`` forces Claude
    Code's auto memory on whatever ``autoMemoryEnabled`` says (measured on 2.1.332): the install
    turns it off and says what it was, uninstall puts back exactly the user's settings."""
    home = tmp_path / "home"
    path = home / FILES["claude-code"]
    path.parent.mkdir(parents=True)
    before = {"theme": "dark", "env": {AUTO_MEMORY_VARIABLE: spelling, "EDITOR": "vim"}}
    path.write_text(json.dumps(before, indent=2) + "\n", encoding="utf-8")
    status, said = run(home, "install", "claude-code")
    assert status == 0
    installed = load(home, "claude-code")
    assert installed["autoMemoryEnabled"] is False
    assert installed["env"] == {AUTO_MEMORY_VARIABLE: "1", "EDITOR": "vim"}
    assert f"env.{AUTO_MEMORY_VARIABLE} was {json.dumps(spelling)}" in said
    assert run(home, "install", "claude-code")[0] == 0  # a re-install keeps the user's value
    assert run(home, "uninstall", "claude-code")[0] == 0
    assert load(home, "claude-code") == before


def test_h6_a_value_changed_after_the_install_is_left_and_said(tmp_path: Path) -> None:
    home = tmp_path / "home"
    run(home, "install", "claude-code")
    path = home / FILES["claude-code"]
    document = json.loads(path.read_text(encoding="utf-8"))
    document["autoMemoryEnabled"] = True
    path.write_text(json.dumps(document), encoding="utf-8")
    status, said = run(home, "uninstall", "claude-code")
    assert status == 0
    assert load(home, "claude-code")["autoMemoryEnabled"] is True
    assert "left as it is (true): it was changed after the install" in said


def test_h6_gemini_install_says_what_stays_on(tmp_path: Path) -> None:
    status, said = run(tmp_path / "home", "install", "gemini")
    assert status == 0
    assert "Gemini CLI's own memory stays on" in said
    assert "no setting that turns this off" in said
    assert "memory-api memory import --from gemini" in said


@pytest.mark.parametrize(
    "folders", [("memories",), ("memories_v2",), ("memories_v2", "memories")], ids=str
)
def test_h6_codex_install_names_its_memories_folders(
    tmp_path: Path, folders: tuple[str, ...]
) -> None:
    """Codex keeps ``memories/`` and, from its second memory pipeline, ``memories_v2/``: the
    install names each one that holds notes, and the import that reads both."""
    home = tmp_path / "home"
    for folder in folders:
        (home / ".codex" / folder).mkdir(parents=True)
        (home / ".codex" / folder / "memory_summary.md").write_text("v1\n", encoding="utf-8")
    (home / ".codex" / "memories_v3").mkdir()  # not Codex's: never named
    status, said = run(home, "install", "codex")
    assert status == 0
    assert "Codex CLI's own memories: turned off (features.memories = false" in said
    named = " and ".join(str(home / ".codex" / folder) for folder in folders)
    assert f"Codex CLI's memories stay on disk in {named}; Codex no longer reads them" in said
    assert "memories_v3" not in said
    assert "memory-api memory import --from codex" in said


def test_h6_codex_install_names_no_empty_memories_folder(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".codex" / "memories_v2").mkdir(parents=True)
    status, said = run(home, "install", "codex")
    assert status == 0
    assert "stay on disk" not in said


PROFILES = {
    "work.config.toml": "model = 'gpt-5'\n[features]\nmemories = true\n",  # turns it on
    "review.config.toml": "[features]\nmemories = false\n",
    "quiet.config.toml": "model = 'gpt-5'\n",
    "broken.config.toml": "[features\nmemories = true\n",  # Codex refuses it too
    "notes.toml": "[features]\nmemories = true\n",  # no profile file
}


def status_of(home: Path) -> str:
    out = io.StringIO()
    main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    return out.getvalue()


def test_h6_codex_install_turns_its_memories_off_in_a_profile_too_and_uninstall_puts_it_back(
    tmp_path: Path,
) -> None:
    """Codex 0.171 lays ``$CODEX_HOME/NAME.config.toml`` over ``config.toml`` for ``--profile
    NAME``: a profile file saying ``[features] memories = true`` would bring Codex's own memory
    back (``test_e2e_h6_one_memory.py``). The install sets it off there too, keeping the file's
    comments, and says so; other profile files (and other files) stay as they are; uninstall
    gives each file back byte for byte and leaves no backup of it."""
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    work = "# my work profile\nmodel = 'gpt-5'\n[features]\nmemories = true  # I like it\n"
    profiles = {**PROFILES, "work.config.toml": work}
    for name, text in profiles.items():
        (home / ".codex" / name).write_text(text, encoding="utf-8")
    profile = home / ".codex" / "work.config.toml"

    status, said = run(home, "install", "codex")

    assert status == 0
    assert tomlkit.parse(profile.read_text(encoding="utf-8")).unwrap()["features"] == {
        "memories": False
    }
    assert "# my work profile" in profile.read_text(encoding="utf-8")
    assert (
        f"Codex CLI's own memories in the profile file {profile}: turned off "
        "(features.memories = false; features.memories was true)"
    ) in said
    for name, text in profiles.items():
        if name != "work.config.toml":
            assert (home / ".codex" / name).read_text(encoding="utf-8") == text
    assert "stay on in Sessions started with" not in status_of(home)

    status, said = run(home, "uninstall", "codex")

    assert status == 0
    assert profile.read_text(encoding="utf-8") == work
    assert f"in the profile file {profile}: features.memories = true again" in said
    assert not list((home / ".codex").glob("work.config.toml.harness-memory-backup-*"))


def test_p3_codex_install_turns_terminals_off_in_a_profile_too_and_uninstall_puts_them_back(
    tmp_path: Path,
) -> None:
    """A profile file's ``unified_exec_tty = true`` would give the model terminals whose input
    no hook sees (``guard_gaps``): the install sets it off there too, and says so; ``status``
    names a profile that turns it on after the install; uninstall puts back what it found."""
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    tty = "[features]\nunified_exec_tty = true\nmemories = true\n"
    profile = home / ".codex" / "tty.config.toml"
    profile.write_text(tty, encoding="utf-8")

    status, said = run(home, "install", "codex")

    assert status == 0
    features = tomlkit.parse(profile.read_text(encoding="utf-8")).unwrap()["features"]
    assert features == {"unified_exec_tty": False, "memories": False}
    assert f"interactive terminals (exec_command with tty) in the profile file {profile}" in said
    (home / ".codex" / "later.config.toml").write_text(tty, encoding="utf-8")
    shown = status_of(home)
    assert "terminals, whose input the write guard never sees, are on in Sessions started " in shown
    assert "`--profile later`" in shown and "`--profile tty`" not in shown

    assert run(home, "uninstall", "codex")[0] == 0
    assert profile.read_text(encoding="utf-8") == tty


def test_h6_status_names_a_codex_profile_that_turns_its_memories_on_after_the_install(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    assert run(home, "install", "codex")[0] == 0
    profile = home / ".codex" / "work.config.toml"
    profile.write_text(PROFILES["work.config.toml"], encoding="utf-8")

    said = status_of(home)

    assert (
        "codex: WARNING: Codex CLI's own memories stay on in Sessions started with `--profile "
        f"work`: {profile} says [features] memories = true"
    ) in said
    assert "Run `harness-memory install codex` again to set it off there" in said
    profile.write_text("[features]\nmemories = false\n", encoding="utf-8")
    assert "stay on in Sessions started with" not in status_of(home)


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h6_uninstall_removes_its_state_folder_and_says_what_it_leaves(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    run(home, "install", harness)
    state = (home / FILES[harness]).parent / "harness-memory"
    (state / "sessions").mkdir()
    (state / "sessions" / "s1.json").write_text("{}", encoding="utf-8")
    status, said = run(home, "uninstall", harness)
    assert status == 0
    assert not state.exists()
    assert "harness-memory/install.json" in said  # inside the folder said removed (H-3)

    run(home, "install", harness)
    (state / "notes.txt").write_text("mine\n", encoding="utf-8")
    status, said = run(home, "uninstall", harness)
    assert status == 0
    assert sorted(p.name for p in state.iterdir()) == ["notes.txt"]
    assert f"left {state / 'notes.txt'} (not made by harness-memory)" in said


@pytest.mark.parametrize(
    ("changed", "said"),
    [
        (
            {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}},
            'sets env.CLAUDE_CODE_DISABLE_AUTO_MEMORY to "0", which turns it on.',
        ),
        (
            {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": False}},
            "sets env.CLAUDE_CODE_DISABLE_AUTO_MEMORY to false, which turns it on.",
        ),
        (
            {"env": {}, "autoMemoryEnabled": True},
            "sets autoMemoryEnabled to true, which turns it on.",
        ),
        (
            {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": ""}, "autoMemoryEnabled": None},
            'sets env.CLAUDE_CODE_DISABLE_AUTO_MEMORY to "", which does not turn it off, and no '
            "autoMemoryEnabled, so it is on by default.",
        ),
        (
            {"env": None, "autoMemoryEnabled": None},
            "sets neither CLAUDE_CODE_DISABLE_AUTO_MEMORY nor autoMemoryEnabled, so it is on by "
            "default.",
        ),
        ({"autoMemoryEnabled": True}, None),  # the variable still "1": it wins, memory off
        ({}, None),
    ],
    ids=[
        "variable-0",
        "variable-false",
        "enabled-true",
        "variable-empty",
        "neither",
        "enabled-only",
        "as-left",
    ],
)
def test_h6_status_names_claude_codes_own_memory_turned_on_after_the_install(
    tmp_path: Path, changed: dict[str, Any], said: str | None
) -> None:
    """Claude Code's own memory turned back on in the settings the install wrote (by hand,
    another tool) ran beside Agent Memory with nothing said; status says it, and the fix."""
    home = tmp_path / "home"
    assert run(home, "install", "claude-code")[0] == 0
    settings = home / FILES["claude-code"]
    document = json.loads(settings.read_text(encoding="utf-8"))
    document.update(changed)
    document = {key: value for key, value in document.items() if value is not None}
    settings.write_text(json.dumps(document), encoding="utf-8")

    out = status_of(home)

    if said is None:
        assert "own auto memory is on" not in out
    else:
        assert (
            "claude-code: WARNING: Claude Code's own auto memory is on beside Agent Memory: "
            f"{settings} {said}" in out
        )
        assert (
            "Run `harness-memory install claude-code` to turn it off (it sets "
            'CLAUDE_CODE_DISABLE_AUTO_MEMORY to "1" and autoMemoryEnabled to false)' in out
        )
        assert "changed since the install" not in out  # an older install may have set neither


def test_h6_status_says_nothing_of_the_user_settings_a_managed_install_overrules(
    tmp_path: Path,
) -> None:
    """Claude Code's managed settings win over the user's: with ``install claude-code --managed
    DIR`` (``CLAUDE_CODE_DISABLE_AUTO_MEMORY`` ``"1"`` there), the user file's variable set to
    ``"0"`` turns nothing on, and status warned that it did. Without the managed install it
    does warn."""
    home, managed = tmp_path / "home", tmp_path / "managed"
    assert run(home, "install", "claude-code")[0] == 0
    settings = home / FILES["claude-code"]
    document = json.loads(settings.read_text(encoding="utf-8"))
    document["env"]["CLAUDE_CODE_DISABLE_AUTO_MEMORY"] = "0"
    settings.write_text(json.dumps(document), encoding="utf-8")

    def status_with(flags: list[str]) -> str:
        out = io.StringIO()
        main(["status", "--home", str(home), *flags], environ={"HOME": str(home)}, stdout=out)
        return out.getvalue()

    assert "claude-code: WARNING: Claude Code's own auto memory is on" in status_with([])
    assert run(home, "install", "claude-code", "--managed", str(managed))[0] == 0
    out = status_with(["--managed", str(managed)])
    assert "claude-code (managed): installed" in out, out
    assert "own auto memory is on" not in out
