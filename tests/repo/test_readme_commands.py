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
