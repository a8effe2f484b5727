"""P-3: ``curl`` and ``wget`` write where their settings files say, and the guard reads them.

The guard reads every place ``curl`` and ``wget`` write from their words, but each also reads a
settings file before its options: ``output = "…"`` in ``~/.curlrc`` (or ``$CURL_HOME/.curlrc``,
``$XDG_CONFIG_HOME/.curlrc``), ``output_document = …`` in ``~/.wgetrc`` (or ``$WGETRC``). An
agent wrote one in one call, its value read from a file at run time so no word named another
scope, and a plain ``curl URL`` in the next wrote into another Workspace's scope (measured
below: each refused form is then run by bash, and the file lands there). Now:

* when ``curl`` or ``wget`` runs, the guard reads the settings files it would read and judges
  each place one names for writing like a path the command names
  (:mod:`harness_memory.hooks.program_settings`); a file it cannot read whole, or one taking
  settings from elsewhere (``config = …``), refuses the command;
* a command that sets ``HOME``, ``CURL_HOME``, ``XDG_CONFIG_HOME`` or ``WGETRC`` and runs one of
  them, or that names a settings file and runs one (``printf … > ~/.curlrc; curl URL``), is
  refused: what the program then reads is not on the disk yet when the guard answers.

``curl -q`` and ``wget --no-config`` read no settings file and pass.
"""

from __future__ import annotations

import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.support.guard_cases import SHELL, Layout, answer, refusal
from tests.support.npm_cache import unavailable
from tests.support.socket_file import bound_socket

FETCH = {
    "curl": 'curl -s "file://$PWD/note.md"',
    "wget": "wget -q http://127.0.0.1:9/note.md",  # loopback, nothing listens: the file is made
}
"""A plain fetch by each program, naming no file it writes."""
SETTINGS = [
    ("curl", "~/.curlrc", 'output = "{target}/a.md"\n'),
    ("curl", "~/.curlrc", "-o {target}/a.md\n"),
    ("curl", "~/.curlrc", "silent\ndump-header: {target}/a.md\n"),
    ("curl", "~/.curlrc", "remote-name\noutput-dir = {target}\n"),
    ("curl", "$CURL_HOME/.curlrc", 'output "{target}/a.md"\n'),
    ("curl", "$XDG_CONFIG_HOME/.curlrc", 'output = "{target}/a.md"\n'),  # as curl 7.88 reads
    ("wget", "~/.wgetrc", "output_document = {target}/a.md\n"),
    ("wget", "$WGETRC", "# saved\noutput-document = {target}/a.md\n"),
]
"""Each program, a settings file it reads (``$CURL_HOME`` and the like set in the harness's
environment) and a text naming another scope's folder for it to write."""


def _environment(
    where: Layout, monkeypatch: pytest.MonkeyPatch, *, wgetrc: bool = False
) -> dict[str, str]:
    """The harness's environment (for the guard and for bash): the settings variables point
    into the Workspace's ``conf`` folder (``WGETRC`` only when asked: ``wget`` then reads no
    other, and stops when it is missing)."""
    conf = where.workspace / "conf"
    conf.mkdir()
    environment = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(where.data),
        "CURL_HOME": str(conf),
        "XDG_CONFIG_HOME": str(conf),
    } | ({"WGETRC": str(conf / "wgetrc")} if wgetrc else {})
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    return environment


def _bash(command: str, where: Layout, environment: dict[str, str]) -> None:
    subprocess.run(
        ["bash", "-c", command], cwd=where.workspace, env=environment, capture_output=True
    )


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize(("program", "file", "text"), SETTINGS)
def test_p3_a_fetch_whose_settings_file_writes_into_another_scope_is_refused(
    where: Layout,
    monkeypatch: pytest.MonkeyPatch,
    harness: str,
    program: str,
    file: str,
    text: str,
) -> None:
    """The settings file is written in a call of its own, from a file read at run time by a
    program (the guard lets that through: it writes the agent's own file; a ``sed`` script
    filled from that file is refused itself, as its ``w`` could be in it); the plain fetch
    after it is refused, naming the place; run by bash, it writes into the other scope."""
    environment = _environment(where, monkeypatch, wgetrc=file == "$WGETRC")
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    (where.workspace / "settings.in").write_text(text.format(target="@"), encoding="utf-8")
    fill = "t=open('target').read().strip(); print(open('settings.in').read().replace('@', t))"
    write = f'python3 -c "{fill}" > {file}'
    assert answer(where, harness, SHELL[harness][1], {"command": write}) is None
    _bash(write, where, environment)

    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": FETCH[program]}))

    assert reason is not None and f"where the settings file of {program} says" in reason
    assert where.other in reason
    _bash(FETCH[program], where, environment)
    assert list(other.iterdir()) != [other / "MEMORY.md"], "nothing landed: no bypass"


def test_p3_a_settings_file_written_with_a_file_tool_is_read_when_curl_runs(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Write tool's content is not judged (a note may quote a path); the fetch is."""
    environment = _environment(where, monkeypatch)
    settings = where.data / ".curlrc"
    other = where.root / where.other
    write = {"file_path": str(settings), "content": f'output = "{other}/a.md"\n'}
    assert answer(where, "claude-code", "Write", write) is None
    settings.write_text(write["content"], encoding="utf-8")

    assert refusal(answer(where, "claude-code", "Bash", {"command": FETCH["curl"]})) is not None
    _bash(FETCH["curl"], where, environment)
    assert (other / "a.md").exists()


SAME_COMMAND = [
    'printf \'output = "%s/a.md"\\n\' "$(cat target)" > ~/.curlrc; ' + FETCH["curl"],
    "sed 's|^|output = |' target > conf/.curlrc && " + FETCH["curl"],
    'printf \'output = "%s/a.md"\\n\' "$(cat target)" > .curlrc; CURL_HOME=. ' + FETCH["curl"],
    'printf \'output = "%s/a.md"\\n\' "$(cat target)" > .curlrc; HOME=$PWD ' + FETCH["curl"],
    'printf \'output = "%s/a.md"\\n\' "$(cat target)" > .curlrc; export HOME=$PWD; '
    + FETCH["curl"],
    'printf \'output = "%s/a.md"\\n\' "$(cat target)" > .curlrc; HOME=. bash -c \''
    + FETCH["curl"]
    + "'",
    "printf 'output_document = %s/a.md\\n' \"$(cat target)\" > w.rc; WGETRC=w.rc " + FETCH["wget"],
    "cat ~/.curlrc; sed 's|^|output = |' target | tee conf/.curlrc && " + FETCH["curl"],
    "cat target | sed 's|^|output = |' > conf/.curlrc; cat conf/.curlrc; " + FETCH["curl"],
    "python3 -c \"import os; open('conf/.curlrc', 'w').write("
    "'output = ' + open('target').read().strip() + '/a.md')\"; " + FETCH["curl"],
]
"""The settings file written (or chosen) in the command that runs the program."""


@pytest.mark.parametrize("command", SAME_COMMAND)
def test_p3_a_settings_file_written_or_chosen_in_the_fetching_command_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    environment = _environment(where, monkeypatch)
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    if "sed" in command:
        (where.workspace / "target").write_text(f"{other}/a.md\n", encoding="utf-8")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "settings" in reason, command
    _bash(command, where, environment)
    assert (other / "a.md").exists(), f"nothing landed: {command}"


def test_p3_a_settings_file_taking_settings_from_elsewhere_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``config = more.rc`` in ``~/.curlrc``: the guard does not follow it."""
    environment = _environment(where, monkeypatch)
    other = where.root / where.other
    (where.data / ".curlrc").write_text("config = more.rc\n", encoding="utf-8")
    (where.workspace / "more.rc").write_text(f'output = "{other}/a.md"\n', encoding="utf-8")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": FETCH["curl"]}))

    assert reason is not None and "cannot be known" in reason
    _bash(FETCH["curl"], where, environment)
    assert (other / "a.md").exists()


@pytest.mark.parametrize(
    ("settings", "command"),
    [
        ("silent\noutput = out.html\n", FETCH["curl"]),
        ('user-agent = "agent/1.0"\n# output = somewhere\n', FETCH["curl"]),
        ('output = "{other}/a.md"\n', 'curl -q -s "file://$PWD/note.md"'),
        ('output = "{other}/a.md"\n', 'curl -qs -o out.html "file://$PWD/note.md"'),
        ("", 'curl -fsSL -o out.html "file://$PWD/note.md" && cat out.html'),
        ("", "curl --version"),
        ("silent\n", 'cat ~/.curlrc; curl -s "file://$PWD/note.md"'),
        ("silent\n", 'grep -n output ~/.curlrc || curl -s "file://$PWD/note.md"'),
        (
            "silent\n",
            'ls -la ~/.curlrc ~/.wgetrc && head -5 ~/.curlrc && curl -s "file://$PWD/note.md"',
        ),
        ("silent\n", "test -f ~/.wgetrc || wget -q http://127.0.0.1:9/note.md"),
    ],
)
def test_p3_a_fetch_whose_settings_write_elsewhere_or_are_skipped_passes(
    where: Layout, monkeypatch: pytest.MonkeyPatch, settings: str, command: str
) -> None:
    """A settings file writing into the Workspace, or none (``curl -q`` skips it: bash then
    writes nothing into the other scope)."""
    environment = _environment(where, monkeypatch)
    other = where.root / where.other
    (where.data / ".curlrc").write_text(settings.format(other=other), encoding="utf-8")

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command
    _bash(command, where, environment)
    assert sorted(path.name for path in other.iterdir()) == ["MEMORY.md"]


def test_p3_the_settings_places_are_read_as_curl_reads_them(tmp_path: Path) -> None:
    """Quoted values with escapes, ``=``/``:``/white space, short options, a long name
    shortened (``dump-h``), comments, and ``-`` (standard output) for no file."""
    from harness_memory.hooks.program_settings import settings_places

    (tmp_path / ".curlrc").write_text(
        '# output = /no\noutput = "/a b/\\"c\\".md"\n--dump-h: d.md\n-sSo/e.md\n'
        "cookie-jar -\nstderr /f.md\nurl = https://example.org/\n",
        encoding="utf-8",
    )
    places = settings_places("curl", {"HOME": str(tmp_path)}, "/w")
    assert places is not None
    assert places[:4] == ['/a b/"c".md', "/w/d.md", "/e.md", "/f.md"]


OPTIONS_FROM_THE_ENVIRONMENT = [
    'TAR_OPTIONS="-C $(cat target)" tar -xf a.tar',
    'export TAR_OPTIONS="--directory=$(cat target)"; tar -xf a.tar',
    'UNZIP="-d $(cat target)" unzip -q a.zip',
    'UNZIPOPT="-d $(cat target)" unzip -q a.zip',
    'TMPDIR="$(cat target)" mktemp --suffix=.md',
    'TMPDIR="$(cat target)" mktemp -t notes.XXXX',
    "read -r TMPDIR < target; export TMPDIR; mktemp",
]
"""A variable a program the guard reads takes options or its folder from, built at run time
(each let through: ``TAR_OPTIONS`` only made ``tar`` a program the guard does not read, which
is refused only where the text names other memory)."""


@pytest.mark.parametrize("command", OPTIONS_FROM_THE_ENVIRONMENT)
def test_p3_a_place_a_program_takes_from_a_variable_built_at_run_time_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Run by bash, each writes into the other scope."""
    environment = _environment(where, monkeypatch)
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    subprocess.run(["tar", "-cf", "a.tar", "note.md"], cwd=where.workspace, check=True)
    subprocess.run(["zip", "-q", "a.zip", "note.md"], cwd=where.workspace, check=True)

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "known only when the command runs" in reason, command
    _bash(command, where, environment)
    assert sorted(path.name for path in other.iterdir()) != ["MEMORY.md"], command


@pytest.mark.parametrize(
    "command",
    [
        "TAR_OPTIONS=--no-same-owner tar -xf a.tar",
        'TMPDIR="$HOME/tmp" pytest -q || true',
        'export TMPDIR=/tmp/build; d="$(mktemp -d)"; echo "$d"',
        "UNZIP=-qo unzip a.zip -d vendor",
    ],
)
def test_p3_a_literal_option_variable_or_one_no_such_program_reads_passes(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """(``a.tar`` is on the disk: an archive the guard cannot list, unpacked beside the
    Workspace's symlink into another scope, is refused whatever the variable says.)"""
    _environment(where, monkeypatch)
    subprocess.run(["tar", "-cf", "a.tar", "note.md"], cwd=where.workspace, check=True)
    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


def test_p3_settings_naming_many_places_are_refused_without_judging_each(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """2,000 distinct ``output`` lines (40 KiB, under the 64 KiB read) were judged one path
    each (850 ms, past the hook's 100 ms); past 16 places the settings are taken as unknown
    and refused before any is judged. Counted: the places the guard judges with
    ``check_write``, never the time."""
    from harness_memory.guard import check_write
    from harness_memory.hooks import guarding
    from harness_memory.hooks.program_settings import SETTINGS_PLACES_CAP

    _environment(where, monkeypatch)
    judged: list[str] = []

    def counted(path: str | os.PathLike[str], **where_to: Any) -> Any:
        judged.append(os.fspath(path))
        return check_write(path, **where_to)

    monkeypatch.setattr(guarding, "check_write", counted)
    lines = "".join(f"output = o{number}.html\n" for number in range(2_000))
    (where.data / ".curlrc").write_text(lines, encoding="utf-8")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": FETCH["curl"]}))

    assert reason is not None and "cannot be known" in reason
    assert [path for path in judged if path.endswith(".html")] == []
    few = "".join(f"output = o{number}.html\n" for number in range(SETTINGS_PLACES_CAP))
    (where.data / ".curlrc").write_text(few, encoding="utf-8")
    assert answer(where, "claude-code", "Bash", {"command": FETCH["curl"]}) is None
    assert sorted(path for path in judged if path.endswith(".html")) == sorted(
        str(where.workspace / f"o{number}.html") for number in range(SETTINGS_PLACES_CAP)
    )  # each place named is judged when few enough


_HOOK_IN_A_PROCESS = """
import sys
from harness_memory.cli import main
sys.exit(main(sys.argv[1:]))
"""
"""The Claude Code pre-tool hook run as a process of its own (the harness's environment)."""


def _not_a_file(kind: str, path: Path) -> None:
    """Make ``path`` a FIFO nobody writes, a listening socket's file, or a folder."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        bound_socket(path).close()  # the file stays when the socket closes
    else:
        path.mkdir()


@pytest.mark.parametrize("kind", ["fifo", "socket", "folder"])
def test_p3_a_settings_file_that_is_no_regular_file_is_refused_without_waiting(
    where: Layout, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """``mkfifo ~/.curlrc`` in one call (allowed: it names the agent's own file): a blocking
    open of it in the next call's guard waited for a writer until the harness's hook time
    limit, and Claude Code lets a call through when its hook times out. A ``~/.curlrc`` that is
    no regular file is unreadable to the guard, and the fetch is refused at once."""
    environment = _environment(where, monkeypatch)
    _not_a_file(kind, where.data / ".curlrc")
    hook = {
        "session_id": "s-1",
        "cwd": str(where.workspace),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": FETCH["curl"]},
    }
    flags = ["--memory-root", str(where.root), "--state-dir", str(where.state)]
    command = [sys.executable, "-c", _HOOK_IN_A_PROCESS, "hook", "claude-code", "pre-tool-use"]

    done = subprocess.run(
        [*command, *flags],
        input=json.dumps(hook),
        capture_output=True,
        text=True,
        env=environment | {"PYTHONPATH": os.pathsep.join(sys.path)},
        timeout=30,  # a hang guard only: the answer is asserted, not the time
        check=False,
    )

    assert done.returncode == 0, done.stderr
    reason = refusal(json.loads(done.stdout))
    assert reason is not None and "settings file the guard cannot read" in reason


def test_p3_the_environment_given_is_the_one_judged(
    where: Layout, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The shell's environment the guard is given decides which settings file ``curl`` reads
    (its ``HOME``) and where ``tar -C ~/x`` unpacks, not the guard's own process's: the
    settings were read from ``os.environ`` while the words were read with the one given."""
    from harness_memory.hooks.claude_code import HookInput
    from harness_memory.hooks.guarding import shell_refusal
    from harness_memory.hooks.tool_targets import shell_paths
    from harness_memory.settings import HarnessSettings

    other = where.root / where.other
    given = tmp_path / "given-home"
    given.mkdir()
    (given / ".curlrc").write_text(f'output = "{other}/a.md"\n', encoding="utf-8")
    monkeypatch.setenv("HOME", str(tmp_path / "own-home"))
    monkeypatch.delenv("CURL_HOME", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setattr("harness_memory.hooks.program_settings.account_home", lambda: "")
    hook = HookInput(session_id="s-1", cwd=str(where.workspace))
    settings = HarnessSettings(
        url=None, token=None, project=None, agent=None, state_dir=None, memory_root=where.root
    )
    environ = {"HOME": str(given), "PATH": "/usr/bin:/bin"}

    reason = shell_refusal([FETCH["curl"]], hook, settings, environ=environ)

    assert reason is not None and f"{other}/a.md, where the settings file of curl says" in reason
    assert shell_refusal([FETCH["curl"]], hook, settings) is None  # its own HOME: no settings
    unpacked = shell_paths("tar -xf a.tar -C ~/x", "/ws", environ).unpacked
    assert unpacked == [("tar", "/ws/a.tar", [f"{given}/x"], ["-xf", "a.tar", "-C", "~/x"])]


WGET2_SETTINGS = [
    ("~/.config/wget/wget2rc", "output-document = {target}/a.md\n"),
    ("$XDG_CONFIG_HOME/wget/wget2rc", '--output-document="{target}/a.md"\n'),
    ("$WGET2RC", "Directory_Prefix = {target}\n"),
    ("~/.wget2rc", "# saved\nstats-site = csv:{target}/a.md\n"),
    ("~/.wget2rc", "output-document = '{target}/a.md'\n"),
]
"""A settings file GNU Wget2 reads (Fedora's ``wget``; ``$XDG_CONFIG_HOME`` and ``$WGET2RC``
set in the harness's environment) and a text, in Wget2's own words, naming another scope."""


class _Note(http.server.BaseHTTPRequestHandler):
    """Answers every GET with a short note (a loopback server for Wget2, which writes its
    output file only once the server answers)."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"x\n")

    def log_message(self, *_: object) -> None:
        return


def _wget2_settings(
    where: Layout, monkeypatch: pytest.MonkeyPatch, file: str, text: str
) -> dict[str, str]:
    """Write ``text`` (naming the other scope) to the Wget2 settings ``file``; the harness's
    environment (``WGET2RC`` set only when the file is that one)."""
    environment = _environment(where, monkeypatch)
    if file == "$WGET2RC":
        environment["WGET2RC"] = str(where.workspace / "w2")
        monkeypatch.setenv("WGET2RC", environment["WGET2RC"])
    place = Path(os.path.expandvars(file.replace("~", environment["HOME"], 1)))
    place.parent.mkdir(parents=True, exist_ok=True)
    place.write_text(text.format(target=where.root / where.other), encoding="utf-8")
    return environment


@pytest.mark.parametrize(("file", "text"), WGET2_SETTINGS)
def test_p3_a_wget2_settings_file_writing_into_another_scope_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, file: str, text: str
) -> None:
    """Wget2 reads ``wget2rc`` (``$WGET2RC``, else ``$XDG_CONFIG_HOME/wget/wget2rc`` or
    ``~/.config/wget/wget2rc``; ``~/.wget2rc`` as Wget2 1.99 reads it), in words of its own;
    the guard read only ``.wgetrc``, so a plain ``wget URL`` where ``wget`` is Wget2 passed."""
    monkeypatch.delenv("WGET2RC", raising=False)
    _wget2_settings(where, monkeypatch, file, text)

    reason = refusal(answer(where, "claude-code", "Bash", {"command": FETCH["wget"]}))

    assert reason is not None and "where the settings file of wget says" in reason


@pytest.mark.parametrize(
    ("file", "text"), [row for row in WGET2_SETTINGS if row[0] in ("~/.wget2rc", "$WGET2RC")]
)
def test_p3_wget2_as_wget_writes_where_its_settings_file_says(
    where: Layout, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, file: str, text: str
) -> None:
    """The refused fetch run by bash with Wget2 as ``wget`` (Fedora's) against a loopback
    server: it writes into the other scope (the files Wget2 1.99, Debian 12's, reads)."""
    wget2 = shutil.which("wget2")
    if wget2 is None:
        unavailable("Wget2", "wget2 is not installed (apt-get install wget2)")
    monkeypatch.delenv("WGET2RC", raising=False)
    environment = _wget2_settings(where, monkeypatch, file, text)
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "wget").symlink_to(wget2)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Note)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    fetch = f"wget -q --tries=1 http://127.0.0.1:{server.server_port}/note.md"
    assert refusal(answer(where, "claude-code", "Bash", {"command": fetch})) is not None

    search = f"{tmp_path / 'bin'}:{environment['PATH']}"
    try:
        subprocess.run(
            ["bash", "-c", fetch],
            cwd=where.workspace,
            env=environment | {"PATH": search},
            timeout=30,
        )
    finally:
        server.shutdown()
        server.server_close()
    other = where.root / where.other
    assert sorted(found.name for found in other.iterdir()) != ["MEMORY.md"]


@pytest.mark.parametrize(
    "text",
    [
        "include /etc/wget2rc.d/*\n",
        "config = more.rc\n",
        'execute = "output-document=x"\n',
        "local-plugin = ./p.so\n",
        "output-\\\ndocument = x\n",
    ],
)
def test_p3_a_wget2_settings_file_taking_settings_from_elsewhere_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """Another file, a setting given as text, a plugin's code, or a name split over a line
    continuation: where Wget2 writes cannot be read here."""
    _environment(where, monkeypatch)
    (where.data / ".wget2rc").write_text(text, encoding="utf-8")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": FETCH["wget"]}))

    assert reason is not None and "cannot be known" in reason


@pytest.mark.parametrize(
    ("file", "text"), [row for row in WGET2_SETTINGS if row[0] == "~/.wget2rc"]
)
def test_p3_wget2_by_its_own_name_is_read_as_wget(
    where: Layout, monkeypatch: pytest.MonkeyPatch, file: str, text: str
) -> None:
    """``wget2`` run by its own name was a program the guard did not read: its ``wget2rc``
    and its ``-O "$(cat target)"`` passed. Now it is read as ``wget``: both are refused, and
    the plain fetch, run by bash with the real Wget2 against a loopback server, writes into
    the other scope."""
    if shutil.which("wget2") is None:
        unavailable("Wget2", "wget2 is not installed (apt-get install wget2)")
    monkeypatch.delenv("WGET2RC", raising=False)
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    run_time = 'wget2 -q -O "$(cat target)/b.md" http://127.0.0.1:9/note.md'
    assert refusal(answer(where, "claude-code", "Bash", {"command": run_time})) is not None
    environment = _wget2_settings(where, monkeypatch, file, text)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Note)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    fetch = f"wget2 -q --tries=1 http://127.0.0.1:{server.server_port}/note.md"

    reason = refusal(answer(where, "claude-code", "Bash", {"command": fetch}))

    assert reason is not None and "where the settings file of wget says" in reason
    try:
        subprocess.run(["bash", "-c", fetch], cwd=where.workspace, env=environment, timeout=30)
    finally:
        server.shutdown()
        server.server_close()
    assert sorted(found.name for found in other.iterdir()) != ["MEMORY.md"]
