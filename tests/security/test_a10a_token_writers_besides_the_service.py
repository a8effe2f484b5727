"""A-10a: a token source another account may write is never trusted, whatever grants the write.

The token folder, each token file in it and ``MEMORY_API_TOKENS_FILE`` were judged by their
"other" write bit alone, and the folders above them by their owner and mode bits alone. The
kernel lets more accounts write than that: the entry's owner, the accounts of a group it
shares, and every account or group an access control list (POSIX ACL, ``setfacl``) names.
Measured with the real service (root, loopback, two tokens): the token folder given to a
shared group (``chgrp 4242 tokens; chmod 0770 tokens``), an account of that group removed
both token files and the service answered every ``/api/`` request with no token at all
(``GET /api/projects/demo/agents`` 200: the open loopback mode); a token file it may write
took that account's own hash, and its own token reached every project.

Each attack runs as the other account (``setpriv`` as uid 65534, only the capability to look
into the test's own folders, never to write past a mode) against the real service; the service
must answer 503 saying which folder or file another account may write, and what to do.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_api.bearer import hash_secret
from memory_api.settings import Settings, SettingsError
from memory_api.store.tokens import TokenStore

from tests.support.refused_account import request_json
from tests.support.serve import ServedProcess, code_under_test, serve

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="acting as another account needs root")

OTHER = 65534
"""The other account (``nobody``): never the service's user (root here)."""
SHARED_GROUP = 4242
"""A group the other account belongs to: never the service's own."""
ATTACKER_SECRET = "attacker-secret-" + "x" * 40
"""The secret the other account makes a token of."""

_ACL_USER_OBJ, _ACL_USER, _ACL_GROUP_OBJ, _ACL_MASK, _ACL_OTHER = 0x01, 0x02, 0x04, 0x10, 0x20
_NO_ID = 0xFFFFFFFF


def _as_other(script: str, *args: str, groups: tuple[int, ...] = ()) -> None:
    """Run ``script`` in this Python as :data:`OTHER` (``groups`` as its only groups); the test
    fails showing its error when the kernel refused it."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.fail("this test runs a process as another uid: it needs setpriv")
    groups_flag = f"--groups={','.join(map(str, groups))}" if groups else "--clear-groups"
    prefix = [setpriv, f"--reuid={OTHER}", f"--regid={OTHER}", groups_flag]
    prefix += ["--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"]
    done = subprocess.run(
        [*prefix, sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", **code_under_test()},
    )
    assert done.returncode == 0, done.stderr


REMOVE_ALL = (
    "import os, sys\nfor n in os.listdir(sys.argv[1]): os.remove(os.path.join(sys.argv[1], n))\n"
)
RENAME = "import os, sys\nos.rename(sys.argv[1], sys.argv[2])\n"
OVERWRITE = "import sys\nopen(sys.argv[1], 'w').write(sys.argv[2])\n"


def grant_write_by_acl(path: Path, uid: int) -> None:
    """Give the account ``uid`` read, write and search of ``path`` by an access control list
    entry (``setfacl -m u:UID:rwx``), its mode bits otherwise as they are."""
    mode = path.stat().st_mode
    owner, group, other = (mode >> 6) & 7, (mode >> 3) & 7, mode & 7
    entries = [
        (_ACL_USER_OBJ, owner, _NO_ID),
        (_ACL_USER, 7, uid),
        (_ACL_GROUP_OBJ, group, _NO_ID),
        (_ACL_MASK, 7, _NO_ID),
        (_ACL_OTHER, other, _NO_ID),
    ]
    acl = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *entry) for entry in entries)
    os.setxattr(path, "system.posix_acl_access", acl)


def _attacker_record(record: Path) -> str:
    """The token record ``record`` holds, its hash replaced by that of :data:`ATTACKER_SECRET`."""
    entry = json.loads(record.read_text(encoding="utf-8"))
    return json.dumps({**entry, "sha256": hash_secret(ATTACKER_SECRET)})


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    """The real service over a data dir holding the token ``ops`` (the data dir and its token
    folder searchable by the other account, as ``0755`` folders are)."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    TokenStore(data_dir).create("ops", None)
    for folder in (tmp_path, data_dir, data_dir / "tokens"):
        folder.chmod(0o755)
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_API_TOKENS"}
    process = serve(data_dir, env)
    try:
        yield process
    finally:
        process.stop()


def _refused(process: ServedProcess, said: str) -> None:
    """No request passes without a known token: 503 naming what another account may write."""
    for token in (None, ATTACKER_SECRET):
        status, problem = request_json(process.base_url, "GET", "/api/projects", token)
        assert status == 503, (status, problem)
        assert said in str(problem["detail"]), problem


def test_a10a_a_token_folder_a_shared_group_may_write_is_never_emptied_into_the_open_mode(
    served: ServedProcess,
) -> None:
    tokens = served.data_dir / "tokens"
    os.chown(tokens, 0, SHARED_GROUP)
    tokens.chmod(0o770)

    _as_other(REMOVE_ALL, str(tokens), groups=(SHARED_GROUP,))

    assert list(tokens.iterdir()) == []
    _refused(served, f"may be written by the accounts of its group (gid {SHARED_GROUP};")


def test_a10a_a_token_folder_of_another_account_is_never_emptied_into_the_open_mode(
    served: ServedProcess,
) -> None:
    tokens = served.data_dir / "tokens"
    os.chown(tokens, OTHER, 0)

    _as_other(REMOVE_ALL, str(tokens))

    _refused(served, f"belongs to another account (uid {OTHER}")


def test_a10a_a_token_folder_an_acl_lets_another_account_write_is_never_trusted(
    served: ServedProcess,
) -> None:
    tokens = served.data_dir / "tokens"
    grant_write_by_acl(tokens, OTHER)

    _as_other(REMOVE_ALL, str(tokens))

    _refused(served, f"may be written by the account uid {OTHER}, named in its access control")


def test_a10a_a_folder_above_an_acl_lets_another_account_write_is_never_trusted(
    served: ServedProcess,
) -> None:
    data_dir = served.data_dir
    grant_write_by_acl(data_dir, OTHER)

    _as_other(RENAME, str(data_dir / "tokens"), str(data_dir / "gone"))

    _refused(served, f"the account uid {OTHER}, named in its access control list, may write it")


@pytest.mark.parametrize("grant", ["shared group", "acl"])
def test_a10a_a_token_file_another_account_may_write_never_takes_its_hash(
    served: ServedProcess, grant: str
) -> None:
    record = served.data_dir / "tokens" / "ops.json"
    if grant == "shared group":
        os.chown(record, 0, SHARED_GROUP)
        record.chmod(0o660)
    else:
        grant_write_by_acl(record, OTHER)

    _as_other(OVERWRITE, str(record), _attacker_record(record), groups=(SHARED_GROUP,))

    status, problem = request_json(served.base_url, "GET", "/api/projects", ATTACKER_SECRET)
    assert status == 503, (status, problem)
    assert "another account may write" in str(problem["detail"]), problem


@pytest.mark.parametrize("grant", ["shared group", "another owner", "acl"])
def test_a10a_a_tokens_file_another_account_may_write_refuses_to_start(
    tmp_path: Path, grant: str
) -> None:
    tokens_file = tmp_path / "tokens"
    tokens_file.write_text("ops=" + "s" * 40 + "\n", encoding="utf-8")
    tokens_file.chmod(0o600)
    if grant == "shared group":
        os.chown(tokens_file, 0, SHARED_GROUP)
        tokens_file.chmod(0o660)
    elif grant == "another owner":
        os.chown(tokens_file, OTHER, 0)
    else:
        grant_write_by_acl(tokens_file, OTHER)

    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"MEMORY_API_TOKENS_FILE": str(tokens_file)})

    said = str(refused.value)
    assert f"MEMORY_API_TOKENS_FILE: {tokens_file}" in said
    assert "another account may write" in said and "add a token of their own" in said


def grant_read_by_acl(path: Path, uid: int) -> None:
    """Give the account ``uid`` read of ``path`` by an access control list entry
    (``setfacl -m u:UID:r``), its mode bits otherwise as they are."""
    mode = path.stat().st_mode
    entries = [
        (_ACL_USER_OBJ, (mode >> 6) & 7, _NO_ID),
        (_ACL_USER, 4, uid),
        (_ACL_GROUP_OBJ, (mode >> 3) & 7, _NO_ID),
        (_ACL_MASK, 4 | (mode >> 3) & 7, _NO_ID),
        (_ACL_OTHER, mode & 7, _NO_ID),
    ]
    acl = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *entry) for entry in entries)
    os.setxattr(path, "system.posix_acl_access", acl)


@pytest.mark.parametrize("grant", ["shared group", "acl"])
def test_a10_a_tokens_file_another_account_may_read_is_warned_of(
    tmp_path: Path, grant: str
) -> None:
    """``MEMORY_API_TOKENS_FILE`` holds the secrets themselves: one another account may read
    through a group it shares (``0640``, group 4242) or an ACL entry was said nothing of (only
    the "other" read bit was); the service's own group (a pod's ``fsGroup``) is still fine."""
    tokens_file = tmp_path / "tokens"
    tokens_file.write_text("ops=" + "s" * 40 + "\n", encoding="utf-8")
    tokens_file.chmod(0o600)
    if grant == "shared group":
        os.chown(tokens_file, 0, SHARED_GROUP)
        tokens_file.chmod(0o640)
        said = f"may be read by the accounts of its group (gid {SHARED_GROUP}"
    else:
        grant_read_by_acl(tokens_file, OTHER)
        said = f"may be read by the account uid {OTHER}, named in its access control list"

    warning = Settings.from_env({"MEMORY_API_TOKENS_FILE": str(tokens_file)}).tokens_file_warning

    assert warning is not None and said in warning, warning
    assert "anyone who may read it can read its secrets" in warning

    if grant == "acl":
        os.removexattr(tokens_file, "system.posix_acl_access")
    os.chown(tokens_file, 0, os.getegid())
    tokens_file.chmod(0o640)
    own_group = Settings.from_env({"MEMORY_API_TOKENS_FILE": str(tokens_file)})
    assert own_group.tokens_file_warning is None
