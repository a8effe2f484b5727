"""Q-1: the data-dir commands in a shell that names no data dir (the README's second shell
without ``export MEMORY_API_DATA_DIR``): a dry-run import is refused where the real import is,
and the reading commands say that they read the default data dir and what to name instead."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from aiohttp.test_utils import unused_port
from memory_api.cli import main
from memory_api.command_place import NAME_THE_DATA_DIR

from tests.api.conftest import CORPUS
from tests.support.redirecting import redirecting_service
from tests.support.serve import served_in
from tests.support.zygote import Zygote

FOLDER = str(CORPUS / "user-scope")
IDS = ["--project", "acme", "--agent", "coder"]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user's HOME, no data dir named, no service answering at MEMORY_API_PORT."""
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("MEMORY_API_DATA_DIR", "XDG_DATA_HOME", "MEMORY_API_URL", "MEMORY_API_HOST"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMORY_API_PORT", str(unused_port()))
    return tmp_path


def test_q1_a_dry_run_import_is_refused_where_the_import_would_be(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for extra in (["--dry-run"], []):
        assert main(["memory", "import", FOLDER, *IDS, "--user", *extra]) == 2
        said = capsys.readouterr().err
        assert "nothing done: no data dir is named" in said and "MEMORY_API_DATA_DIR" in said
    assert not (home / ".local" / "share" / "agent-memory").exists()


def test_q1_an_export_from_the_default_data_dir_says_so_before_it_looks_for_the_agent(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["memory", "export", *IDS, "-o", str(home / "out.tar.gz")]) == 1
    said = capsys.readouterr().err
    default = home / ".local" / "share" / "agent-memory"
    assert f"exporting in the data dir {default} (the default: none is named)" in said
    assert "--data-dir DIR (or MEMORY_API_DATA_DIR)" in said
    assert f"no agent 'coder' in project 'acme' in the data dir {default}" in said
    assert not default.exists()


def test_q1_the_reading_commands_leave_no_data_dir_behind(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``agent list``, ``token list`` and ``memory export`` only read: in a shell that names no
    data dir they read the default one and, where there is none, make none (an export that
    found no agent left the default data dir's folders and topic database in ``~/.local``)."""
    default = home / ".local" / "share" / "agent-memory"
    assert main(["agent", "list"]) == 0
    assert "no agents" in capsys.readouterr().out
    assert main(["token", "list"]) == 0
    assert main(["memory", "export", *IDS, "-o", str(home / "out.tar.gz")]) == 1
    assert "no agent 'coder' in project 'acme'" in capsys.readouterr().err
    assert not default.exists()
    assert not (home / "out.tar.gz").exists()


def test_q1_agent_list_that_finds_none_in_the_default_data_dir_says_what_to_name(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A newcomer who forgot ``export MEMORY_API_PORT`` ran ``agent list``: no service answered
    at the default address, it read the default data dir and said only "no agents" (exit 0),
    so their agents looked gone; ``agent create`` in the same shell refused, naming the address
    and the data dir, and ``token list`` named the data dir to name. It says both now."""
    default = home / ".local" / "share" / "agent-memory"
    url = f"http://127.0.0.1:{os.environ['MEMORY_API_PORT']}"
    for extra, none in (([], "no agents"), (["--project", "acme"], "no agents in project 'acme'")):
        assert main(["agent", "list", *extra]) == 0
        said = capsys.readouterr()
        assert f"agents in the data dir {default} (the default: none is named)" in said.err
        assert said.out.startswith(f"{none} in the default data dir; ")
        assert f"no memory-api service answers at {url}" in said.out
        assert "--url" in said.out and "MEMORY_API_PORT" in said.out
        assert NAME_THE_DATA_DIR in said.out
    assert not default.exists()


def test_q1_an_export_beside_a_running_service_points_at_its_data_dir_not_at_agent_create(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's second shell without ``MEMORY_API_DATA_DIR``, beside ``make run``: the
    export looked in the default data dir and ended "make it there first: memory-api agent
    create --data-dir <the default>", an agent in a data dir no service looks at; its first line
    said to name the data dir twice over. The way on is the service's data dir, said once."""
    with served_in(tmp_path, zygote=Zygote.shared()) as service:
        monkeypatch.setenv("MEMORY_API_PORT", service.base_url.rsplit(":", 1)[1])
        assert main(["memory", "export", *IDS, "-o", str(home / "out.tar.gz")]) == 1
        said = capsys.readouterr().err
    default = home / ".local" / "share" / "agent-memory"
    [first, *_] = said.splitlines()
    assert f"a memory-api service answers at {service.base_url}: to read its data dir" in first
    assert first.count("--data-dir DIR (or MEMORY_API_DATA_DIR)") == 1
    assert f"no agent 'coder' in project 'acme' in the data dir {default} (the default" in said
    assert "make it there first" not in said and "agent create" not in said
    assert not (home / "out.tar.gz").exists()


def test_q1_token_list_of_the_default_data_dir_does_not_speak_for_a_service(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["token", "list"]) == 0
    out = capsys.readouterr().out
    assert "the service is open" not in out
    assert "no tokens in the default data dir; if a service uses another, name the" in out


def test_q1_token_list_beside_a_running_service_names_it_and_its_data_dir(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The web page's token prompt names ``memory-api token list``; run in the README's second
    shell (no data dir named) beside ``make run``, it said only "no tokens in the default data
    dir" while the service, over another data dir, had them. It now names the service that
    answers and how to read its data dir."""
    with served_in(tmp_path, zygote=Zygote.shared()) as service:
        monkeypatch.setenv("MEMORY_API_PORT", service.base_url.rsplit(":", 1)[1])
        assert main(["token", "list"]) == 0
        said = capsys.readouterr().err
    assert f"a memory-api service answers at {service.base_url}: to read its data dir" in said
    assert "--data-dir DIR (or MEMORY_API_DATA_DIR)" in said


def test_q1_another_server_redirecting_at_the_default_port_is_no_service(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unrelated local server answering ``302`` at the default port, which nobody named:
    ``token list`` failed with "give the service's own address with --url" though no ``--url``
    was given. It reads the default data dir, as when nothing answers there."""
    with redirecting_service() as other:
        monkeypatch.setenv("MEMORY_API_PORT", other.url.rsplit(":", 1)[1])
        assert main(["token", "list"]) == 0
        said = capsys.readouterr()
    assert "no tokens in the default data dir" in said.out
    assert "redirect" not in said.err and "a memory-api service answers" not in said.err
    assert other.seen == []


def test_q1_a_data_dir_that_is_a_file_is_an_error_not_an_empty_one(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only a data dir that is not there at all holds no agent: a file in its place is said as
    an error (it listed "no agents" with status 0), and an export from it is never told to make
    the agent there."""
    place = home / "data"
    place.write_text("not a folder\n", encoding="utf-8")
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(place))

    assert main(["agent", "list"]) == 1
    assert "no agents" not in capsys.readouterr().out
    assert main(["memory", "export", *IDS, "-o", str(home / "out.tar.gz")]) == 1
    assert "agent create" not in capsys.readouterr().err


def test_q1_an_agent_create_nothing_answers_for_names_the_port_make_run_was_given(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's second shell without ``export MEMORY_API_PORT`` beside ``make run
    MEMORY_API_PORT=9000``: the refusal names the default address, and says how to name the
    port the service was started on."""
    create = ["agent", "create", "--project", "acme", "--id", "coder", "--name", "Coding agent"]

    assert main(create) == 2

    said = capsys.readouterr().err
    assert "no memory-api service answers at http://127.0.0.1:" in said
    assert "if make run was given another port (make run MEMORY_API_PORT=…), " in said
    assert "`export MEMORY_API_PORT=…` with it in this shell (or pass --url)" in said
    assert not (home / ".local" / "share" / "agent-memory").exists()
