"""H-3: Gemini CLI reads its settings with comments (``strip-json-comments``), so ``install
gemini`` takes a commented ``settings.json`` as it is: every comment, blank line and byte of the
user's stays, only the install's own keys are added (a comma after the member they follow);
``uninstall`` gives the file back byte for byte (from its backup, or — the backup gone — by
taking those keys out of the text again). A change that would cut or rewrite a comment is
refused, naming the line, with the file untouched; the real Gemini CLI runs the hooks of a
commented file (``test_h3_gemini_commented_settings_reach_the_real_cli``)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.files import backups_of
from harness_memory.installers.jsonc import JsoncError, edit, loads
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.plugin.harness_run import (
    GEMINI_SETTINGS,
    TOPIC,
    other_scope,
    run_gemini_in,
    workspace_with_key,
)
from tests.plugin.harness_run import install as install_for_real
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h2_gemini import first_user_text, write_call
from tests.support.harness_settings import install, run

COMMENTED = {
    "two-space": (
        "// Gemini CLI settings: mine\n"
        "{\n"
        "  // the look\n"
        '  "ui": {"theme": "GitHub"}, /* kept inline */\n'
        '  "general": {\n'
        '    "vimMode": true // yes, vim\n'
        "  }\n"
        "}\n"
        "// the end\n"
    ),
    "tabs-crlf": (
        '{\r\n\t/* block\r\n\t   comment */\r\n\t"context": {\r\n\t\t"fileName": "GEMINI.md"'
        ' // name\r\n\t},\r\n\t"url": "http://example.test//not-a-comment"\r\n}'
    ),
    "comment-last": '{\n  "security": {"auth": {"selectedType": "gemini-api-key"}}\n  // last\n}\n',
    "only-comments": "{\n  // nothing set yet\n}\n",
    "own-lists": (
        "{\n"
        '  "context": {\n'
        '    "includeDirectories": [\n'
        '      "/srv/docs", // the team docs\n'
        '      "/srv/specs"   /* aligned */\n'
        "    ]\n"
        "  },\n"
        '  "hooks": {\n'
        '    "BeforeTool": [ // my lint hook first\n'
        '      {"matcher": "write_file", "hooks": [{"type": "command", "command": "lint"}]}\n'
        "    ]\n"
        "  }\n"
        "}\n"
    ),
}


def settings_file(home: Path, text: str) -> Path:
    path = home / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def kept_in_order(original: str, now: str) -> bool:
    """Whether every line of ``original`` is in ``now``, in order, as it was or with one comma
    added (after the member the install's keys follow)."""
    lines = iter(now.splitlines())
    for line in original.splitlines():
        if not any(new == line or _one_comma_added(line, new) for new in lines):
            return False
    return True


def _one_comma_added(line: str, new: str) -> bool:
    return len(new) == len(line) + 1 and any(
        new == line[:at] + "," + line[at:] for at in range(len(line) + 1)
    )


@pytest.mark.parametrize("case", list(COMMENTED))
def test_h3_gemini_install_keeps_every_comment_and_uninstall_gives_the_file_back(
    tmp_path: Path, case: str
) -> None:
    home = tmp_path / "home"
    settings = settings_file(home, COMMENTED[case])

    install("gemini", home)
    installed = settings.read_bytes().decode("utf-8")

    assert kept_in_order(COMMENTED[case], installed), installed
    document = loads(installed)
    assert {"SessionStart", "BeforeTool", "AfterTool"} <= set(document["hooks"])
    assert document["context"]["includeDirectoryTree"] is False
    users = loads(COMMENTED[case])
    for name, value in users.items():
        if name not in ("context", "hooks"):
            assert document[name] == value
    for event, groups in users.get("hooks", {}).items():
        assert document["hooks"][event][: len(groups)] == groups  # the user's hooks first
    for folder in users.get("context", {}).get("includeDirectories", []):
        assert folder in document["context"]["includeDirectories"]

    run("uninstall", "gemini", home=home)

    assert settings.read_bytes() == COMMENTED[case].encode("utf-8")


@pytest.mark.parametrize("case", list(COMMENTED))
def test_h3_gemini_a_second_install_of_a_commented_file_changes_nothing(
    tmp_path: Path, case: str
) -> None:
    home = tmp_path / "home"
    settings = settings_file(home, COMMENTED[case])
    install("gemini", home)
    installed = settings.read_bytes()

    said = install("gemini", home)

    assert "nothing to change" in said
    assert settings.read_bytes() == installed
    assert len(backups_of(settings)) == 1


@pytest.mark.parametrize("case", list(COMMENTED))
def test_h3_gemini_uninstall_without_a_backup_takes_out_only_its_keys(
    tmp_path: Path, case: str
) -> None:
    home = tmp_path / "home"
    settings = settings_file(home, COMMENTED[case])
    install("gemini", home)
    for backup in backups_of(settings):
        backup.unlink()

    run("uninstall", "gemini", home=home)

    assert settings.read_bytes() == COMMENTED[case].encode("utf-8")


def test_h3_gemini_a_change_that_would_rewrite_a_comment_is_refused_naming_its_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    home = tmp_path / "home"
    text = '{\n  "context": {\n    "includeDirectoryTree": [true /* on */]\n  }\n}\n'
    settings = settings_file(home, text)
    out = io.StringIO()

    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    words = ["install", "gemini", "--home", str(home), "--url", "http://127.0.0.1:9"]
    words += ["--project", "acme", "--agent", "coder", "--no-check", "--memory-root", str(root)]
    status = main(
        words,
        environ={"HOME": str(home)},
        stdout=out,
    )

    assert status == 1
    assert "line 3" in caplog.text and "holds a comment" in caplog.text
    assert settings.read_text(encoding="utf-8") == text
    assert backups_of(settings) == []


def test_h3_gemini_a_commented_file_it_cannot_read_says_what_to_do(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A trailing comma in a commented file, which Gemini CLI cannot read either: the install
    names the place, says what to do, and changes nothing."""
    home = tmp_path / "home"
    text = '{\n  // mine\n  "ui": {"theme": "GitHub",},\n}\n'
    settings = settings_file(home, text)
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    words = ["install", "gemini", "--home", str(home), "--url", "http://127.0.0.1:9"]
    words += ["--project", "acme", "--agent", "coder", "--no-check", "--memory-root", str(root)]

    status = main(words, environ={"HOME": str(home)}, stdout=io.StringIO())

    assert status == 1
    assert f"{settings} is not valid JSON (line 3: a ',' before '}}')" in caplog.text
    assert "which Gemini CLI cannot read either; fix it and run the command again" in caplog.text
    assert settings.read_text(encoding="utf-8") == text
    assert backups_of(settings) == []


def test_h3_gemini_status_reads_a_commented_settings_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings_file(home, COMMENTED["two-space"])
    install("gemini", home)

    out = io.StringIO()
    main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)

    assert "gemini: cannot read" not in out.getvalue()
    assert "gemini: not installed" not in out.getvalue()


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "b": [1, 2, {"c": null}], "d": "x"}',
        '{\n    "a": "http://x//y /* not a comment */",\n    "b": {}\n}\n',
        "{}",
    ],
)
def test_h3_jsonc_reads_plain_json_as_json_does_and_an_unchanged_object_changes_no_byte(
    text: str,
) -> None:
    assert loads(text) == json.loads(text)
    assert edit(text, json.loads(text)) == text


@pytest.mark.parametrize(
    "text",
    ['{"a": 1,}', '{"a": [1,]}', '{"a": 1 /* open', '{"a": 1, "a": 2}', '{"a": tru}', "{} {}"],
    ids=["trailing-comma", "array-trailing-comma", "open-comment", "twice", "bad", "two-values"],
)
def test_h3_jsonc_refuses_what_gemini_cli_would_not_read_naming_the_line(text: str) -> None:
    with pytest.raises(JsoncError, match="line 1"):
        loads(text)


def test_h3_jsonc_adds_to_a_compact_object_on_its_line() -> None:
    text = '{"a": 1, /* c */ "b": {}}'
    wanted = {"a": 1, "b": {"x": [1]}, "z": True}

    changed = edit(text, wanted)

    assert changed == '{"a": 1, /* c */ "b": {"x": [1]}, "z": true}'
    assert edit(changed, loads(text)) == text


def test_h3_jsonc_items_after_the_users_keep_their_bytes_and_go_again() -> None:
    text = '{"dirs": ["/a", /* b? */ "/b"], "x": [\n  1 // one\n]}'

    changed = edit(text, {"dirs": ["/a", "/b", "/root"], "x": [1, 2]})

    assert changed == '{"dirs": ["/a", /* b? */ "/b", "/root"], "x": [\n  1, // one\n  2\n]}'
    assert edit(changed, loads(text)) == text


def test_h3_jsonc_an_empty_list_gets_its_items_laid_out_like_the_file() -> None:
    text = '{\n  // mine\n  "dirs": []\n}\n'

    changed = edit(text, {"dirs": ["/root"]})

    assert changed == '{\n  // mine\n  "dirs": [\n    "/root"\n  ]\n}\n'
    assert edit(changed, loads(text)) == text


def test_h3_jsonc_a_file_nested_too_deeply_is_an_error_not_a_crash() -> None:
    with pytest.raises(JsoncError, match="nested too deeply"):
        loads("// deep\n" + "[" * 100_000 + "]" * 100_000)


def test_h3_jsonc_members_after_a_trailing_comment_follow_it() -> None:
    text = '{\n  "a": 1 // about a\n}\n'

    changed = edit(text, {"a": 1, "b": 2})

    assert changed == '{\n  "a": 1, // about a\n  "b": 2\n}\n'


async def test_h3_gemini_commented_settings_reach_the_real_cli(
    real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    plain = json.loads(GEMINI_SETTINGS)
    commented = (
        "// mine\n{\n"
        + ",\n".join(
            f"  /* {key} */ {json.dumps(key)}: {json.dumps(value)}" for key, value in plain.items()
        )
        + " // last\n}\n"
    )
    settings_file(home, commented)
    install_for_real("gemini", home, real_service, memory_root)
    installed = (home / ".gemini" / "settings.json").read_text(encoding="utf-8")
    workspace, key = workspace_with_key(tmp_path)
    planted = other_scope(memory_root, tmp_path) / "planted.md"

    fake, status, _out, err = await run_gemini_in(
        [[write_call(planted, TOPIC)]], real_service, workspace, home
    )

    assert status == 0, err[-3000:]
    assert f"- Workspace Memory Key: {key}" in first_user_text(fake.session_turns()[0])
    assert not planted.exists()
    # as installed: Gemini CLI rewrites a settings file holding a name it has renamed
    # (general.disableAutoUpdate → enableAutoUpdate, its migrateDeprecatedSettings)
    assert (home / ".gemini" / "settings.json").read_text(encoding="utf-8") == installed


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ('{"a": 1, "b": 2}', '{"a": 1, "c": 3}'),
        ('{\n  "a": 1, // a\n  "b": 2\n}\n', '{\n  "a": 1, // a\n  "c": 3\n}\n'),
    ],
)
def test_h3_jsonc_a_member_taken_out_and_another_added_follow_the_last_kept(
    text: str, wanted: str
) -> None:
    assert edit(text, {"a": 1, "c": 3}) == wanted


def test_h3_jsonc_every_member_taken_out_while_others_come_is_refused_not_torn() -> None:
    with pytest.raises(JsoncError):
        edit('{\n  // mine\n  "a": 1\n}\n', {"b": 2})


_SCALARS = st.one_of(st.integers(-1000, 1000), st.booleans(), st.none(), st.text(max_size=8))
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
_COMMENTS = st.sampled_from([" // note\n", "/* c */", " /* a // b */ ", "\n// line\n"])


def with_comments(text: str, data: st.DataObject) -> str:
    """``text`` (JSON) with comments drawn in after some of its ``{``, ``[``, ``,`` and ``:``
    and before some of its ``}``, ``]`` and ``,`` (outside strings), where a reader takes them
    as white space."""
    out: list[str] = []
    in_string = escaped = False
    for char in text:
        if not in_string and char in "}]," and data.draw(st.booleans(), label="before"):
            out.append(data.draw(_COMMENTS))
        out.append(char)
        if in_string:
            in_string = not (char == '"' and not escaped)
            escaped = char == "\\" and not escaped
        elif char == '"':
            in_string, escaped = True, False
        elif char in "{[,:" and data.draw(st.booleans(), label="comment here"):
            out.append(data.draw(_COMMENTS))
    return "".join(out)


@settings(max_examples=200)
@given(
    users=st.dictionaries(st.text(max_size=6), _VALUES, min_size=1, max_size=4),
    indent=st.sampled_from([None, 2, 4, "\t"]),
    data=st.data(),
)
def test_h3_jsonc_any_commented_object_round_trips_through_an_install_and_back(
    users: dict[str, object], indent: int | str | None, data: st.DataObject
) -> None:
    """Whatever the user's object and wherever the comments: read as JSON reads it, no change
    leaves every byte, and adding our members (a new key, an item after a list's own) then
    taking them out again gives the text back byte for byte."""
    text = with_comments(json.dumps(users, indent=indent), data)
    assert loads(text) == users
    assert edit(text, users) == text

    ours = dict(users)
    ours["agent-memory"] = {"hooks": [{"command": "harness-memory hook gemini"}]}
    lists = [key for key, value in users.items() if isinstance(value, list)]
    for key in lists:
        ours[key] = [*users[key], "/memory-root"]  # type: ignore[misc]
    installed = edit(text, ours)

    assert loads(installed) == ours
    assert edit(installed, users) == text
