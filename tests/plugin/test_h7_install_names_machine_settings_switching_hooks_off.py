"""H-7, P-3: ``install claude-code`` and ``install gemini`` say at once when this machine's
settings keep the hooks of the user's settings from running, in ``status``'s own words, and
exit 1 as ``install codex`` does for Codex's ``requirements.toml`` (the hooks are written: they
run once it is gone).

Claude Code's managed settings (``/etc/claude-code/managed-settings.json``) saying
``"disableAllHooks": true`` run no hook, and ``"allowManagedHooksOnly": true`` none of the user's
settings; Gemini CLI merges its system settings (``$GEMINI_CLI_SYSTEM_SETTINGS_PATH``) over the
user's, so their ``hooksConfig.enabled: false``, a ``hooksConfig.disabled`` naming ours or a
``"hooks"`` that is no object hold. Before, both installs said success and the agent never got
memory until ``status`` was run. Only keys and types are named, never a value (those files may
hold a token). A ``--dry-run`` says it too and exits 1 as the run would (the rule for dry
runs), without the ``next:`` command (it would install hooks that do not run). A managed
install writes our hooks into those very settings: Claude Code's ``allowManagedHooksOnly``
lets them run, Codex's ``allow_managed_hooks_only`` too, and Gemini's install turns
``hooksConfig.enabled`` on.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness_memory.installers import claude_code, codex_managed

from tests.plugin.test_h7_status_names_codex_hooks_it_skips import FLAGS, cli

MACHINE = {
    ("claude-code", '{"disableAllHooks": true, "env": {"TOKEN": "Bearer sk-live-SECRET1"}}'): (
        'this machine\'s settings, switch the hooks of your settings off ("disableAllHooks": true)'
    ),
    ("claude-code", '{"allowManagedHooksOnly": true}'): (
        'lets only managed hooks run ("allowManagedHooksOnly": true)'
    ),
    ("gemini", '{"hooksConfig": {"enabled": false}}'): (
        "this machine's settings, switch the hooks of your settings off "
        "(hooksConfig.enabled: false)"
    ),
    # Gemini CLI 0.61 reads the strings "true"/"false" (any case) in its settings as booleans
    # (measured: "false" in the system settings or the user's runs no hook, "true" runs them)
    ("gemini", '{"hooksConfig": {"enabled": "False"}}'): (
        "this machine's settings, switch the hooks of your settings off "
        "(hooksConfig.enabled: false)"
    ),
    ("gemini", '{"hooksConfig": {"disabled": ["agent-memory-before-tool"]}}'): (
        "this machine's settings, switch the hooks of your settings off "
        "(hooksConfig.disabled lists agent-memory-before-tool)"
    ),
    ("gemini", '{"hooks": "Bearer sk-live-SECRET2"}'): (
        "this machine's settings, switch the hooks of your settings off "
        '("hooks": a string replaces every hook of your settings)'
    ),
    # Gemini CLI 0.61 then runs no hook of the user's settings (measured:
    # test_e2e_gemini_repository_switches_hooks_off.py::test_gemini_system_settings_hooks_null_…)
    ("gemini", '{"hooks": null}'): (
        "this machine's settings, switch the hooks of your settings off "
        '("hooks": null replaces every hook of your settings)'
    ),
}
"""(harness, this machine's settings) → what the install and ``status`` say after the path."""
LEFT_ON = {"claude-code": '{"allowManagedHooksOnly": false}', "gemini": '{"hooksConfig": {}}'}


def machine_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str, text: str
) -> tuple[Path, dict[str, str]]:
    """``(the machine's settings file of harness holding text, the environment)``: the folder
    stands in for ``/etc/claude-code``, ``/etc/codex``, ``/etc/gemini-cli``."""
    folder = tmp_path / "etc" / harness
    folder.mkdir(parents=True)
    name = {"claude-code": "managed-settings.json", "codex": "requirements.toml"}
    path = folder / name.get(harness, "settings.json")
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(claude_code, "managed_dir", lambda *_: folder)
    monkeypatch.setattr(codex_managed, "DEFAULT_DIR", folder)
    return path, {"GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(folder / "settings.json")}


def checked_flags(tmp_path: Path) -> list[str]:
    """:data:`FLAGS` without ``--no-check``, which skips this machine's settings too (settings
    prepared for another machine), ``--executable`` an executable stand-in in ``tmp_path`` (the
    check refuses a missing one); the service at ``127.0.0.1:9`` answering nothing is a
    warning only."""
    stub = tmp_path / "bin" / "harness-memory"
    stub.parent.mkdir(parents=True, exist_ok=True)
    stub.write_text("#!/bin/sh\n", encoding="utf-8")
    stub.chmod(0o755)
    flags = [flag for flag in FLAGS if flag != "--no-check"]
    return [*flags[: flags.index("--executable")], "--executable", str(stub)]


def install(tmp_path: Path, harness: str, env: dict[str, str], *more: str) -> tuple[int, str]:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    home = tmp_path / "home"
    flags = checked_flags(tmp_path)
    return cli(home, "install", harness, *flags, "--memory-root", str(root), *more, **env)


@pytest.mark.parametrize(("harness", "text"), list(MACHINE), ids=str)
def test_install_says_the_machines_settings_switch_its_hooks_off_as_status_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str, text: str
) -> None:
    path, env = machine_settings(tmp_path, monkeypatch, harness, text)

    code, said = install(tmp_path, harness, env)

    problem = next(line for line in said.splitlines() if ": PROBLEM: " in line)
    assert problem.startswith(f"{harness}: PROBLEM: {path}") and MACHINE[harness, text] in problem
    assert "sk-live" not in said
    assert code == 1
    assert (tmp_path / "home" / f".{harness.split('-')[0]}" / "settings.json").exists()
    _, status = cli(tmp_path / "home", "status", **env)  # the hooks run once it is gone
    assert problem in status.splitlines(), status  # one sentence, status's own
    path.write_text(LEFT_ON[harness], encoding="utf-8")
    code, said = install(tmp_path, harness, env)
    assert code == 0 and ": PROBLEM: " not in said, said


@pytest.mark.parametrize(("harness", "text"), list(MACHINE)[:3], ids=str)
def test_no_check_leaves_this_machines_settings_unchecked_as_its_help_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str, text: str
) -> None:
    """``--no-check`` writes "settings prepared for another machine" (its help, the README):
    this machine's settings say nothing of where they run. Before, the install said this
    machine's PROBLEM and exited 1 all the same; ``status`` on this machine still says it."""
    path, env = machine_settings(tmp_path, monkeypatch, harness, text)

    code, said = install(tmp_path, harness, env, "--no-check")

    assert code == 0, said
    assert ": PROBLEM: " not in said, said
    _, status = cli(tmp_path / "home", "status", **env)
    assert f"{harness}: PROBLEM: {path}" in status, status


@pytest.mark.parametrize(
    ("harness", "text"),
    [key for key in MACHINE if "sk-live" in key[1] or "allowManaged" in key[1]],
    ids=str,
)
def test_a_dry_run_says_it_without_a_next_command_and_exits_1_as_the_run_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str, text: str
) -> None:
    path, env = machine_settings(tmp_path, monkeypatch, harness, text)

    code, said = install(tmp_path, harness, env, "--dry-run")

    assert f"{harness}: PROBLEM: {path}" in said, said
    assert "next:" not in said
    assert "sk-live" not in said
    assert code == 1
    assert not (tmp_path / "home").exists()  # nothing written


MANAGED_RUN = {
    "claude-code": '{"allowManagedHooksOnly": true}',
    "codex": "allow_managed_hooks_only = true\n",
    "gemini": '{"hooksConfig": {"enabled": false}}',
}
"""This machine's settings a managed install writes our hooks into, where they run."""


@pytest.mark.parametrize("harness", list(MANAGED_RUN))
def test_a_managed_install_into_settings_that_run_only_managed_hooks_is_no_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str
) -> None:
    path, env = machine_settings(tmp_path, monkeypatch, harness, MANAGED_RUN[harness])
    where = str(path if harness == "gemini" else path.parent)

    code, said = install(tmp_path, harness, env, "--managed", where)

    assert code == 0, said
    assert ": PROBLEM: " not in said and "this machine's settings" not in said, said


def test_a_managed_codex_install_refuses_requirements_naming_features_by_their_other_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Codex reads ``[feature_requirements]`` as ``[features]`` (a serde alias): the pins the
    install writes under ``[features]`` beside it would make the field twice, a file Codex
    refuses; before, the install wrote that file and said nothing."""
    text = "[feature_requirements]\nhooks = false\n"
    path, env = machine_settings(tmp_path, monkeypatch, "codex", text)

    code, said = install(tmp_path, "codex", env, "--managed", str(path.parent))

    assert code == 1, said
    assert f"{path}: [feature_requirements] is Codex CLI's other name for [features]" in (
        caplog.text
    )
    assert path.read_text(encoding="utf-8") == text  # nothing was changed


def test_status_says_a_managed_codex_install_whose_feature_requirements_switch_hooks_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``[feature_requirements] hooks = false`` in the requirements holding our hooks switches
    them off too (``allow_managed_hooks_only`` does not); before, ``status`` said nothing."""
    path, env = machine_settings(tmp_path, monkeypatch, "codex", "")
    assert install(tmp_path, "codex", env, "--managed", str(path.parent))[0] == 0
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("[features]\nhooks = true", "[feature_requirements]\nhooks = false"),
        encoding="utf-8",
    )

    code, said = cli(tmp_path / "home", "status", "--managed", str(path.parent), **env)

    assert (
        f"codex (managed): PROBLEM: {path} switches these hooks off itself "
        "([feature_requirements] hooks = false)"
    ) in said, said
    assert code == 1


def test_a_managed_gemini_install_into_system_settings_disabling_its_hooks_warns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The system settings' own ``hooksConfig.disabled`` naming a managed hook of ours (its
    random name read from them) switches it off for every user, as a user install's file does
    its own: a WARNING, the setting kept (``status`` says PROBLEM); before, nothing was said."""
    path, env = machine_settings(tmp_path, monkeypatch, "gemini", "{}")
    where = ("--managed", str(path))
    assert install(tmp_path, "gemini", env, *where)[0] == 0
    document = json.loads(path.read_text(encoding="utf-8"))
    name = document["hooks"]["SessionStart"][0]["hooks"][0]["name"]
    document["hooksConfig"]["disabled"] = [name]
    path.write_text(json.dumps(document), encoding="utf-8")

    code, said = install(tmp_path, "gemini", env, *where)

    warning = f"gemini: WARNING: {path} switches these hooks off itself (hooksConfig.disabled "
    assert f"{warning}lists {name})" in said, said
    assert code == 0
    assert name in json.loads(path.read_text(encoding="utf-8"))["hooksConfig"]["disabled"]


EVERY_HOOK_OFF = {
    "claude-code": '"disableAllHooks": true',
    "codex": "[features] hooks = false",
    "gemini": "hooksConfig.enabled: false",
}
"""What switches off every hook of this machine's settings holding a managed install's, ours
too (:func:`~harness_memory.installers.own_switches.every_hook_off`)."""


def managed_install_switched_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str
) -> tuple[Path, dict[str, str]]:
    """``(this machine's settings, the environment)`` after a managed install of ``harness``
    into them, then every hook switched off there (:data:`EVERY_HOOK_OFF`)."""
    path, env = machine_settings(tmp_path, monkeypatch, harness, "" if harness == "codex" else "{}")
    where = str(path if harness == "gemini" else path.parent)
    assert install(tmp_path, harness, env, "--managed", where)[0] == 0
    if harness == "codex":
        text = path.read_text(encoding="utf-8")
        assert "[features]\nhooks = true" in text, text
        path.write_text(text.replace("[features]\nhooks = true", "[features]\nhooks = false"))
        return path, env
    document = json.loads(path.read_text(encoding="utf-8"))
    if harness == "gemini":
        document["hooksConfig"]["enabled"] = False
    else:
        document["disableAllHooks"] = True
    path.write_text(json.dumps(document), encoding="utf-8")
    return path, env


@pytest.mark.parametrize("harness", list(EVERY_HOOK_OFF))
def test_managed_settings_holding_our_hooks_and_disabling_all_hooks_are_a_problem_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str
) -> None:
    """Claude Code's managed ``"disableAllHooks": true`` switches off every hook, the managed
    settings' own too (only the managed level can switch managed hooks off: Claude Code's
    hooks docs, anthropics/claude-code#10544), as Codex's requirements' ``[features] hooks =
    false`` and Gemini's system ``hooksConfig.enabled: false`` do: with our managed hooks in
    them, a user install's hooks run no more than theirs do. Before, the user install said
    only that the managed install "already runs these hooks for every user" (a WARNING, exit
    0) and ``status`` had no PROBLEM line for the user's hooks."""
    path, env = managed_install_switched_off(tmp_path, monkeypatch, harness)

    code, said = install(tmp_path, harness, env)

    problem = (
        f"{harness}: PROBLEM: {path}, this machine's settings, switch the hooks of your "
        f"settings off ({EVERY_HOOK_OFF[harness]})"
    )
    assert problem in said, said
    assert "already runs these hooks for every user" not in said, said
    assert code == 1
    code, status = cli(tmp_path / "home", "status", **env)
    line = next(line for line in said.splitlines() if line.startswith(problem))
    assert line in status.splitlines(), status
    assert code == 1


def test_no_check_says_nothing_of_a_managed_install_it_does_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--no-check`` reads none of this machine's settings (its help): no WARNING that a
    managed install "already runs these hooks for every user" (before, said even when those
    managed settings switch every hook off)."""
    _, env = managed_install_switched_off(tmp_path, monkeypatch, "claude-code")

    code, said = install(tmp_path, "claude-code", env, "--no-check")

    assert "already runs these hooks" not in said, said
    assert ": PROBLEM: " not in said, said
    assert code == 0, said
