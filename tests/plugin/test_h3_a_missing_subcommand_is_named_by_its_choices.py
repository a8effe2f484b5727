"""H-3: a command word left out is named by the words that may stand there.

``harness-memory token`` ended "error: the following arguments are required: token_command",
``harness-memory hook`` "…: agent_kind": names of the program's own variables, which no help
shows and nobody can type. The error names the words it takes instead, as the usage line does.
"""

from __future__ import annotations

import pytest
from harness_memory import cli


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ([], "{session-start,draft,hook,sync,token,status,install,uninstall}"),
        (["token"], "{set}"),
        (["hook"], "{claude-code,codex,gemini}"),
        (["draft"], "{show}"),
    ],
)
def test_h3_a_missing_command_word_is_named_by_the_words_it_takes(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(argv, environ={})

    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.rstrip().endswith(f"error: the following arguments are required: {words}"), err
