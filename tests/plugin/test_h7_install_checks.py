"""H-7: ``install`` checks what it is told before it writes anything.

A relative or missing memory root, one of another shape or agent, an unset
``$MEMORY_API_DATA_DIR`` (``/agents/…``), a URL that is no http(s) URL, an unknown project or
agent or a refused token (when the service answers) are errors, exit 1, nothing written. A
service that does not answer is a warning only: it may be down while its hooks are installed.
A dry run ends with the command to run next; ``uninstall`` needs no memory root.
"""

from __future__ import annotations

import io
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.cli_install import MEMORY_ROOT_HELP
from harness_memory.offline import OfflineUnavailableError, session_start_from_files

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.real_service import RealService, start_service
from tests.support.serve import code_under_test

UNREACHABLE = "http://127.0.0.1:9"


def install(
    home: Path, root: str, *extra: str, url: str = UNREACHABLE, agent: str = "coder"
) -> tuple[int, str]:
    out = io.StringIO()
    flags = ["--home", str(home), "--memory-root", root, "--url", url]
    flags += ["--project", "acme", "--agent", agent, "--executable", str(HARNESS_MEMORY)]
    status = main(
        ["install", "claude-code", *flags, *extra], environ={"HOME": str(home)}, stdout=out
    )
    return status, out.getvalue()


def a_root(tmp_path: Path, agent: str = "coder") -> Path:
    root = tmp_path / "data" / "agents" / agent / "agent_state" / "memory"
    root.mkdir(parents=True)
    return root


def untouched(home: Path) -> bool:
    return not (home / ".claude").exists()


@pytest.mark.parametrize(
    ("root", "said"),
    [
        ("data/agents/coder/agent_state/memory", "is relative: give its absolute path"),
        ("/nowhere/agents/coder/agent_state/memory", "does not exist"),
        ("/agents/coder/agent_state/memory", "was $MEMORY_API_DATA_DIR empty"),
    ],
)
def test_h7_a_memory_root_that_cannot_be_is_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, root: str, said: str
) -> None:
    status, _ = install(tmp_path / "home", root)
    assert status == 1
    assert said in caplog.text and "nothing was changed" in caplog.text
    assert untouched(tmp_path / "home")


def test_h7_a_memory_root_of_another_shape_or_agent_is_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    odd = tmp_path / "just-a-folder"
    odd.mkdir()
    assert install(tmp_path / "home", str(odd))[0] == 1
    assert "is not shaped <data dir>/agents/<agent>/agent_state/memory" in caplog.text
    assert install(tmp_path / "home", str(a_root(tmp_path, "reviewer")))[0] == 1
    assert "is agent reviewer's, not coder's" in caplog.text
    assert untouched(tmp_path / "home")


def test_h7_every_message_names_the_memory_roots_shape_as_the_help_does(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """One term for the service's folder, the one ``memory-api`` and ``install --help`` use
    (``MEMORY_API_DATA_DIR``, "data dir"): the root checks and the offline fallback said
    ``<app data dir>`` beside the help's ``<data dir>``."""
    shape = "<data dir>/agents/<agent>/agent_state/memory"
    odd = tmp_path / "just-a-folder"
    odd.mkdir()
    install(tmp_path / "home", str(odd))
    install(tmp_path / "home", "/nowhere/agents/coder/agent_state/memory")
    with pytest.raises(OfflineUnavailableError) as offline:
        session_start_from_files(odd, project="acme", agent="coder", workspace=str(tmp_path))

    said = [record.getMessage() for record in caplog.records] + [str(offline.value)]
    shapes = [line for line in said if "agent_state/memory" in line]
    assert shape in MEMORY_ROOT_HELP
    assert len(shapes) == 3 and all(shape in line for line in shapes)
    assert not [line for line in said if "app data dir" in line]


def test_h7_the_app_data_dir_given_as_the_memory_root_is_answered_with_the_root_in_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = a_root(tmp_path)
    assert install(tmp_path / "home", str(tmp_path / "data"))[0] == 1
    assert f"the data dir given? its root for coder is {root}" in caplog.text
    assert untouched(tmp_path / "home")


@pytest.mark.parametrize("url", ["127.0.0.1:8765", "ftp://host/", "http://"])
def test_h7_a_url_that_is_not_http_is_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, url: str
) -> None:
    assert install(tmp_path / "home", str(a_root(tmp_path)), url=url)[0] == 1
    assert "must be http(s)://host[:port]" in caplog.text
    assert untouched(tmp_path / "home")


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://coder:am_in_the_url_0123456789@127.0.0.1:8765", "user name or password"),
        ("http://am_in_the_url_0123456789@127.0.0.1:8765/", "user name or password"),
        ("http://127.0.0.1:8765/?token=am_in_the_url_0123456789", "query or fragment"),
        ("http://127.0.0.1:8765/#am_in_the_url_0123456789", "query or fragment"),
        # a URL urlsplit itself refuses was echoed whole, its secret with it
        ("http://coder:am_in_the_url_0123456789@[::1", "must be http(s)"),
        ("http://coder:am_in_the_url_0123456789@[zz]:8765/", "must be http(s)"),
        ("http://[::1/?token=am_in_the_url_0123456789", "must be http(s)"),
        # a password holding / ? # ends the authority urlsplit reads: shown, even accepted
        ("http://coder:pa/am_in_the_url_0123456789@127.0.0.1:8765", "user name or password"),
        ("http://coder:am_in_the_url_0123456789?x@127.0.0.1:8765", "user name or password"),
        ("http://coder:am_in_the_url_0123456789#x@127.0.0.1:8765", "user name or password"),
        # a key in the path (a proxy that takes its secret there), also percent-encoded
        ("http://127.0.0.1:8765/am_in_the_url_0123456789abcdef/", "secret in its path"),
        ("http://127.0.0.1:8765/memory/mem_am_in_the_url_FE0zGBRdX8c3HyM9iP63K", "in its path"),
        ("http://127.0.0.1:8765/am_in_the_url%5F0123456789abcdef", "secret in its path"),
    ],
)
@pytest.mark.parametrize("checked", [True, False], ids=["checked", "no-check"])
def test_a10_a_url_holding_a_secret_is_refused_never_written_nor_echoed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, url: str, why: str, checked: bool
) -> None:
    """A service URL carrying credentials (``name:secret@``, a key in its path) or a query
    would be written into the harness's settings, which every local account can read, and
    into every hook's command line (``ps``): the install refuses it, says how to give a
    token, changes nothing and never prints the secret; ``--no-check`` (which asks the service
    nothing) wrote it all the same, and a password holding ``/`` was echoed whole ("Port could
    not be cast …")."""
    extra = () if checked else ("--no-check",)
    status, out = install(tmp_path / "home", str(a_root(tmp_path)), *extra, url=url)
    assert status == 1
    assert why in caplog.text
    assert "am_in_the_url" not in caplog.text + out
    assert untouched(tmp_path / "home")


TENANT = "123e4567-e89b-12d3-a456-426614174000"
HOOK_ID = "3f2a9c0d8e7b6a5f4e3d2c1b0a9f8e7d"
IN_THE_PATH = "an id in its path"
ID_URLS = [
    (f"{UNREACHABLE}/tenants/{TENANT}/memory", IN_THE_PATH),
    (f"{UNREACHABLE}/hook/{HOOK_ID}", IN_THE_PATH),
    (f"{UNREACHABLE}/hook/{HOOK_ID.upper()}/", IN_THE_PATH),
    (f"{UNREACHABLE}/hook/%33{HOOK_ID[1:]}", IN_THE_PATH),  # percent-encoded: the same id
    (f"{UNREACHABLE}/{TENANT.upper()}", IN_THE_PATH),
    (f"{UNREACHABLE}/hook?key={TENANT}", "a query or fragment"),
    (f"{UNREACHABLE}/hook#{HOOK_ID}", "a query or fragment"),
]
"""Service URLs holding a UUID or hex id: a tenant's id, or a capability secret (a
webhook's), which no rule tells apart; and why each is refused."""


def settings_written(home: Path) -> str:
    """Every file under ``home``, as one text."""
    return "".join(
        path.read_text(errors="replace") for path in sorted(home.rglob("*")) if path.is_file()
    )


@pytest.mark.parametrize(("url", "why"), ID_URLS)
@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize("how", ["--url", "--remote", "--dry-run", "--no-check"])
def test_a10_an_id_in_the_service_url_is_never_written_into_settings(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, url: str, why: str, harness: str, how: str
) -> None:
    """A UUID or hex segment in the service URL's path was taken, masked when shown, and
    written in full into the harness's settings and every hook's command line, which other
    accounts read (``ps``, a ``0644`` ``config.toml``) and a team commits: it may be a
    capability secret. The install refuses it before writing anything, says why and how to
    give a token instead, and never prints it."""
    home = tmp_path / "home"
    flags = ["--home", str(home), "--project", "acme", "--agent", "coder"]
    flags += ["--executable", str(HARNESS_MEMORY)]
    if how == "--remote":
        flags += ["--remote", url]
    else:
        flags += ["--url", url, "--memory-root", str(a_root(tmp_path))]
        flags += [] if how == "--url" else [how]
    out = io.StringIO()
    status = main(["install", harness, *flags], environ={"HOME": str(home)}, stdout=out)
    assert status == 1
    assert why in caplog.text
    assert why != IN_THE_PATH or "capability secret" in caplog.text
    assert "HARNESS_MEMORY_TOKEN" in caplog.text and "nothing was changed" in caplog.text
    said = caplog.text + out.getvalue()
    assert TENANT not in said.lower() and HOOK_ID[1:] not in said.lower()
    written = settings_written(home) if home.exists() else ""
    assert TENANT not in written.lower() and HOOK_ID[1:] not in written.lower()


def test_a10_the_same_url_without_the_id_installs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Words and numbers in the path are no id: ``/memory-api-v2`` is written as given."""
    status, _ = install(
        tmp_path / "home", str(a_root(tmp_path)), "--no-check", url=f"{UNREACHABLE}/memory-api-v2"
    )
    assert status == 0, caplog.text
    assert "/memory-api-v2" in (tmp_path / "home" / ".claude" / "settings.json").read_text()


def test_h7_a_port_that_is_no_number_is_refused_even_unchecked(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = "http://127.0.0.1:87x65"
    assert install(tmp_path / "home", str(a_root(tmp_path)), "--no-check", url=url)[0] == 1
    assert "its port is no number" in caplog.text
    assert untouched(tmp_path / "home")


def test_h7_a_service_that_does_not_answer_is_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    status, said = install(tmp_path / "home", str(a_root(tmp_path)))
    assert status == 0
    assert "does not answer" in caplog.text and "fail open" in caplog.text
    assert "installed — wrote" in said


def test_h7_a_dry_run_for_a_service_that_does_not_answer_says_no_hooks_are_installed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The warning said "the hooks are installed" under ``--dry-run`` too, which wrote nothing:
    it says the install goes ahead, true of the dry run's diff and of the install alike."""
    status, said = install(tmp_path / "home", str(a_root(tmp_path)), "--dry-run")

    assert status == 0
    assert untouched(tmp_path / "home")
    assert "installed" not in caplog.text
    assert f"does not answer (memory service unreachable at {UNREACHABLE}" in caplog.text
    assert "the install goes ahead, but its hooks reach no memory until" in caplog.text
    assert said.splitlines()[-1].startswith("next: ")


def test_h7_the_warning_of_a_service_that_does_not_answer_is_the_last_line(
    tmp_path: Path,
) -> None:
    """An install for a service started later succeeds (exit 0), but its warning was the first
    of a dozen lines and went unread: it is said last, once, with what it means."""
    flags = ["--memory-root", str(a_root(tmp_path)), "--url", UNREACHABLE, "--project", "acme"]
    flags += ["--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    done = subprocess.run(
        [str(HARNESS_MEMORY), "install", "claude-code", *flags],
        env={"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", **code_under_test()},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # one stream, in the order written, as a terminal shows it
        text=True,
        check=False,
        timeout=60,
    )

    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()
    assert lines[-1].startswith(
        f"harness-memory: WARNING: install claude-code: the service at {UNREACHABLE} does "
        "not answer"
    )
    assert f"its hooks reach no memory until a service answers at {UNREACHABLE}" in lines[-1]
    assert sum("does not answer" in line for line in lines) == 1
    assert "claude-code: installed — wrote" in done.stdout


def test_h7_a_remote_install_whose_service_does_not_answer_names_its_copy_and_remote(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``install … --remote URL`` for a service that does not answer (the README's team block
    tried before the server is up) was told to "install again with the right --url", a flag
    remote mode refuses, and that Sessions start without memory, where they start from the
    local copy."""
    home = tmp_path / "home"
    flags = ["--remote", UNREACHABLE, "--project", "acme", "--agent", "coder"]
    flags += ["--home", str(home), "--executable", str(HARNESS_MEMORY), "--dry-run"]
    assert main(["install", "claude-code", *flags], environ={"HOME": str(home)}) == 0
    said = " ".join(caplog.text.split())
    assert f"the service at {UNREACHABLE} does not answer" in said
    assert "every Session starts from this machine's local copy as it is" in said
    assert "install again with the right --remote URL" in said
    assert "--url" not in said and "without it" not in said


def test_h7_an_install_without_a_token_is_told_the_service_needs_one_and_how_to_give_it(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """No token sent is no token refused: the error says none was given, and the ways."""
    root, url = str(shared_memory_root), shared_service.url
    status, _ = install(tmp_path / "home", root, url=url, agent=new_agent)

    assert status == 1
    assert (f"the service at {url} needs a bearer token and none was given (401") in caplog.text
    assert "give it with --token-file PATH (a file only you can read" in caplog.text
    assert "or in HARNESS_MEMORY_TOKEN" in caplog.text
    # a token create names its data dir or does nothing: the command works as it is given
    made = "`(umask 077; memory-api token create --data-dir DIR --name NAME --project acme > FILE)`"
    assert f"Make one in its data dir: {made} writes it to FILE" in caplog.text
    assert "DIR: the data dir the service logs as `data dir: …` when it starts" in caplog.text
    assert "refused" not in caplog.text
    assert untouched(tmp_path / "home")


def test_h7_install_takes_the_token_from_a_file_only_its_owner_reads(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    root, url, token = str(shared_memory_root), shared_service.url, shared_service.token
    given = tmp_path / "my-token"
    given.write_text(token + "\n", encoding="utf-8")
    given.chmod(0o644)

    refused, _ = install(
        tmp_path / "home", root, "--token-file", str(given), url=url, agent=new_agent
    )
    assert refused == 1
    said = f"cannot read the token file {given}: other users may read it: make it owner-only"
    assert f"{said}: `chmod 600 {given}`" in caplog.text
    assert untouched(tmp_path / "home")

    given.chmod(0o600)
    status, said = install(
        tmp_path / "home", root, "--token-file", str(given), url=url, agent=new_agent
    )
    hooks_token = tmp_path / "home" / ".claude" / "harness-memory" / "token"
    assert status == 0
    assert hooks_token.read_text(encoding="utf-8") == token + "\n"
    assert token not in said


def test_h7_a_refused_token_from_a_file_names_the_file(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    given = tmp_path / "my-token"
    given.write_text("not-the-token-of-this-service\n", encoding="utf-8")  # of its form
    given.chmod(0o600)

    status, _ = install(
        tmp_path / "home",
        str(shared_memory_root),
        *("--token-file", str(given)),
        url=shared_service.url,
        agent=new_agent,
    )

    assert status == 1
    assert f"refused the token from --token-file {given} (401" in caplog.text


@pytest.mark.parametrize(
    ("agent", "token", "said"),
    [
        ("ghost", None, "answered 404 (no agent 'ghost' in project 'acme'): the service holds"),
        (None, "not-the-token-0123456789", "refused the token from --token (401"),
        (
            None,
            "not-the-token-0123456789",
            "give one it takes with --token-file PATH (a file only you",
        ),
    ],
)
def test_h7_unknown_agent_or_refused_token_is_an_error_when_the_service_answers(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    agent: str | None,
    token: str | None,
    said: str,
) -> None:
    """``agent`` None: the agent made for the test, which the service holds."""
    extra = ("--token", token or shared_service.token)
    root, url = str(shared_memory_root), shared_service.url
    status, _ = install(tmp_path / "home", root, *extra, url=url, agent=agent or new_agent)
    assert status == 1
    assert said in caplog.text
    assert untouched(tmp_path / "home")


def test_h7_a_known_agent_on_an_answering_service_installs_quietly(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    token = ("--token", shared_service.token)
    root, url = str(shared_memory_root), shared_service.url
    status, _ = install(tmp_path / "home", root, *token, url=url, agent=new_agent)
    assert status == 0
    assert "does not answer" not in caplog.text and "ERROR" not in caplog.text


def test_h7_a_dry_run_names_the_next_command_without_the_token(tmp_path: Path) -> None:
    root = a_root(tmp_path)
    status, said = install(
        tmp_path / "home", str(root), "--token", "s3cret-0123456789abc", "--dry-run"
    )
    assert status == 0
    [line] = [line for line in said.splitlines() if line.startswith("next: ")]
    assert line.startswith("next: harness-memory install claude-code --memory-root ")
    assert f"--memory-root {root}" in line and "--token YOUR_TOKEN" in line
    assert "--dry-run" not in line and "s3cret-0123456789abc" not in said
    assert untouched(tmp_path / "home")


@pytest.mark.parametrize("on_path", [False, True])
def test_h7_the_next_command_runs_the_program_the_user_typed(tmp_path: Path, on_path: bool) -> None:
    """Beside ``make run`` the README runs ``.venv/bin/harness-memory``, which is not on
    ``PATH``: the dry run's ``next:`` line names that path, so pasting it runs this program
    (a bare ``harness-memory`` was "command not found"); on ``PATH``, the bare name."""
    root = a_root(tmp_path)
    program = Path(HARNESS_MEMORY)
    path = f"{program.parent}:/usr/bin:/bin" if on_path else "/usr/bin:/bin"
    flags = ["--memory-root", str(root), "--url", UNREACHABLE, "--project", "acme"]
    flags += ["--agent", "coder", "--executable", str(program), "--dry-run"]
    done = subprocess.run(
        [str(program), "install", "claude-code", *flags],
        env={"HOME": str(tmp_path / "home"), "PATH": path, **code_under_test()},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    [line] = [line for line in done.stdout.splitlines() if line.startswith("next: ")]
    shown = "harness-memory" if on_path else str(program)
    assert line.startswith(f"next: {shown} install claude-code --memory-root {root} ")
    assert untouched(tmp_path / "home")


def test_h7_uninstall_finds_the_memory_root_in_its_own_entries(tmp_path: Path) -> None:
    home = tmp_path / "home"
    root = a_root(tmp_path)
    assert install(home, str(root))[0] == 0
    path = home / ".claude" / "settings.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "theme": "dark"}), "utf-8")
    out = io.StringIO()
    status = main(
        ["uninstall", "claude-code", "--home", str(home)], environ={"HOME": str(home)}, stdout=out
    )
    assert status == 0
    assert json.loads(path.read_text(encoding="utf-8")) == {"theme": "dark"}
    assert not (home / ".claude" / "harness-memory").exists()


@pytest.mark.parametrize(
    ("url", "token", "warned"),
    [
        ("http://memory.invalid:8765", "mem_alice-0123456789ab", True),
        ("http://10.1.2.3.invalid", "mem_alice-0123456789ab", True),
        ("https://memory.invalid", "mem_alice-0123456789ab", False),
        ("http://127.0.0.1:9", "mem_alice-0123456789ab", False),
        ("http://localhost:9", "mem_alice-0123456789ab", False),
        ("http://[::1]:9", "mem_alice-0123456789ab", False),
        (
            "http://127.1:9",
            "mem_alice-0123456789ab",
            False,
        ),  # 127.0.0.1 to the resolver: was warned
        ("http://[0:0::1]:9", "mem_alice-0123456789ab", False),
        ("http://127.0.0.2:9", "mem_alice-0123456789ab", False),
        ("http://memory.invalid:8765", None, False),
    ],
)
def test_h7_a_token_sent_to_another_machine_over_plain_http_is_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, url: str, token: str | None, warned: bool
) -> None:
    extra = ("--token", token) if token else ()
    status, _ = install(tmp_path / "home", str(a_root(tmp_path)), *extra, url=url)

    assert status == 0  # a trusted network may carry it: the user is told, not stopped
    said = "in the clear" in caplog.text and "https:// URL" in caplog.text
    assert said is warned
    assert (token or "mem_alice-0123456789ab") not in caplog.text


@pytest.fixture(scope="module")
def open_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealService]:
    """The real ``memory-api serve`` with no tokens configured, once for this module's tests
    (one start instead of one each): each installs for an agent of its own on it, and none
    changes the service's settings."""
    running = start_service(tmp_path_factory.mktemp("open-service"), tokens=False)
    try:
        yield running
    finally:
        running.stop()


def test_h7_a_token_given_to_a_service_that_asks_for_none_is_said_unchecked(
    open_service: RealService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The README's ``export HARNESS_MEMORY_TOKEN=...`` copied as is, beside a ``make run`` with
    no token yet: the open service took the placeholder, the install wrote it into the hooks'
    token file and said nothing; the first ``token create`` then left every Session without
    memory. A token of the service's form is installed (the token may be one the service will
    take), with a warning; the placeholder itself is refused by its shape
    (test_h7_install_refuses_a_token_token_set_refuses)."""
    root = open_service.create_agent("coder-unchecked")
    home = tmp_path / "home"
    flags = ["--home", str(home), "--memory-root", str(root), "--url", open_service.url]
    flags += ["--project", "acme", "--agent", "coder-unchecked"]
    flags += ["--executable", str(HARNESS_MEMORY)]

    status = main(
        ["install", "codex", *flags],
        environ={"HOME": str(home), "HARNESS_MEMORY_TOKEN": "placeholder-0123456789"},
        stdout=io.StringIO(),
    )

    assert status == 0
    assert (home / ".codex" / "harness-memory" / "token").read_text(
        encoding="utf-8"
    ) == "placeholder-0123456789\n"
    assert (
        f"the service at {open_service.url} has no tokens configured and takes any, so the "
        "token from HARNESS_MEMORY_TOKEN was not checked: the hooks keep it, and once that "
        "service's data dir holds tokens, a token it does not take leaves every Session without "
        "memory; `harness-memory status` checks it then"
    ) in caplog.text


def test_h7_no_token_given_to_a_service_that_asks_for_none_installs_quietly(
    open_service: RealService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = open_service.create_agent("coder-quiet")
    status, _ = install(tmp_path / "home", str(root), url=open_service.url, agent="coder-quiet")
    assert status == 0
    assert "WARNING" not in caplog.text and "not checked" not in caplog.text


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_a10_status_warns_of_an_id_an_earlier_install_wrote_into_the_url(
    tmp_path: Path, harness: str
) -> None:
    """Hooks an install wrote before it refused such a URL keep it in their settings: status
    says so and how to install without it, never showing the id."""
    home = tmp_path / "home"
    flags = ["--home", str(home), "--memory-root", str(a_root(tmp_path)), "--url", UNREACHABLE]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    assert main(["install", harness, *flags, "--no-check"], environ={"HOME": str(home)}) == 0
    (settings,) = [p for p in home.rglob("*.json") if p.name in ("settings.json", "hooks.json")]
    earlier = f"{UNREACHABLE}/hook/{HOOK_ID}"
    settings.write_text(settings.read_text().replace(UNREACHABLE, earlier), encoding="utf-8")

    out = io.StringIO()
    main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)

    said = out.getvalue()
    assert "WARNING: the hooks' service URL holds an id in its path" in said
    assert "install again with the service's address without it" in said
    assert HOOK_ID not in said


@pytest.mark.parametrize("source", ["HARNESS_MEMORY_TOKEN", "--token"])
def test_h7_a_token_value_holding_a_byte_that_is_not_utf8_is_refused_before_anything_is_written(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, source: str
) -> None:
    """``HARNESS_MEMORY_TOKEN`` holding a byte that is not UTF-8 (Python keeps it as a lone
    surrogate) wrote the hooks into the settings and then ended in a ``UnicodeEncodeError``
    traceback at the token file: a torn install whose hooks named a token file that was never
    written. It is refused first, naming where it came from and the byte, never the token;
    nothing is written."""
    token = "mem_half\udcffbyte"
    home = tmp_path / "home"
    flags = ["--home", str(home), "--memory-root", str(a_root(tmp_path)), "--url", UNREACHABLE]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    environ = {"HOME": str(home)}
    if source == "--token":
        flags += ["--token", token]
    else:
        environ[source] = token

    status = main(["install", "claude-code", *flags], environ=environ, stdout=io.StringIO())

    assert status == 1
    assert f"the token from {source} holds the byte b'\\xff', which is not UTF-8" in caplog.text
    assert "nothing was changed" in caplog.text
    assert "mem_half" not in caplog.text
    assert untouched(home)
