"""K-1, K-3, K-5: the Workspace's real path is ``realpath``'s, however it is found.

The key is a hash of the real path ``check_real_workspace`` gives, so it must equal
``os.path.realpath`` to the byte for every kind of path, a path that is not a folder is
refused, a symlink loop refused as one, and a path not there for the service accepted.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from memory_api.errors import BadRequest, Conflict
from memory_api.store.sessions import check_real_workspace
from memory_core.keys import key_for_real_path

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url, names, ok_json, real
from tests.support.symlink_chain import chain_of_links

Layout = Callable[[Path], str]


def _plain(tmp: Path) -> str:
    (tmp / "repo").mkdir()
    return str(tmp / "repo")


def _symlinked(tmp: Path) -> str:
    (tmp / "real").mkdir()
    (tmp / "link").symlink_to(tmp / "real")
    return str(tmp / "link")


def _chain_and_dotdot(tmp: Path) -> str:
    (tmp / "a" / "b").mkdir(parents=True)
    (tmp / "c").mkdir()
    (tmp / "one").symlink_to(tmp / "a" / "b")
    (tmp / "two").symlink_to("one")  # relative link to a link
    return str(tmp / "two" / ".." / ".." / "c") + "/"  # .. after the links, a trailing slash


def _missing_below_a_link(tmp: Path) -> str:
    (tmp / "real").mkdir()
    (tmp / "link").symlink_to(tmp / "real")
    return str(tmp / "link" / "not-here" / "deeper")


def _named_like_a_removed_file(tmp: Path) -> str:
    (tmp / "repo (deleted)").mkdir()
    return str(tmp / "repo (deleted)")


def _odd_bytes(tmp: Path) -> str:
    name = os.fsdecode(b"caf\xc3\xa9-\xff-repo")  # UTF-8 and a byte that is not
    (tmp / name).mkdir()
    return str(tmp / name)


@pytest.mark.parametrize(
    "layout",
    [
        _plain,
        _symlinked,
        _chain_and_dotdot,
        _missing_below_a_link,
        _named_like_a_removed_file,
    ],
)
def test_k1_the_real_path_is_realpaths_to_the_byte(tmp_path: Path, layout: Layout) -> None:
    workspace = layout(tmp_path)
    assert check_real_workspace(workspace) == os.path.realpath(workspace)


def test_k1_a_real_path_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    """Its ``.workspace`` marker is UTF-8 text (K-5): a folder named in another encoding, typed
    or reached through a symlink, is a 400, never a 500 writing the marker."""
    folder = _odd_bytes(tmp_path)
    (tmp_path / "link").symlink_to(folder)
    for workspace in (folder, str(tmp_path / "link")):
        with pytest.raises(BadRequest, match="real path is not UTF-8"):
            check_real_workspace(workspace)


@pytest.mark.parametrize(
    ("kind", "shown"),
    [("file", "a regular file"), ("link to a file", "a regular file"), ("fifo", "a FIFO")],
)
def test_k1_a_workspace_that_is_no_folder_is_refused(tmp_path: Path, kind: str, shown: str) -> None:
    """The request is well formed; what stands at the path is wrong: 409 naming the path, what
    is there, and what to do (it was a 400 saying only "must be a directory, not a file")."""
    target = tmp_path / "thing"
    if kind == "fifo":
        os.mkfifo(target)  # stat only: never opened, never blocks
    else:
        target.write_text("x", encoding="utf-8")
    workspace = target
    if kind == "link to a file":
        workspace = tmp_path / "link"
        workspace.symlink_to(target)

    with pytest.raises(Conflict) as raised:
        check_real_workspace(str(workspace))
    assert f"the workspace path {str(target)!r} is {shown}, not a folder" in str(raised.value)
    assert "send the path of the folder the Session works in" in str(raised.value)


async def test_k1_a_session_start_in_a_file_is_409_and_prepares_nothing(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("x", encoding="utf-8")

    answer = await client.post(f"{memory_url()}/session-start", json={"workspace": str(notes)})

    body = await expect_problem(
        answer, 409, f"the workspace path {real(notes)!r} is a regular file"
    )
    assert "not a folder" in body["detail"]
    assert names(agent.root) == ["user"]


def _two_links_in_a_loop(tmp: Path) -> str:
    (tmp / "a").symlink_to(tmp / "b")
    (tmp / "b").symlink_to(tmp / "a")
    return str(tmp / "a")


def _a_link_to_itself(tmp: Path) -> str:
    (tmp / "self").symlink_to("self")
    return str(tmp / "self")


def _below_a_loop(tmp: Path) -> str:
    return _two_links_in_a_loop(tmp) + "/repo"


@pytest.mark.parametrize("layout", [_two_links_in_a_loop, _a_link_to_itself, _below_a_loop])
def test_k1_a_symlink_loop_is_refused_as_a_loop(tmp_path: Path, layout: Layout) -> None:
    """ELOOP is said as such, never "not a file" (the path is a link, and it leads nowhere)."""
    workspace = layout(tmp_path)
    with pytest.raises(BadRequest, match=r"symlink loop \(ELOOP") as refused:
        check_real_workspace(workspace)
    assert "not a file" not in str(refused.value)


def test_k1_a_chain_of_40_symlinks_resolves_as_the_kernel_does(tmp_path: Path) -> None:
    workspace = chain_of_links(tmp_path, 40)  # the kernel follows 40 (Linux's MAXSYMLINKS)
    assert check_real_workspace(workspace) == str(tmp_path / "real")


def test_k1_one_eloop_from_a_raced_kernel_walk_is_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When a mount or a rename races the kernel's lock-free walk, it walks the path again but
    keeps the links it already counted, so a chain of 40 is now and then ELOOP once (seen:
    4 of 300 stats beside a mount loop); a second walk decides. A chain of 41 stays refused."""
    workspace = chain_of_links(tmp_path, 40)
    kernel_stat = os.stat
    walks: list[str] = []

    def raced_once(path: str, *, follow_symlinks: bool = True) -> os.stat_result:
        if path == workspace:
            walks.append(path)
            if len(walks) == 1:
                raise OSError(errno.ELOOP, "Too many levels of symbolic links", path)
        return kernel_stat(path, follow_symlinks=follow_symlinks)

    monkeypatch.setattr("memory_api.store.sessions.os.stat", raced_once)

    assert check_real_workspace(workspace) == str(tmp_path / "real")
    assert walks == [workspace, workspace]


def test_k1_a_chain_of_41_symlinks_is_refused_as_the_kernel_refuses_it(tmp_path: Path) -> None:
    """``os.path.realpath`` follows any number of links; the kernel stops at 40 (ELOOP). A
    Workspace no process can enter through its path gets no key."""
    workspace = chain_of_links(tmp_path, 41)
    with pytest.raises(OSError, match="Too many levels of symbolic links"):
        Path(workspace).stat()
    assert os.path.realpath(workspace) == str(tmp_path / "real")

    with pytest.raises(BadRequest, match=r"symlink loop \(ELOOP[^)]*more than 40 on the way"):
        check_real_workspace(workspace)


async def test_k1_a_session_start_through_41_symlinks_is_a_400_and_makes_no_scope(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    workspace = chain_of_links(tmp_path / "chain", 41)
    url = f"{memory_url()}/session-start"

    refused = await client.post(url, json={"workspace": workspace})

    await expect_problem(refused, 400, "more than 40 on the way")
    overview = await ok_json(await client.get(memory_url()))
    assert [scope["key"] for scope in overview["scopes"]] == ["user"]
    started = await ok_json(
        await client.post(url, json={"workspace": str(tmp_path / "chain" / "link-39")})
    )
    assert started["key"] == key_for_real_path(str(tmp_path / "chain" / "real"))


def test_k1_a_name_too_long_for_this_filesystem_is_a_workspace_not_here(tmp_path: Path) -> None:
    """ENAMETOOLONG: another machine's filesystem may hold it; the service takes it as a
    Workspace it cannot see, its real path as spelled."""
    workspace = str(tmp_path / ("x" * 300) / "repo")
    assert check_real_workspace(workspace) == workspace


def test_k1_a_workspace_below_a_folder_the_service_may_not_search_is_not_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """EACCES on a parent (the harness runs as another user): a Workspace the service cannot
    see, never "not a file". The tests run as root, whom no mode stops: the kernel's answer
    for the locked folder is given by ``os.stat`` and ``os.lstat`` here."""
    locked = tmp_path / "home" / "alice"
    (locked / "repo").mkdir(parents=True)
    real_stat, real_lstat = os.stat, os.lstat

    def refusing(real: Callable[..., os.stat_result]) -> Callable[..., os.stat_result]:
        def call(path: str | os.PathLike[str], *args: object, **kwargs: object) -> os.stat_result:
            if os.fspath(path).startswith(f"{locked}{os.sep}"):
                raise PermissionError(13, "Permission denied", path)
            return real(path, *args, **kwargs)

        return call

    monkeypatch.setattr(os, "stat", refusing(real_stat))
    monkeypatch.setattr(os, "lstat", refusing(real_lstat))
    workspace = str(locked / "repo")
    assert check_real_workspace(workspace) == workspace
