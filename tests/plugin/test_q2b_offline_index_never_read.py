"""Q-2b on the plugin's offline path (H-4): an index that is there but never read (a symlink out
of the memory root, a FIFO, a folder, a symlink loop, a hard link to a file outside its folder:
T-5b, A-7) or cannot be looked at is said to be unreadable, as the service says it, never read,
never "nothing saved yet" (case ``unreadable-memory-files``, its kind); nor is a scope whose
folder's place holds no folder (K-6)."""

from __future__ import annotations

import errno
import fcntl
import os
import threading
import time
from pathlib import Path

import pytest
from harness_memory.offline import OfflineUnavailableError, session_start_from_files
from memory_core.hard_links import HARD_LINKED
from memory_core.keys import workspace_memory_key
from memory_core.swap import hold_exclusive_lease, release_lease


@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("symlink", "a symlink to outside the memory root"),
        ("fifo", "not a regular file"),
        ("folder", "a folder, not a file"),
        ("hard-link", HARD_LINKED),
        ("symlink-loop", "a symlink loop"),
    ],
)
def test_q2b_offline_an_index_never_read_is_not_nothing_saved(
    tmp_path: Path, kind: str, why: str
) -> None:
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    index = memory_root / "user" / "MEMORY.md"
    index.parent.mkdir(parents=True)
    if kind == "symlink":
        dotfiles = tmp_path / "dotfiles-MEMORY.md"
        dotfiles.write_text("- [Deploy](deploy.md) — staging first\n", encoding="utf-8")
        index.symlink_to(dotfiles)
    elif kind == "hard-link":  # ln ~/dotfiles-MEMORY.md …/user/MEMORY.md: that file's text
        dotfiles = tmp_path / "dotfiles-MEMORY.md"
        dotfiles.write_text("- [Deploy](deploy.md) — staging first\n", encoding="utf-8")
        os.link(dotfiles, index)
    elif kind == "fifo":
        os.mkfifo(index)
    elif kind == "symlink-loop":  # the service names it a refused entry (T-5b)
        index.symlink_to(index.name)
    else:
        index.mkdir()
    workspace = tmp_path / "shop-api"
    workspace.mkdir()

    answer = session_start_from_files(
        memory_root, project="acme", agent="coder", workspace=str(workspace)
    )

    assert "Nothing saved yet: the user memory index" not in answer.memory
    assert "staging first" not in answer.memory
    assert (
        "the user memory index could not be read: MEMORY.md is there, but Agent Memory "
        f"does not read it: it is {why}."
    ) in answer.memory


@pytest.mark.parametrize("refusal", [errno.EACCES, errno.EIO, errno.ESTALE])
def test_q2b_offline_an_index_that_cannot_be_looked_at_is_not_nothing_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refusal: int
) -> None:
    """A ``stat`` of the index that fails for another reason than "no such file" (its folder
    another account's, mode 0700; a disk or network mount that answers ``EIO``, ``ESTALE``)
    never makes the index missing ("Nothing saved yet"): the Session start from the files says
    the index could not be read, and why."""
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    index = memory_root / "user" / "MEMORY.md"
    index.parent.mkdir(parents=True)
    index.write_text("- [Deploy](deploy.md) — staging first\n", encoding="utf-8")
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    looking = os.stat

    def refusing(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if str(path) == str(index):
            raise OSError(refusal, os.strerror(refusal), str(path))
        return looking(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", refusing)

    answer = session_start_from_files(
        memory_root, project="acme", agent="coder", workspace=str(workspace)
    )

    assert "Nothing saved yet: the user memory index" not in answer.memory
    assert (
        "the user memory index could not be read: MEMORY.md is there, but Agent Memory "
        f"cannot read it ({os.strerror(refusal)})."
    ) in answer.memory
    user = next(manifest for manifest in answer.manifests if manifest.scope == "user")
    assert user.unreadable == f"cannot read it ({os.strerror(refusal)})"


def test_q2b_offline_a_missing_index_is_nothing_saved(tmp_path: Path) -> None:
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    (memory_root / "user").mkdir(parents=True)
    (memory_root / "user" / "MEMORY.md").symlink_to(memory_root / "user" / "gone.md")
    workspace = tmp_path / "shop-api"
    workspace.mkdir()

    answer = session_start_from_files(
        memory_root, project="acme", agent="coder", workspace=str(workspace)
    )

    assert "Nothing saved yet: the user memory index is empty" in answer.memory


@pytest.mark.parametrize("kind", ["file", "fifo", "dangling-link", "symlink-loop"])
@pytest.mark.parametrize("scope", ["user", "workspace"])
def test_k6_offline_what_is_no_folder_in_a_scope_folders_place_is_never_nothing_saved(
    tmp_path: Path, kind: str, scope: str
) -> None:
    """A file, a FIFO, a dangling link or a symlink loop in a scope folder's place: the service
    says the scope cannot be used and not to write into its Directory; the plugin's Session
    start from the files said "Nothing saved yet: … MEMORY.md is blank or missing" and named
    the Directory for saving, where nothing can be saved."""
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    memory_root.mkdir(parents=True)
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    key = workspace_memory_key(str(workspace)) if scope == "workspace" else "user"
    place = memory_root / key
    if kind == "file":
        place.write_text("- [Deploy](deploy.md) — staging first\n", encoding="utf-8")
    elif kind == "fifo":
        os.mkfifo(place)
    elif kind == "dangling-link":
        place.symlink_to(memory_root / "gone")
    else:
        place.symlink_to(memory_root / "other")
        (memory_root / "other").symlink_to(place)

    answer = session_start_from_files(
        memory_root, project="acme", agent="coder", workspace=str(workspace)
    )

    named = "user memory" if scope == "user" else f"Workspace memory ({key})"
    assert f"Nothing saved yet: the {named} index" not in answer.memory
    assert (
        f"Not available: {named} cannot be saved in this Session: Agent Memory found something "
        "that is not a folder in its folder's place. Do not write into its Directory"
    ) in answer.memory


def test_q2b_offline_agent_settings_that_are_a_fifo_are_refused_never_waited_on(
    tmp_path: Path,
) -> None:
    """A FIFO in ``agent.json``'s place was opened for reading, which waits for a writer: the
    Session start from the files (the service down) never started. It is refused at once, as
    the service refuses it (Q-2b)."""
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    (memory_root / "user").mkdir(parents=True)
    os.mkfifo(tmp_path / "app" / "agents" / "coder" / "agent.json")
    workspace = tmp_path / "shop-api"
    workspace.mkdir()

    with pytest.raises(
        OfflineUnavailableError, match=r"cannot read agent\.json: not a regular file"
    ):
        session_start_from_files(
            memory_root, project="acme", agent="coder", workspace=str(workspace)
        )


def test_q2b_offline_an_index_under_a_safe_edit_s_lease_is_read_once_the_edit_ends(
    tmp_path: Path,
) -> None:
    """A safe edit holds a write lease on the index for a moment (``memory_core.swap``); the
    plugin's non-blocking open (so a FIFO never hangs a Session start) failed at once with
    ``EWOULDBLOCK`` then, and the Session start said the index could not be read. It waits
    for the lease instead: the wait ends when the lease holder sees the open waiting (the
    kernel's own signal) and lets go."""
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    index = memory_root / "user" / "MEMORY.md"
    index.parent.mkdir(parents=True)
    index.write_text("- [Deploy](deploy.md) — staging first\n", encoding="utf-8")
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    fd = os.open(index, os.O_RDWR)
    answers: list[str] = []
    try:
        assert hold_exclusive_lease(fd), "leases are needed to show the wait"

        def session_start() -> None:
            answer = session_start_from_files(
                memory_root, project="acme", agent="coder", workspace=str(workspace)
            )
            answers.append(answer.memory)

        starting = threading.Thread(target=session_start)
        starting.start()
        deadline = time.monotonic() + 30
        while fcntl.fcntl(fd, fcntl.F_GETLEASE) == fcntl.F_WRLCK:  # no open waiting yet
            assert time.monotonic() < deadline, "the Session start never opened the index"
            time.sleep(0.001)
        release_lease(fd)
    finally:
        os.close(fd)
    starting.join(30)
    assert answers and "staging first" in answers[0], answers
    assert "could not be read" not in answers[0]


def _pathlib_of_python_3_14(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Path.is_dir``/``is_file`` as Python 3.14 has them: False for every ``OSError`` (before,
    only for "no such file", a file on the way or a loop; others raised)."""
    monkeypatch.setattr(Path, "is_dir", lambda self, **_: os.path.isdir(self))  # noqa: PTH112
    monkeypatch.setattr(Path, "is_file", lambda self, **_: os.path.isfile(self))  # noqa: PTH113


@pytest.mark.parametrize("python", ["this python", "python 3.14"])
@pytest.mark.parametrize("refusal", [errno.EACCES, errno.EIO], ids=errno.errorcode.get)
def test_q2b_offline_a_memory_root_that_cannot_be_looked_at_is_named_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refusal: int, python: str
) -> None:
    """A memory root whose ``stat`` fails (a folder on its way another account's, a disk's
    I/O error) raised the bare ``OSError`` out of the Session start from the files, past its
    contract: it is :class:`OfflineUnavailableError` naming the root and the reason, which the
    Session's record gives (P-2). Whatever pathlib answers for a refusal: Python 3.14's
    ``Path.is_dir`` answers False, which would have said "not readable here", no reason."""
    if python == "python 3.14":
        _pathlib_of_python_3_14(monkeypatch)
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    (memory_root / "user").mkdir(parents=True)
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    looking = os.stat

    def refusing(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if str(path) == str(memory_root):
            raise OSError(refusal, os.strerror(refusal), str(path))
        return looking(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", refusing)

    with pytest.raises(OfflineUnavailableError) as raised:
        session_start_from_files(
            memory_root, project="acme", agent="coder", workspace=str(workspace)
        )

    assert str(raised.value) == (
        f"the memory root {memory_root} cannot be looked at here ({os.strerror(refusal)})"
    )


@pytest.mark.parametrize("python", ["this python", "python 3.14"])
def test_q2b_offline_a_scope_folder_that_cannot_be_looked_at_is_never_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, python: str
) -> None:
    """The index's ``stat`` says "a symlink loop" and its scope folder's says ``EIO`` (a disk
    failing): the index is there as far as anyone can tell and cannot be read, never "not a
    folder in its folder's place" nor "nothing saved yet". Python 3.14's ``Path.is_dir``
    answers False for the ``EIO``, which made the scope folder no folder."""
    if python == "python 3.14":
        _pathlib_of_python_3_14(monkeypatch)
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    index = memory_root / "user" / "MEMORY.md"
    index.parent.mkdir(parents=True)
    index.write_text("- [Deploy](deploy.md) — staging first\n", encoding="utf-8")
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    looking = os.stat
    refusals = {str(index): errno.ELOOP, str(index.parent): errno.EIO}

    def refusing(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if (refusal := refusals.get(str(path))) is not None:
            raise OSError(refusal, os.strerror(refusal), str(path))
        return looking(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", refusing)

    answer = session_start_from_files(
        memory_root, project="acme", agent="coder", workspace=str(workspace)
    )

    assert "not a folder in its folder's place" not in answer.memory
    assert "Nothing saved yet: the user" not in answer.memory
    assert (
        "the user memory index could not be read: MEMORY.md is there, but Agent Memory "
        f"cannot read it ({os.strerror(errno.EIO)})."
    ) in answer.memory
