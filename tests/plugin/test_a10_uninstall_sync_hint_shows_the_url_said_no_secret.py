"""A-10, R-1: the ``sync`` an uninstall names for a local copy whose URL the install was told
holds no secret id (``--url-id-not-secret``, kept in the install record) shows that URL whole,
so it runs as printed; without that word the id stays hidden.

A reviewer installed ``--remote …/tenants/<uuid>/memory --url-id-not-secret``: the sync the
uninstall printed named ``…/tenants/***/memory``, a service that is not there.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness_memory.settings import remote_memory_root

from tests.plugin.test_r1_uninstall_names_the_copy_it_leaves import install, run

TENANT = "http://127.0.0.1:9/tenants/123e4567-e89b-12d3-a456-426614174000/memory"
HIDDEN = "http://127.0.0.1:9/tenants/***/memory"


def sync_said(
    tmp_path: Path, *extra: str, hooks_flag: bool = True, record_said: bool = True
) -> str:
    """The uninstall's words of a copy with a scope waiting to go back."""
    home = tmp_path / "home"
    install(home, "codex", "--remote", TENANT, *extra)
    if not hooks_flag:  # hooks an install wrote before they carried the word themselves
        hooks_json = home / ".codex" / "hooks.json"
        text = hooks_json.read_text("utf-8").replace(" --url-id-not-secret", "")
        hooks_json.write_text(text, "utf-8")
    if not record_said:
        record = home / ".codex" / "harness-memory" / "install.json"
        document = json.loads(record.read_text("utf-8"))
        document.pop("urlIdNotSecret")
        record.write_text(json.dumps(document), "utf-8")
    root = remote_memory_root(home / ".harness-memory", "acme", "coder")
    (root / "user").mkdir(parents=True)
    (root / "user" / "MEMORY.md").write_text("- written, never synced\n", encoding="utf-8")
    said = run(home, "uninstall", "codex")
    assert "goes back with `harness-memory sync --every-scope" in said, said
    return said


@pytest.mark.parametrize("hooks_flag", [True, False])
def test_a10_the_sync_named_shows_the_url_whole_when_the_install_said_its_id_is_no_secret(
    tmp_path: Path, hooks_flag: bool
) -> None:
    said = sync_said(tmp_path, "--url-id-not-secret", hooks_flag=hooks_flag)

    assert f"--url {TENANT} --project acme" in said, said
    assert "***" not in said, said


def test_a10_the_sync_named_hides_the_id_when_nothing_says_it_is_no_secret(
    tmp_path: Path,
) -> None:
    """Hooks without the word and a record that keeps none of it: the id stays hidden."""
    said = sync_said(tmp_path, "--url-id-not-secret", hooks_flag=False, record_said=False)

    assert f"--url '{HIDDEN}' --project acme" in said, said
    assert TENANT not in said, said
