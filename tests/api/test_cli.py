"""The memory-api command line (A-1, A-10, Q-1): agents, tokens, the demo seed, serve."""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from aiohttp.test_utils import unused_port
from memory_api import cli
from memory_api.cli import build_parser, main, page_url
from memory_api.remote import default_url
from memory_core.keys import workspace_memory_key
from memory_core.layout import MARKER_FILE, memory_root

from tests.api.conftest import CORPUS, corpus_topics
from tests.support.cli_help import every_help, options_without_help
from tests.support.serve import code_under_test, serve


@pytest.fixture
def env(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the CLI at the test data dir; no tokens from the environment."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    return data_dir


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """Put the root logger back after a command that configures logging (``serve``)."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    switches = logging._srcfile, logging.logThreads, logging.logMultiprocessing
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    logging._srcfile, logging.logThreads, logging.logMultiprocessing = switches


def test_a1_under_umask_000_no_folder_or_file_of_the_data_dir_is_writable_by_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_umask: None
) -> None:
    """Every account could otherwise plant memories the model reads, or git configuration
    the service runs, in a data dir made under ``umask 000``."""
    data_dir = tmp_path / "fresh" / "data"
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    create = ["agent", "create", "--project", "acme", "--id", "coder", "--name", "Coder"]
    assert main(["token", "create", "--name", "me", "--data-dir", str(data_dir)]) == 0  # makes it
    assert main([*create, "--data-dir", str(data_dir)]) == 0

    made = [data_dir, *data_dir.rglob("*")]
    assert memory_root(data_dir, "coder") / "user" in made
    open_to_others = [
        f"{path.relative_to(tmp_path)} {stat.S_IMODE(path.lstat().st_mode):o}"
        for path in made
        if path.lstat().st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    ]
    assert open_to_others == []


def test_a1_a_umask_that_keeps_others_out_is_honoured_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``umask 002``: a data dir its group shares on purpose (Kubernetes' ``fsGroup``) stays
    writable by the group, never by others."""
    old = os.umask(0o002)
    try:
        data_dir = tmp_path / "shared" / "data"
        monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
        create = ["agent", "create", "--project", "acme", "--id", "coder", "--name", "Coder"]
        assert main(["token", "create", "--name", "me", "--data-dir", str(data_dir)]) == 0
        assert main([*create, "--data-dir", str(data_dir)]) == 0
    finally:
        os.umask(old)

    scope = memory_root(data_dir, "coder") / "user"
    assert stat.S_IMODE(scope.stat().st_mode) & stat.S_IWGRP
    made = [data_dir, *data_dir.rglob("*")]
    assert [path for path in made if path.lstat().st_mode & stat.S_IWOTH] == []


def test_a1_agent_create_and_list(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "Coder"]) == 0
    assert "created agent 'coder'" in capsys.readouterr().out
    assert (memory_root(env, "coder") / "user").is_dir()
    assert main(["agent", "list"]) == 0
    out = capsys.readouterr().out
    assert "acme" in out and "coder" in out and "Coder" in out
    assert main(["agent", "list", "--project", "elsewhere"]) == 0
    assert "no agents in project 'elsewhere'" in capsys.readouterr().out


def test_a1_agent_list_covers_every_project_sorted(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for project, agent_id in (("zeta", "alpha"), ("acme", "coder"), ("acme", "bot")):
        argv = ["agent", "create", "--project", project, "--id", agent_id, "--name", agent_id]
        assert main(argv) == 0
    capsys.readouterr()
    assert main(["agent", "list"]) == 0
    rows = [line.split()[:2] for line in capsys.readouterr().out.splitlines()[1:]]
    assert rows == [["acme", "bot"], ["acme", "coder"], ["zeta", "alpha"]]
    assert main(["agent", "list", "--project", "zeta"]) == 0
    assert [line.split()[:2] for line in capsys.readouterr().out.splitlines()[1:]] == [
        ["zeta", "alpha"]
    ]


def test_a1_agent_list_names_an_agent_whose_settings_cannot_be_read(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Q-2b: never left out unsaid; the exit status says the list is not whole."""
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]) == 0
    (env / "agents" / "lost" / "agent.json").mkdir(parents=True)
    capsys.readouterr()
    assert main(["agent", "list"]) == 1
    captured = capsys.readouterr()
    assert [line.split()[:2] for line in captured.out.splitlines()[1:]] == [["acme", "coder"]]
    assert (
        "agent lost (project unknown): the stored settings of agent 'lost' "
        "(agents/lost/agent.json in the data dir) are not a regular file: an operator must"
        in captured.err
    )


@pytest.mark.parametrize("kind", ["file", "fifo", "link-out"])
def test_q2b_agent_list_says_a_user_scope_that_cannot_be_used(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """A file, a FIFO or a link out of the memory root where the user scope's folder belongs:
    the line said "0" memories, exit 0 (a calm, wrong answer); now "0+", the reason in the
    overview's words (never where the link leads) and exit 1."""
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]) == 0
    user = memory_root(env, "coder") / "user"
    user.rmdir()
    outside = tmp_path / "outside-0123"
    outside.mkdir()
    if kind == "file":
        user.write_text("x", encoding="utf-8")
    elif kind == "fifo":
        os.mkfifo(user)
    else:
        user.symlink_to(outside, target_is_directory=True)
    capsys.readouterr()

    assert main(["agent", "list"]) == 1

    captured = capsys.readouterr()
    assert [line.split()[:3] for line in captured.out.splitlines()[1:]] == [["acme", "coder", "on"]]
    assert captured.out.splitlines()[1].split()[3] == "0+"
    assert (
        "agent coder: its scope 'user' cannot be used: the service found something that is "
        "not a folder in its folder's place" in captured.err
    )
    assert outside.name not in captured.err


def test_a1_agent_create_with_template_file(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    template = tmp_path / "prompt.md"
    template.write_text("You are a reviewer.\n", encoding="utf-8")
    argv = ["agent", "create", "--project", "acme", "--id", "rev", "--name", "Rev"]
    assert main([*argv, "--template-file", str(template)]) == 0
    stored = json.loads((env / "agents" / "rev" / "agent.json").read_text(encoding="utf-8"))
    assert stored["template"] == "You are a reviewer.\n"


def test_a1_agent_create_refusals(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]
    assert main(argv) == 0
    assert main(argv) == 1
    assert "agent 'coder' exists already in project 'acme'" in capsys.readouterr().err
    assert main(["agent", "create", "--project", "acme", "--id", "Bad Id", "--name", "C"]) == 1
    assert "invalid agent" in capsys.readouterr().err


def test_a10_token_create_prints_the_secret_once(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["token", "create", "--name", "ci", "--project", "acme", "--project", "x"]) == 0
    captured = capsys.readouterr()
    secret = captured.out.strip()
    assert secret.startswith("mem_") and len(secret) > 40
    assert "shown only now" in captured.err
    stored = json.loads((env / "tokens" / "ci.json").read_text(encoding="utf-8"))
    assert stored["projects"] == ["acme", "x"]
    assert secret not in json.dumps(stored)
    assert main(["token", "list"]) == 0
    listing = capsys.readouterr().out
    assert "ci" in listing and secret not in listing
    assert listing.split() == ["NAME", "PROJECTS", "CREATED", "ci", "acme,x", stored["createdAt"]]
    assert main(["token", "create", "--name", "ci"]) == 1
    assert "exists already" in capsys.readouterr().err
    assert main(["token", "revoke", "--name", "ci", "--reopen"]) == 0  # the last one
    assert not (env / "tokens" / "ci.json").exists()
    assert main(["token", "revoke", "--name", "ci"]) == 1


def test_a10_a_token_is_named_as_a_word_or_with_name(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``token create alice`` / ``token revoke alice``, as a team types them first, do what
    ``--name alice`` does; the two forms at once, or neither, are refused by the parser."""
    assert main(["token", "create", "alice", "--project", "acme"]) == 0
    assert capsys.readouterr().out.startswith("mem_")
    assert (env / "tokens" / "alice.json").is_file()
    assert main(["token", "create", "--name", "bob"]) == 0
    for both_or_neither in (["bob", "--name", "alice"], []):
        with pytest.raises(SystemExit) as refused:
            main(["token", "revoke", *both_or_neither])
        assert refused.value.code == 2
    assert main(["token", "revoke", "alice"]) == 0
    assert main(["token", "revoke", "--name", "bob", "--reopen"]) == 0  # the last one
    assert not list((env / "tokens").glob("*.json"))


@pytest.mark.parametrize("name", ["-bob", ".hidden"])
def test_a10_a_token_name_not_starting_with_a_letter_or_digit_is_refused_saying_so(
    env: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """``token create -bob`` was answered "one of the arguments NAME --name is required" and
    ``token create .hidden`` with the characters a name may hold, neither saying its first must
    be a letter or digit: each form says the whole rule, and nothing is written."""
    for given in ([name], [f"--name={name}"]):
        code: object
        try:
            code = main(["token", "create", *given])
        except SystemExit as refused:  # argparse's exit, for a word it takes for an option
            code = refused.code
        said = capsys.readouterr().err

        assert code in (1, 2) and "the first a letter or digit" in said, (given, code, said)
    assert not (env / "tokens").exists() or not list((env / "tokens").iterdir())


def test_a10_the_first_token_says_the_service_now_asks_for_one(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A newcomer beside `make run` who made a token for a teammate found every curl of the
    README answered 401 a second later, with nothing said at the create: the service was open
    and no longer is. The first token says so and how to send one; a second says nothing new,
    and neither puts anything but the secret on stdout (it goes to a 0600 file as is)."""
    assert main(["token", "create", "--name", "alice", "--project", "acme"]) == 0
    first = capsys.readouterr()
    assert first.out.strip().startswith("mem_") and len(first.out.splitlines()) == 1
    assert "the data dir had no token: from now on its service answers" in first.err
    assert "'Authorization: Bearer <secret>'" in first.err
    assert "HARNESS_MEMORY_TOKEN or --token-file" in first.err
    assert (  # hooks installed while it was open send no token: the install to run again
        "Hooks installed before now send none: their Sessions start without memory until "
        "`harness-memory install HARNESS` runs again with a token in HARNESS_MEMORY_TOKEN "
        "(`harness-memory status` names them)" in " ".join(first.err.split())
    )
    assert main(["token", "create", "--name", "bob", "--project", "acme"]) == 0
    second = capsys.readouterr()
    assert "shown only now" in second.err and "had no token" not in second.err
    assert len(second.out.splitlines()) == 1


def test_a10_the_first_token_names_harness_memory_as_the_user_can_run_it(tmp_path: Path) -> None:
    """Beside ``make run`` neither script is on ``PATH``: the notice named a bare
    ``harness-memory`` the shell does not find; started as ``.venv/bin/memory-api``, it names
    ``.venv/bin/harness-memory``, the one beside it."""
    from memory_api.cli import beside_as_typed, now_closed_notice

    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "harness-memory").write_text("#!/bin/sh\n", "utf-8")
    typed = str(bin_dir / "memory-api")
    assert beside_as_typed("harness-memory", typed) == str(bin_dir / "harness-memory")
    assert beside_as_typed("harness-memory", "memory-api") == "harness-memory"  # from PATH
    said = now_closed_notice(str(bin_dir / "harness-memory"))
    assert f"`{bin_dir / 'harness-memory'} install HARNESS` runs again" in said
    assert f"(`{bin_dir / 'harness-memory'} status` names them)" in said


def test_q1_a_refusal_names_memory_api_as_the_user_started_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Beside ``make run`` ``memory-api`` is ``.venv/bin/memory-api``, on no ``PATH``: an import
    from a harness that keeps nothing here ended "a memory folder of your own: `memory-api
    memory import FOLDER …`", a command the shell does not find. A refusal names each
    ``memory-api`` command as the program was started; from ``PATH``, the bare name."""
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "memory-api").write_text("#!/bin/sh\n", "utf-8")
    (bin_dir / "memory-api").chmod(0o755)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "data").mkdir()
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]) == 0
    argv = ["memory", "import", "--from", "codex", "--workspace", str(tmp_path)]
    argv += ["--project", "acme", "--agent", "coder"]
    for path, typed in (("/usr/bin", str(bin_dir / "memory-api")), (str(bin_dir), "memory-api")):
        monkeypatch.setenv("PATH", path)
        monkeypatch.setattr(sys, "argv", [str(bin_dir / "memory-api"), *argv])

        assert main(argv) == 1

        flags = f"--workspace {tmp_path} --project acme --agent coder"
        assert f"`{typed} memory import FOLDER {flags}`" in capsys.readouterr().err


def test_a10_the_first_token_names_harness_memory_so_the_shell_runs_it_from_any_checkout(
    tmp_path: Path,
) -> None:
    """A checkout under ``sp ace/it's/``: the command the notice names is quoted, and bash
    runs it as it stands."""
    from memory_api.cli import beside_as_typed, now_closed_notice

    bin_dir = tmp_path / "sp ace" / "it's" / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "harness-memory").write_text('#!/bin/sh\necho ran "$@"\n', "utf-8")
    (bin_dir / "harness-memory").chmod(0o755)
    said = now_closed_notice(beside_as_typed("harness-memory", str(bin_dir / "memory-api")))
    command = said.split("(`")[-1].split("`")[0]

    ran = subprocess.run(
        ["bash", "-c", command], env={"PATH": "/usr/bin:/bin"}, capture_output=True, text=True
    )
    assert command.endswith("/.venv/bin/harness-memory' status"), command
    assert (ran.stdout, ran.returncode) == ("ran status\n", 0), ran.stderr


def test_a10_token_list_says_what_each_column_is_and_a_token_of_every_project_as_such(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A newcomer read "me  *  2026-…" with no header: what the "*" and an "env" in the last
    column meant was nowhere said."""
    monkeypatch.setenv("MEMORY_API_TOKENS", "deploy=" + "s" * 20)
    assert main(["token", "create", "--name", "me"]) == 0
    capsys.readouterr()
    assert main(["token", "list"]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert header.split() == ["NAME", "PROJECTS", "CREATED"]
    said = {row.split()[0]: " ".join(row.split()[1:]) for row in rows}
    assert said["me"].startswith("every project 20")
    assert said["deploy"] == "every project (from the environment: MEMORY_API_TOKENS or its file)"


def test_a10_token_name_is_checked(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["token", "create", "--name", "../x"]) == 1
    assert "token name" in capsys.readouterr().err


def test_q1_demo_seed_is_idempotent_and_never_overwrites(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "seed", "--corpus", str(CORPUS)]) == 0
    first = capsys.readouterr().out
    assert "created agent 'demo'" in first
    root = memory_root(env, "demo")
    shop = env / "demo-workspaces" / "shop-api"
    key = workspace_memory_key(shop)
    assert (root / key / MARKER_FILE).read_text(encoding="utf-8") == f"{os.path.realpath(shop)}\n"
    user_topics = sorted(p.name for p in (root / "user").glob("*.md") if p.name != "MEMORY.md")
    assert user_topics == corpus_topics("user-scope")
    big = workspace_memory_key(env / "demo-workspaces" / "data-platform")
    assert len(list((root / big).glob("*.md"))) == len(list((CORPUS / "large-index").glob("*.md")))
    config = json.loads((env / "agents" / "demo" / "agent.json").read_text(encoding="utf-8"))
    assert config["project"] == "demo"
    for line in ("{{MEMORY}}", "# Environment", "- App data dir:", "- Agent id: demo", "- CWD:"):
        assert line in config["template"]

    edited = root / "user" / "prefers-pnpm.md"
    edited.write_text("my own words\n", encoding="utf-8")
    assert main(["demo", "seed", "--corpus", str(CORPUS)]) == 0
    again = capsys.readouterr().out
    assert "kept agent 'demo'" in again and " 0 files copied" in again
    assert edited.read_text(encoding="utf-8") == "my own words\n"


def test_q1_demo_seed_does_not_bring_back_a_memory_the_user_deleted(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``make run`` seeds on every start: a memory deleted on the page (its index line pruned
    with it) must stay deleted, while a memory new in the corpus still arrives."""
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    assert main(["demo", "seed", "--corpus", str(corpus)]) == 0
    capsys.readouterr()
    user = memory_root(env, "demo") / "user"
    (user / "prefers-pnpm.md").unlink()  # as the page's delete does, with the index line
    index = user / "MEMORY.md"
    kept = [line for line in index.read_text().splitlines() if "prefers-pnpm.md" not in line]
    index.write_text("\n".join(kept) + "\n")
    (corpus / "user-scope" / "new-fact.md").write_text("---\nname: new-fact\n---\nNew.\n")

    assert main(["demo", "seed", "--corpus", str(corpus)]) == 0
    out = capsys.readouterr().out
    assert not (user / "prefers-pnpm.md").exists()
    assert (user / "new-fact.md").read_text() == "---\nname: new-fact\n---\nNew.\n"
    assert "1 file copied" in out and "1 deleted since an earlier seed left out" in out
    marker = json.loads((env / "agents" / "demo" / "demo-seed.json").read_text())
    assert {"prefers-pnpm.md", "new-fact.md", "MEMORY.md"} <= set(marker["seeded"]["user"])

    # Deleting the demo agent's folder starts over.
    shutil.rmtree(env / "agents" / "demo")
    assert main(["demo", "seed", "--corpus", str(corpus)]) == 0
    assert (user / "prefers-pnpm.md").exists()


def test_q1_demo_seed_needs_a_corpus(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "seed", "--corpus", str(tmp_path / "nothing")]) == 1
    assert "no user-scope folder" in capsys.readouterr().err


def test_a11_bad_configuration_exits_2(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MEMORY_API_PORT", "nope")
    assert main(["agent", "list"]) == 2
    assert "MEMORY_API_PORT" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["99999", "65536", "-1", "0x50", "eighty"])
def test_a11_serve_refuses_a_port_no_socket_has_and_starts_nothing(
    env: Path, port: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found: ``serve --port 99999`` listened on 34463 and ``--port 65536`` on a port the
    kernel chose (the number taken modulo 65536), each announced as running; ``-1`` failed
    only at the bind, "Servname not supported". ``MEMORY_API_PORT`` was checked already.
    A service that starts all the same fails the test at once instead of serving on."""

    def started(_settings: object, _bind: object, sockets: list[socket.socket]) -> None:
        bound = [sock.getsockname() for sock in sockets]
        for sock in sockets:
            sock.close()
        raise AssertionError(f"serve --port {port} started a service on {bound}")

    monkeypatch.setattr(cli, "_run_app", started)
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--port", port])

    assert exited.value.code == 2
    assert "--port must be a whole number from 0 to 65535" in capsys.readouterr().err


@pytest.mark.usefixtures("restore_logging")
def test_a10_serve_refuses_a_public_address_without_tokens(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MEMORY_API_HOST", "0.0.0.0")  # noqa: S104 - must be refused
    assert main(["serve"]) == 2
    assert "refusing to bind 0.0.0.0" in capsys.readouterr().err


def _file_on_the_way(tmp_path: Path) -> Path:
    (tmp_path / "file").write_text("not a folder\n", encoding="utf-8")
    return tmp_path / "file" / "data"


def _top_folder_a_file(tmp_path: Path) -> Path:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "agents").write_text("not a folder\n", encoding="utf-8")
    return tmp_path / "data"


@pytest.mark.usefixtures("restore_logging")
@pytest.mark.parametrize(
    "place",
    [lambda tmp: _file_on_the_way(tmp).parent, _file_on_the_way, _top_folder_a_file],
    ids=["a regular file", "under a regular file", "its agents folder a file"],
)
def test_a11_serve_refuses_a_data_dir_that_can_never_be_one_and_starts_nothing(
    tmp_path: Path,
    place: Callable[[Path], Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``MEMORY_API_DATA_DIR=/some/regular-file memory-api serve`` logged "cannot prepare the
    data dir … Not a directory", listened on and answered every ``/api/`` request 503 forever.
    A setting that can never work stops the start (exit 2) naming it, as a malformed one does."""
    data_dir = place(tmp_path)
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setattr(cli, "_run_app", _never_started)

    assert main(["serve", "--port", "0"]) == 2
    said = capsys.readouterr().err
    assert "configuration error: the data dir (MEMORY_API_DATA_DIR or --data-dir) cannot" in said
    assert str(tmp_path) in said


@pytest.mark.usefixtures("restore_logging")
def test_a11_serve_over_a_data_dir_not_there_yet_still_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A data dir not made yet (``make run``'s first start, a mount point not there yet) is no
    bad setting: serve starts, makes it, or answers 503 until the disk is back."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(tmp_path / "not-yet" / "data"))
    started: list[int] = []

    def run_app(_settings: object, _bind: object, sockets: list[socket.socket]) -> None:
        for sock in sockets:
            sock.close()
        started.append(len(sockets))

    monkeypatch.setattr(cli, "_run_app", run_app)
    assert main(["serve", "--port", "0"]) == 0
    assert started


def _never_started(_settings: object, _bind: object, sockets: list[socket.socket]) -> None:
    for sock in sockets:
        sock.close()
    raise AssertionError("serve started over a data dir that can never be one")


def _get(url: str, token: str | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url)  # noqa: S310 - a loopback URL built by the test
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310
            return int(response.status), bytes(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.mark.e2e
def test_a11_serve_for_real_json_logs_and_graceful_stop(data_dir: Path) -> None:
    port = unused_port()
    secret = "e2e-secret-0123456789abcdef"
    environ = {
        **os.environ,
        "MEMORY_API_DATA_DIR": str(data_dir),
        "MEMORY_API_PORT": str(port),
        "MEMORY_API_LOG_FORMAT": "json",
        "MEMORY_API_TOKENS": f"e2e={secret}",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "memory_api", "serve"],
        env=environ,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):  # wait for the port to open (bounded; not a timing assertion)
            try:
                if _get(f"{base}/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.05)
        assert _get(f"{base}/api/me")[0] == 401
        status, body = _get(f"{base}/api/me", secret)
        assert status == 200 and json.loads(body)["name"] == "e2e"
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0
    lines = [json.loads(line) for line in stderr.decode().splitlines() if line.strip()]
    assert any("needs a token" in line["message"] for line in lines)
    access = [line for line in lines if line["logger"] == "memory_api.access"]
    assert {line["path"] for line in access} >= {"/healthz", "/api/me"}
    assert secret not in stderr.decode()


def test_q1_demo_seed_names_the_memory_tab_but_no_address_and_no_date_in_the_future(
    env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seed runs before anything listens: an address it printed pointed at whatever held
    the port then. It names the tab's route; ``serve`` logs the address once it listens."""
    monkeypatch.setenv("MEMORY_API_PORT", "8799")
    assert main(["demo", "seed", "--corpus", str(CORPUS)]) == 0
    out = capsys.readouterr().out
    assert "http://" not in out
    assert "#/projects/demo/agents/demo/memory" in out
    assert "`memory-api serve`" in out and "once it listens" in out
    today = time.strftime("%Y-%m-%d", time.gmtime())
    dates = []
    for path in memory_root(env, "demo").rglob("*.md"):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("updated_at:"):
                dates.append(line.split(":", 1)[1].strip().strip("\"'")[:10])
    assert dates
    assert max(dates) <= today


def test_q1_make_run_on_a_busy_port_says_only_that_it_is_held_and_by_what(
    env: Path,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    restore_logging: None,
) -> None:
    """``make run`` (seed, then serve) with the port held by another program: the seed printed
    the demo agent's Memory tab address and serve its web page, both pointing at that program,
    and serve built and stopped the service first ("stopped serving the data dir"). It says
    one thing: the port is held, by which process (here this test's), how to stop it, and the
    README's ``make run MEMORY_API_PORT=…``; it exits 1."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        monkeypatch.setenv("MEMORY_API_PORT", str(port))
        assert main(["demo", "seed", "--corpus", str(CORPUS)]) == 0
        code = main(["serve", "--host", "127.0.0.1"])
    said = capfd.readouterr()
    assert code == 1
    assert "http://" not in said.out + said.err
    [error] = said.err.splitlines()  # nothing else: no "stopped serving the data dir"
    held = f"port {port} on 127.0.0.1 is already in use by process {os.getpid()} ("
    assert held in error
    assert f"started in {Path.cwd()}" in error
    assert f"Stop it (kill {os.getpid()}) or pick another port" in error
    suggested = int(error.split("make run MEMORY_API_PORT=", 1)[1].split()[0])
    assert suggested > port
    with socket.socket() as taken:  # free when suggested (nothing else here holds it)
        taken.bind(("127.0.0.1", suggested))
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert "`make run MEMORY_API_PORT=9000`" in readme  # the same form


def _held_pair() -> tuple[socket.socket, socket.socket]:
    """Two listening sockets on two neighbouring loopback ports (``port``, ``port + 1``)."""
    for _ in range(50):
        first = socket.socket()
        first.bind(("127.0.0.1", 0))
        port = first.getsockname()[1]
        second = socket.socket()
        try:
            second.bind(("127.0.0.1", port + 1))
        except OSError:
            first.close()
            second.close()
            continue
        first.listen()
        second.listen()
        return first, second
    raise AssertionError("no two neighbouring loopback ports were free")


def test_q1_a_busy_port_s_advice_names_a_port_that_is_free_not_the_next_held_one(
    env: Path,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    restore_logging: None,
) -> None:
    """A second service already holds the next port (8765 and 8766 both taken by two ``make
    run``s): the advice names a port past both, one the user's next ``make run`` can listen
    on, not the held ``port + 1``."""
    first, second = _held_pair()
    with first, second:
        port = first.getsockname()[1]
        monkeypatch.setenv("MEMORY_API_PORT", str(port))
        code = main(["serve", "--host", "127.0.0.1"])
        [error] = capfd.readouterr().err.splitlines()
        suggested = int(error.split("make run MEMORY_API_PORT=", 1)[1].split()[0])
        assert code == 1
        assert f"(or memory-api serve --port {suggested})" in error
        assert suggested > port + 1
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", suggested))


@pytest.mark.e2e
def test_q1_a_second_serve_beside_a_running_one_names_it_and_exits_1(
    data_dir: Path, tmp_path: Path
) -> None:
    """The README's ``make run`` a second time while the first runs: the second ``serve``
    names the first (its process id and ``memory-api serve``), logs nothing of a service that
    started and stopped, and exits 1; the first keeps serving."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_API_")}
    first = serve(data_dir, environ)
    try:
        port = first.base_url.rsplit(":", 1)[1]
        second = subprocess.run(
            [sys.executable, "-m", "memory_api", "serve"],
            env={**first.env, "MEMORY_API_PORT": port},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert first.ready()
    finally:
        first.stop()
    assert second.returncode == 1, second.stderr
    assert "stopped serving" not in second.stderr
    [error] = [line for line in second.stderr.splitlines() if " ERROR " in line]
    assert f"already in use by process {first.process.pid} (" in error
    assert "memory-api serve" in error or "memory_api serve" in error


def test_q1_an_address_that_cannot_be_bound_is_one_error_line_not_a_traceback(
    env: Path,
    capfd: pytest.CaptureFixture[str],
    restore_logging: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bind host that is not this machine's (EADDRNOTAVAIL; a port below 1024 without the
    right, EACCES, is the same path) ended ``serve`` in a traceback: it is one error line with
    the system's reason and the settings to change, and exit status 1. No other port is
    suggested, so none is probed: the serve's own bind is the only one tried (the next 20
    ports were tried, each failing the same way, for a suggestion never printed)."""
    from memory_api.http import bind_address

    tried: list[int] = []
    real = bind_address.bound_sockets

    def counted(bind: bind_address.BindAddress, port: int) -> list[socket.socket]:
        tried.append(port)
        return real(bind, port)

    monkeypatch.setattr(bind_address, "bound_sockets", counted)
    assert main(["token", "create", "--name", "ops"]) == 0  # beyond loopback needs one
    port = unused_port()
    code = main(["serve", "--host", "192.0.2.1", "--port", str(port)])  # TEST-NET-1
    said = capfd.readouterr()
    assert tried == [port]
    assert code == 1, said.err
    assert "Traceback" not in said.err
    [error] = [line for line in said.err.splitlines() if " ERROR " in line]
    assert "cannot listen on port " in error and " on 192.0.2.1: " in error
    assert "(MEMORY_API_HOST, MEMORY_API_PORT)" in error


@pytest.mark.e2e
def test_q1_serve_logs_the_demo_memory_tab_once_it_listens(data_dir: Path) -> None:
    """Over a seeded data dir, ``serve`` logs the page's and the demo agent's Memory tab
    addresses after aiohttp's "Running on" (every address bound), and the tab is its page."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_API_")}
    seed = [sys.executable, "-m", "memory_api", "demo", "seed", "--corpus", str(CORPUS)]
    seeded = {**environ, "MEMORY_API_DATA_DIR": str(data_dir), **code_under_test()}
    subprocess.run(seed, env=seeded, check=True, capture_output=True)
    served = serve(data_dir, {**environ, **code_under_test()})  # waits on /readyz
    try:
        status, page = _get(served.base_url + "/")
        assert status == 200 and b"<html" in page.lower()
    finally:
        served.stop()
    logged = [line.split(": ", 1)[-1] for line in served.log_text().splitlines()]
    running = next(i for i, line in enumerate(logged) if line.startswith("======== Running on"))
    assert logged.index(f"web page: {served.base_url}/") > running
    tab = f"{served.base_url}/#/projects/demo/agents/demo/memory"
    assert logged.index(f"the demo agent's Memory tab: {tab}") > running


def test_q1_help_speaks_to_users_not_in_requirement_ids() -> None:
    """``--help`` is read by users, who do not know the spec: no "(P-5)" in it."""
    helps = list(every_help(build_parser()))
    assert len(helps) >= 14  # memory-api and each of its commands
    found = [match for text in helps for match in re.findall(r"\b[A-Z]-\d+[a-z]?\b", text)]
    assert found == []


def test_q1_every_option_of_every_command_says_what_it_is() -> None:
    """`memory-api token revoke --help` listed `--name NAME` with nothing beside it (which
    name? the token's, the agent's?). Every option and argument of every command has a text."""
    assert list(options_without_help(build_parser())) == []


def test_q1_help_names_the_default_data_dir_and_where_the_settings_are() -> None:
    """`memory-api --help` said "Data dir: $MEMORY_API_DATA_DIR" and no more: with it unset
    (wheels, pipx) a newcomer could not tell where memory lands or where the settings are."""
    text = " ".join(build_parser().format_help().split())
    assert "default $XDG_DATA_HOME/agent-memory, i.e. ~/.local/share/agent-memory" in text
    assert "docs/operations.md" in text


@pytest.mark.parametrize(
    ("refusal", "fix"),
    [
        (errno.ENOSPC, "free space on its volume"),
        (errno.EROFS, "mount it writable"),
        (errno.EDQUOT, "free space within the disk quota"),
    ],
)
def test_a_command_the_disk_refuses_names_the_data_dir_and_what_to_do(
    data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    refusal: int,
    fix: str,
) -> None:
    """``token create`` (or ``agent create``, ``demo seed``) on a full or read-only disk said
    only "memory-api: [Errno 28] No space left on device": no place, nothing to do."""
    from memory_api.store import tokens

    def refused(*_: object, **__: object) -> bool:
        raise OSError(refusal, os.strerror(refusal))

    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    monkeypatch.setattr(tokens, "create_new_bytes", refused)
    assert main(["token", "create", "--name", "ops"]) == 1
    said = capsys.readouterr().err
    assert said == (
        f"memory-api: the disk refused a write ({os.strerror(refusal)}): {fix} "
        f"(the data dir {data_dir.resolve()}), then run the command again\n"
    )


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://[::1", "Invalid IPv6 URL"),
        ("http://127.0.0.1:99999", "Port out of range 0-65535"),
        ("http://127.0.0.1:port", "Port could not be cast to integer value as 'port'"),
    ],
)
def test_q1_a_service_url_that_is_no_url_is_said_as_one(
    url: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--url http://[::1`` said only "memory-api: Invalid IPv6 URL"; a port out of range was
    "no memory-api service answers at …", as if the address had been tried."""
    assert main(["agent", "list", "--url", url]) == 1
    assert capsys.readouterr().err == f"memory-api: not an http(s) URL: {url!r} ({why})\n"


@pytest.mark.parametrize(
    ("host", "url"),
    [("127.1", "http://127.0.0.1:8765"), ("2130706433", "http://127.0.0.1:8765"),
     ("0:0::1", "http://[::1]:8765"), ("[::1]", "http://[::1]:8765"),
     ("0.0.0.0", "http://127.0.0.1:8765"), ("::", "http://127.0.0.1:8765"),  # noqa: S104
     ("ip6-localhost", "http://ip6-localhost:8765"), ("localhost", "http://localhost:8765")],
)  # fmt: skip
def test_a10a_the_cli_names_its_service_as_a_browser_would(host: str, url: str) -> None:
    """The ``Host`` the CLI sends must pass the service's Host rule: ``127.1`` (which the bind
    reads as ``127.0.0.1``) was sent as ``Host: 127.1:8765``, refused 400, and the CLI then took
    the service for absent."""
    assert default_url(host, 8765) == url
    assert page_url(host, 8765) == url + "/"


def test_q1_a_demo_folder_serve_may_not_enter_is_no_demo_never_a_failed_start(
    env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``serve`` asks whether the demo was seeded once it listens: an agent's folder it may not
    look into (another account's: EACCES, which ``Path.is_file`` raises) is no demo, and the
    start goes on. The refusal is the kernel's answer, given here (the tests run as root)."""
    from memory_api.demo import demo_seeded

    assert main(["demo", "seed", "--corpus", str(CORPUS)]) == 0
    assert demo_seeded(env)

    def refused(path: Path) -> bool:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))

    monkeypatch.setattr(Path, "is_file", refused)
    assert demo_seeded(env) is False


@pytest.mark.usefixtures("restore_logging")
def test_a10_serve_refusing_a_public_address_names_memory_api_as_started(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``make run MEMORY_API_HOST=0.0.0.0`` without a token: the refusal's fix named a bare
    ``memory-api token create``, which beside ``make run`` the shell does not find (round
    56's new-user run); it names the program as it was started, with the data dir it serves
    (``token create`` refuses to guess one), each quoted for the shell (a checkout under
    ``old dir/``)."""
    bin_dir = tmp_path / "old dir" / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "memory-api").write_text("#!/bin/sh\n", "utf-8")
    (bin_dir / "memory-api").chmod(0o755)
    monkeypatch.setenv("PATH", "/usr/bin")
    monkeypatch.setattr(sys, "argv", [str(bin_dir / "memory-api"), "serve"])
    monkeypatch.setenv("MEMORY_API_HOST", "0.0.0.0")  # noqa: S104 - must be refused

    assert main(["serve"]) == 2

    said = capsys.readouterr().err
    assert "refusing to bind 0.0.0.0" in said
    program = shlex.quote(str(bin_dir / "memory-api"))
    named = f"MEMORY_API_DATA_DIR={shlex.quote(str(env))}"
    assert f"`{named} {program} token create --name NAME`" in said, said


def test_a10_token_create_of_a_name_in_memory_api_tokens_says_the_next_step(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A name ``MEMORY_API_TOKENS`` defines said only "token 'ci' is already defined in
    MEMORY_API_TOKENS": it names the way on, as a token file's name taken does."""
    monkeypatch.setenv("MEMORY_API_TOKENS", "ci=" + "a" * 20)

    assert main(["token", "create", "--name", "ci"]) == 1

    said = capsys.readouterr()
    assert said.out == ""
    assert "token 'ci' is already defined in MEMORY_API_TOKENS: pick another --name" in said.err
    assert "take 'ci' out of MEMORY_API_TOKENS" in said.err
    assert not (env / "tokens").exists() or not any((env / "tokens").iterdir())


def test_a10_token_create_of_a_name_taken_says_the_next_step(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``token create --name me2`` when ``me2`` exists said only "token 'me2' exists already"
    (exit 1): it names the way on now, another name or a rotation (the new token first, then
    the revoke of the old one, in the data dir the command named)."""
    assert main(["token", "create", "--name", "me2"]) == 0
    capsys.readouterr()
    for extra in ([], ["--data-dir", str(env)]):
        assert main(["token", "create", "--name", "me2", *extra]) == 1
        said = capsys.readouterr()
        assert said.out == ""  # no secret: nothing was made
        assert "token 'me2' exists already" in said.err
        assert "pick another --name" in said.err
        revoke = shlex.join(["token", "revoke", "--name", "me2", *extra])
        assert f"create the new token first, then `memory-api {revoke}`" in said.err
    assert sorted(path.name for path in (env / "tokens").iterdir()) == ["me2.json"]
