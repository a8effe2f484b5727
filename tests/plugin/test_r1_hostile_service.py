"""R-1: a machine's local copy takes from the service only what a memory scope holds.

The service's versions hold the scope's regular files, none in a folder (its push takes nothing
else, its records look at nothing else). A service that is not that one — taken over, or a
stand-in on the way — sent a version with ``MEMORY.md`` as a symlink to a file of the user's
(``~/.bashrc``), a symlink to a folder and a sub-folder, and ``git reset`` checked them all out
into the memory root: the agent's next index line (or any write to ``MEMORY.md``) would have
landed in that file, beyond the memory root the write guard confines. Right: such a version is
refused whole, saying what it held, and the copy stays as it was.

The stand-in here is ``git http-backend`` behind a small HTTP server: git's own smart HTTP, as
the real service speaks it.
"""

from __future__ import annotations

import http.server
import os
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness_memory.remote import RemoteCopy

from tests.support.redirecting import redirecting_service

pytestmark = pytest.mark.skipif(
    subprocess.run(["git", "--exec-path"], capture_output=True, check=False).returncode != 0,
    reason="needs git",
)


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=x", "-c", "user.email=x@x.invalid", *args],
        cwd=cwd, check=True, capture_output=True,
    )  # fmt: skip


class _Backend(http.server.BaseHTTPRequestHandler):
    """Any ``…/<scope>.git/<rest>`` answered by ``git http-backend`` from ``server.root``'s
    ``scope.git``."""

    def _answer(self) -> None:
        path, _, query = self.path.partition("?")
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        env = {
            "GIT_PROJECT_ROOT": str(self.server.root),  # type: ignore[attr-defined]
            "GIT_HTTP_EXPORT_ALL": "1",
            "PATH_INFO": "/scope.git" + path.partition(".git")[2],
            "QUERY_STRING": query,
            "REQUEST_METHOD": self.command,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "HTTP_CONTENT_ENCODING": self.headers.get("Content-Encoding", ""),
            "PATH": os.environ.get("PATH", ""),
        }
        answer = subprocess.run(
            ["git", "http-backend"], input=body, env=env, capture_output=True, check=True
        ).stdout
        head, _, content = answer.partition(b"\r\n\r\n")
        fields = [line.decode().partition(":") for line in head.split(b"\r\n")]
        status = next((int(v.split()[0]) for k, _, v in fields if k.lower() == "status"), 200)
        self.send_response(status)
        for name, _, value in fields:
            if name and name.lower() != "status":
                self.send_header(name, value.strip())
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self._answer()

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def stand_in(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A stand-in service (its URL) serving every scope from one repository (its work tree:
    commit there, then :func:`_publish`)."""
    served = tmp_path / "served"
    served.mkdir()
    _git("init", "-q", "--bare", "scope.git", cwd=served)
    work = tmp_path / "work"
    work.mkdir()
    _git("init", "-q", cwd=work)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Backend)
    server.root = served  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", work
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


def _publish(work: Path, message: str) -> None:
    _git("add", "-A", cwd=work)
    _git("commit", "-q", "-m", message, cwd=work)
    _git("push", "-q", "--force", str(work.parent / "served" / "scope.git"), "HEAD:main", cwd=work)


def _copy(url: str, tmp_path: Path) -> RemoteCopy:
    state = tmp_path / "laptop"
    return RemoteCopy(
        url=url, token="t" * 40, project="acme", agent="coder", state_dir=state, timeout=30.0
    )


def test_r1_a_version_holding_symlinks_or_folders_is_never_checked_out(
    stand_in: tuple[str, Path], tmp_path: Path
) -> None:
    url, work = stand_in
    private = tmp_path / "home" / ".bashrc"
    private.parent.mkdir()
    private.write_text("export PATH=/usr/bin\n", encoding="utf-8")
    (work / "MEMORY.md").symlink_to(private)
    (work / "home").symlink_to(private.parent)
    (work / "sub").mkdir()
    (work / "sub" / "x.md").write_text("in a folder\n", encoding="utf-8")
    (work / "note.md").write_text("---\nname: note\ndescription: d\n---\nbody\n", encoding="utf-8")
    _publish(work, "hostile")
    copy = _copy(url, tmp_path)

    result = copy.sync_scope("user")

    assert not result.ok
    assert result.error is not None and "nothing of it was taken" in result.error
    for said in ("'MEMORY.md' (a symlink)", "'home' (a symlink)", "'sub' (a folder)"):
        assert said in result.error
    scope = copy.memory_root / "user"
    assert sorted(path.name for path in scope.iterdir()) == []  # not even note.md
    assert private.read_text(encoding="utf-8") == "export PATH=/usr/bin\n"


def test_r1_a_copy_keeps_its_files_when_a_later_version_holds_a_symlink(
    stand_in: tuple[str, Path], tmp_path: Path
) -> None:
    url, work = stand_in
    note = "---\nname: note\ndescription: d\n---\nbody\n"
    (work / "note.md").write_text(note, encoding="utf-8")
    (work / "MEMORY.md").write_text("- [Note](note.md) — d\n", encoding="utf-8")
    _publish(work, "benign")
    copy = _copy(url, tmp_path)
    assert copy.sync_scope("user").ok
    scope = copy.memory_root / "user"
    (work / "MEMORY.md").unlink()
    (work / "MEMORY.md").symlink_to("/etc/hostname")
    _publish(work, "hostile")

    result = copy.sync_scope("user")

    assert not result.ok and "'MEMORY.md' (a symlink)" in (result.error or "")
    assert not (scope / "MEMORY.md").is_symlink()
    assert (scope / "MEMORY.md").read_text(encoding="utf-8") == "- [Note](note.md) — d\n"
    assert (scope / "note.md").read_text(encoding="utf-8") == note


def _publish_tree(work: Path, files: dict[str, bytes]) -> None:
    """Publish a version whose top-level tree holds ``files`` (name → bytes) as regular files,
    written as git's objects are but with any name (``a/MEMORY.md`` included, which ``git
    add`` and ``git mktree`` never write)."""
    entries = b""
    for name in sorted(files):
        blob = subprocess.run(
            ["git", "hash-object", "-w", "--stdin"],
            input=files[name], cwd=work, capture_output=True, check=True,
        ).stdout.strip()  # fmt: skip
        entries += b"100644 " + name.encode() + b"\0" + bytes.fromhex(blob.decode())
    tree = subprocess.run(
        ["git", "hash-object", "-t", "tree", "-w", "--literally", "--stdin"],
        input=entries, cwd=work, capture_output=True, check=True,
    ).stdout.decode().strip()  # fmt: skip
    who = ["-c", "user.name=x", "-c", "user.email=x@x.invalid"]
    commit = subprocess.run(
        ["git", *who, "commit-tree", tree, "-m", "t"],
        cwd=work, capture_output=True, check=True, text=True,
    ).stdout.strip()  # fmt: skip
    served = str(work.parent / "served" / "scope.git")
    _git("push", "-q", "--force", served, f"{commit}:refs/heads/main", cwd=work)


INDEX = b"- [Note](note.md) \xe2\x80\x94 d\n"


@pytest.mark.parametrize(
    ("name", "data", "said"),
    [
        ("a/MEMORY.md", INDEX, "'a/MEMORY.md' (a file in a folder)"),
        (".gitignore", b"*\n", "'.gitignore' (a file of git's own)"),
        (".gitattributes", b"* working-tree-encoding=UTF-16\n", "(a file of git's own)"),
        ("big.md", b"\0" * (1024 * 1024 + 1), "'big.md' (larger than 1048576 bytes)"),
    ],
    ids=["slash-in-a-name", "gitignore", "gitattributes", "topic-over-its-cap"],
)
def test_r1_a_version_holding_what_no_scope_holds_in_regular_files_is_never_checked_out(
    stand_in: tuple[str, Path], tmp_path: Path, name: str, data: bytes, said: str
) -> None:
    """Regular files a service of these rules never sends: a tree entry whose name holds a
    ``/`` (git checked out a folder ``a`` holding ``MEMORY.md``, the folder check passed),
    git's own ``.gitignore`` (of ``*``: every file the agent wrote afterwards was ignored,
    never sent, and each sync said ok with nothing waiting) or ``.gitattributes``, a topic file
    over its 1 MiB cap (zeros: a small pack, any size on disk). Each is refused whole."""
    url, work = stand_in
    _publish_tree(work, {"MEMORY.md": INDEX, name: data})
    copy = _copy(url, tmp_path)

    result = copy.sync_scope("user")

    assert not result.ok
    assert result.error is not None and "nothing of it was taken" in result.error
    assert said in result.error
    assert list((copy.memory_root / "user").iterdir()) == []


def test_r1_after_a_refused_gitignore_the_agents_next_file_still_waits_to_be_sent(
    stand_in: tuple[str, Path], tmp_path: Path
) -> None:
    url, work = stand_in
    _publish_tree(work, {"MEMORY.md": INDEX, ".gitignore": b"*\n"})
    copy = _copy(url, tmp_path)
    copy.sync_scope("user")
    note = copy.memory_root / "user" / "new.md"
    note.write_text("---\nname: new\ndescription: d\n---\nbody\n", encoding="utf-8")

    result = copy.sync_scope("user")  # the stand-in takes no push

    assert not result.ok and result.waiting
    assert not (copy.memory_root / "user" / ".gitignore").exists()


def test_r1_a_version_of_regular_files_within_their_caps_is_taken(
    stand_in: tuple[str, Path], tmp_path: Path
) -> None:
    url, work = stand_in
    note = b"---\nname: note\ndescription: d\n---\n" + b"x" * (1024 * 1024 - 40)
    files = {"MEMORY.md": INDEX, "note.md": note, ".workspace": b"/src/app\n"}
    _publish_tree(work, files)
    copy = _copy(url, tmp_path)

    result = copy.sync_scope("user")

    assert result.ok, result.error
    scope = copy.memory_root / "user"
    assert {path.name: path.read_bytes() for path in scope.iterdir()} == files


def test_a10_asking_the_service_why_never_sends_the_token_on_through_a_redirect(
    tmp_path: Path,
) -> None:
    """After a failed exchange the copy asks the service for its reason (``service_says``),
    bearer token in a header: ``urllib`` sent that header on to wherever a redirect led. No
    redirect is followed now (``tests/plugin/test_a10_sync_follows_no_redirect.py``)."""
    with redirecting_service() as service:
        copy = _copy(service.url, tmp_path)

        copy.service_says("user")

        assert all(sent is None for _, sent in service.seen), service.seen
