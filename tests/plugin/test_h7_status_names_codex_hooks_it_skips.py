"""``install`` and ``status`` say when Codex CLI (or this machine's settings) will skip the
hooks of the user install (H-7, P-2a, P-3).

Codex CLI runs a hook of ``hooks.json`` only while ``config.toml`` trusts it
(``[hooks.state."<hooks.json>:<event>:<group>:<handler>"] trusted_hash``) and no ``enabled =
false`` there switches it off; with ``CODEX_HOME`` set it keys that by the folder with every
link resolved (``find_codex_home`` canonicalises it). Each case below had its Sessions go
without memory and the write guard while ``install`` and ``status`` said nothing: trust keyed
by a link's path, trust entries deleted or stale, Codex's own per-hook switch, a profile
file's ``[features] hooks = false``, and machine settings switching the user's hooks off
(Codex's ``requirements.toml``, Claude Code's managed ``disableAllHooks``, Gemini CLI's
system ``hooksConfig``/``hooks: null``). The real Codex CLI's side of the first and third:
``test_e2e_codex_trust_through_a_link.py``.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from harness_memory.cli import main

FLAGS = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder", "--no-check"]
FLAGS += ["--executable", "/opt/venv/bin/harness-memory"]
UNTRUSTED = "codex: PROBLEM: untrusted: Codex will not run these hooks of "


def cli(home: Path, *words: str, **env: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main([*words, "--home", str(home)], environ={"HOME": str(home), **env}, stdout=out)
    return code, out.getvalue()


def install(tmp_path: Path, harness: str, *more: str, **env: str) -> tuple[Path, str]:
    home = tmp_path / "home"
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    code, said = cli(home, "install", harness, *FLAGS, "--memory-root", str(root), *more, **env)
    assert code == 0, said
    return home, said


def trust_keys(config: Path) -> list[str]:
    return re.findall(r'\[hooks\.state\."([^"]+)"\]', config.read_text(encoding="utf-8"))


def linked_codex_home(tmp_path: Path) -> tuple[Path, Path]:
    """``(link, real folder)``: ``home/codexhome`` leading to ``home/dotfiles/codex``."""
    real = tmp_path / "home" / "dotfiles" / "codex"
    real.mkdir(parents=True)
    link = tmp_path / "home" / "codexhome"
    link.symlink_to(real)
    return link, real


def test_codex_home_through_a_link_is_trusted_by_the_folder_codex_reads(tmp_path: Path) -> None:
    link, real = linked_codex_home(tmp_path)

    home, _ = install(tmp_path, "codex", CODEX_HOME=str(link))

    keys = trust_keys(real / "config.toml")
    assert len(keys) == 3
    assert all(key.startswith(f"{real.resolve()}/hooks.json:") for key in keys), keys
    _, said = cli(home, "status", CODEX_HOME=str(link))
    assert "untrusted" not in said


def test_dot_codex_a_link_named_by_codex_home_is_keyed_by_where_it_leads(tmp_path: Path) -> None:
    real = tmp_path / "home" / "dotfiles" / "codex"
    real.mkdir(parents=True)
    (tmp_path / "home" / ".codex").symlink_to(real)
    dot_codex = str(tmp_path / "home" / ".codex")

    install(tmp_path, "codex", CODEX_HOME=dot_codex)

    keys = trust_keys(real / "config.toml")
    assert keys and all(k.startswith(f"{real.resolve()}/hooks.json:") for k in keys), keys


def test_dot_codex_a_link_without_codex_home_is_keyed_as_it_is(tmp_path: Path) -> None:
    """Without ``CODEX_HOME`` Codex takes ``$HOME/.codex`` unresolved."""
    real = tmp_path / "home" / "dotfiles" / "codex"
    real.mkdir(parents=True)
    (tmp_path / "home" / ".codex").symlink_to(real)

    home, _ = install(tmp_path, "codex")

    keys = trust_keys(real / "config.toml")
    assert keys and all(k.startswith(f"{home}/.codex/hooks.json:") for k in keys), keys
    assert "untrusted" not in cli(home, "status")[1]


def test_status_names_trust_keyed_by_a_link_and_install_again_rekeys_it(tmp_path: Path) -> None:
    link, real = linked_codex_home(tmp_path)
    home, _ = install(tmp_path, "codex", CODEX_HOME=str(link))
    config = real / "config.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace(f"{real.resolve()}/hooks.json", f"{link}/hooks.json"))

    code, said = cli(home, "status", CODEX_HOME=str(link))

    assert f"{UNTRUSTED}{real.resolve()}/hooks.json" in said
    assert "SessionStart hook untrusted (no [hooks.state." in said
    assert "Run `harness-memory install codex` again" in said
    assert code == 1
    install(tmp_path, "codex", CODEX_HOME=str(link))
    assert all(k.startswith(f"{real.resolve()}/hooks.json:") for k in trust_keys(config))
    assert "untrusted" not in cli(home, "status", CODEX_HOME=str(link))[1]


def test_uninstall_through_a_link_takes_out_trust_an_older_install_keyed_by_it(
    tmp_path: Path,
) -> None:
    link, real = linked_codex_home(tmp_path)
    config = real / "config.toml"
    config.write_text('# mine\nmodel = "m"\n', encoding="utf-8")
    home, _ = install(tmp_path, "codex", CODEX_HOME=str(link))
    text = config.read_text(encoding="utf-8")  # as an older install keyed them: by the link
    config.write_text(text.replace(str(real.resolve()), str(link)), encoding="utf-8")

    code, said = cli(home, "uninstall", "codex", CODEX_HOME=str(link))

    assert code == 0, said
    assert trust_keys(config) == []
    assert config.read_text(encoding="utf-8") == '# mine\nmodel = "m"\n'


@pytest.mark.parametrize("change", ["entries-deleted", "hooks-json-edited"])
def test_status_names_codex_hooks_whose_trust_is_missing_or_stale(
    tmp_path: Path, change: str
) -> None:
    home, _ = install(tmp_path, "codex")
    config, hooks = home / ".codex" / "config.toml", home / ".codex" / "hooks.json"
    if change == "entries-deleted":
        text = config.read_text(encoding="utf-8")
        config.write_text(re.sub(r'\[hooks\.state\."[^"]+"\]\ntrusted_hash = "[^"]+"\n', "", text))
    else:  # the user (or a dotfiles sync) changed hooks.json without config.toml
        hooks.write_text(
            hooks.read_text(encoding="utf-8").replace('"timeout": 30', '"timeout": 31')
        )

    code, said = cli(home, "status")

    assert f"{UNTRUSTED}{home}/.codex/hooks.json" in said
    why = "no [hooks.state." if change == "entries-deleted" else "trusted_hash is not the hash"
    assert why in said
    assert code == 1


def test_codex_own_switch_on_a_hook_of_ours_is_named_and_kept(tmp_path: Path) -> None:
    home, _ = install(tmp_path, "codex")
    config = home / ".codex" / "config.toml"
    key = next(k for k in trust_keys(config) if ":session_start:" in k)
    text = config.read_text(encoding="utf-8")
    header = f'[hooks.state."{key}"]\n'
    config.write_text(text.replace(header, f"{header}enabled = false\n"))

    code, said = cli(home, "status")
    _, again = install(tmp_path, "codex")

    assert "codex: PROBLEM: switched off: Codex will not run these hooks of " in said
    assert f'SessionStart hook switched off ([hooks.state."{key}"] enabled = false)' in said
    assert code == 1
    assert (
        f"codex: WARNING: {config} switches these hooks of ours off in Codex "
        f'([hooks.state."{key}"] enabled = false'
    ) in again
    warned = next(line for line in again.splitlines() if "switches these hooks of ours" in line)
    problem = next(line for line in said.splitlines() if "PROBLEM: switched off" in line)
    for line in (warned, problem):  # the guard still runs: only memory at Session start goes
        assert "its Sessions go without memory at Session start." in line
        assert "write guard" not in line
    assert "The install leaves your switch as it is" in again
    assert f"{header}enabled = false\n" in config.read_text(encoding="utf-8")
    assert "switched off: Codex will not run" in cli(home, "status")[1]


@pytest.mark.parametrize("switch", ["hooks = false", "codex_hooks = false"])
def test_a_codex_profile_file_switching_hooks_off_is_named(tmp_path: Path, switch: str) -> None:
    profile = tmp_path / "home" / ".codex" / "quiet.config.toml"
    profile.parent.mkdir(parents=True)
    profile.write_text(f"[features]\n{switch}\n", encoding="utf-8")

    home, said = install(tmp_path, "codex")
    code, status = cli(home, "status")

    opening = f"in Sessions started with `--profile quiet`: {profile} switches these hooks off"
    assert f"codex: WARNING: {opening} itself ([features] {switch})" in said
    assert f"codex: PROBLEM: {opening} itself ([features] {switch})" in status
    assert code == 1


def test_a_codex_profile_file_leaving_hooks_on_is_not_named(tmp_path: Path) -> None:
    profile = tmp_path / "home" / ".codex" / "loud.config.toml"
    profile.parent.mkdir(parents=True)
    profile.write_text("[features]\nhooks = true\ncodex_hooks = false\n", encoding="utf-8")

    home, said = install(tmp_path, "codex")

    assert "switches these hooks off" not in said + cli(home, "status")[1]


MACHINE = {
    (
        "claude-code",
        "managed-settings.json",
        '{"disableAllHooks": true}',
    ): '"disableAllHooks": true',
    ("codex", "requirements.toml", "[features]\nhooks = false\n"): "[features] hooks = false",
    ("gemini", "settings.json", '{"hooksConfig": {"enabled": false}}'): (
        "hooksConfig.enabled: false"
    ),
    ("gemini", "settings.json", '{"hooksConfig": {"disabled": ["agent-memory-session-start"]}}'): (
        "hooksConfig.disabled lists agent-memory-session-start"
    ),
    ("gemini", "settings.json", '{"hooks": null}'): '"hooks": null replaces every hook',
    (
        "gemini",
        "settings.json",
        '{"hooks": [{"type": "command", "command": "curl -H \\"Authorization: Bearer '
        'sk-live-SECRET123\\" http://x"}]}',
    ): '"hooks": an array replaces every hook',
    ("gemini", "settings.json", '{"hooks": "Bearer sk-live-SECRET456"}'): (
        '"hooks": a string replaces every hook'
    ),
    ("codex", "requirements.toml", "allow_managed_hooks_only = true\n"): (
        "allow_managed_hooks_only = true"
    ),
    ("codex", "requirements.toml", "[feature_requirements]\nhooks = false\n"): (
        "[feature_requirements] hooks = false"
    ),
}
"""(harness, the machine's settings file in ``--managed DIR``, its text) → what status names:
keys and types, never a value (those files may hold a token)."""


@pytest.mark.parametrize(("harness", "name", "text"), list(MACHINE), ids=str)
def test_status_names_machine_settings_switching_the_users_hooks_off(
    tmp_path: Path, harness: str, name: str, text: str
) -> None:
    managed = tmp_path / "etc" / "managed"
    managed.mkdir(parents=True)
    path = managed / name
    path.write_text(text, encoding="utf-8")
    env = {"GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(path)} if harness == "gemini" else {}
    home, _ = install(tmp_path, harness)

    code, said = cli(home, "status", "--managed", str(managed), **env)

    assert (
        f"{harness}: PROBLEM: {path}, this machine's settings, switch the hooks of your "
        f"settings off ({MACHINE[(harness, name, text)]}"
    ) in said
    assert "sk-live" not in said
    assert code == 1
    path.write_text("{}" if name.endswith(".json") else "[features]\n", encoding="utf-8")
    assert (
        "this machine's settings, switch"
        not in cli(home, "status", "--managed", str(managed), **env)[1]
    )


def test_inline_hooks_of_ours_through_a_link_go_with_the_trust_codex_keyed_them_by(
    tmp_path: Path,
) -> None:
    """Codex keys the trust of ``config.toml``'s inline hooks by the resolved folder too."""
    link, real = linked_codex_home(tmp_path)
    ours = "harness-memory hook codex session-start --url http://127.0.0.1:9 --project acme"
    inline = '[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = "command"\n'
    trusted = f'[hooks.state."{real.resolve()}/config.toml:session_start:0:0"]\n'
    (real / "config.toml").write_text(
        f'{inline}command = "{ours}"\n\n{trusted}trusted_hash = "sha256:0"\n', encoding="utf-8"
    )

    install(tmp_path, "codex", CODEX_HOME=str(link))

    assert not [k for k in trust_keys(real / "config.toml") if "config.toml:" in k]


@pytest.mark.parametrize("how", ["--home", "HOME"])
def test_a_home_with_dot_dot_is_keyed_as_codex_collapses_it(
    tmp_path: Path, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Codex's AbsolutePathBuf collapses ``..`` without resolving links: so do the trust keys."""
    home = tmp_path / "home"
    (tmp_path / "x").mkdir()
    crooked = tmp_path / "x" / ".." / "home"
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    given = "x/../home" if how == "--home" else str(crooked)
    words = ["install", "codex", *FLAGS, "--memory-root", str(root)]
    words += ["--home", given] if how == "--home" else []
    out = io.StringIO()
    assert main(words, environ={"HOME": str(crooked)}, stdout=out) == 0, out.getvalue()

    keys = trust_keys(home / ".codex" / "config.toml")
    assert keys and all(k.startswith(f"{home}/.codex/hooks.json:") for k in keys), keys
    words = ["status", *(["--home", given] if how == "--home" else [])]
    assert "untrusted" not in main_out(words, {"HOME": str(crooked)})


def main_out(words: list[str], environ: dict[str, str]) -> str:
    out = io.StringIO()
    main(words, environ=environ, stdout=out)
    return out.getvalue()


def test_trust_hash_takes_a_zero_timeout_as_one_second_as_codex_does() -> None:
    from harness_memory.installers.codex import trust_hash

    def hooked(timeout: int) -> str:
        handler = {"type": "command", "command": "x", "timeout": timeout}
        return trust_hash("SessionStart", {"hooks": [handler]}, handler)

    assert hooked(0) == hooked(1)
    assert hooked(0) != hooked(600)


@pytest.mark.parametrize("timeout", ["30.0", '"30"', "-1", "true"])
def test_status_names_a_hooks_json_codex_cannot_parse(tmp_path: Path, timeout: str) -> None:
    """Codex reads no hook of a ``hooks.json`` whose ``timeout`` is no u64 (its serde)."""
    home, _ = install(tmp_path, "codex")
    hooks = home / ".codex" / "hooks.json"
    text = hooks.read_text(encoding="utf-8")
    assert '"timeout": 30' in text
    hooks.write_text(text.replace('"timeout": 30', f'"timeout": {timeout}', 1), encoding="utf-8")

    code, said = cli(home, "status")

    assert f"codex: PROBLEM: Codex cannot read {hooks}" in said
    assert "timeout is not a whole number of seconds" in said
    assert code == 1


def test_status_names_a_trust_entry_codex_cannot_read(tmp_path: Path) -> None:
    home, _ = install(tmp_path, "codex")
    config = home / ".codex" / "config.toml"
    key = next(k for k in trust_keys(config) if ":pre_tool_use:" in k)
    header = f'[hooks.state."{key}"]\n'
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace(header, f'{header}enabled = "no"\n'), encoding="utf-8")

    code, said = cli(home, "status")

    assert f'[hooks.state."{key}"] enabled is a string, not true or false' in said
    assert "codex: PROBLEM: " in said
    assert code == 1
