"""A-10a: a folder on the way to the token folder is safe only if no other account may rename in it.

The kernel lets a folder's owner rename any entry of it, sticky bit or not, and lets anyone
who may write a folder without the sticky bit rename any entry. So a folder on the way is
safe only when its owner is root or the service's own user, and no other account may write it
(the "other" write bit; the group one unless the group is the user's own), or it is sticky and
the entry on the way belongs to root or the service's user. Measured: ``share`` owned by
``nobody``, mode ``1777``, holding the data dir of uid 1000: ``nobody`` renamed
``share/data`` away, while the service (uid 1000) trusted the folder.

Each question is asked by a process of the account it is about (``setpriv`` as that uid, with
no supplementary group, and only the capability to look into the test's own folders).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.serve import code_under_test

SERVICE = 1000
"""The service's user in these tests (its own primary group: the same number)."""
OTHER = 65534
"""Another account (``nobody``)."""
SHARED_GROUP = 4242
"""A group the service's user shares with other accounts."""

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="giving folders to accounts needs root")

ASK = """
import json, os, sys
from memory_api.world_writable import movable_by_others
print(json.dumps(movable_by_others(sys.argv[1])))
"""
RENAME = "import os, sys\nos.rename(sys.argv[1], sys.argv[2])\n"


def _as(uid: int, script: str, *args: str, groups: tuple[int, ...] = ()) -> str:
    """Run ``script`` with ``args`` in this Python as ``uid`` (its group the same number, and
    ``groups`` besides); its standard output, or the test fails showing its error."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.fail("this test runs a process as another uid: it needs setpriv")
    groups_flag = f"--groups={','.join(map(str, groups))}" if groups else "--clear-groups"
    prefix = [setpriv, f"--reuid={uid}", f"--regid={uid}", groups_flag]
    prefix += ["--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"]
    done = subprocess.run(
        [*prefix, sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", **code_under_test()},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _judged(path: Path, groups: tuple[int, ...] = ()) -> list[str] | None:
    """:func:`movable_by_others` of ``path`` as the service's user asks it."""
    answer: list[str] | None = json.loads(_as(SERVICE, ASK, str(path), groups=groups))
    return answer


def _folder(path: Path, uid: int, mode: int, gid: int | None = None) -> Path:
    path.mkdir(exist_ok=True)
    os.chown(path, uid, uid if gid is None else gid)
    path.chmod(mode)
    return path


def test_a10a_a_sticky_folder_of_another_account_is_not_trusted(tmp_path: Path) -> None:
    share = _folder(tmp_path / "share", OTHER, 0o1777)
    data = _folder(share / "data", SERVICE, 0o700)
    folder, why = _judged(data / "tokens") or ("", "")
    assert folder == str(share)
    assert why.startswith(f"belongs to another account (uid {OTHER}; mode 1777)")

    _as(OTHER, RENAME, str(data), str(share / "data.old"))  # what the verdict is about
    assert not data.exists() and (share / "data.old").is_dir()


def test_a10a_a_sticky_folder_holding_another_accounts_entry_names_that_entry(
    tmp_path: Path,
) -> None:
    """``/tmp`` (root's, ``1777``) holding ``/tmp/x`` of another account, which holds the data
    dir: not trusted, and the fix named is that entry's (chown it), never ``chmod o-w`` of
    ``/tmp``, which would break the machine and is not the fault."""
    tmp = _folder(tmp_path / "tmp", 0, 0o1777)
    theirs = _folder(tmp / "x", OTHER, 0o755)
    data = _folder(theirs / "data", SERVICE, 0o700)
    folder, why = _judged(data / "tokens") or ("", "")
    assert folder == str(tmp)
    assert why.startswith(
        f"is sticky (mode 1777) but holds the entry on the way as another account's (uid {OTHER})"
    )
    assert "chown that entry" in why and "chmod" not in why

    _as(OTHER, RENAME, str(data), str(theirs / "moved"))  # what the verdict is about
    assert (theirs / "moved").is_dir()


def test_a10a_a_home_of_another_account_holding_the_data_dir_is_not_trusted(
    tmp_path: Path,
) -> None:
    """``/home/bob`` (``0755``, bob's) holding alice's data dir: bob may rename it."""
    bob = _folder(tmp_path / "bob", OTHER, 0o755)
    data = _folder(bob / "alice-data", SERVICE, 0o700)
    folder, why = _judged(data / "tokens") or ("", "")
    assert (folder, why.split(";")[0]) == (str(bob), f"belongs to another account (uid {OTHER}")

    _as(OTHER, RENAME, str(data), str(bob / "moved"))
    assert (bob / "moved").is_dir()


def test_a10a_a_folder_a_shared_group_may_write_is_not_trusted(tmp_path: Path) -> None:
    """Group write counts as others' write unless the group is the service's user's own and
    no other account is in it; with the sticky bit an entry of the service's stays its own."""
    shared = _folder(tmp_path / "shared", SERVICE, 0o775, gid=SHARED_GROUP)
    data = _folder(shared / "data", SERVICE, 0o700)
    folder, why = _judged(data / "tokens", groups=(SHARED_GROUP,)) or ("", "")
    assert folder == str(shared)
    assert why.startswith(f"the accounts of its group (gid {SHARED_GROUP}) may write")

    shared.chmod(0o1775)  # sticky: only the data dir's owner (and the folder's) may move it
    assert _judged(data / "tokens", groups=(SHARED_GROUP,)) is None
    os.chown(data, OTHER, OTHER)  # an entry of another account: it could rename it
    assert _judged(data / "tokens", groups=(SHARED_GROUP,)) is not None


def test_a10a_the_usual_places_for_a_data_dir_stay_trusted(tmp_path: Path) -> None:
    """``/tmp`` (root's, ``1777``) holding a data dir of the service's user; a home of the
    service's user; a container volume of root or of the user, group-writable for the user's
    own group (a pod's ``fsGroup``)."""
    tmp = _folder(tmp_path / "tmp", 0, 0o1777)
    assert _judged(_folder(tmp / "data", SERVICE, 0o700) / "tokens") is None
    home = _folder(tmp_path / "home", SERVICE, 0o755)
    assert _judged(_folder(home / "data", SERVICE, 0o700) / "tokens") is None
    volume = _folder(tmp_path / "volume", 0, 0o2775, gid=SERVICE)
    assert _judged(_folder(volume / "data", SERVICE, 0o2775) / "tokens") is None
    assert _judged(volume / "tokens") is None
