"""A-10: ``memory-api token revoke --name N`` leaves no token named N passing.

A token is its record, not its file name: an operator who copied ``tokens/ci.json`` (a backup
before editing it, ``cp ci.json ci-old.json``) or renamed it by hand holds the token in a file
of another name. ``revoke`` deleted ``ci.json`` alone and said ``revoked token 'ci'`` (exit 0),
while ``token list`` still showed ``ci`` and the running service still answered its secret 200.
Right: every file whose record is named N is deleted, and what ``revoke`` cannot vouch for (a
token file it cannot read, a token of ``MEMORY_API_TOKENS``) is said, with exit 1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.refused_account import refused_prefix, request_json
from tests.support.serve import ServedProcess, serve, served_in, venv_bin
from tests.support.zygote import Zygote


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    """The service over a new data dir, forked from this process's zygote (no imports)."""
    with served_in(tmp_path, zygote=Zygote.shared()) as process:
        yield process


def _token(
    served: ServedProcess,
    *words: str,
    env: dict[str, str] | None = None,
    prefix: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    """``memory-api token WORDS`` over the service's data dir (run after ``prefix``)."""
    return subprocess.run(
        [*prefix, venv_bin("memory-api"), "token", *words],
        env={**served.env, **(env or {})}, capture_output=True, text=True, check=False,
    )  # fmt: skip


def _create(served: ServedProcess, name: str) -> str:
    done = _token(served, "create", "--name", name)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a10_a_revoked_token_no_longer_passes_from_a_copy_of_its_file(
    served: ServedProcess,
) -> None:
    tokens = served.data_dir / "tokens"
    secret = _create(served, "ci")
    _create(served, "admin")
    shutil.copy(tokens / "ci.json", tokens / "ci-old.json")  # a backup before an edit
    (tokens / "ci.json").rename(tokens / "pipeline.json")  # and the file renamed by hand
    assert request_json(served.base_url, "GET", "/api/me", secret)[1]["name"] == "ci"

    done = _token(served, "revoke", "--name", "ci")

    assert done.returncode == 0, done.stderr
    assert "tokens/ci-old.json" in done.stdout and "tokens/pipeline.json" in done.stdout
    assert request_json(served.base_url, "GET", "/api/me", secret)[0] == 401
    assert sorted(path.name for path in tokens.iterdir()) == ["admin.json"]
    listed = _token(served, "list")
    assert [line.split()[0] for line in listed.stdout.splitlines()] == ["NAME", "admin"]


def test_a10_a_new_token_never_takes_a_name_another_file_holds(served: ServedProcess) -> None:
    tokens = served.data_dir / "tokens"
    first = _create(served, "ci")
    (tokens / "ci.json").rename(tokens / "pipeline.json")

    done = _token(served, "create", "--name", "ci")

    assert done.returncode == 1
    assert "a token named 'ci' exists already, in tokens/pipeline.json" in done.stderr
    assert sorted(path.name for path in tokens.iterdir()) == ["pipeline.json"]
    assert request_json(served.base_url, "GET", "/api/me", first)[1]["name"] == "ci"


def test_a10_a_revoke_it_cannot_vouch_for_is_said_with_exit_1(served: ServedProcess) -> None:
    tokens = served.data_dir / "tokens"
    _create(served, "ci")
    admin = _create(served, "admin")
    (tokens / "broken.json").write_text("{not json", encoding="utf-8")  # may hold 'ci' too

    done = _token(served, "revoke", "--name", "ci")

    assert done.returncode == 1
    assert "one may hold token 'ci' too" in done.stderr and "broken.json" in done.stderr
    assert not (tokens / "ci.json").exists()

    env_token = {"MEMORY_API_TOKENS": "admin=" + admin}
    done = _token(served, "revoke", "--name", "admin", env=env_token)
    assert done.returncode == 1
    assert "token 'admin' is defined in MEMORY_API_TOKENS" in done.stderr
    assert (tokens / "admin.json").exists()  # nothing deleted: the token would still pass


def test_a10_a_revoked_secret_no_longer_passes_from_a_copy_renamed_inside(
    served: ServedProcess,
) -> None:
    """A copy whose record's name was edited too (``ci-old``, kept for a rollback) holds the
    same secret: revoking ``ci`` deleted ``ci.json`` alone and the secret went on answering 200
    as ``ci-old``. A token is revoked to stop its secret: every file holding it goes, named."""
    tokens = served.data_dir / "tokens"
    secret = _create(served, "ci")
    _create(served, "admin")
    record = (tokens / "ci.json").read_text(encoding="utf-8")
    renamed = record.replace('"name":"ci"', '"name":"ci-old"')
    assert renamed != record
    (tokens / "ci-old.json").write_text(renamed, encoding="utf-8")
    assert request_json(served.base_url, "GET", "/api/me", secret)[1]["name"] in ("ci", "ci-old")

    done = _token(served, "revoke", "--name", "ci")

    assert done.returncode == 0, done.stderr
    assert "tokens/ci-old.json" in done.stdout and "tokens/ci.json" in done.stdout
    assert request_json(served.base_url, "GET", "/api/me", secret)[0] == 401
    assert sorted(path.name for path in tokens.iterdir()) == ["admin.json"]


def test_a10_a_token_only_a_file_it_cannot_read_holds_is_never_no_such_token(
    served: ServedProcess,
) -> None:
    """The operator revokes with an account that cannot read the service's token file (the
    service's own file, renamed by hand from ``ci.json``, mode ``0000``: the service, root,
    reads past it; the command runs without those capabilities): ``revoke`` said "no token
    named 'ci'" while the service, which reads it, went on answering the secret 200. Right:
    it says that a file it cannot read may hold the token, names it, and revokes nothing.
    (The file stays root's: one another account owns is no token the service trusts.)"""
    if os.geteuid() != 0:
        pytest.skip("a file only root's capabilities read needs root")
    tokens = served.data_dir / "tokens"
    secret = _create(served, "ci")
    (tokens / "ci.json").rename(tokens / "pipeline.json")
    (tokens / "pipeline.json").chmod(0o000)

    done = _token(served, "revoke", "--name", "ci", prefix=refused_prefix())

    assert done.returncode == 1
    assert "no token named" not in done.stderr
    assert "tokens/pipeline.json: Permission denied" in done.stderr
    assert "one may hold it: nothing was revoked" in done.stderr
    assert request_json(served.base_url, "GET", "/api/me", secret)[1]["name"] == "ci"


def test_a10_a_secret_that_also_answers_through_the_environment_is_never_said_revoked(
    tmp_path: Path,
) -> None:
    """The operator put the secret of the token file ``ci`` into ``MEMORY_API_TOKENS`` under
    another name (``deploy=<secret>``, for a service started elsewhere). ``revoke --name ci``
    deleted ``ci.json``, said ``revoked token 'ci'`` (exit 0), and the secret went on
    answering 200 as ``deploy``. Right: as for a name only the environment defines, revoke
    says which entry of it holds the secret, deletes nothing and exits 1."""
    with served_in(tmp_path) as first:
        secret = _create(first, "ci")
        _create(first, "admin")
    environment = {**first.env, "MEMORY_API_TOKENS": f"deploy={secret}"}
    served = serve(first.data_dir, environment, log_path=tmp_path / "second.log")
    try:
        assert request_json(served.base_url, "GET", "/api/me", secret)[0] == 200

        done = _token(served, "revoke", "--name", "ci")

        assert done.returncode == 1
        assert "revoked" not in done.stdout
        assert "token 'deploy' of MEMORY_API_TOKENS" in done.stderr
        assert "no token file was deleted" in done.stderr
        tokens = served.data_dir / "tokens"
        assert sorted(path.name for path in tokens.iterdir()) == ["admin.json", "ci.json"]
        assert request_json(served.base_url, "GET", "/api/me", secret)[0] == 200
    finally:
        served.stop()
