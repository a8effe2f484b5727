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
        (["hook", "codex"], "{session-start,pre-tool-use,post-tool-use,stop}"),
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


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["token", "frob"],
            "harness-memory token: error: invalid choice: 'frob' (choose from set)",
        ),
        (
            ["hook", "frob"],
            "harness-memory hook: error: invalid choice: 'frob' (choose from claude-code, codex, "
            "gemini)",
        ),
        (
            ["hook", "codex", "frob"],
            "harness-memory hook codex: error: invalid choice: 'frob' (choose from "
            "session-start, pre-tool-use, post-tool-use, stop)",
        ),
    ],
)
def test_h3_a_word_not_among_the_choices_names_the_choices_once(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command word named by its choices made the refusal of another word say them twice:
    "argument {set}: invalid choice: 'frob' (choose from 'set')"."""
    with pytest.raises(SystemExit) as exited:
        cli.main(argv, environ={})

    assert exited.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith(said)


def test_h3_the_help_still_names_each_command_word_by_its_choices(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        cli.main(["hook", "codex", "--help"], environ={})

    assert "\n  {session-start,pre-tool-use,post-tool-use,stop}\n" in capsys.readouterr().out
