"""H-3, H-6, H-7: ``status`` reads the Codex CLI settings layers Codex itself reads.

Codex CLI 0.171 (codex-rs ``config/src/loader/mod.rs``, ``load_config_layers_state``) takes
``project_root_markers`` from the layers merged before the project layers: the system
``/etc/codex/config.toml``, the user's ``config.toml``, the profile file of ``--profile NAME``
(``$CODEX_HOME/NAME.config.toml``) and ``-c`` overrides; it reads ``[hooks.state]`` (the trust
of each hook) from the user layers only, a profile file's over ``config.toml`` field by field
(``hooks/src/config_rules.rs``, ``hook_states_from_stack``); in a linked worktree a project
layer's hooks, and so their trust keys, are the main checkout's (``loader``,
``root_checkout_hooks_folder_for_dir``); and with the requirements'
``allow_managed_hooks_only = true`` it skips every layer but the managed ones, a project's
included (``hooks/src/engine/discovery.rs``, ``HookDiscoveryPolicy::allows``). Codex reads its
system ``config.toml`` from ``/etc/codex`` alone (a monkeypatched stand-in here), never from
the ``DIR`` of ``status --managed DIR``; that folder's ``requirements.toml`` stands in for the
one beside it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.plugin.test_h3_codex_project_hooks import (
    git,
    memory_root,
    project_with_its_own_install,
    run,
    trust_in_the_users_config,
)


def named(said: str, path: Path) -> list[str]:
    """The lines of ``said`` naming ``path`` as a file holding hooks of ours."""
    return [line for line in said.splitlines() if f"{path} holds" in line]


def hg_project_with_its_own_install(tmp_path: Path, home: Path) -> tuple[Path, Path]:
    """``(a subfolder, the project's .codex)``: a Mercurial project (``.hg``, no ``.git``)
    whose ``.codex/`` got an install of its own, beside the user install."""
    project = tmp_path / "src" / "app"
    (project / ".hg").mkdir(parents=True)
    folder = project / ".codex"
    root = memory_root(tmp_path)
    assert run(home, "install", "--memory-root", str(root), codex_home=folder)[0] == 0
    assert run(home, "install", "--memory-root", str(root))[0] == 0
    (project / "lib").mkdir()
    return project / "lib", folder


def etc_codex_saying(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, image: str
) -> list[str]:
    """The stand-in for ``/etc/codex`` (Codex's ``DEFAULT_DIR``) whose ``config.toml`` is
    ``text``, and the flags of ``status --managed DIR``, ``DIR`` another folder whose
    ``config.toml`` is ``image``: Codex never reads that one (it reads its system layer from
    ``/etc/codex`` alone), so neither does ``status``."""
    from harness_memory.installers import codex_managed

    system = tmp_path / "etc" / "codex"
    system.mkdir(parents=True)
    (system / "config.toml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(codex_managed, "DEFAULT_DIR", system)
    folder = tmp_path / "image" / "codex"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text(image, encoding="utf-8")
    return ["--managed", str(folder)]


def test_the_systems_project_root_markers_are_read_under_the_users(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/etc/codex/config.toml`` saying ``project_root_markers = [".hg"]`` (the user's file
    saying none): Codex walks up to the ``.hg`` folder, and status names ours there, also
    given ``--managed DIR`` whose ``config.toml`` says ``[]`` (before, status read the
    markers from ``DIR``'s, a file Codex never reads, and named none)."""
    home = tmp_path / "home"
    subfolder, folder = hg_project_with_its_own_install(tmp_path, home)
    hg, none = 'project_root_markers = [".hg"]\n', "project_root_markers = []\n"
    flags = etc_codex_saying(tmp_path, monkeypatch, hg, none)
    monkeypatch.chdir(subfolder)

    assert named(run(home, "status")[1], folder / "hooks.json")
    said = run(home, "status", *flags)[1]

    assert named(said, folder / "hooks.json"), said


def test_a_managed_dirs_project_root_markers_are_not_codexs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``status --managed DIR`` whose ``config.toml`` says ``project_root_markers = [".hg"]``,
    ``/etc/codex`` saying none: Codex walks up to a ``.git`` only, so ours at the ``.hg``
    root is not named (before, it was, as if Codex read ``DIR``'s)."""
    home = tmp_path / "home"
    subfolder, folder = hg_project_with_its_own_install(tmp_path, home)
    flags = etc_codex_saying(tmp_path, monkeypatch, "", 'project_root_markers = [".hg"]\n')
    monkeypatch.chdir(subfolder)

    said = run(home, "status", *flags)[1]

    assert not named(said, folder / "hooks.json"), said


def test_the_users_project_root_markers_hold_over_the_systems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's ``project_root_markers = []`` over the system's ``[".hg"]``: the Workspace's
    own folder alone, so ours at the root is not named."""
    home = tmp_path / "home"
    subfolder, folder = hg_project_with_its_own_install(tmp_path, home)
    flags = etc_codex_saying(tmp_path, monkeypatch, 'project_root_markers = [".hg"]\n', "")
    config = home / ".codex" / "config.toml"
    config.write_text("project_root_markers = []\n" + config.read_text(encoding="utf-8"))
    monkeypatch.chdir(subfolder)

    said = run(home, "status", *flags)[1]

    assert not named(said, folder / "hooks.json"), said


def test_a_profile_files_project_root_markers_are_named_with_its_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A profile file ``hg.config.toml`` saying ``project_root_markers = [".hg"]``: in
    Sessions started with ``--profile hg`` Codex walks up to the ``.hg`` folder; status names
    ours there for that profile."""
    home = tmp_path / "home"
    subfolder, folder = hg_project_with_its_own_install(tmp_path, home)
    profile = home / ".codex" / "hg.config.toml"
    profile.write_text('project_root_markers = [".hg"]\n', encoding="utf-8")
    monkeypatch.chdir(subfolder)

    said = run(home, "status")[1]

    lines = named(said, folder / "hooks.json")
    assert lines and "in Sessions started with `--profile hg`" in lines[0], said


def test_trust_a_profile_file_gives_a_project_hook_is_named_with_its_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The trust of the project's SessionStart of ours written in a profile file (the user
    layer of ``--profile work``): Codex runs it beside the installed one in those Sessions;
    status says PROBLEM for that profile and fails."""
    home = tmp_path / "home"
    project = project_with_its_own_install(tmp_path, home, memory_root(tmp_path))
    hooks_json = project / ".codex" / "hooks.json"
    config = home / ".codex" / "config.toml"
    before = config.read_text(encoding="utf-8")
    trust_in_the_users_config(home, hooks_json)
    added = config.read_text(encoding="utf-8").removeprefix(before)
    config.write_text(before, encoding="utf-8")
    (home / ".codex" / "work.config.toml").write_text(added, encoding="utf-8")
    monkeypatch.chdir(project)

    code, said = run(home, "status")

    lines = named(said, hooks_json)
    assert [line for line in lines if line.startswith("codex: WARNING:")], said
    [line] = [line for line in lines if "`--profile work`" in line]
    assert line.startswith("codex: PROBLEM:"), line
    assert code != 0


def test_a_profile_file_switching_our_user_hook_off_is_named(tmp_path: Path) -> None:
    """A profile file's ``[hooks.state."<hooks.json>:session_start:0:0"] enabled = false``
    laid over the user's trust: Codex skips that hook in ``--profile quiet`` Sessions."""
    home = tmp_path / "home"
    assert run(home, "install", "--memory-root", str(memory_root(tmp_path)))[0] == 0
    key = f"{home / '.codex' / 'hooks.json'}:session_start:0:0"
    profile = home / ".codex" / "quiet.config.toml"
    profile.write_text(f'[hooks.state."{key}"]\nenabled = false\n', encoding="utf-8")

    code, said = run(home, "status")

    lines = [line for line in said.splitlines() if "`--profile quiet`" in line]
    assert lines and lines[0].startswith("codex: PROBLEM:"), said
    assert "SessionStart hook switched off" in lines[0] and str(profile) in lines[0], lines[0]
    assert code != 0
    profile.write_text(f'[hooks.state."{key}"]\nenabled = true\n', encoding="utf-8")
    assert "`--profile quiet`" not in run(home, "status")[1]


def test_stale_trust_of_a_main_checkouts_hook_is_named_in_its_linked_worktree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a linked worktree Codex keys a project layer's hooks by the main checkout's
    ``.codex/``: the user's trust left for a hook no longer there is warned of from the
    worktree too (an identical hook put there again runs without Codex asking)."""
    home = tmp_path / "home"
    root = memory_root(tmp_path)
    main_checkout = tmp_path / "src" / "main"
    folder = main_checkout / ".codex"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text('model = "o3"\n', encoding="utf-8")
    git("init", "-q", cwd=main_checkout)
    git("add", ".codex/config.toml", cwd=main_checkout)
    git("commit", "-q", "-m", "codex config", cwd=main_checkout)
    assert run(home, "install", "--memory-root", str(root), codex_home=folder)[0] == 0
    assert run(home, "install", "--memory-root", str(root))[0] == 0
    worktree = tmp_path / "src" / "wt"
    git("worktree", "add", "-q", str(worktree), cwd=main_checkout)
    trust_in_the_users_config(home, folder / "hooks.json")
    (folder / "hooks.json").unlink()
    monkeypatch.chdir(worktree)

    said = run(home, "status")[1]

    key = f"{folder / 'hooks.json'}:session_start:0:0"
    lines = [line for line in said.splitlines() if key in line]
    assert lines and lines[0].startswith("codex: WARNING:"), said


def managed_only(tmp_path: Path, home: Path, *, only: bool) -> Path:
    """A managed install into ``DIR`` (stands in for ``/etc/codex``), its requirements saying
    ``allow_managed_hooks_only = true`` when ``only``; returns ``DIR``."""
    system = tmp_path / "etc" / "codex"
    flags = ["--memory-root", str(memory_root(tmp_path)), "--managed", str(system)]
    assert run(home, "install", *flags)[0] == 0
    if only:
        requirements = system / "requirements.toml"
        text = requirements.read_text(encoding="utf-8")
        requirements.write_text("allow_managed_hooks_only = true\n" + text, encoding="utf-8")
    return system


def test_managed_hooks_only_keeps_a_trusted_projects_hooks_from_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``allow_managed_hooks_only = true``: Codex skips the project layer's hooks, trusted or
    not, so ours there inject nothing twice; status names them without a PROBLEM."""
    home = tmp_path / "home"
    project = project_with_its_own_install(tmp_path, home, memory_root(tmp_path))
    hooks_json = project / ".codex" / "hooks.json"
    trust_in_the_users_config(home, hooks_json)
    system = managed_only(tmp_path, home, only=True)
    monkeypatch.chdir(project)

    said = run(home, "status", "--managed", str(system))[1]

    lines = named(said, hooks_json)
    assert lines and lines[0].startswith("codex: note:"), said
    assert "allow_managed_hooks_only = true" in lines[0], lines[0]
    assert not [line for line in said.splitlines() if "injected twice" in line], said


def test_a_trusted_projects_hooks_beside_the_managed_install_are_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The managed install alone (no user install), managed hooks not the only ones: a
    trusted project's hooks of ours run beside the managed ones; status says PROBLEM."""
    home = tmp_path / "home"
    project = tmp_path / "src" / "app"
    (project / ".git").mkdir(parents=True)
    folder = project / ".codex"
    flags = ["--memory-root", str(memory_root(tmp_path))]
    assert run(home, "install", *flags, codex_home=folder)[0] == 0
    (home / ".codex").mkdir(parents=True)  # no user install
    (home / ".codex" / "config.toml").write_text("", encoding="utf-8")
    trust_in_the_users_config(home, folder / "hooks.json")
    system = managed_only(tmp_path, home, only=False)
    monkeypatch.chdir(project)

    code, said = run(home, "status", "--managed", str(system))

    lines = named(said, folder / "hooks.json")
    assert lines and lines[0].startswith("codex: PROBLEM:"), said
    assert "SessionStart duplicate" in lines[0], lines[0]
    assert code != 0
    assert json.loads((folder / "hooks.json").read_text(encoding="utf-8"))["hooks"]


def test_the_systems_config_switching_hooks_off_is_named_unless_the_users_turns_them_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/etc/codex/config.toml`` is the lowest layer, ``[features]`` merged key by key: its
    ``hooks = false`` switches the user's hooks off while the user's ``config.toml`` sets no
    ``hooks``; install warns, status says PROBLEM; the user's ``hooks = true`` holds over it."""
    from harness_memory.installers import codex_managed

    home = tmp_path / "home"
    system = tmp_path / "etc" / "codex"
    system.mkdir(parents=True)
    (system / "config.toml").write_text("[features]\nhooks = false\n", encoding="utf-8")
    monkeypatch.setattr(codex_managed, "DEFAULT_DIR", system)

    code, said = run(home, "install", "--memory-root", str(memory_root(tmp_path)))

    opening = f"{system / 'config.toml'} switches these hooks off ([features] hooks = false)"
    assert code == 0 and f"codex: WARNING: {opening}" in said, said
    code, said = run(home, "status", "--managed", str(system))
    assert f"codex: PROBLEM: {opening}" in said and code == 1, said
    config = home / ".codex" / "config.toml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("[features]\n", "[features]\nhooks = true\n")
    )
    assert opening not in run(home, "status", "--managed", str(system))[1]


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("requirements.toml", "allow_managed_hooks_only = true\n", "allow_managed_hooks_only"),
        ("config.toml", "[features]\nhooks = false\n", "[features] hooks = false"),
    ],
)
def test_status_managed_dir_still_reads_etc_codex(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, said: str
) -> None:
    """``status --managed DIR`` reads ``DIR`` too, never instead of ``/etc/codex``: Codex
    reads ``/etc/codex`` whatever ``DIR`` is, so its switching the user's hooks off is still
    a PROBLEM."""
    from harness_memory.installers import codex_managed

    home = tmp_path / "home"
    assert run(home, "install", "--memory-root", str(memory_root(tmp_path)))[0] == 0
    system = tmp_path / "etc" / "codex"
    system.mkdir(parents=True)
    (system / name).write_text(text, encoding="utf-8")
    monkeypatch.setattr(codex_managed, "DEFAULT_DIR", system)
    other = tmp_path / "image" / "etc" / "codex"
    other.mkdir(parents=True)

    code, out = run(home, "status", "--managed", str(other))

    problems = [line for line in out.splitlines() if line.startswith("codex: PROBLEM:")]
    assert [line for line in problems if said in line and str(system) in line], out
    assert code == 1


def test_requirements_pinning_hooks_on_hold_over_the_systems_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``requirements.toml``'s ``[features] hooks = true`` pins the switch over every
    config, ``/etc/codex/config.toml``'s ``hooks = false`` included: no PROBLEM, no WARNING."""
    from harness_memory.installers import codex_managed

    home = tmp_path / "home"
    system = tmp_path / "etc" / "codex"
    system.mkdir(parents=True)
    (system / "config.toml").write_text("[features]\nhooks = false\n", encoding="utf-8")
    (system / "requirements.toml").write_text("[features]\nhooks = true\n", encoding="utf-8")
    monkeypatch.setattr(codex_managed, "DEFAULT_DIR", system)

    said = run(home, "install", "--memory-root", str(memory_root(tmp_path)))[1]
    said += run(home, "status")[1]

    assert "switches these hooks off" not in said, said


def test_a_managed_dirs_config_switching_hooks_off_is_not_codexs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``status --managed DIR`` whose ``config.toml`` says ``[features] hooks = false``,
    ``/etc/codex`` saying nothing: Codex never reads ``DIR/config.toml``, so the user's hooks
    run and no PROBLEM names it (before, status read it as if it were ``/etc/codex``'s)."""
    home = tmp_path / "home"
    assert run(home, "install", "--memory-root", str(memory_root(tmp_path)))[0] == 0
    flags = etc_codex_saying(tmp_path, monkeypatch, "", "[features]\nhooks = false\n")

    code, said = run(home, "status", *flags)

    assert "switches these hooks off" not in said, said
    assert code == 0, said
