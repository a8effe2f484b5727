"""A-10, A-10a: revoking the data dir's last token would reopen the service to local callers
without a token, a widening of access no one revoking "a lost token or a teammate gone" means.
``memory-api token revoke`` of the last token revokes nothing and says so (exit 2), naming the
way on: create the next token first, or ``--reopen`` to reopen on purpose. A token that is not
the last, or one revoked with ``--reopen``, is revoked as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_api.cli import main


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data dir the CLI works in, no token from the environment."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    return tmp_path / "data"


def test_a10_revoking_the_last_token_revokes_nothing_and_says_the_service_would_reopen(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["token", "create", "--name", "me"]) == 0
    capsys.readouterr()

    assert main(["token", "revoke", "--name", "me"]) == 2
    said = capsys.readouterr().err
    assert "'me' is the data dir's last token" in said
    assert "reopens the service to local callers without a token" in said
    assert f"token create --data-dir {data_dir} --name NAME`" in said and "--reopen" in said
    assert "Nothing was revoked" in said
    assert (data_dir / "tokens" / "me.json").is_file()


def test_a10_a_token_that_is_not_the_last_is_revoked_at_once(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["token", "create", "--name", "me"]) == 0
    assert main(["token", "create", "--name", "teammate"]) == 0
    assert main(["token", "revoke", "--name", "teammate"]) == 0
    assert not (data_dir / "tokens" / "teammate.json").exists()
    capsys.readouterr()
    assert main(["token", "revoke", "--name", "me", "--reopen"]) == 0
    assert "the service is open again to local callers" in capsys.readouterr().err
    assert not (data_dir / "tokens" / "me.json").exists()
