"""P-4: the same Session start from a shell, JSON or plain text out; drafts of A-12 too."""

from __future__ import annotations

import argparse
import contextlib
import io
import re
from datetime import timedelta
from pathlib import Path

import pytest
from aiohttp.test_utils import unused_port
from harness_memory.cli import DRAFT_SEPARATOR, build_parser
from memory_core import layout

from tests.plugin.helpers import harness_env, run_cli
from tests.plugin.scripted_service import USER_INDEX_LINE, ScriptedService
from tests.support.cli_help import every_help, options_without_help
from tests.support.serve import code_under_test

TEMPLATE = "Intro.\n\n{{MEMORY}}\n# Environment\n- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}\n"


def write_template(tmp_path: Path) -> str:
    path = tmp_path / "template.md"
    path.write_text(TEMPLATE, encoding="utf-8")
    return str(path)


async def test_p4_session_start_json_holds_prompt_key_and_session_meta(
    service: ScriptedService, tmp_path: Path
) -> None:
    done = await run_cli(
        "session-start",
        "--url", service.url,
        "--token", "t0k",
        "--project", "acme",
        "--agent", "coder",
        "--workspace", "/home/ada/src/my-app",
        "--template-file", write_template(tmp_path),
        "--session-id", "cli-1",
        "--format", "json",
        env={},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = done.json()
    assert set(answer) == {"systemPrompt", "key", "sessionMeta", "initialPrompt", "sections"}
    assert "".join(section["text"] for section in answer["sections"]) == answer["systemPrompt"]
    assert answer["initialPrompt"] is None
    assert answer["key"] == "my-app-1c7ddc51"
    assert USER_INDEX_LINE in answer["systemPrompt"]
    meta = answer["sessionMeta"]
    assert meta["systemPrompt"] == answer["systemPrompt"]
    assert meta["status"] == "injected"
    assert meta["sessionId"] == "cli-1"
    assert meta["manifests"][0]["capFired"] == "lines"
    assert meta["truncated"] == ["user"]
    assert isinstance(meta["durationMs"], float)
    [(_, headers, body)] = service.calls
    assert headers["Authorization"] == "Bearer t0k"
    assert body.workspace == "/home/ada/src/my-app"


async def test_p4_session_start_text_prints_the_prompt_and_reads_the_environment(
    service: ScriptedService, tmp_path: Path
) -> None:
    env = harness_env(service.url, HARNESS_MEMORY_TEMPLATE=write_template(tmp_path))
    done = await run_cli("session-start", "--workspace", str(tmp_path), env=env)
    assert done.returncode == 0
    assert done.stdout.startswith("Intro.\n\n## User memory\n")
    assert done.stdout.endswith("- Workspace Memory Key: my-app-1c7ddc51\n")
    assert "Authorization" not in service.calls[0][1]


async def test_p2_session_start_cli_fails_open_with_a_warning(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{unused_port()}"
    done = await run_cli(
        "session-start", "--url", url, "--project", "acme", "--agent", "coder",
        "--template-file", write_template(tmp_path), "--format", "json", env={},
    )  # fmt: skip
    assert done.returncode == 0
    assert "memory failed open" in done.stderr
    meta = done.json()["sessionMeta"]
    assert meta["status"] == "failed-open"
    assert meta["errorKind"] == "unreachable"
    assert "(none — memory is off)" in done.json()["systemPrompt"]


async def test_p4_session_start_cli_usage_errors_exit_2(tmp_path: Path) -> None:
    missing = await run_cli("session-start", "--url", "http://127.0.0.1:9", env=code_under_test())
    assert missing.returncode == 2
    # Each missing flag with the variable it falls back to, not "the HARNESS_MEMORY_* variables".
    assert (
        "error: missing --project (HARNESS_MEMORY_PROJECT), --agent (HARNESS_MEMORY_AGENT)\n"
    ) in missing.stderr
    bad_timeout = await run_cli("session-start", "--timeout", "soon", env={})
    assert bad_timeout.returncode == 2
    assert "timeout" in bad_timeout.stderr
    no_template = await run_cli(
        "session-start", "--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder",
        "--template-file", str(tmp_path / "absent.md"), env={},
    )  # fmt: skip
    assert no_template.returncode == 2
    assert "template" in no_template.stderr


DRAFT_PROMPT = "Update memory `Deploy notes.md`: {{MEMORY}} stays as typed — «über»\n"


def service_flags(service: ScriptedService) -> list[str]:
    return ["--url", service.url, "--project", "acme", "--agent", "coder"]


async def test_a12_session_start_from_a_draft_json_gains_the_initial_prompt(
    service: ScriptedService, tmp_path: Path
) -> None:
    draft = service.add_draft(DRAFT_PROMPT, "/home/ada/src/shop-api")
    done = await run_cli(
        "session-start", *service_flags(service), "--workspace", "/home/ada/src/my-app",
        "--template-file", write_template(tmp_path), "--draft", draft.id, "--format", "json",
        env={},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = done.json()
    assert answer["initialPrompt"] == DRAFT_PROMPT
    meta = answer["sessionMeta"]
    assert meta["draftId"] == draft.id and meta["draftError"] is None
    assert meta["workspace"] == "/home/ada/src/shop-api" and meta["workspaceSource"] == "draft"
    assert service.workspaces == ["/home/ada/src/shop-api"]


async def test_a12_session_start_from_a_draft_text_prints_prompt_separator_and_draft(
    service: ScriptedService, tmp_path: Path
) -> None:
    draft = service.add_draft("Add a memory: deploys go through `make ship`")
    done = await run_cli(
        "session-start", *service_flags(service), "--workspace", str(tmp_path),
        "--template-file", write_template(tmp_path), "--draft", draft.id, env={},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    system_prompt, rest = done.stdout.split(DRAFT_SEPARATOR.format(draft_id=draft.id) + "\n")
    assert system_prompt.startswith("Intro.\n\n## User memory\n")
    assert system_prompt.endswith("- Workspace Memory Key: my-app-1c7ddc51\n")
    assert rest == "Add a memory: deploys go through `make ship`\n"


async def test_a12_p2_session_start_with_an_expired_draft_starts_without_it_and_warns(
    service: ScriptedService, tmp_path: Path
) -> None:
    draft = service.add_draft(DRAFT_PROMPT, expires_in=timedelta(seconds=-1))
    done = await run_cli(
        "session-start", *service_flags(service), "--workspace", str(tmp_path),
        "--template-file", write_template(tmp_path), "--draft", draft.id, env={},
    )  # fmt: skip
    assert done.returncode == 0
    assert f"Session starts without draft {draft.id}" in done.stderr
    assert "expired or unknown" in done.stderr
    assert "initial prompt" not in done.stdout and DRAFT_PROMPT not in done.stdout
    assert done.stdout.startswith("Intro.\n\n## User memory\n")


async def test_a12_a_malformed_draft_id_is_a_usage_error(service: ScriptedService) -> None:
    start = await run_cli("session-start", *service_flags(service), "--draft", "../x", env={})
    assert start.returncode == 2
    assert "32 lowercase hex digits" in start.stderr
    show = await run_cli("draft", "show", *service_flags(service), "ABC", env={})
    assert show.returncode == 2
    assert "32 lowercase hex digits" in show.stderr
    assert service.calls == [] and service.draft_calls == []


async def test_a12_draft_show_prints_the_prompt_or_the_whole_draft(
    service: ScriptedService,
) -> None:
    draft = service.add_draft(DRAFT_PROMPT, "/home/ada/src/shop-api")
    text = await run_cli("draft", "show", *service_flags(service), draft.id, env={})
    assert text.returncode == 0, text.stderr
    assert text.stdout == DRAFT_PROMPT
    env = harness_env(service.url, HARNESS_MEMORY_TOKEN="t0k")
    as_json = await run_cli("draft", "show", "--format", "json", draft.id, env=env)
    assert as_json.returncode == 0, as_json.stderr
    assert as_json.json() == {
        "id": draft.id,
        "project": "acme",
        "agent": "coder",
        "prompt": DRAFT_PROMPT,
        "workspace": "/home/ada/src/shop-api",
        "createdAt": draft.created_at,
        "expiresAt": draft.expires_at,
    }


async def test_a12_draft_show_fails_with_exit_1_when_the_draft_is_gone(
    service: ScriptedService,
) -> None:
    draft = service.add_draft(DRAFT_PROMPT, expires_in=timedelta(seconds=-1))
    gone = await run_cli("draft", "show", *service_flags(service), draft.id, env={})
    assert gone.returncode == 1
    assert gone.stdout == ""
    assert "404" in gone.stderr and "it may have expired" in gone.stderr
    down = await run_cli(
        "draft", "show", "--url", f"http://127.0.0.1:{unused_port()}", "--project", "acme",
        "--agent", "coder", draft.id, env={},
    )  # fmt: skip
    assert down.returncode == 1
    assert "unreachable" in down.stderr
    missing = await run_cli("draft", "show", draft.id, env=code_under_test())
    assert missing.returncode == 2
    assert "missing --url (HARNESS_MEMORY_URL), --project (HARNESS_MEMORY_PROJECT)" in (
        missing.stderr
    )


def test_q1_harness_memory_help_names_no_requirement_ids() -> None:
    """``harness-memory --help`` and each command's are read by users, who do not know the
    spec: no "(A-12)" or "(H-3)" in them."""
    helps = list(every_help(build_parser()))
    assert len(helps) >= 8  # harness-memory and each of its commands
    found = [match for text in helps for match in re.findall(r"\b[A-Z]-\d+[a-z]?\b", text)]
    assert found == []


def test_q1_every_option_of_every_harness_memory_command_says_what_it_is() -> None:
    """`harness-memory sync --help` listed `--format {json,text}` with nothing beside it, and
    each `hook HARNESS` its event with no word of what it is. Every option and argument of
    every command has a text."""
    assert list(options_without_help(build_parser())) == []


async def test_p4_a_usage_error_shows_the_usage_of_its_own_command() -> None:
    """A user who leaves out a flag of ``install`` (or gives a hook a bad one) sees that
    command's usage, with the flags it takes, above the error: not the bare list of commands,
    which says nothing about ``--memory-root``."""
    install = await run_cli(
        "install", "claude-code", "--url", "http://127.0.0.1:9", env=code_under_test()
    )
    assert install.returncode == 2
    assert install.stderr.startswith("usage: harness-memory install [-h] [--memory-root ROOT]")
    assert "harness-memory install: error: install claude-code: missing --memory-root" in (
        install.stderr
    )
    hook = await run_cli(
        "hook", "claude-code", "session-start", "--part", "3", "--parts", "2", env=code_under_test()
    )
    assert hook.returncode == 2
    assert hook.stderr.startswith("usage: harness-memory hook claude-code [-h] [--part PART]")
    assert "harness-memory hook claude-code: error: --part 3 is past --parts 2" in hook.stderr
    draft = await run_cli("draft", "show", "d" * 32, env=code_under_test())
    assert draft.returncode == 2
    assert draft.stderr.startswith("usage: harness-memory draft show [-h]")


def test_h3_install_help_says_where_the_memory_root_is() -> None:
    """``harness-memory install --help`` tells a new user which folder ``--memory-root`` names
    (the agent's folder in the service's data dir, as the service lays it out), instead of
    "the memory root", a word they have never seen."""
    install = next(text for text in every_help(build_parser()) if "install [-h]" in text)
    flat = " ".join(install.split())
    where = layout.memory_root(Path("<data dir>"), "coder").as_posix().replace("coder", "<agent>")
    assert f"--memory-root ROOT the agent's memory folder in the service's data dir: {where}" in (
        flat
    )
    assert ".data/agents/<agent>/agent_state/memory" in flat  # make run's data dir


def test_h3_uninstall_help_says_its_memory_root_is_not_needed() -> None:
    """``uninstall`` finds the roots in the hook entries it wrote (the plugin README): its help
    does not ask the user for a folder it does not need."""
    uninstall = next(text for text in every_help(build_parser()) if "uninstall [-h]" in text)
    assert "--memory-root ROOT not needed: the memory roots the installed hooks name" in (
        " ".join(uninstall.split())
    )


def _parsed(parser: argparse.ArgumentParser, argv: list[str]) -> dict[str, object]:
    """What ``parser`` reads from ``argv``, by name, and the usage of the command it found."""
    read = vars(parser.parse_args(argv))
    read["command_parser"] = read["command_parser"].format_usage()
    return read


def printed(parser: argparse.ArgumentParser, argv: list[str]) -> tuple[object, str, str]:
    """What ``parser`` prints reading ``argv`` that it cannot run (a help, a usage error):
    its exit status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        pytest.raises(SystemExit) as ended,
    ):
        parser.parse_args(argv)
    return ended.value.code, out.getvalue(), err.getvalue()


def test_h5_the_parser_built_for_one_command_reads_it_as_the_whole_parser_does() -> None:
    """A hook process builds the parser of its own command only, of its own harness for
    ``hook`` (H-5): each command line is read to the same values and usage as with every
    command's, and prints the same help and usage errors, naming every command and harness."""
    lines = [
        ["hook", "claude-code", "pre-tool-use", "--memory-root", "/r", "--state-dir", "/s"],
        ["hook", "codex", "pre-tool-use", "--flags-only", "--url", "http://h:1"],
        ["hook", "gemini", "before-tool", "--memory-root=/r"],
        ["hook", "claude-code", "session-start", "--part", "2", "--parts", "3"],
        ["session-start", "--format", "json", "--workspace", "/w"],
        ["draft", "show", "0" * 32, "--format", "json"],
        ["status"],
    ]
    for argv in lines:
        assert _parsed(build_parser(argv), argv) == _parsed(build_parser(), argv), argv
    whole = list(every_help(build_parser()))
    for line in ([], ["--help"], ["frob"], ["-h", "hook"]):
        assert build_parser(line).format_help() == whole[0], line
    unrun = [
        ["hook", "codex", "--help"],
        ["hook", "codex", "pre-tool-use", "--help"],
        ["hook", "codex"],
        ["hook", "codex", "frob"],
        ["hook", "codex", "pre-tool-use", "--frob"],
        ["hook", "claude-code", "session-start", "--part", "0"],
        ["hook", "--help"],
        ["hook", "frob"],
        ["session-start", "--help"],
        ["sync", "--frob"],
        ["frob"],
        ["--help"],
    ]
    for argv in unrun:
        assert printed(build_parser(argv), argv) == printed(build_parser(), argv), argv


def test_h5_a_hook_builds_no_parser_of_another_command_nor_harness() -> None:
    """Each command's parser (argparse looks up the translations of its headings for each)
    is work a hook process does not need (H-5): the parser built for a hook line holds its
    command's and its harness's only."""
    line = ["hook", "codex", "pre-tool-use", "--memory-root", "/r"]
    commands = _subcommands(build_parser(line))
    assert list(commands) == ["hook"]
    assert list(_subcommands(commands["hook"])) == ["codex"]
    assert len(_subcommands(build_parser())) == 8


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parsers of ``parser``'s subcommands, by name."""
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(found) == 1
    return dict(found[0].choices)


@pytest.mark.parametrize(
    "argv",
    [
        ["install", "claude-code", "--home", "/h"],
        ["sync", "--every-scope"],
        ["hook", "claude-code", "pre-tool-use", "--memory-root", "/r"],
        ["hook", "gemini", "before-tool", "--memory-root", "/r"],
    ],
)
def test_h5_the_parser_built_for_one_hook_lacks_every_other_command_s_arguments(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The parser a Codex pre-tool hook builds adds no other command's arguments, nor another
    harness's (H-5: the cut is the saving): it cannot read a line of theirs that the whole
    parser reads."""
    build_parser().parse_args(argv)
    with pytest.raises(SystemExit) as ended:
        build_parser(["hook", "codex", "pre-tool-use"]).parse_args(argv)
    assert ended.value.code == 2
    said = capsys.readouterr().err
    assert "unrecognized arguments" in said or "invalid choice" in said
