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

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness_memory.cli import build_parser as harness_memory_parser
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
