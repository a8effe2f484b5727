"""H-7: ``harness-memory token set`` writes a user's token file, owner-only, from stdin.

The managed install takes no token: each user's hooks read ``.claude/harness-memory/token`` in
the account's home as the password database gives it. ``token set`` writes that file (or the
one ``--file`` names) ``0600`` in ``0700`` folders, whatever the umask; the token comes from
stdin, never the command line (``ps``), and is never printed. A text that cannot be a token
writes nothing; neither does a disk that keeps no owner-only modes. A state folder gets the
``.gitignore`` of ``*`` an install writes; no token file is written inside a git work tree
(real git: ``add -f``, ``commit -a``).
"""

from __future__ import annotations

import io
import os
import pwd
import secrets
import stat
import subprocess
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.settings import load_settings

from tests.plugin.helpers import HARNESS_MEMORY
from tests.support.case_insensitive_disk import IMAGE_NAME, case_insensitive_disk
from tests.support.refused_chmod import refusing_chmod_under
from tests.support.serve import code_under_test

TOKEN = "mem_0123456789abcdef0123456789abcdef"


def token_set(stdin: bytes, *flags: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(["token", "set", *flags], environ={}, stdin=io.BytesIO(stdin), stdout=out)
    return status, out.getvalue()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def account(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The account's home as the password database gives it (moved under ``tmp_path``)."""
    home = tmp_path / "account"
    entry = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*entry[:5], str(home), entry[6]))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: moved)
    home.mkdir()
    return home


def test_h7_token_set_writes_the_file_the_managed_hooks_read(account: Path) -> None:
    status, out = token_set(f"{TOKEN}\n".encode())

    state = account / ".claude" / "harness-memory"
    assert status == 0
    assert (state / "token").read_text(encoding="utf-8") == f"{TOKEN}\n"
    assert mode(state / "token") == 0o600
    assert mode(state) == mode(account / ".claude") == 0o700
    assert str(state / "token") in out
    assert TOKEN not in out
    settings = load_settings({"url": "http://127.0.0.1:1"}, {"HOME": "/repo"}, flags_only=True)
    assert settings.bearer_token() == TOKEN


def test_h7_token_set_writes_the_file_named_and_replaces_a_readable_one(tmp_path: Path) -> None:
    token_file = tmp_path / ".codex" / "harness-memory" / "token"
    token_file.parent.mkdir(parents=True)
    token_file.write_text("old-token\n", encoding="utf-8")
    token_file.chmod(0o644)

    status, _ = token_set(TOKEN.encode(), "--file", str(token_file))  # no final line end

    assert status == 0
    assert token_file.read_text(encoding="utf-8") == f"{TOKEN}\n"
    assert mode(token_file) == 0o600


def test_h7_token_set_replaces_a_symlink_never_writes_through_it(tmp_path: Path) -> None:
    shared = tmp_path / "readable-by-all"
    shared.write_text("", encoding="utf-8")
    shared.chmod(0o644)
    token_file = tmp_path / "state" / "token"
    token_file.parent.mkdir()
    token_file.symlink_to(shared)

    status, out = token_set(TOKEN.encode(), "--file", str(token_file))

    assert status == 0
    assert not token_file.is_symlink()
    assert token_file.read_text(encoding="utf-8") == f"{TOKEN}\n"
    assert shared.read_text(encoding="utf-8") == ""
    # said, as an install says it: a dotfiles or secrets manager's link is gone from then on
    assert (
        f"{token_file} was a symlink to {shared}: replaced it by a file of its own (mode 0600); "
        f"{shared} stays as it is"
    ) in out


def test_h7_token_set_replacing_a_hard_link_says_so(tmp_path: Path) -> None:
    other = tmp_path / "other-name"
    other.write_text("old-token\n", encoding="utf-8")
    token_file = tmp_path / "state" / "token"
    token_file.parent.mkdir()
    token_file.hardlink_to(other)

    status, out = token_set(TOKEN.encode(), "--file", str(token_file))

    assert status == 0
    assert other.read_text(encoding="utf-8") == "old-token\n"
    assert (
        f"{token_file} was a hard link (one file of 2 names): replaced it by a file of its own "
        "(mode 0600); its other names keep their bytes"
    ) in out


def test_h7_token_set_stays_owner_only_under_umask_000(tmp_path: Path) -> None:
    token_file = tmp_path / "new" / "folders" / "token"
    old = os.umask(0)
    try:
        assert token_set(TOKEN.encode(), "--file", str(token_file))[0] == 0
    finally:
        os.umask(old)

    assert mode(token_file) == 0o600
    assert mode(token_file.parent) == mode(token_file.parent.parent) == 0o700


@pytest.mark.parametrize(
    "given",
    [b"", b"\n  \n", f"{TOKEN}\nsecond-line\n".encode(), b"to ken", b"tok\x1ben", b"\xff\xfe"],
    ids=["empty", "blank", "two-lines", "space", "control", "invalid-encoding"],
)
def test_h7_token_set_refuses_what_cannot_be_a_token_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: bytes
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("kept\n", encoding="utf-8")
    token_file.chmod(0o600)

    with pytest.raises(SystemExit) as stopped:
        token_set(given, "--file", str(token_file))

    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert "nothing written" in said
    assert "usage:" not in said  # typed right: what it was given is wrong, not the command
    assert token_file.read_text(encoding="utf-8") == "kept\n"


FRESH = "mem_" + secrets.token_urlsafe(32)  # as `memory-api token create` makes one


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (f"HARNESS_MEMORY_TOKEN={FRESH}\n", "holds `NAME=` before the token: give the token alone"),
        (f"HARNESS_MEMORY_TOKEN='{FRESH}'", "holds `NAME=` before the token"),
        (f"export HARNESS_MEMORY_TOKEN={FRESH}", "holds `export ` before the token"),
        (f"Bearer {FRESH}", "holds `Bearer ` before the token"),
        (f'"{FRESH}"\n', "is in quotes: give the token alone"),
        (f"{FRESH}\n{FRESH}\n", "holds 2 lines: give the one token alone"),
        ("mem_short\n", "is 9 characters: a token is mem_ and 43 more characters"),
        (f"{FRESH[:20]}é{FRESH[21:]}", "holds a character outside ASCII (character 21)"),
    ],
    ids=[
        "name-equals",
        "name-equals-quoted",
        "export",
        "bearer",
        "quoted",
        "two-tokens",
        "short",
        "non-ascii",
    ],
)
def test_h7_token_set_refuses_a_text_not_of_the_services_token_form(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str, said: str
) -> None:
    """A pasted ``NAME=value`` line or a cut token was written as it came, and every Session
    then got a 401: refused, saying its shape (never its text), exit 2, no usage line."""
    token_file = tmp_path / "state" / "token"

    with pytest.raises(SystemExit) as stopped:
        token_set(given.encode(), "--file", str(token_file))

    assert stopped.value.code == 2
    shown = capsys.readouterr()
    assert f"stdin {said}" in shown.err
    assert shown.err.endswith("; nothing written\n")
    assert "usage:" not in shown.err
    assert FRESH[4:] not in shown.out + shown.err and "short" not in shown.err
    assert not token_file.parent.exists()


@pytest.mark.parametrize(
    "token",
    [FRESH, "a-MEMORY_API_TOKENS-secret=="],
    ids=["created", "configured-secret"],
)
def test_h7_token_set_takes_a_token_of_the_services_form_amid_white_space(
    tmp_path: Path, token: str
) -> None:
    """A token ``token create`` makes, or a secret of 16 or more characters the service was
    given in ``MEMORY_API_TOKENS`` (base64's ``=`` at its end included), with the white space
    and line end a paste or ``echo`` adds around it."""
    token_file = tmp_path / "token"

    status, out = token_set(f"  {token} \r\n".encode(), "--file", str(token_file))

    assert status == 0
    assert token_file.read_text(encoding="utf-8") == f"{token}\n"
    assert token not in out


def test_h7_token_set_takes_no_token_on_the_command_line(tmp_path: Path) -> None:
    """A token typed as an argument is refused (usage error), so it never sits in ``ps``."""
    token_file = tmp_path / "token"
    done = subprocess.run(
        [str(HARNESS_MEMORY), "token", "set", "--file", str(token_file), TOKEN],
        input=b"",
        capture_output=True,
        env={**os.environ, **code_under_test()},
        check=False,
    )

    assert done.returncode == 2
    assert not token_file.exists()
    assert TOKEN.encode() not in done.stdout


def test_h7_token_set_refuses_stdin_that_is_not_utf8_with_the_installed_command(
    tmp_path: Path,
) -> None:
    """The command's own stdin keeps bytes that are not UTF-8 as lone surrogates (Python's
    ``surrogateescape``), so the strict decoding the in-process runs check never saw them: the
    installed command ended in a ``UnicodeEncodeError`` traceback. It is a usage error, saying
    why, nothing written."""
    token_file = tmp_path / "token"
    done = subprocess.run(
        [str(HARNESS_MEMORY), "token", "set", "--file", str(token_file)],
        input=b"mem_\xff\xfeabc\n",
        capture_output=True,
        env={**os.environ, **code_under_test(), "PYTHONUTF8": "1"},
        check=False,
    )

    assert done.returncode == 2, done.stderr
    said = b"stdin is not UTF-8 text (byte 0xff at offset 4: invalid start byte); nothing written"
    assert said in done.stderr
    assert b"Traceback" not in done.stderr
    assert not token_file.exists()


def test_h7_token_set_from_a_pipe_with_the_installed_command(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    done = subprocess.run(
        [str(HARNESS_MEMORY), "token", "set", "--file", str(token_file)],
        input=f"{TOKEN}\n".encode(),
        capture_output=True,
        env={**os.environ, **code_under_test()},
        check=False,
    )

    assert done.returncode == 0, done.stderr
    assert token_file.read_text(encoding="utf-8") == f"{TOKEN}\n"
    assert TOKEN.encode() not in done.stdout + done.stderr


def _refused_for_modes(token_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``token set --file token_file`` exits 2, saying the disk keeps no owner-only modes and
    nothing was written, the token nowhere in what it says."""
    with pytest.raises(SystemExit) as stopped:
        token_set(TOKEN.encode(), "--file", str(token_file))

    assert stopped.value.code == 2
    said = capsys.readouterr()
    assert "keeps no owner-only permissions" in said.err
    assert "nothing was written" in said.err
    assert TOKEN not in said.out + said.err


def test_h7_token_set_on_a_disk_without_owner_only_modes_writes_no_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A home on exFAT (a removable disk) shows every file as ``0777``: ``token set`` wrote the
    token there and said "(mode 0600)", every user could read it and every hook then refused
    it. It now writes no token file there, exits 2 and says why (what ``install`` does)."""
    with case_insensitive_disk(tmp_path) as disk:
        token_file = disk / "home" / ".claude" / "harness-memory" / "token"

        _refused_for_modes(token_file, capsys)

        assert not token_file.exists()
        assert [p.name for p in token_file.parent.iterdir()] == [".gitignore"]  # no temp file


def test_h7_token_set_never_writes_the_token_onto_a_disk_without_owner_only_modes(
    tmp_path: Path,
) -> None:
    """The token was written (and synced) to a file beside the target, which the disk showed
    ``0777``, and removed only then: every user could open it meanwhile (and read it once
    written, however soon it was removed), and its bytes stayed on the disk. The disk is now
    asked with an empty file; the token's bytes never reach it."""
    with case_insensitive_disk(tmp_path) as disk:
        token_file = disk / "home" / ".claude" / "harness-memory" / "token"

        with pytest.raises(SystemExit):
            token_set(TOKEN.encode(), "--file", str(token_file))

    on_the_disk = TOKEN.encode() in (tmp_path / IMAGE_NAME).read_bytes()
    assert not on_the_disk, "the token's bytes were written to the disk"


def test_h7_token_set_on_a_disk_that_refuses_chmod_says_why_and_writes_no_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The kernel's own FAT and exFAT answer ``chmod 600`` with ``EPERM``: the disk was asked
    whether it keeps owner-only modes and the question itself failed, so ``token set`` said
    only "Operation not permitted". The answer is "no": the same reason as on any disk
    that keeps no such modes, and no token file."""
    disk = tmp_path / "fat"
    disk.mkdir()
    refusing_chmod_under(disk, monkeypatch)
    token_file = disk / "home" / ".claude" / "harness-memory" / "token"

    _refused_for_modes(token_file, capsys)

    assert [p.name for p in token_file.parent.iterdir()] == [".gitignore"]  # no token, no temp


def git(cwd: Path, *args: str) -> str:
    """Real git in ``cwd``, no user or system configuration; its output."""
    env = {"HOME": str(cwd), "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1"}
    env |= {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid"}
    env |= {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_h7_token_set_beside_a_claude_folder_kept_in_git_writes_outside_it(
    account: Path,
) -> None:
    """``~/.claude`` kept in a repository: the file ``token set`` wrote there for the managed
    hooks was left out by its ``.gitignore`` alone, so ``git add -f`` and ``git commit -a``
    (once tracked) took the token. It now goes to ``~/.config/harness-memory/tokens/managed``,
    which the managed hooks read when the state folder holds none; a token file an earlier
    ``token set`` left in the work tree (committed by mistake) is removed."""
    claude = account / ".claude"
    state = claude / "harness-memory"
    state.mkdir(parents=True)
    (state / "token").write_text("earlier-token\n", encoding="utf-8")
    git(claude, "init", "-q")
    git(claude, "add", "-f", "-A", ".")
    git(claude, "commit", "-q", "-m", "the token, by mistake")

    status, out = token_set(f"{TOKEN}\n".encode())

    outside = account / ".config" / "harness-memory" / "tokens" / "managed"
    assert status == 0, out
    assert outside.read_text(encoding="utf-8") == f"{TOKEN}\n"
    assert mode(outside) == 0o600 and mode(outside.parent) == 0o700
    assert not (state / "token").exists()
    assert f"removed {state / 'token'}: it lay in a git work tree" in out
    git(claude, "commit", "-q", "-a", "-m", "after token set")
    git(claude, "add", "-f", "-A", ".")
    assert TOKEN not in git(claude, "log", "-p", "--all") + git(claude, "diff", "--cached")
    settings = load_settings({"url": "http://127.0.0.1:1"}, {"HOME": "/repo"}, flags_only=True)
    assert settings.bearer_token() == TOKEN
    assert settings.token_source == f"the token file {outside}"


def test_h7_token_set_in_a_home_kept_in_git_writes_nothing_and_says_why(
    account: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A home that is itself a work tree holds both places: ``token set`` refuses (exit 2),
    naming the work tree and what to do, before it reads the token; nothing is written."""
    git(account, "init", "-q")
    (account / ".bashrc").write_text("export EDITOR=vi\n", encoding="utf-8")

    with pytest.raises(SystemExit) as stopped:
        token_set(f"{TOKEN}\n".encode())

    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert f"lies in the git work tree {account}" in said and "nothing written" in said
    assert "keep your home's folders out of every work tree" in said and TOKEN not in said
    assert sorted(path.name for path in account.iterdir()) == [".bashrc", ".git"]


def test_h7_token_set_refuses_a_file_named_in_a_work_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repository = tmp_path / "project"
    repository.mkdir()
    git(repository, "init", "-q")
    for named in (repository / "token", repository / "deep" / "er" / "token"):
        with pytest.raises(SystemExit) as ended:
            token_set(TOKEN.encode(), "--file", str(named))
        assert ended.value.code == 2
        assert not named.exists() and not (repository / "deep").exists()
        assert f"lies in the git work tree {repository}" in capsys.readouterr().err
    assert [path.name for path in repository.iterdir()] == [".git"]


def test_h7_token_set_leaves_a_gitignore_the_user_wrote_and_a_folder_of_theirs(
    tmp_path: Path,
) -> None:
    state = tmp_path / ".codex" / "harness-memory"
    state.mkdir(parents=True)
    (state / ".gitignore").write_text("sessions/\n", encoding="utf-8")
    elsewhere = tmp_path / "secrets" / "memory-token"

    assert token_set(TOKEN.encode(), "--file", str(state / "token"))[0] == 0
    assert token_set(TOKEN.encode(), "--file", str(elsewhere))[0] == 0

    assert (state / ".gitignore").read_text(encoding="utf-8") == "sessions/\n"
    assert sorted(p.name for p in elsewhere.parent.iterdir()) == ["memory-token"]


def test_h7_token_set_writes_into_home_when_home_names_another_folder(
    account: Path, tmp_path: Path
) -> None:
    """A fresh ``$HOME`` (a newcomer's trial, a container's) gets the token its own hooks read
    (``$HOME/.claude/harness-memory/token``, an install's ``--token-file`` there), and the
    account's home of the password database is left as it was; the line says where the
    managed hooks read theirs, and ``--managed``, which writes that one whatever ``$HOME``
    says (round 56's new-user run: the token went to the account's home, the fresh one got
    nothing)."""
    fresh = tmp_path / "fresh-home"
    fresh.mkdir()
    out = io.StringIO()
    status = main(
        ["token", "set"],
        environ={"HOME": str(fresh)},
        stdin=io.BytesIO(f"{TOKEN}\n".encode()),
        stdout=out,
    )

    said = out.getvalue()
    written = fresh / ".claude" / "harness-memory" / "token"
    assert status == 0, said
    assert written.read_text(encoding="utf-8") == f"{TOKEN}\n"
    assert mode(written) == 0o600
    assert not (account / ".claude").exists()
    managed = account / ".claude" / "harness-memory" / "token"
    assert f"wrote the token to {written} (mode 0600)" in said
    assert f"the managed hooks read {managed}" in said
    assert "`harness-memory token set --managed` writes theirs" in said
    assert TOKEN not in said

    theirs = "mem_managed-hooks-token"
    status, said = token_set(f"{theirs}\n".encode(), "--managed")  # whatever $HOME says

    assert status == 0, said
    assert managed.read_text(encoding="utf-8") == f"{theirs}\n"
    assert written.read_text(encoding="utf-8") == f"{TOKEN}\n"


@pytest.mark.parametrize("spelling", ["as it is", "through a symlink"])
def test_h7_token_set_with_home_the_accounts_own_writes_the_managed_hooks_file_and_no_warning(
    account: Path, tmp_path: Path, spelling: str
) -> None:
    """The common case: ``$HOME`` is the account's home of the password database (as it is,
    or a link to it): the file the managed hooks read is written, and no line says ``$HOME``
    is another folder."""
    home = account
    if spelling == "through a symlink":
        home = tmp_path / "home-link"
        home.symlink_to(account)
    out = io.StringIO()
    status = main(
        ["token", "set"],
        environ={"HOME": str(home)},
        stdin=io.BytesIO(f"{TOKEN}\n".encode()),
        stdout=out,
    )

    said = out.getvalue()
    managed = account / ".claude" / "harness-memory" / "token"
    assert status == 0, said
    assert managed.read_text(encoding="utf-8") == f"{TOKEN}\n"
    assert said == f"wrote the token to {managed} (mode 0600)\n"
