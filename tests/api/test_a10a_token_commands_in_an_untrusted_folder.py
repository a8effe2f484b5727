"""A-10a: ``token create`` makes no token the service would refuse; ``token revoke`` still revokes.

While the service trusts no token file of the token folder (a data dir every account may
write, a token folder every account may write), ``token create --name alice`` exited 0 and
printed a secret the service never accepted (503), and ``token revoke --name alice`` exited 1
saying no token file it could read held the token, with ``alice.json`` right there. Right:
create refuses, naming the folder at fault and the fix, and writes nothing; revoke, which only
narrows access, deletes the file and says the folder is still not trusted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_api.cli import main


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data dir holding the token ``alice``, in an owner-only home; no environment tokens."""
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    monkeypatch.delenv("MEMORY_API_TOKENS_FILE", raising=False)
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    data_dir = home / "data"
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    assert main(["token", "create", "--name", "alice"]) == 0
    return data_dir


@pytest.mark.parametrize("opened", ["data dir", "token folder"])
def test_a10a_token_create_refuses_a_folder_the_service_trusts_no_token_of(
    data_dir: Path, opened: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = data_dir if opened == "data dir" else data_dir / "tokens"
    folder.chmod(0o777)
    capsys.readouterr()

    assert main(["token", "create", "--name", "bob"]) == 1
    out, err = capsys.readouterr()
    assert out == ""  # no secret the service would refuse
    assert f"the token folder {data_dir / 'tokens'} " in err
    assert "chmod o-w it" in err and "none was made" in err
    if opened == "data dir":
        assert f"lies below {data_dir}, which every account may write" in err
    assert not (data_dir / "tokens" / "bob.json").exists()

    folder.chmod(0o755)  # the fix it names
    assert main(["token", "create", "--name", "bob"]) == 0


@pytest.mark.parametrize("opened", ["data dir", "token folder"])
def test_a10a_token_revoke_deletes_the_token_file_of_a_folder_no_token_of_is_trusted(
    data_dir: Path, opened: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = data_dir if opened == "data dir" else data_dir / "tokens"
    folder.chmod(0o777)
    capsys.readouterr()

    assert main(["token", "revoke", "--name", "alice"]) == 0
    out, err = capsys.readouterr()
    assert "revoked token 'alice'" in out and "deleted tokens/alice.json" in out
    assert "the service trusts no token file there until that is fixed" in err
    assert "chmod o-w it" in err
    assert not (data_dir / "tokens" / "alice.json").exists()


def test_a10a_token_create_makes_its_data_dir_in_a_sticky_folder_everyone_may_write(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A data dir not made yet in ``/tmp`` (root's or this user's ``1777``), the first command
    the README's server steps run: ``token create`` refused, naming ``/tmp`` and "chmod o-w it",
    though the data dir it would make there is this user's, which ``/tmp``'s sticky bit keeps
    (docs/operations.md, A-10a). It makes the data dir, then the token, which the service takes,
    and logs no "cannot be read" on the way."""
    from memory_api.store.tokens import TokenStore

    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    monkeypatch.delenv("MEMORY_API_TOKENS_FILE", raising=False)
    shared = tmp_path / "tmp"
    shared.mkdir()
    shared.chmod(0o1777)
    data_dir = shared / "agent-memory"
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))

    assert main(["token", "create", "--name", "alice"]) == 0
    secret = capsys.readouterr().out.strip()
    store = TokenStore(data_dir, ())
    assert store.distrusted() is None
    assert [entry.name for entry in store.known().entries] == ["alice"]
    assert secret.startswith("mem_")
    assert "cannot be read" not in caplog.text
