"""Q-1: the READMEs' shell blocks are copied as they are, so no command in them gives a
placeholder as a value.

The team-server block of README.md read ``export HARNESS_MEMORY_TOKEN=...``: copied whole, the
shell set the token to ``...``, and a service with no tokens yet took it, the install wrote it
into the hooks' token file, and the first ``token create`` left every Session without memory
(the plugin README's remote-mode block did the same inline). A value the user must supply is
said in a comment (``# first: export HARNESS_MEMORY_TOKEN=<yours> …``): a command copied without
it then runs without the setting, which the CLI names when it needs it.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness_memory.cli import build_parser as harness_memory_parser
from harness_memory.installers.codex import codex_home
from harness_memory.installers.gemini import settings_path as gemini_settings_path
from harness_memory.installers.token_place import token_place
from memory_api.cli import build_parser as memory_api_parser

REPO = Path(__file__).resolve().parents[2]
READMES = ["README.md", "plugins/harness-memory/README.md"]
SHELL_BLOCK = re.compile(r"^```(?:sh|bash|shell)\n(.*?)^```", re.S | re.M)
PLACEHOLDER_VALUE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=(?:\.\.\.|…|<[^<>]*>|your[-_ ].*)$")
"""``NAME=...``, ``NAME=…``, ``NAME=<yours>``, ``NAME=your-token``: a value to replace."""


def shell_commands(text: str) -> Iterator[str]:
    """Each command of ``text``'s shell blocks, continuation lines joined."""
    for block in SHELL_BLOCK.findall(text):
        yield from block.replace("\\\n", " ").splitlines()


def words(command: str) -> list[str]:
    """The words the shell makes of ``command``, its comment left out (quotes removed)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return list(lexer)


def test_q1_the_word_parser_sees_a_comment_and_quotes_as_the_shell_does() -> None:
    assert words("export A=... # x=<no>") == ["export", "A=..."]
    assert words("# export HARNESS_MEMORY_TOKEN=<yours>") == []
    assert words('curl -d \'{"v": "<id>"}\'') == ["curl", "-d", '{"v": "<id>"}']


@pytest.mark.parametrize("readme", READMES)
def test_q1_no_readme_command_gives_a_placeholder_as_a_value(readme: str) -> None:
    text = (REPO / readme).read_text(encoding="utf-8")
    found = [
        command.strip()
        for command in shell_commands(text)
        if any(PLACEHOLDER_VALUE.match(word) for word in words(command))
    ]
    assert found == []


PROGRAMS = {"memory-api": memory_api_parser, "harness-memory": harness_memory_parser}
"""Each program the READMEs' shell blocks run, and the parser of its real command line."""
SHELL_OPERATORS = {"|", "||", "&&", ";", "&", ">", ">>", "<", "2>", "(", ")"}


def program_calls(command: str) -> Iterator[tuple[str, list[str]]]:
    """``(program, its arguments)`` for each ``memory-api`` or ``harness-memory`` the command
    runs (``.venv/bin/memory-api`` too), its arguments up to the next shell operator."""
    said = words(command)
    for at, word in enumerate(said):
        folder, _, program = word.rpartition("/")
        if program in PROGRAMS and (folder in ("", ".venv/bin") or folder.endswith("/bin")):
            arguments: list[str] = []
            for argument in said[at + 1 :]:
                if argument in SHELL_OPERATORS:
                    break
                arguments.append(argument)
            yield program, arguments


def test_q1_program_calls_are_found_with_their_arguments_alone() -> None:
    line = ".venv/bin/memory-api token create --name me > token  # once"
    assert list(program_calls(line)) == [("memory-api", ["token", "create", "--name", "me"])]
    assert list(program_calls("pip install -e plugins/harness-memory")) == []


def test_q1_every_readme_command_of_ours_is_one_its_program_takes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``memory-api token create`` alone, as the README named it, stops with "the following
    arguments are required: --name": each command of README.md's shell blocks, copied as a
    newcomer copies them, parses as its program parses it (flags, required arguments,
    choices), so none fails before it starts. (The plugin README's blocks are synopses, with
    ``[--format json]`` and ``…``: a reference, not commands to copy.)"""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    refused: list[str] = []
    for command in shell_commands(text):
        for program, arguments in program_calls(command):
            try:
                PROGRAMS[program]().parse_args(arguments)
            except SystemExit:
                refused.append(f"{program} {shlex.join(arguments)}: {capsys.readouterr().err}")
    assert refused == []


SERVICE_ADDRESS = re.compile(r"https?://(?:127\.0\.0\.1|localhost|\[::1\])(:[^/\s'\"]*)?")
PORT_EXPORTED = re.compile(r"^export MEMORY_API_PORT=\d+\b", re.M)


def test_q1_every_readme_command_names_the_port_as_the_user_chose_it() -> None:
    """``make run MEMORY_API_PORT=9000`` serves on 9000, but the README's commands said
    ``http://127.0.0.1:8765``: copied, each asked the wrong port (or another program on it).
    Every service address in README.md's shell blocks names its port as ``$MEMORY_API_PORT``,
    which a shell block exports before the first of them (and ``memory-api`` reads too)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = SHELL_BLOCK.findall(text)
    ports = [match.group(1) for block in blocks for match in SERVICE_ADDRESS.finditer(block)]
    assert ports and set(ports) == {":$MEMORY_API_PORT"}
    first_use = next(at for at, block in enumerate(blocks) if SERVICE_ADDRESS.search(block))
    assert any(PORT_EXPORTED.search(block) for block in blocks[:first_use])


HOOK_ROW = re.compile(r"^\| `(\w+)` \| .*? \| `harness-memory hook ([^`]+)`", re.M)


def installed_claude_code_hooks(home: Path, *, token: bool = True) -> set[tuple[str, str]]:
    """``(event, "claude-code EVENT [--part K --parts N]")`` for each hook command
    ``harness-memory install claude-code`` writes into a new ``home`` (K given as ``K``), given
    a token to keep in its token file (``token``) or none (a service without tokens)."""
    import io

    from harness_memory.cli import main as harness_memory_main

    from tests.plugin.helpers import HARNESS_MEMORY

    root = home.parent / "memory"
    root.mkdir(parents=True)
    flags = ["--home", str(home), "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    flags += ["--token", "a-token-the-install-keeps-in-its-token-file"] if token else []
    said = io.StringIO()
    assert (
        harness_memory_main(
            ["install", "claude-code", *flags, "--no-check"],
            environ={"HOME": str(home)},
            stdout=said,
        )
        == 0
    ), said.getvalue()
    settings = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    found: set[tuple[str, str]] = set()
    for event, groups in settings["hooks"].items():
        for group in groups:
            for hook in group["hooks"]:
                said_words = shlex.split(hook["command"].split(" || ")[0])
                at = said_words.index("hook")
                part = said_words.index("--part") if "--part" in said_words else None
                shown = " ".join(said_words[at + 1 : at + 3])
                if part is not None:
                    shown += f" --part K --parts {said_words[part + 3]}"
                found.add((event, shown))
    return found


def _session_start_words(home: Path) -> list[str]:
    """The words of the first Session-start hook command the install wrote into ``home``."""
    installed = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    return shlex.split(installed["hooks"]["SessionStart"][0]["hooks"][0]["command"])


def test_h3_the_readme_wires_claude_code_by_hand_as_the_install_does(tmp_path: Path) -> None:
    """The README's hand-wiring table names, per Claude Code event, the hook command the
    install writes (the Session start split over ``--part K --parts 4``), each of which the
    real parser takes with the flags the README's example gives; the events it names for
    Codex CLI and Gemini CLI are theirs. The example entry gives a state dir under the user's
    home (one in a shared ``/tmp`` folder is not the user's alone, and the write guard then
    trusts no record in it) and holds for a service with tokens and one without: as written it
    names no token file, as the install for a service without tokens (a fresh ``make run``'s)
    writes none (a ``--token-file`` naming no file turned memory off: "cannot read the token
    file"), and the token file its comment says to add for a service with tokens is the one
    the install wrote (without it, such a service answered 401 "memory is off")."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    rows = {(event, command.split(",")[0]) for event, command in HOOK_ROW.findall(text)}
    home = tmp_path / "home"
    assert rows == installed_claude_code_hooks(home)
    example = next(block for block in SHELL_BLOCK.findall(text) if "hook claude-code" in block)
    command, _, comment = example.partition("\n# ")
    words = shlex.split(command.replace("\\\n", " ").split(" | ", 1)[1])
    given = harness_memory_parser().parse_args(words[1:])
    assert given.state_dir.startswith("~/")
    assert given.token_file is None
    tokenless_home = tmp_path / "tokenless" / "home"
    assert installed_claude_code_hooks(tokenless_home, token=False) == rows
    assert _session_start_words(tokenless_home).count("--token-file") == 0
    assert not (tokenless_home / ".claude" / "harness-memory" / "token").exists()
    named = {
        harness: path.replace("~", str(home), 1)
        for path, harness in re.findall(r"(~/\S+) \((claude-code|codex|gemini)\)", comment)
    }
    assert "a service with tokens: add --token-file FILE," in comment, comment
    start = _session_start_words(home)
    token_file = start[start.index("--token-file") + 1]
    assert named["claude-code"] == token_file
    assert Path(token_file).is_file()
    # the others, where those harnesses' installs put the token (rv-newcomer64: a Codex user
    # was told to add Claude Code's, which only its install writes)
    assert named["codex"] == str(token_place(codex_home(home, {}), home, {})[0])
    gemini_settings = gemini_settings_path(home, {}).parent
    assert named["gemini"] == str(token_place(gemini_settings, home, {})[0])
    for _, command in rows:
        arguments = ["hook", *command.replace("K", "1").split(), "--flags-only"]
        harness_memory_parser().parse_args([*arguments, "--url", "http://127.0.0.1:8765"])
    codex = re.search(r"Codex CLI's events are `([\w-]+)`, `([\w-]+)` and `([\w-]+)`", text)
    gemini = re.search(r"Gemini CLI's `([\w-]+)`, `([\w-]+)` and `([\w-]+)`", text)
    assert codex is not None and gemini is not None
    for harness, events in (("codex", codex.groups()), ("gemini", gemini.groups())):
        for event in events:
            harness_memory_parser().parse_args(["hook", harness, event, "--flags-only"])


def test_q1_no_readme_session_makes_the_checkout_a_workspace() -> None:
    """Every Session README.md's commands start (by ``curl``, ``harness-memory session-start``
    or a hook fed an event by hand) is in the scratch folder ``$TRY`` (``mktemp -d``), so the
    checkout, where the commands run, never becomes a Workspace listed in the Memory tab (the
    hand-wiring example sent ``"cwd": "$PWD"``, the checkout, while "Using it" used ``$TRY``)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    starts = [command for command in shell_commands(text) if "session-start" in command]
    assert len(starts) >= 3, starts
    for command in starts:
        assert "$PWD" not in command, command
        assert "$TRY" in command, command
    for block in SHELL_BLOCK.findall(text):
        if "session-start" in block:  # each block sets $TRY, to a new scratch folder
            made = [line for line in block.splitlines() if line.startswith("TRY=")]
            assert made and "$(mktemp -d)" in made[0], block
            assert block.index("TRY=") < block.index("$TRY"), block


INLINE_COMMAND = re.compile(r"`((?:\.venv/bin/)?(?:harness-memory|memory-api) [^`]*)`")
PLACEHOLDERS = {"HARNESS": "claude-code", "EVENT": "session-start", "K": "1"}
"""The placeholders README.md's prose commands use, each with a value its program takes."""


def test_q1_every_command_in_readme_prose_is_one_its_program_takes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """README.md said "`harness-memory uninstall` on such a machine …", a command a newcomer
    copies and runs: it stops with "the following arguments are required: harness". Each
    ``memory-api`` or ``harness-memory`` command in README.md's prose parses as its program
    parses it, its placeholders (``HARNESS``, ``EVENT``, ``K``) given a value; one with ``…``
    in it is a synopsis whose rest is elided, not a command to copy."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    refused: list[str] = []
    for span in INLINE_COMMAND.findall(text):
        if "…" in span or "..." in span:
            continue
        for program, arguments in program_calls(span):
            typed = [PLACEHOLDERS.get(argument, argument) for argument in arguments]
            try:
                PROGRAMS[program]().parse_args(typed)
            except SystemExit:
                refused.append(f"`{span}`: {capsys.readouterr().err.splitlines()[-1]}")
    assert refused == []
