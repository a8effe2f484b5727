"""A-10a: ``token create`` in a folder another account made refuses it by name, and leaves nothing.

An attacker's ``mkdir -m 0755 /tmp/X`` and the victim's ``MEMORY_API_DATA_DIR=/tmp/X
memory-api token create --name alice`` said only "Permission denied: /tmp/X/tokens"; with a
``0777`` ``/tmp/X`` holding ``tokens`` as a symlink to nothing it said "is not a folder (a file
is in its place)": neither said the folder belongs to another account, nor the fix. In a
``0777``/``1777`` ``/tmp/X`` the refusal left the victim's ``tokens/`` behind. Right: the
refusal names the folder at fault (another account's), prints no secret and writes no token
(not through the link either), and removes the folders it made. Run as root: a forked process
takes on the two accounts by number (no user made), as ``setpriv`` does.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_api.cli import main

ATTACKER, VICTIM = 64201, 64202

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="takes on two accounts: needs root")


def as_victim(data_dir: Path) -> tuple[int, str, str]:
    """``memory-api token create --name alice`` in ``data_dir``, run by the victim's account
    in a forked process: its exit code, stdout and stderr."""
    outputs = [os.pipe(), os.pipe()]
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 99
        try:
            os.setgroups([])
            os.setresgid(VICTIM, VICTIM, VICTIM)
            os.setresuid(VICTIM, VICTIM, VICTIM)
            sys.stdout = io.TextIOWrapper(io.FileIO(outputs[0][1], "w"), write_through=True)
            sys.stderr = io.TextIOWrapper(io.FileIO(outputs[1][1], "w"), write_through=True)
            os.environ["MEMORY_API_DATA_DIR"] = str(data_dir)
            code = main(["token", "create", "--name", "alice"])
        except BaseException:  # said on the child's stderr, exit 99
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    said = []
    for _, write in outputs:
        os.close(write)
    for read, _ in outputs:
        with open(read, "rb") as pipe:  # noqa: PTH123 - a pipe's descriptor
            said.append(pipe.read().decode())
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), said[0], said[1]


@pytest.fixture
def shared(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder every account may enter (``/tmp``'s own place), of root; no environment
    tokens. ``main`` runs once as root first, so the child imports nothing (root's Python)."""
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    monkeypatch.delenv("MEMORY_API_TOKENS_FILE", raising=False)
    with tempfile.TemporaryDirectory(dir="/tmp") as base:
        Path(base).chmod(0o711)
        monkeypatch.setenv("MEMORY_API_DATA_DIR", f"{base}/warm")
        assert main(["token", "create", "--name", "bad name"]) == 1
        assert main(["token", "create", "--name", "warm"]) == 0
        yield Path(base)


def attackers(folder: Path, mode: int) -> Path:
    folder.mkdir()
    os.chown(folder, ATTACKER, ATTACKER)
    folder.chmod(mode)
    return folder


@needs_root
def test_a10a_a_folder_another_account_made_is_named_not_permission_denied(
    shared: Path,
) -> None:
    data_dir = attackers(shared / "X", 0o755)

    code, out, err = as_victim(data_dir)

    assert (code, out) == (1, "")
    assert f"below {data_dir}, which belongs to another account (uid {ATTACKER};" in err, err
    assert "none was made" in err
    assert list(data_dir.iterdir()) == []


@needs_root
def test_a10a_a_token_folder_linked_by_another_account_is_refused_and_nothing_written(
    shared: Path,
) -> None:
    data_dir = attackers(shared / "X", 0o777)
    target = data_dir / "planted"
    (data_dir / "tokens").symlink_to(target)
    os.lchown(data_dir / "tokens", ATTACKER, ATTACKER)

    code, out, err = as_victim(data_dir)

    assert (code, out) == (1, "")
    assert f"below {data_dir}, which belongs to another account (uid {ATTACKER};" in err, err
    assert "is not a folder" not in err
    assert not os.path.lexists(target)  # nothing made through the link


@needs_root
@pytest.mark.parametrize("mode", [0o777, 0o1777])
def test_a10a_a_refused_create_leaves_no_folder_it_made(shared: Path, mode: int) -> None:
    data_dir = attackers(shared / "X", mode) / "data"

    code, out, err = as_victim(data_dir)

    assert (code, out) == (1, "")
    assert f"{data_dir.parent}" in err and "none was made" in err, err
    assert list(data_dir.parent.iterdir()) == []


def test_a10a_a_bad_token_name_makes_no_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "fresh" / "data"
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))

    assert main(["token", "create", "--name", "bad name"]) == 1

    assert "token name" in capsys.readouterr().err
    assert not (tmp_path / "fresh").exists()
