"""Running the ``git`` command on a scope's history repository (V-1).

Every scope's history is a bare git repository, ``<agent>/agent_state/history/<key>.git``,
beside the memory root and never inside it. Only this module starts ``git``; it does so with an
environment of its own, so nothing of the service's user or machine changes what git does:

- no system or global configuration (``GIT_CONFIG_NOSYSTEM``, ``GIT_CONFIG_GLOBAL=/dev/null``),
  never a prompt, the C locale, no replace refs;
- literal pathspecs (``GIT_LITERAL_PATHSPECS``): a topic file named ``*.md`` names itself;
- run from ``/``: git reads its working folder first, and one removed under the service would
  make every git fail with words the damage check reads as damage;
- ``safe.directory=*`` on the command line: the data dir may belong to another user than the
  service process (a volume), and the repository is the service's own;
- the repository is named with ``--git-dir``; git never gets a work tree, so no git process
  ever writes into a scope folder: content reaches git through ``fast-import``'s input only.

A repository is created (:func:`init_repository`) in a temp folder beside its final name and
renamed into place, so a crash leaves a whole repository or none. Its configuration makes git
fsync what a commit needs (``core.fsync=committed``) and turns automatic ``gc`` off: the
service runs its own maintenance (:mod:`.maintenance`).

Git's own lock files (``refs/heads/main.lock`` …) are left behind by a process killed while
holding them, and would make every later update fail. The service only ever runs a writing git
command while it holds the scope's cross-process lock (:mod:`memory_api.store.locks`; its
``flock`` dies with its holder), so a git lock file found under that lock is stale by
construction and :func:`remove_stale_locks` removes it.

Blocking: run everything here in a worker thread.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from memory_core.file_kind import file_kind
from memory_core.git_dir import blocking_entry

from memory_api.errors import READ_ACCESS_FIX, ServiceError, write_fix

__all__ = [
    "BRANCH",
    "GIT_TIMEOUT",
    "NO_GIT",
    "REPAIR",
    "HistoryDamaged",
    "HistoryUnavailable",
    "check_repository",
    "disk_is_full",
    "full_disk_detail",
    "git",
    "git_available",
    "git_environment",
    "git_program",
    "git_status",
    "git_succeeds",
    "init_repository",
    "is_repository",
    "make_private",
    "remove_stale_locks",
]

logger = logging.getLogger(__name__)

BRANCH = "refs/heads/main"
"""The one branch of a scope's history: each commit is a version of the whole scope."""
GIT_TIMEOUT = 120.0
"""Seconds one git command may take before it is killed (a repack of a long history)."""

PRIVATE = "0600"
"""``core.sharedRepository`` of every history repository: git makes its files 0600 (objects
0400) and its folders 0700, whatever the umask. A history holds every past version of the
scope's notes, a credential removed since among them, so it is owner-only like the search index
(docs/security.md)."""
_OPEN_TO_OTHERS = stat.S_IRWXG | stat.S_IRWXO

_REPOSITORY_CONFIG = (
    ("core.fsync", "committed"),  # objects and refs reach the disk before a version counts
    ("core.fsyncMethod", "fsync"),
    ("core.logAllRefUpdates", "false"),
    ("gc.auto", "0"),  # the service repacks itself (maintenance.py), never inside a record
    ("core.sharedRepository", PRIVATE),  # every file git makes, owner-only (see above)
)


class HistoryUnavailable(ServiceError):
    """The history cannot be read or written now: git is missing, or refused (a full disk, a
    damaged repository); 503, nothing in memory changed. The detail names the reason."""

    status = 503


class HistoryDamaged(HistoryUnavailable):
    """The history repository of a scope is damaged (an object or a pack missing or corrupt,
    a file or a folder that is no repository where it should be): nothing was changed, and
    no retry helps until an operator repairs it or moves it aside (docs/operations.md, "A
    damaged history"); 503 like every history that cannot answer. The memory files are not
    affected: the history lies beside them."""


REPAIR = (
    "nothing was changed; an operator must restore it from a backup or move it aside (a new "
    'history then starts at the next record): docs/operations.md, "A damaged history"'
)
"""What to do about a :class:`HistoryDamaged`, said in its detail."""
NO_GIT = (
    "history is not available: the git program is not installed; an operator must install git "
    "(on the service's PATH), or set MEMORY_API_HISTORY=off to keep no history (deletes are "
    "then final), and restart the service"
)
"""The detail of every history answer without git (:func:`git_program` finds none): what is
wrong and what an operator does about it."""
_DAMAGE_SIGNS = (
    "unable to read",
    "could not read",
    "cannot simplify commit",
    "bad object",
    "missing blob",
    "missing tree",
    "missing commit",
    "corrupt",
    "failed to traverse parents",
    "packfile",
    "bad packed object",
    "inflate",
    "not a git repository",
    "reference broken",
    "bad ref",
    "invalid object",
    "is empty",
)
"""What git says (lower-cased) when objects or files of the repository are missing or broken."""
_FULL_SIGNS = ("no space left on device", "out of diskspace", "disk quota exceeded")
"""What git says (lower-cased) when the disk is full."""
_WRITE_REFUSALS = (
    ("read-only file system", errno.EROFS),
    ("permission denied", errno.EACCES),
    ("operation not permitted", errno.EPERM),
    ("input/output error", errno.EIO),
)
"""What git says (lower-cased, the C library's words for it) when the kernel refused it a file
of the history, and which refusal that is: each has its own remedy (:func:`write_fix`)."""
HISTORY_ACCESS = "read and write access to the data dir's history folder (its owner and mode)"
"""What an operator gives the service's account when the kernel refuses it the history."""


FULL_DISK_MARGIN = 1024 * 1024
"""Bytes a disk must have free beyond what a push needs not to be taken for full."""


def full_disk_detail(what: str) -> str:
    """What the service says when the disk holding a history is full, ``what`` naming the step
    (``"git receive-pack"``): the cause and what to do."""
    return (
        f"the disk holding the history is full ({what}: no space left on the disk): nothing "
        "was changed; free space on the data dir's volume, then try again"
    )


def disk_is_full(path: Path, said: str, needed: int) -> bool:
    """Whether git's refusal (``said``, its words) on the repository ``path`` came from a full
    disk: git names it (``No space left on device``, a quota), or fewer than ``needed`` bytes
    plus :data:`FULL_DISK_MARGIN` are free on ``path``'s filesystem (``statvfs``, what an
    unprivileged process may use): a push's ``unpack-objects`` says only "abnormal exit"."""
    if any(sign in said.lower() for sign in _FULL_SIGNS):
        return True
    try:
        info = os.statvfs(path)
    except OSError:
        return False
    return info.f_bavail * info.f_frsize < needed + FULL_DISK_MARGIN


_QUOTED = re.compile(r"'[^'\n]*'")
"""What git quotes in a message: a path, a ref, a file name. Those are names (a Workspace
folder called ``corruption-lab`` gives its scope's history that word), never git's verdict, so
the signs above are looked for in the rest."""


def _refusal(
    repository: Path, args: tuple[str, ...], message: str, code: int
) -> HistoryUnavailable:
    """The error for git's refusal of ``args`` (``message``: its stderr), logged in full: a
    full disk and a damaged repository are named as such, with what to do."""
    logger.error("git %s failed on %s (%d): %s", " ".join(args), repository, code, message)
    first = message.splitlines()[0] if message else f"exit code {code}"
    first = first.replace(os.fspath(repository), repository.name)  # never a host path (Q-2b)
    lowered = _QUOTED.sub("''", message.replace(os.fspath(repository), "")).lower()
    if any(sign in lowered for sign in _FULL_SIGNS):
        return HistoryUnavailable(full_disk_detail(f"git {args[0]}"))
    refused = next((code for sign, code in _WRITE_REFUSALS if sign in lowered), None)
    if refused is not None:  # the kernel's refusal, not a damaged history
        fix = write_fix(OSError(refused, os.strerror(refused)), HISTORY_ACCESS)
        return HistoryUnavailable(
            f"the history cannot be written (git {args[0]}: {os.strerror(refused)}): "
            f"nothing was changed; {fix}, then try again"
        )
    if any(sign in lowered for sign in _DAMAGE_SIGNS):
        if (refusal := _refused_entry(repository)) is not None:  # a permission, not damage
            return refusal
        logger.error(
            "the history %s is damaged; check it with: git --git-dir=%s fsck",
            repository,
            repository,
        )
        return HistoryDamaged(
            f"the history of this scope is damaged (git {args[0]}: {first}): {REPAIR}"
        )
    return HistoryUnavailable(f"the history refused the change or read (git {args[0]}: {first})")


_GIT_ENTRIES = ("HEAD", "config", "objects", "refs")
"""What git opens of a repository before it will call it one: refused any of them (another
account's, an I/O error), git says "not a git repository", the words of a damaged one."""


def _refused_entry(repository: Path) -> HistoryUnavailable | None:
    """The 503 for the first of the repository folder and its :data:`_GIT_ENTRIES` that the
    kernel refuses the service (read, or search for a folder), naming it inside the history
    (``user.git/HEAD``) with the reason and what to do (Q-2b); None when each can be read or
    is missing (damage then, not a permission). Non-blocking opens: a FIFO never holds it."""
    for name in ("", *_GIT_ENTRIES):
        path = repository / name
        try:
            handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except FileNotFoundError:
            continue
        except OSError as error:
            return _unreadable_entry(repository, name, error)
        try:
            if stat.S_ISDIR(os.fstat(handle).st_mode):
                os.lstat(path / "HEAD")  # searchable: found or ENOENT
        except FileNotFoundError:
            pass
        except OSError as error:
            return _unreadable_entry(repository, name, error)
        finally:
            os.close(handle)
    return None


def _unreadable_entry(repository: Path, name: str, error: OSError) -> HistoryUnavailable:
    """The 503 for the entry ``name`` of ``repository`` (``""``: the folder itself) refused."""
    where = f"{repository.name}/{name}" if name else repository.name
    logger.error("the history %s cannot be read: %s", repository / name, error)
    return HistoryUnavailable(
        f"the history cannot be read: the service cannot read its file {where} "
        f"({error.strerror or type(error).__name__}): {READ_ACCESS_FIX}"
    )


@cache
def git_environment() -> dict[str, str]:
    """The environment every git the service starts runs with (see the module docstring)."""
    keep = {name: os.environ[name] for name in ("PATH", "TMPDIR") if name in os.environ}
    return {
        **keep,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_LITERAL_PATHSPECS": "1",
        "GIT_NO_REPLACE_OBJECTS": "1",
        "LC_ALL": "C",
        "HOME": os.devnull,
    }


@cache
def git_program() -> str | None:
    """The ``git`` program found on ``PATH``, or None when there is none."""
    return shutil.which("git", path=git_environment().get("PATH"))


def git_available() -> bool:
    """Whether a ``git`` program is installed where the service looks (``PATH``)."""
    return git_program() is not None


def _run(
    repository: Path, args: tuple[str, ...], stdin: bytes | None, config: Iterable[tuple[str, str]]
) -> subprocess.CompletedProcess[bytes]:
    program = git_program()
    if program is None:
        raise HistoryUnavailable(NO_GIT)
    command = [program, "-c", "safe.directory=*"]
    for name, value in config:
        command += ["-c", f"{name}={value}"]
    command += [f"--git-dir={repository}", *args]
    try:
        return subprocess.run(  # noqa: S603 - a fixed program, arguments never through a shell
            command,
            input=stdin,
            capture_output=True,
            env=git_environment(),
            timeout=GIT_TIMEOUT,
            check=False,
            # git reads its working directory first: one removed under the service (a deploy
            # folder replaced) made every git say "Unable to read current working directory",
            # a damage sign, and every history was called damaged
            cwd=os.sep if repository.is_absolute() else None,
        )
    except subprocess.TimeoutExpired:
        logger.error("git %s on %s took longer than %.0f s", args[0], repository, GIT_TIMEOUT)
        raise HistoryUnavailable(f"the history took too long to answer (git {args[0]})") from None
    except OSError as error:
        raise HistoryUnavailable(f"git cannot be started: {error.strerror or error}") from None


def git(
    repository: Path,
    *args: str,
    stdin: bytes | None = None,
    config: Iterable[tuple[str, str]] = (),
) -> bytes:
    """Run ``git --git-dir=repository ARGS`` and return what it printed (stdout, bytes).

    ``stdin`` is fed to it; ``config`` adds ``-c name=value`` pairs. A failure raises
    :class:`HistoryUnavailable` naming the command and git's first line of error (logged in
    full), as do a missing ``git`` and a command over :data:`GIT_TIMEOUT`.
    """
    done = _run(repository, args, stdin, config)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip()
        if args[:1] == ("fast-import",):
            _remove_crash_reports(repository)
        raise _refusal(repository, args, message, done.returncode)
    return done.stdout


def _remove_crash_reports(repository: Path) -> None:
    """Remove the crash reports a failed ``fast-import`` writes into ``repository``
    (``fast_import_crash_<pid>``, mode ``0644`` where every other file of a history is
    owner-only): git's words are in the service's log, and every refused record (each Session
    start on a full disk) would leave one more, for good. A writing git runs only under the
    scope's lock (the module docstring), so none of them is another's still being written."""
    try:
        found = list(repository.glob("fast_import_crash_*"))
    except OSError:
        return
    for path in found:
        with contextlib.suppress(OSError):
            path.unlink()


def git_succeeds(repository: Path, *args: str) -> bool:
    """Whether ``git --git-dir=repository ARGS`` exits 0 (a question such as ``merge-base
    --is-ancestor``); raises :class:`HistoryUnavailable` only when git cannot run."""
    return _run(repository, args, None, ()).returncode == 0


def check_repository(path: Path) -> None:
    """Raise :class:`HistoryDamaged` when the folder ``path`` holds something but no
    repository (its ``HEAD`` gone): :func:`init_repository` renames a whole repository into
    place, so this is never a repository being made, and its versions cannot be read; or when
    a file git opens by name is a FIFO, a socket or a device
    (:func:`~memory_core.git_dir.blocking_entry`): git would wait on it (a FIFO as
    ``packed-refs``) until :data:`GIT_TIMEOUT`, holding the scope's lock, and every request
    of the scope behind it."""
    scope = path.name.removesuffix(".git")
    if (found := blocking_entry(path)) is not None:  # a FIFO as HEAD too: never "HEAD is gone"
        raise HistoryDamaged(
            f"the history of scope {scope!r} cannot be read: its {found}, which git would wait "
            f"on, not a file: {REPAIR}"
        )
    if not is_repository(path) and _holds_something(path):
        raise HistoryDamaged(
            f"the history of scope {scope!r} is a folder but no git repository (its HEAD "
            f"{_head_state(path)}): {REPAIR}"
        )


def _head_state(path: Path) -> str:
    """What became of the repository ``path``'s ``HEAD``, for a damage note: ``is gone``, or
    ``is a folder`` (what :func:`~memory_core.file_kind.file_kind` says, through a symlink),
    or ``cannot be looked at (<why>)``."""
    try:
        mode = (path / "HEAD").stat().st_mode
    except FileNotFoundError:
        return "is gone"
    except OSError as error:
        return f"cannot be looked at ({error.strerror or error})"
    return f"is {file_kind(mode)}, not a file"


def _holds_something(path: Path) -> bool:
    """Whether ``path`` is a folder with anything in it (one that cannot be listed counts)."""
    try:
        with os.scandir(path) as listing:
            return any(True for _ in listing)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True


def git_status(repository: Path, *args: str) -> tuple[int, str]:
    """The exit code of ``git --git-dir=repository ARGS`` and its error output (a question
    whose answer is the exit code, such as ``merge-base --is-ancestor``: 0 yes, 1 no, another
    code an error); raises :class:`HistoryUnavailable` only when git cannot run."""
    done = _run(repository, args, None, ())
    return done.returncode, done.stderr.decode("utf-8", "replace").strip()


def is_repository(path: Path) -> bool:
    """Whether ``path`` holds a repository made by :func:`init_repository` (its ``HEAD``).
    Raises :class:`HistoryUnavailable` naming what the kernel refuses (the repository folder,
    its ``HEAD``) when ``HEAD`` cannot be looked at: never "no repository" then (Q-2b)."""
    try:
        return stat.S_ISREG((path / "HEAD").stat().st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as error:
        raise _refused_entry(path) or _unreadable_entry(path, "HEAD", error) from None


def init_repository(path: Path) -> None:
    """Create the bare repository ``path`` (its parents too) unless it exists; blocking.

    Made in a temp folder beside ``path`` and renamed into place: a crash leaves a whole
    repository or none. Two processes creating it at once both succeed (the loser's copy is
    dropped). Raises :class:`HistoryUnavailable` when git or the disk refuses.
    """
    if is_repository(path):
        make_private(path)
        return
    check_repository(path)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        _owner_only(path.parent)
        temp = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"))
    except OSError as error:
        fix = write_fix(error, "write access to the data dir's history folder (its owner and mode)")
        raise HistoryUnavailable(
            f"the history folder cannot be made ({error.strerror}): {fix}, then try again"
        ) from None
    try:
        empty_template = temp / "template"
        empty_template.mkdir()
        repository = temp / "repository"
        git(
            repository,
            "init",
            "--quiet",
            "--bare",
            "--initial-branch=main",
            f"--shared={PRIVATE}",
            f"--template={empty_template}",
            str(repository),
        )
        for name, value in _REPOSITORY_CONFIG:
            git(repository, "config", name, value)
        try:
            repository.rename(path)
        except OSError:
            if not is_repository(path):  # someone else's is in place: fine; else a real error
                raise
    except OSError as error:
        raise HistoryUnavailable(f"the history cannot be created: {error.strerror}") from None
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def make_private(repository: Path) -> None:
    """Make ``repository`` and its history folder owner-only if they are not (a repository made
    before :data:`PRIVATE`, 0755 folders and 0644 files): one ``lstat`` each when they are.

    Its files lose every group and other bit (0644 → 0600, 0444 → 0400), its folders become
    0700, and its configuration gets ``core.sharedRepository`` so git keeps it so. A mode it
    may not change (a file of another account, made by a job run as another user) is logged as
    a warning naming the repository and the reason, and the record goes on: refusing it would
    refuse every change to the scope (a delete needs its version) for want of a chmod.
    """
    try:
        _owner_only(repository.parent)
        if not os.lstat(repository).st_mode & _OPEN_TO_OTHERS:
            return
        for folder, folders, files in os.walk(repository):
            for name in (*folders, *files):
                _owner_only(Path(folder, name))
        _owner_only(repository)
    except OSError as error:
        logger.warning(
            "history %s is still open to other accounts (%s): give it to the service's user "
            "(chown -R), and the next record makes it owner-only",
            repository,
            error.strerror or error,
        )
        return
    git(repository, "config", "core.sharedRepository", PRIVATE)
    logger.info("history %s made owner-only (it was open to other accounts)", repository)


def _owner_only(path: Path) -> None:
    """Clear the group and other bits of ``path`` (never through a symlink) when any is set."""
    mode = os.lstat(path).st_mode
    if mode & _OPEN_TO_OTHERS and not stat.S_ISLNK(mode):
        os.chmod(path, stat.S_IMODE(mode) & ~_OPEN_TO_OTHERS)  # noqa: PTH101 - one chmod


_STALE_LOCKS = (
    "HEAD.lock",
    "config.lock",
    "packed-refs.lock",
    "shallow.lock",
    "objects/info/commit-graph.lock",
    "objects/info/commit-graphs/commit-graph-chain.lock",
    "objects/pack/multi-pack-index.lock",
)


def remove_stale_locks(repository: Path) -> None:
    """Remove git lock files a killed git process left in ``repository``: the fixed ones of
    :data:`_STALE_LOCKS` and any ``*.lock`` of a ref under ``refs/`` (a machine's push ref,
    ``refs/machines/<id>.lock``, left by a ``receive-pack`` killed mid-push, would refuse that
    machine's every later push).

    Call it only while holding the scope's cross-process lock, under which no other git
    process writes this repository (see the module docstring). Raises
    :class:`HistoryUnavailable` when a lock file that is there cannot be removed (a file
    system mounted read-only, no permission: said with what to do, never a bare ``OSError``;
    such a file system refuses the ``unlink`` of a missing one too, which is no failure).
    """
    locks = [repository / name for name in _STALE_LOCKS]
    locks += _ref_locks(repository / "refs")
    for lock in locks:
        try:
            lock.unlink()
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as error:
            if not os.path.lexists(lock):
                continue
            fix = write_fix(error, HISTORY_ACCESS)
            raise HistoryUnavailable(
                f"the history cannot be written: the lock file {lock.name} a stopped git left "
                f"cannot be removed ({error.strerror or error}): nothing was changed; {fix}, "
                "then try again"
            ) from None
        logger.warning("removed %s, left by a git process that was stopped", lock)


def _ref_locks(refs: Path) -> list[Path]:
    """The ``*.lock`` files under ``refs`` (a few folders: heads, machines, taken); symlinks
    are not followed and a folder that cannot be listed is skipped (``os.walk``)."""
    return [
        Path(folder, name)
        for folder, _, names in os.walk(refs)
        for name in names
        if name.endswith(".lock")
    ]
