"""A-10, H-7: a hook installed with ``--url-id-not-secret`` names its URL whole in the command
its refusal prints, wherever the install record and the token are kept, and ``token set
--url`` refuses a URL holding ``***`` (a URL shown with its ids hidden is no service).

Reviewers found the hint of the managed hooks (whose install record is in the managed folder)
and of a token kept outside a git work tree (``~/.config/harness-memory/tokens/codex-…``)
saying ``--url '…/tenants/***/memory'``: run as printed, it recorded ``***`` as the service and
the hook refused the token for ever.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from harness_memory.settings import load_settings

from tests.plugin.test_a10_a_refused_token_names_a_command_that_runs import (
    NEW_TOKEN,
    TENANT_URL,
    B,
    hook_settings,
    refusal,
    run_printed,
)
from tests.plugin.test_a10_a_token_keeps_its_recorded_service import TOKEN, token_set
from tests.plugin.test_a10_install_again_makes_the_token_file_private import install
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags


def test_a10_a_token_kept_outside_a_work_tree_is_named_with_its_url_whole(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    Path(flags(home)[1]).mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(home / ".codex")], check=True)  # dotfiles in git
    status, said = install(
        home,
        "codex",
        *flags(home, TENANT_URL),
        "--url-id-not-secret",
        environ={"HARNESS_MEMORY_TOKEN": TOKEN},
    )
    assert status == 0, said
    hooks = (home / ".codex" / "hooks.json").read_text("utf-8")
    (token_file,) = {Path(p) for p in re.findall(r"--token-file[\" \\]+([^\" \\]+)", hooks)}
    assert ".config" in token_file.parts, token_file
    assert "--url-id-not-secret" in hooks, hooks  # what the hook's refusal then goes by
    assert str(home / ".codex" / "harness-memory") in hooks  # its --state-dir: the record's
    Path(f"{token_file}.url").write_text(f"{B}\n", "utf-8")  # token set --url B's
    settings = hook_settings(token_file, TENANT_URL) | {
        "state_dir": str(home / ".codex" / "harness-memory")
    }

    said = refusal(settings)

    assert f"--url {TENANT_URL}`" in said, said
    run_printed(said, home)
    assert load_settings(settings, {}, flags_only=True).bearer_token() == NEW_TOKEN


def test_a10_the_managed_hooks_carry_that_the_url_id_is_no_secret(tmp_path: Path) -> None:
    home, folder = tmp_path / "home", tmp_path / "etc-codex"
    Path(flags(home)[1]).mkdir(parents=True)
    status, said = install(
        home,
        "codex",
        "--managed",
        str(folder),
        *flags(home, TENANT_URL),
        "--url-id-not-secret",
        environ={},
    )
    assert status == 0, said
    requirements = (folder / "requirements.toml").read_text("utf-8")
    commands = re.findall(r"harness-memory[^\n]* hook codex [^\n]*", requirements)
    assert commands and all("--url-id-not-secret" in c for c in commands), commands
    token_file = tmp_path / "account" / ".claude" / "harness-memory" / "token"
    assert token_set(tmp_path, "--file", str(token_file), "--url", B)[0] == 0
    settings = hook_settings(token_file, TENANT_URL, managed=True) | {"url_id_not_secret": "on"}

    said = refusal(settings)

    assert f"`harness-memory token set --managed --url {TENANT_URL}`" in said, said


def test_a10_token_set_refuses_a_url_shown_with_its_ids_hidden(tmp_path: Path) -> None:
    token_file = tmp_path / "t" / "token"

    status, said = token_set(tmp_path, "--file", str(token_file), "--url", f"{B}/tenants/***/m")

    assert status != 0 and "***" in said and "the real URL" in said, said
    assert not token_file.exists() and not Path(f"{token_file}.url").exists()


def test_a10_a_fifo_or_link_for_the_install_record_never_holds_up_the_refusal(
    tmp_path: Path,
) -> None:
    """The refusal read ``install.json`` with ``read_bytes()``: a FIFO there hung it until
    killed, and a link was followed. It is read as the service record is (no link followed, no
    FIFO waited on, a regular file of a bounded size): the URL is then shown with its id hidden."""
    import os
    import threading

    token_file = tmp_path / "state" / "token"
    assert token_set(tmp_path, "--file", str(token_file), "--url", B)[0] == 0
    os.mkfifo(token_file.parent / "install.json")
    said: list[str] = []
    reader = threading.Thread(
        target=lambda: said.append(refusal(hook_settings(token_file, TENANT_URL))), daemon=True
    )
    reader.start()
    reader.join(timeout=20)  # a signal: the refusal returns; a hang fails here

    assert not reader.is_alive() and "/tenants/***/memory" in said[0], said


def test_a10_managed_hooks_installed_before_they_carried_the_word_read_the_managed_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Managed hooks an install wrote before they carried ``--url-id-not-secret`` named the
    URL ``…/tenants/***/memory`` in their hint: the install record saying the id is no secret
    lies in the managed folder, which they did not read. They read it where their harness
    reads managed settings (here a stand-in for ``/etc/codex``); a record there that does not
    say so keeps the id hidden."""
    import harness_memory.settings

    home, folder = tmp_path / "home", tmp_path / "etc-codex"
    monkeypatch.setattr(harness_memory.settings, "managed_folder", lambda harness: folder)
    Path(flags(home)[1]).mkdir(parents=True)
    argv = [*flags(home, TENANT_URL), "--url-id-not-secret"]
    status, said = install(home, "codex", "--managed", str(folder), *argv, environ={})
    assert status == 0, said
    token_file = tmp_path / "account" / ".claude" / "harness-memory" / "token"
    assert token_set(tmp_path, "--file", str(token_file), "--url", B)[0] == 0
    settings = hook_settings(token_file, TENANT_URL, managed=True)  # no url_id_not_secret

    said = codex_hook_refusal(settings)

    assert f"`harness-memory token set --managed --url {TENANT_URL}`" in said, said
    record = folder / "harness-memory" / "install.json"
    record.write_text(record.read_text("utf-8").replace("urlIdNotSecret", "other"), "utf-8")
    assert "/tenants/***/memory" in codex_hook_refusal(settings)


def codex_hook_refusal(settings: dict[str, str]) -> str:
    """The refusal of a Codex CLI hook (its harness known, as ``hook codex`` gives it)."""
    import msgspec
    from harness_memory.settings import TokenFileError

    loaded = msgspec.structs.replace(load_settings(settings, {}, flags_only=True), harness="codex")
    with pytest.raises(TokenFileError) as refused:
        loaded.bearer_token()
    return str(refused.value)
