"""K-1…K-4, K-7: Workspace memory keys, the temporary-Workspace test and the id checks."""

from __future__ import annotations

import errno
import hashlib
import os
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from memory_core.errors import InvalidId, UnresolvablePath
from memory_core.keys import (
    DRAFT_ID_PATTERN,
    ID_PATTERN,
    USER_SCOPE,
    WORKSPACE_KEY_PATTERN,
    check_agent_id,
    check_draft_id,
    check_project_id,
    check_scope_key,
    check_topic_file_name,
    has_control_character,
    is_temporary_workspace,
    key_for_real_path,
    real_workspace_path,
    safe_basename,
    workspace_memory_key,
)

from tests.support.symlink_chain import chain_of_links
from tests.support.unreadable_link import unreadable_link

SCOPE_KEY_RE = re.compile(r"^[a-z0-9_][a-z0-9._-]{0,47}-[0-9a-f]{8}$")


def _h(path: str) -> str:
    return hashlib.sha256(os.fsencode(path)).hexdigest()[:8]


# --- K-1 -------------------------------------------------------------------------------------


def test_k1_key_is_safe_basename_dash_first_8_hex_of_sha256_of_real_path() -> None:
    path = "/home/ada/src/my-app"
    assert key_for_real_path(path) == f"my-app-{_h(path)}"
    assert key_for_real_path(path) == "my-app-1c7ddc51"


def test_k1_hash_uses_fsencode_bytes_for_non_utf8_names() -> None:
    path = os.fsdecode(b"/srv/caf\xe9")  # a surrogate-escaped Latin-1 name
    assert key_for_real_path(path).endswith("-" + hashlib.sha256(b"/srv/caf\xe9").hexdigest()[:8])
    assert SCOPE_KEY_RE.match(key_for_real_path(path))


# --- K-2 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Über", "uber"),
        ("my-app", "my-app"),
        ("My App (v2)", "my-app-v2"),
        ("Crème Brûlée", "creme-brulee"),
        ("ｆｕｌｌｗｉｄｔｈ", "fullwidth"),  # NFKD folds compatibility characters
        (".config", "config"),
        ("--x--", "x"),
        ("..hidden..", "hidden"),
        ("a...b", "a...b"),
        ("snake_case.v1", "snake_case.v1"),
        ("数据库", "workspace"),
        ("", "workspace"),
        ("-", "workspace"),
        ("a" * 60, "a" * 48),
        ("a" * 47 + "-b", "a" * 47),  # cut to 48 leaves a trailing '-', stripped again
        ("a" * 47 + ".b", "a" * 47),
        ("user", "user"),
    ],
)
def test_k2_safe_basename(name: str, expected: str) -> None:
    assert safe_basename(name) == expected


def test_k2_key_never_user_and_always_has_a_hyphen() -> None:
    key = key_for_real_path("/home/ada/user")
    assert key != USER_SCOPE
    assert key.startswith("user-")
    assert SCOPE_KEY_RE.match(key)


def test_k2_root_path_gives_workspace_basename() -> None:
    assert key_for_real_path("/") == f"workspace-{_h('/')}"


path_parts = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="/\x00"),
    min_size=0,
    max_size=80,
)


@given(parts=st.lists(path_parts, min_size=1, max_size=4))
def test_k1_k2_k7_generated_key_always_matches_scope_pattern_and_is_never_user(
    parts: list[str],
) -> None:
    path = "/" + "/".join(parts)
    key = key_for_real_path(path)
    assert SCOPE_KEY_RE.match(key), key
    assert key != USER_SCOPE
    assert check_scope_key(key) == key
    assert key_for_real_path(path) == key  # stable


@given(name=st.text(max_size=200))
def test_k2_safe_basename_shape(name: str) -> None:
    safe = safe_basename(name)
    assert re.fullmatch(r"[a-z0-9_][a-z0-9._-]{0,47}", safe) or safe == "workspace"
    assert not safe.startswith((".", "-"))
    assert not safe.endswith((".", "-"))
    assert len(safe) <= 48


# --- K-3 -------------------------------------------------------------------------------------


def test_k3_two_symlinks_to_one_directory_give_one_key(tmp_path: Path) -> None:
    real = tmp_path / "projects" / "my-app"
    real.mkdir(parents=True)
    first = tmp_path / "link-a"
    second = tmp_path / "nested" / "link-b"
    second.parent.mkdir()
    first.symlink_to(real)
    second.symlink_to(first)  # a chain of links
    key = workspace_memory_key(real)
    assert workspace_memory_key(first) == key
    assert workspace_memory_key(second) == key
    assert workspace_memory_key(str(real / ".." / "my-app")) == key
    assert key == key_for_real_path(os.path.realpath(real))


def test_k3_renaming_a_directory_gives_a_new_key_and_leaves_the_old_scope(tmp_path: Path) -> None:
    before = tmp_path / "app"
    before.mkdir()
    old_key = workspace_memory_key(before)
    after = tmp_path / "app-renamed"
    before.rename(after)
    assert workspace_memory_key(after) != old_key
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    (moved / "app").mkdir()
    assert workspace_memory_key(moved / "app") != old_key  # same basename, other path


@settings(max_examples=30)
@given(name=path_parts.filter(lambda n: n not in ("", ".", "..")))
def test_k3_key_is_symlink_invariant(name: str) -> None:
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        try:
            real = root / "real" / name
            real.mkdir(parents=True)
            link = root / "link"
            link.symlink_to(real, target_is_directory=True)
        except (OSError, ValueError):
            return  # a name the filesystem refuses is not a Workspace
        assert workspace_memory_key(link) == workspace_memory_key(real)
        assert SCOPE_KEY_RE.match(workspace_memory_key(link))


# --- K-4 -------------------------------------------------------------------------------------


def test_k4_under_an_agents_workspaces_dir_is_temporary(tmp_path: Path) -> None:
    data = tmp_path / "data"
    temp_ws = data / "agents" / "coder" / "workspaces" / "session-1"
    temp_ws.mkdir(parents=True)
    assert is_temporary_workspace(temp_ws, data)
    assert is_temporary_workspace(temp_ws / "sub" / "dir", data)


def test_k4_subagent_in_parents_temporary_workspace_is_temporary(tmp_path: Path) -> None:
    data = tmp_path / "data"
    parent_ws = data / "agents" / "parent" / "workspaces" / "s1"
    parent_ws.mkdir(parents=True)
    # the test is the location, not the agent running in it
    assert is_temporary_workspace(parent_ws, data)


@pytest.mark.parametrize(
    "relative",
    [
        "projects/my-app",
        "data/agents/coder/agent_state/memory",
        "data/agents/coder",
        "data/agents",
        "data",
        "data/agents-workspaces/x",
        "data/agents/coder/workspacesX/y",
    ],
)
def test_k4_elsewhere_is_persistent(tmp_path: Path, relative: str) -> None:
    path = tmp_path / relative
    path.mkdir(parents=True, exist_ok=True)
    assert not is_temporary_workspace(path, tmp_path / "data")


def test_k4_symlinks_are_resolved_on_both_sides(tmp_path: Path) -> None:
    data = tmp_path / "real-data"
    temp_ws = data / "agents" / "coder" / "workspaces" / "s1"
    temp_ws.mkdir(parents=True)
    data_link = tmp_path / "data-link"
    data_link.symlink_to(data)
    ws_link = tmp_path / "ws-link"
    ws_link.symlink_to(temp_ws)
    assert is_temporary_workspace(ws_link, data)
    assert is_temporary_workspace(temp_ws, data_link)
    assert is_temporary_workspace(ws_link, data_link)
    # and a symlink out of the data dir into a normal project is not temporary
    project = tmp_path / "project"
    project.mkdir()
    escape = data / "agents" / "coder" / "workspaces" / "escape"
    escape.symlink_to(project)
    assert not is_temporary_workspace(escape, data)


# --- K-7 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["a", "acme", "team-1", "a_b", "0", "a" * 64])
def test_k7_valid_project_and_agent_ids(value: str) -> None:
    assert check_project_id(value) == value
    assert check_agent_id(value) == value


@pytest.mark.parametrize(
    "value",
    ["", "A", "-a", "_a", "a" * 65, "a/b", "a.b", "..", "a b", "ä", "a\n", "a\x00"],
)
def test_k7_invalid_project_and_agent_ids(value: str) -> None:
    with pytest.raises(InvalidId) as error:
        check_project_id(value)
    assert error.value.kind == "project"
    assert error.value.value == value
    with pytest.raises(InvalidId) as agent_error:
        check_agent_id(value)
    assert agent_error.value.kind == "agent"


@pytest.mark.parametrize(
    "value", ["user", "my-app-a81f32c4", "_x-00000000", "a.b_c-d-0123abcd", "a" * 48 + "-00000000"]
)
def test_k7_valid_scope_keys(value: str) -> None:
    assert check_scope_key(value) == value


@pytest.mark.parametrize(
    "value",
    [
        "",
        "User",
        "..",
        ".workspace",
        "my-app",
        "my-app-A81F32C4",
        "my-app-a81f32c",
        ".x-00000000",
        "-x-00000000",
        "a" * 49 + "-00000000",
        "a/b-00000000",
        "my-app-a81f32c4\n",
        "user\n",
    ],
)
def test_k7_invalid_scope_keys(value: str) -> None:
    with pytest.raises(InvalidId) as error:
        check_scope_key(value)
    assert error.value.kind == "scope"


@pytest.mark.parametrize(
    "value",
    [
        "feedback_testing.md",
        "Deploy notes.md",
        "数据库迁移.md",
        "prefers-pnpm.md",
        "a.b.md",
        "x" * 252 + ".md",
        "é" * 126 + ".md",  # 252 bytes + 3
    ],
)
def test_k7_valid_topic_file_names(value: str) -> None:
    assert check_topic_file_name(value) == value


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("MEMORY.md", "index"),
        (".hidden.md", "'.'"),
        (".md", "'.'"),
        ("..md", "'.'"),
        ("notes.txt", ".md"),
        ("notes.md.bak", ".md"),
        ("notes", ".md"),
        ("a/b.md", "'/'"),
        ("../b.md", "'.'"),
        ("a\\b.md", "'/'"),
        ("a\x00b.md", "control"),
        ("a\nb.md", "control"),
        ("a\x7fb.md", "control"),
        ("x" * 253 + ".md", "255"),
        ("é" * 127 + ".md", "255"),
        ("\udcff.md", "Unicode"),
        ("", ".md"),
    ],
)
def test_k7_invalid_topic_file_names(value: str, reason: str) -> None:
    with pytest.raises(InvalidId) as error:
        check_topic_file_name(value)
    assert error.value.kind == "file"
    assert reason in error.value.reason
    assert reason in str(error.value)


# --- the published patterns, draft ids, control characters ----------------------------------


def test_k7_published_patterns_are_the_specs() -> None:
    assert ID_PATTERN == "^[a-z0-9][a-z0-9_-]{0,63}$"
    assert SCOPE_KEY_RE.pattern == WORKSPACE_KEY_PATTERN


def test_a12_draft_ids_are_32_lowercase_hex_digits() -> None:
    valid = "0123456789abcdef" * 2
    assert check_draft_id(valid) == valid
    assert re.fullmatch(DRAFT_ID_PATTERN, valid)
    for bad in ("", valid.upper(), valid[:-1], valid + "0", valid + "\n", "../" + valid[3:]):
        with pytest.raises(InvalidId) as caught:
            check_draft_id(bad)
        assert caught.value.kind == "draft"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain", False),
        ("Über 数据库", False),
        ("nul\x00", True),
        ("tab\t", True),
        ("c1\x85", True),
    ],
)
def test_k7_control_characters_are_category_cc(text: str, expected: bool) -> None:
    assert has_control_character(text) is expected


def test_k1_a_symlink_the_kernel_will_not_read_gives_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where such a link leads is unknown, so no key is made up from its spelling: a named
    error (``real_path`` reads each link itself; ``os.path.realpath`` lets ``readlink``'s error
    escape on 3.11 and keeps the link in its answer as if it were a folder on 3.13)."""
    link = unreadable_link(tmp_path / "root", Path("/"), monkeypatch)

    with pytest.raises(UnresolvablePath, match="cannot be read") as raised:
        workspace_memory_key(link / "src" / "app")

    assert raised.value.link == str(link)
    assert workspace_memory_key(tmp_path / "src" / "app") == key_for_real_path(
        os.path.realpath(tmp_path / "src" / "app")
    )


def test_k1_a_workspace_through_41_symlinks_gets_no_key_as_the_kernel_opens_none(
    tmp_path: Path,
) -> None:
    """``os.path.realpath`` follows any number of links; the kernel stops at 40 (ELOOP), and
    the service refuses such a Workspace (400): no key is derived from it here either."""
    workspace = chain_of_links(tmp_path / "far", 41)
    assert os.path.realpath(workspace) == str(tmp_path / "far" / "real")

    with pytest.raises(UnresolvablePath, match="Too many levels of symbolic links") as raised:
        workspace_memory_key(workspace)
    with pytest.raises(UnresolvablePath):
        real_workspace_path(workspace)

    assert raised.value.link == workspace
    near = chain_of_links(tmp_path / "near", 40)
    assert real_workspace_path(near) == str(tmp_path / "near" / "real")
    assert workspace_memory_key(near) == key_for_real_path(str(tmp_path / "near" / "real"))
    assert real_workspace_path(tmp_path / "not-there") == str(tmp_path / "not-there")


def test_k1_one_eloop_from_a_raced_kernel_walk_is_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mount or a rename racing the kernel's lock-free walk makes it walk again still
    counting the first walk's links: a chain of 40 is now and then ELOOP once. The key is
    derived as on a quiet machine; two ELOOPs in a row are believed."""
    near = chain_of_links(tmp_path, 40)
    kernel_stat = os.stat
    refusals = [1]

    def raced(path: str, *, follow_symlinks: bool = True) -> os.stat_result:
        if path == near and refusals:
            refusals.pop()
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), path)
        return kernel_stat(path, follow_symlinks=follow_symlinks)

    monkeypatch.setattr(os, "stat", raced)
    assert workspace_memory_key(near) == key_for_real_path(str(tmp_path / "real"))

    refusals[:] = [1, 1]
    with pytest.raises(UnresolvablePath, match="Too many levels of symbolic links"):
        real_workspace_path(near)


def test_k1_real_path_answers_as_realpath_without_symlinks_on_the_way(tmp_path: Path) -> None:
    """The lstat walk (no symlink on the way) gives os.path.realpath's answer, and a symlink
    anywhere, a '..' or a missing part still does too."""
    from memory_core.keys import real_path

    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "a")
    for spelled in (
        tmp_path / "a" / "b",
        tmp_path / "a" / "b" / "missing" / "deeper",
        tmp_path / "link" / "b",
        tmp_path / "a" / ".." / "link" / "b",
        tmp_path / "a" / "." / "b" / "",
    ):
        assert real_path(str(spelled)) == os.path.realpath(spelled)


def test_k1_real_path_of_a_relative_path_in_a_deleted_cwd_is_unresolvable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relative path whose cwd was removed names no folder: UnresolvablePath (a 400 or a
    guard's refusal), never a raw FileNotFoundError."""
    from memory_core.keys import real_path

    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    with pytest.raises(UnresolvablePath):
        real_path("notes.md")


def test_k1_real_path_refuses_a_nul_or_a_lone_surrogate_after_a_missing_part() -> None:
    """As os.path.realpath does, wherever the NUL or the surrogate stands."""
    from memory_core.keys import real_path

    with pytest.raises(ValueError, match="null"):
        real_path("/nonexistent-k1/a\0b")
    with pytest.raises(UnicodeEncodeError):
        real_path("/nonexistent-k1/\ud800")


def test_k1_real_path_off_posix_is_realpaths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Off POSIX (Windows: a drive, junctions lstat does not show as links, the disk's own
    case) every path goes through os.path.realpath."""
    from memory_core import keys

    asked: list[str] = []

    def realpath(spelled: str) -> str:
        asked.append(spelled)
        return "/resolved"

    monkeypatch.setattr(os, "name", "nt")
    monkeypatch.setattr(os.path, "realpath", realpath)
    assert keys.real_path(str(tmp_path)) == "/resolved"
    assert asked == [str(tmp_path)]
