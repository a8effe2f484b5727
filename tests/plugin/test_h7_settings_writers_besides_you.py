"""H-7: whoever may write a harness's settings chooses the commands its hooks run as you.

The install says so when every user may write a settings file or its folder (the "other"
write bit). Measured: ``~/.claude`` ``2775`` and ``settings.json`` ``0664`` in a group the user
shares (gid 4242, a team's group on a shared machine), or a POSIX ACL (``setfacl -m
u:nobody:rwx``) on them, and the install said nothing, while an account of that group (or the
one the ACL names) could rewrite the hooks' commands, the write guard's included. Each is now
said, naming who and the fix (``chmod g-w``, ``setfacl -x``); the modes stay the user's.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.plugin.test_h7_settings_files import (
    HARNESSES,
    SETTINGS_FILES,
    TOKEN,
    make_home,
    memory_root,
    run,
)
from tests.security.test_a10a_token_writers_besides_the_service import (
    OTHER,
    SHARED_GROUP,
    grant_write_by_acl,
)

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="giving files to a group needs root")


@pytest.mark.parametrize("harness", HARNESSES)
def test_h7_settings_a_shared_group_may_write_are_said(tmp_path: Path, harness: str) -> None:
    home = make_home("token-in-readable-settings", tmp_path)
    settings = home / SETTINGS_FILES[harness]
    for entry, mode in ((settings, 0o664), (settings.parent, 0o2775)):
        os.chown(entry, os.geteuid(), SHARED_GROUP)
        entry.chmod(mode)

    status, said = run(home, memory_root(tmp_path), "install", harness, "--token", TOKEN)

    assert status == 0, said
    assert f"WARNING: {settings} may be written by the accounts of its group (gid 4242" in said
    assert f"WARNING: {settings.parent} may be written by the accounts of its group" in said
    assert "chmod g-w it" in said and "could change the commands your hooks run" in said
    assert settings.stat().st_gid == SHARED_GROUP and settings.stat().st_mode & 0o020


@pytest.mark.parametrize("harness", HARNESSES)
def test_h7_settings_an_acl_lets_another_account_write_are_said(
    tmp_path: Path, harness: str
) -> None:
    home = make_home("token-in-readable-settings", tmp_path)
    settings = home / SETTINGS_FILES[harness]
    grant_write_by_acl(settings.parent, OTHER)

    status, said = run(home, memory_root(tmp_path), "install", harness, "--token", TOKEN)

    assert status == 0, said
    assert (
        f"WARNING: {settings.parent} may be written by the account uid {OTHER}, named in its "
        f"access control list (setfacl -x u:{OTHER} it)"
    ) in said
    status, said = run(home, memory_root(tmp_path), "install", harness, "--timeout", "5")
    assert status == 0 and f"{settings.parent} may be written by the account uid" in said
