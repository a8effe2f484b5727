"""``harness-memory token set``: write a user's token file, reading the token from stdin (H-7).

::

    printf '%s\\n' "$TOKEN" | harness-memory token set [--file PATH | --managed] [--url URL]
    harness-memory token set [--file PATH | --managed]   # at a terminal: asks, without echo

The managed install (``install claude-code --managed``) writes hooks for every user of a machine and
takes no token: each hook reads the token of the account running it from
``.claude/harness-memory/token`` in the account's home as the password database gives it
(:func:`~harness_memory.settings.account_state_dir`). This command writes that file — or, when
``$HOME`` names another folder, ``$HOME``'s own ``.claude/harness-memory/token`` (the one a Claude
Code user install made with that ``$HOME`` reads; Codex CLI's and Gemini CLI's user hooks read
``~/.codex/harness-memory/token`` and ``~/.gemini/harness-memory/token``, which their install writes
or ``--file`` names; the account's home is left alone and the line names the managed hooks' file and
``--managed``, which writes theirs whatever ``$HOME`` says), or the one ``--file`` names (a
user-settings install's ``--token-file``) — owner-only (``0600``, its new folders ``0700``),
replacing it atomically: never a moment where the file holds half a token or is readable by others.
A file with other hard links that holds that very token already (a snapshot's ``cp -al``) is kept,
nothing written, and made owner-only in place, which its other names share; another account's such
file is refused (exit 2: :func:`~harness_memory.installers.own_names.shared_token`).
On a disk that keeps no owner-only modes (exFAT, FAT, some network shares show every file as the
mount's ``0777``) no file is written: it would be every user's to read, and the hooks would refuse
it. A state folder (``harness-memory``) gets the ``.gitignore`` an install writes there (``*``), so
a repository made later around ``~/.claude`` takes no token into ``git add -A``. No token file is
written inside a git work tree, where no ``.gitignore`` stops ``git add -f`` or ``git commit -a``
(:func:`~harness_memory.installers.token_place.token_file_place`): the managed hooks' token then
goes to ``~/.config/harness-memory/tokens/managed``, which they read when the state folder holds
none (the one there is removed, unless user-level hooks name it with ``--token-file``: then it is
kept, and the line says which and what to run), and a ``--file`` in one, or a home that is an
ordinary repository's (``~/.git``), is refused (exit 2). A home that is the work tree of a
repository kept elsewhere (a bare dotfiles repository, yadm, vcsh) has no folder outside it: the
token goes to ``~/.config/harness-memory/tokens/managed`` all the same, beside a ``.gitignore`` of
``*``, with a warning naming the repository (``add -f`` would still take it). The token is read from
stdin, never from the command line, which every local user can read (``ps``); it is never printed.
Beside the file it records the service the token is given for (``--url``, else the one service
the installed hooks reading that file name; :func:`~harness_memory.settings.token_service_file`),
as an install records its own: a hook of another service refuses the token (A-10). It is written
before the token; where hooks of several services read the file, ``--url`` is asked for (exit 2);
hooks of another service than the one recorded are warned of; a ``PATH.url`` that is not one
http(s) URL line (the user's own file) is kept and the command refused, as is a ``--file`` that
is a token file's record (``token.url``).
Exit status 0 when written, 2 for a text that is not one token of the service's form (empty, more
than one line, a space or control character inside, ``NAME=``, ``export`` or ``Bearer`` before it,
quotes around it, outside visible ASCII, under 16 characters:
:func:`~harness_memory.settings.token_shape_problem`, said by its shape, never its text) or a file
that cannot be written (or kept private, or kept out of a work tree); nothing is written then,
and no usage line is printed (:func:`refuse`: the command was typed right).
"""

from __future__ import annotations

import argparse
import errno
import os
import stat
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, NoReturn

from harness_memory.cli_words import name_by_choices
from harness_memory.settings import (
    TOKEN_FILE_MAX_BYTES,
    TOKENS_FOLDER,
    account_state_dir,
    token_kept_outside,
    token_shape_problem,
    token_text,
    unknown_account_note,
)

if TYPE_CHECKING:
    from harness_memory.installers.own_names import LinkAtName

__all__ = [
    "TOKEN_HELP",
    "TokenInputError",
    "add_token_flags",
    "read_token",
    "refuse",
    "run_token",
    "set_token",
]

TOKEN_HELP = "write your 0600 token file from stdin (the managed hooks read it)"  # noqa: S105 (help text)


class TokenInputError(ValueError):
    """What stdin held cannot be a bearer token; the message says why, never what it held."""


def add_token_flags(token: argparse.ArgumentParser) -> None:
    """The ``token`` command's subcommands (``set``) and their flags."""
    actions = token.add_subparsers(dest="token_command", required=True)
    put = actions.add_parser("set", help="write the token read from stdin into the token file")
    name_by_choices(actions)
    where = put.add_mutually_exclusive_group()
    where.add_argument(
        "--file",
        type=Path,
        default=None,
        metavar="PATH",
        help="the token file to write (default: .claude/harness-memory/token in $HOME, which "
        "is the managed hooks' one when $HOME is your home as the password database gives it)",
    )
    where.add_argument(
        "--managed",
        action="store_true",
        help="write the managed hooks' token file, in your home as the password database "
        "gives it, whatever $HOME says",
    )
    put.add_argument(
        "--url",
        metavar="URL",
        help="the service the token is given for, recorded beside it: no hook sends it to "
        "another (default: the one service the installed hooks reading that file name; "
        "asked for when they name several)",
    )


def read_token(stream: IO[bytes], *, interactive: bool) -> str:
    """The token on ``stream`` (bytes), read as the hooks read a token file
    (:func:`~harness_memory.settings.token_text`): in the encoding its byte order mark names (a
    file Notepad or PowerShell saved, piped in), UTF-8 without one, surrounding white space (a
    final line end) cut.

    ``interactive`` (stdin is a terminal) asks for it with :func:`getpass.getpass` instead, so
    it is not echoed. Raises :class:`TokenInputError` when it is not the text it says (naming
    its encoding and the byte at fault), empty, over
    :data:`~harness_memory.settings.TOKEN_FILE_MAX_BYTES` bytes, or not one token of the
    service's form (:func:`~harness_memory.settings.token_shape_problem`).
    """
    if interactive:
        import getpass  # only this command asks; a hook process never loads it (H-5)

        text = getpass.getpass("token: ")
        try:  # the terminal's bytes that are not UTF-8 come as lone surrogates
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise TokenInputError("the token typed is not UTF-8 text") from None
    else:
        try:
            text = token_text(stream.read(TOKEN_FILE_MAX_BYTES + 1))
        except ValueError as error:
            raise TokenInputError(f"stdin is {error}") from None
    token = text.strip()
    if not token:
        raise TokenInputError("no token on stdin")
    if len(token.encode("utf-8")) > TOKEN_FILE_MAX_BYTES:
        raise TokenInputError(f"the token is larger than {TOKEN_FILE_MAX_BYTES} bytes")
    if (problem := token_shape_problem(token)) is not None:
        raise TokenInputError(f"{'the token typed' if interactive else 'stdin'} {problem}")
    return token


def set_token(token: str, path: Path) -> None:
    """Replace ``path`` with ``token`` and a line end, mode ``0600`` (folders made ``0700``).

    A symlink at ``path`` is replaced by the file, never written through (a link could lead
    the token where others read it). The disk is asked first whether it keeps owner-only
    modes (:func:`~harness_memory.installers.secrets.keeps_owner_only`, an empty file): the
    token is written nowhere on one that does not (H-7); then the new file is written beside
    ``path`` and takes its place once it shows owner-only. In a state folder (named
    ``harness-memory``, as every install's and the managed hooks' is) a ``.gitignore`` of
    ``*`` is written when there is none (:data:`~harness_memory.installers.record.IGNORE_TEXT`).
    Raises ``OSError`` when the folder cannot be made or written, ``IsADirectoryError`` when
    ``path`` is a folder, ``PermissionError`` (:data:`NOT_PRIVATE`) on a disk that keeps no
    owner-only modes; no token file is written then.
    """
    try:
        if stat.S_ISDIR(path.lstat().st_mode):
            raise IsADirectoryError(f"{path} is a folder")
    except FileNotFoundError:
        pass
    from memory_core.atomic import fsync_directory, make_dirs, write_temp_beside  # not in hooks

    from harness_memory.installers.secrets import keeps_owner_only

    make_dirs(path.parent, 0o700)
    _ignore_state_folder(path.parent)
    if not keeps_owner_only(path.parent):  # asked before the token is written anywhere there
        raise PermissionError(errno.EPERM, NOT_PRIVATE, str(path))
    temp = write_temp_beside(path, (token + "\n").encode("utf-8"), mode=0o600)
    try:
        if stat.S_IMODE(temp.stat().st_mode) & 0o077:
            raise PermissionError(errno.EPERM, NOT_PRIVATE, str(path))
        temp.replace(path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    fsync_directory(path.parent)


NOT_PRIVATE = (
    "the disk it is on keeps no owner-only permissions (exFAT, FAT, a network share?), so every "
    "user could read the token, and the hooks would refuse it; nothing was written: keep it on "
    "a disk that does (a Linux or macOS file system; --file PATH)"
)
"""Why ``token set`` wrote no file where the disk shows a new file readable by others (H-7)."""


def _ignore_state_folder(folder: Path) -> None:
    """Write a state folder's ``.gitignore`` (what an install writes there), or a
    ``harness-memory/tokens`` folder's (:data:`~harness_memory.installers.token_place.
    TOKENS_IGNORE_TEXT`), unless it has one: a dotfiles repository holding the settings or
    config folder then takes no token into a commit by ``add`` (only ``add -f`` would). Any
    other folder ``--file`` names is the user's, and left as it is."""
    from harness_memory.installers.record import IGNORE_NAME, IGNORE_TEXT, STATE_FOLDER
    from harness_memory.installers.token_place import TOKENS_IGNORE_TEXT

    if folder.parts[-2:] == TOKENS_FOLDER:
        text = TOKENS_IGNORE_TEXT
    elif folder.name == STATE_FOLDER:
        text = IGNORE_TEXT
    else:
        return
    try:  # no hard link (an exFAT disk has none): a plain exclusive create
        fd = os.open(folder / IGNORE_NAME, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "wb") as handle:
        handle.write(text.encode("utf-8"))


def run_token(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    environ: Mapping[str, str],
    stdin: IO[bytes],
    out: IO[str],
) -> int:
    """``token set``: read the token, write the file, say where (never the token) and what
    link it replaced (H-7)."""
    from harness_memory.installers.token_place import TokenPlaceError, token_file_place

    if args.url is not None:  # refused before the token is read: nothing written
        from harness_memory.client import service_url_parts
        from harness_memory.errors import ServiceUnreachableError
        from harness_memory.settings import holds_service_secret

        if holds_service_secret(args.url):  # a token given as --url: never said back
            refuse(
                parser,
                "token set: --url holds a secret of the service's shape (mem_ and 43 more): "
                "give the service's address there, the token on stdin; nothing written",
            )
        if "***" in args.url:  # a URL shown with its ids hidden: no service's own
            refuse(
                parser,
                "token set: --url holds `***`, which a message puts where it hides an id: "
                "no service has that URL; give the real URL (as the hooks' --url names it); "
                "nothing written",
            )
        try:
            service_url_parts(args.url)
        except ServiceUnreachableError as error:
            refuse(parser, f"token set: --url: {error}; nothing written")
    state = account_state_dir(environ)
    if args.file is None and state is None:
        parser.error(f"token set: {unknown_account_note()}; or give --file PATH")
    elsewhere = None
    if not args.managed:
        state, elsewhere = _state_in_home(state, environ)
    try:
        path, stale, warning = token_file_place(args.file, state, _home_of(state, environ), environ)
    except TokenPlaceError as error:
        refuse(parser, f"token set: {error}; nothing written")
    try:
        token = read_token(stdin, interactive=stdin.isatty())
    except TokenInputError as error:
        refuse(parser, f"token set: {error}; nothing written")
    from harness_memory.installers.own_names import link_at, shared_token

    if (shared := shared_token(path, token)) is not None:  # H-7: its other names keep it
        refuse(parser, f"token set: {shared}; nothing written")
    url, said = _service_for(parser, path, args.url, environ)
    out.write(_write_with_record(parser, token, path, url, link_at(path, frozenset({token}))))
    out.write(said)
    if elsewhere is not None and args.file is None:
        out.write(f"{elsewhere}\n")
    if warning is not None:
        out.write(f"{warning}\n")
    if stale is not None and stale.is_file():
        out.write(_leave_stale(stale, path, environ))
    return 0


def _service_for(
    parser: argparse.ArgumentParser, path: Path, given: str | None, environ: Mapping[str, str]
) -> tuple[str | None, str]:
    """``(URL, warnings)``: the service the token for ``path`` is given for (A-10): ``given``
    (``--url``), else the one service the installed hooks reading ``path`` name
    (:func:`~harness_memory.installers.token_place.token_url_readers`), None when none do;
    the warnings name the hooks of another service that will refuse it. Refused (exit 2,
    nothing written) for a ``path`` that is a token file's service record, a record beside
    ``path`` the plugin did not write (:func:`_own_record`), and, without ``--url``, hooks
    reading ``path`` for several services: which one the token is for is the user's word."""
    from memory_core.addresses import shown_url

    from harness_memory.installers.token_place import token_url_readers
    from harness_memory.settings import same_service, token_service_file

    if path.name.endswith(".url") and os.path.lexists(path.with_name(path.name[:-4])):
        beside = path.with_name(path.name[:-4])
        refuse(
            parser,
            f"token set: {path} is the service record of the token file {beside}, never a "
            f"token file (A-10): give --file {beside}; nothing written",
        )
    if not _own_record(record := token_service_file(path)):
        refuse(
            parser,
            f"token set: {record} is not a service record harness-memory wrote (one http(s) "
            "URL on one line): it is kept; move it away or give another --file; nothing written",
        )
    home = Path(environ["HOME"]) if environ.get("HOME") else Path.home()
    readers = token_url_readers(path, home, environ)
    services = list(dict.fromkeys(shown_url(url) for _, url in readers))
    if given is None and readers and not all(same_service(readers[0][1], u) for _, u in readers):
        refuse(
            parser,
            f"token set: the hooks reading {path} name several services ({', '.join(services)}): "
            "give --url with the one this token is for (the others' hooks will refuse it); "
            "nothing written",
        )
    url = given or (readers[0][1] if readers else None)
    said = "".join(
        f"WARNING: the hooks in {where} name the service at {shown_url(other)}: they refuse "
        f"this token, recorded for {shown_url(url)} (A-10)\n"
        for where, other in readers
        if url is not None and not same_service(other, url)
    )
    return url, said


def _own_record(record: Path) -> bool:
    """Whether ``record`` may be replaced by ``token set``: absent, or a regular file holding
    what the plugin writes there (one http(s) URL on one line, :func:`~harness_memory.
    settings.service_url_line`). Another file is the user's own, kept (A-10)."""
    from harness_memory.settings import SERVICE_RECORD_MAX_BYTES, service_url_line

    try:
        info = record.lstat()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode) or info.st_size > SERVICE_RECORD_MAX_BYTES:
        return False
    try:
        text = record.read_bytes().decode("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return False
    return service_url_line(text)


def _write_with_record(
    parser: argparse.ArgumentParser,
    token: str,
    path: Path,
    url: str | None,
    found: LinkAtName | None,
) -> str:
    """Write ``token`` to ``path`` and ``url`` (None: none) as its service record beside it
    (A-10), so that no token is ever paired with another service's record, not even for the
    moment between the two writes, nor after a failed one: an old token in ``path`` recorded
    for another service (or for none) is first moved aside (a rename in its folder, which
    needs no space), then the record is written, then the token. When either cannot be, the
    old record is put back (or the new one removed) and then the old token; when the record
    cannot be put back the old token stays aside, unread by any hook, and the error says where.
    In a folder not made yet the token is written first and removed again when its record
    cannot be. The lines to print; exit 2 (:func:`refuse`) on a failure, saying exactly what
    was left. A ``path`` that is a folder, or on a disk keeping no owner-only modes, is refused
    before anything is written."""
    from harness_memory.installers.own_names import held_here
    from harness_memory.installers.secrets import keeps_owner_only
    from harness_memory.settings import token_service_file

    if path.is_dir() and not path.is_symlink():
        refuse(parser, f"token set: cannot write {path}: it is a folder; nothing written")
    if not path.parent.is_dir():  # nothing there before: the token first, undone without record
        said = _set_or_keep(parser, token, path, found)
        return said + _record_service(parser, path, url, undo=lambda: _gone(path))
    if not keeps_owner_only(path.parent):
        refuse(parser, f"token set: cannot write {path}: {NOT_PRIVATE}")
    old = _old_record(record := token_service_file(path))
    aside = None if held_here(path, token) else _move_aside(path, url)
    recorded = _record_service(parser, path, url, undo=lambda: _put_back(path, aside))
    undo = lambda: _undo_record(path, record, old, aside)  # noqa: E731
    said = _set_or_keep(parser, token, path, found, undo=undo)
    if aside is not None:
        aside.unlink(missing_ok=True)
    return said + recorded


def _gone(path: Path) -> str:
    """Remove the token file ``path`` written without its record; what is left, said."""
    try:
        path.unlink(missing_ok=True)
    except OSError as error:
        return f"the token written to {path} could not be removed again: {error.strerror}"
    return "nothing written"


def _old_record(record: Path) -> bytes | None:
    """What the service record ``record`` holds before ``token set`` (None: none)."""
    try:
        return record.read_bytes() if record.is_file() and not record.is_symlink() else None
    except OSError:
        return None


def _move_aside(path: Path, url: str | None) -> Path | None:
    """Move the token in ``path`` aside (``.PATH-NAME.aside-XXXXXXXX``, a name of its own made
    beside it, ``0600``: no hook reads it, and no leftover of an earlier run that stopped
    midway is overwritten) when its record names another service than ``url`` (or either
    names none): between the record's write and the token's a hook would pair it with
    ``url``'s record (A-10). The place it went; None when it stays (the same service, no
    regular file, a name or rename that failed)."""
    import tempfile  # only token set moves a token aside (H-5)

    from harness_memory.installers.files import owner_only
    from harness_memory.settings import same_service, token_service

    if not path.is_file() or path.is_symlink():
        return None
    before = token_service(path)
    if before and url is not None and same_service(before, url):
        return None
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.aside-", dir=path.parent)
    except OSError:
        return None
    os.close(fd)
    aside = Path(name)
    try:
        path.replace(aside)  # over the empty file made for it, never another
    except OSError:
        aside.unlink(missing_ok=True)
        return None
    owner_only(aside)  # it kept the old file's mode (H-7)
    return aside


def _put_back(path: Path, aside: Path | None) -> str:
    """Put the old token moved ``aside`` back at ``path``; what is left, said."""
    if aside is None:
        return "nothing written"
    try:
        aside.replace(path)
    except OSError as error:
        return (
            f"the old token could not be put back into {path} ({error.strerror}): it is in "
            f"{aside}, read by no hook"
        )
    return "nothing written"


def _undo_record(path: Path, record: Path, old: bytes | None, aside: Path | None) -> str:
    """Put back the service ``record`` of ``path`` as it was (``old``; None: remove it) after
    the token could not be written, then the old token moved ``aside``; when the record cannot
    be put back, the old token stays aside, never paired with another service's record (A-10).
    What is left, said."""
    try:
        if old is None:
            record.unlink(missing_ok=True)
        else:
            _replace_record(record, old)
    except OSError as error:
        kept = "" if aside is None else f"; the old token is in {aside}, read by no hook"
        return f"{record} could not be put back ({error.strerror}): {path} holds no token{kept}"
    return _put_back(path, aside)


def _replace_record(record: Path, data: bytes) -> None:
    """Replace ``record`` with ``data`` (mode 0600; no temp file left). Raises ``OSError``."""
    from memory_core.atomic import write_temp_beside

    temp = write_temp_beside(record, data, mode=0o600)
    try:
        temp.replace(record)
    except OSError:
        temp.unlink(missing_ok=True)
        raise


def _record_service(
    parser: argparse.ArgumentParser, path: Path, url: str | None, *, undo: Callable[[], str]
) -> str:
    """Record beside the token file ``path`` the service ``url`` its token is given for
    (A-10, :func:`~harness_memory.settings.token_service_file`, mode 0600); with none, an
    earlier record is taken away, since it was another token's. Exit 2 when it cannot be,
    saying what ``undo`` did and left (no temp file left). The line to print."""
    from memory_core.addresses import shown_url

    from harness_memory.settings import token_service_file

    record = token_service_file(path)
    try:
        if url is None:
            if record.is_file() or record.is_symlink():
                record.unlink()
            return ""
        _replace_record(record, (url + "\n").encode("utf-8"))
    except OSError as error:
        refuse(parser, f"token set: cannot write {record}: {error.strerror or error}; {undo()}")
    return f"recorded it as the token of the service at {shown_url(url)} ({record})\n"


def refuse(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    """End the command with exit status 2 and ``<prog>: error: message`` on stderr, as
    ``parser.error`` does, but without its usage line: the command was typed right, what it
    was given or where it writes is not (H-7). Raises ``SystemExit(2)``."""
    parser.exit(2, f"{parser.prog}: error: {message}\n")


def _set_or_keep(
    parser: argparse.ArgumentParser,
    token: str,
    path: Path,
    found: LinkAtName | None,
    undo: Callable[[], str] | None = None,
) -> str:
    """Write ``token`` to ``path`` (a link there, ``found``, gives way to the file: said, as an
    install says it), or keep a hard-linked file holding it already (a snapshot's ``cp -al``:
    nothing needs writing), its mode narrowed in place, which its other names share (H-7);
    the lines to print. A write that fails ends the command (:func:`refuse`)."""
    from harness_memory.installers.own_names import held_here, narrow_in_place

    try:
        if (same := held_here(path, token)) is not None:
            modes = narrow_in_place(path)
            kept = f"{path} holds this token already (one file of {same.st_nlink} names): kept it"
            if modes is None:
                return f"{kept} (mode 0600)\n"
            return f"{kept}, made it owner-only ({modes[0]:04o} -> {modes[1]:04o}) for every name\n"
        set_token(token, path)
    except OSError as error:
        left = "" if undo is None else f"; {undo()}"
        refuse(parser, f"token set: cannot write {path}: {error.strerror or error}{left}")
    said = f"wrote the token to {path} (mode 0600)\n"
    return said if found is None else f"{said}{found.replaced(path, 0o600)}\n"


def _state_in_home(
    state: Path | None, environ: Mapping[str, str]
) -> tuple[Path | None, str | None]:
    """``(the state dir token set writes into, the line saying the managed hooks read another)``.

    The managed hooks read the token in the account's home as the password database gives it
    (``state``, :func:`~harness_memory.settings.account_state_dir`; P-2a: no variable moves theirs).
    A ``$HOME`` naming another folder (a fresh home to try things in, a container's) is the home the
    user means: its ``.claude/harness-memory`` is written, whose token a Claude Code user install
    made with that ``$HOME`` reads (``--token-file``; Codex CLI's and Gemini CLI's user hooks read
    ``.codex/harness-memory/token`` and ``.gemini/harness-memory/token`` there, which ``--file``
    writes), and the account's home is left alone; the line names the managed hooks' file and
    ``--managed``, which writes it. ``state`` as it is, and no line, when ``$HOME`` is unset, is the
    account's home, or ``state`` is no home's ``.claude/harness-memory`` (Windows' Local AppData, no
    account)."""
    home = environ.get("HOME")
    if not home or state is None or state.parts[-2:] != (".claude", "harness-memory"):
        return state, None
    own = state.parent.parent
    chosen = Path(home).absolute()
    if os.path.realpath(chosen) == os.path.realpath(own):
        return state, None
    managed = state / "token"
    return chosen / ".claude" / "harness-memory", (
        f"$HOME ({chosen}) is not this account's home in the password database ({own}); "
        f"the managed hooks read {managed}, not this file: `harness-memory token set "
        "--managed` writes theirs"
    )


def _home_of(state: Path | None, environ: Mapping[str, str]) -> Path:
    """The home whose bare repositories (a dotfiles setup, H-7) ``token set`` looks at: the
    one holding the managed hooks' state dir ``state`` (``<home>/.claude/harness-memory``,
    the account's own), else ``$HOME``, else the account's."""
    if state is not None and token_kept_outside(state) is not None:
        return state.parent.parent
    return Path(environ["HOME"]) if environ.get("HOME") else Path.home()


def _leave_stale(stale: Path, path: Path, environ: Mapping[str, str]) -> str:
    """Remove the managed hooks' token file ``stale`` (in a git work tree: they would read it
    before ``path``) unless installed hooks name it with ``--token-file`` (a user-level
    Claude Code install shares the folder): those would lose their token, so it is kept and
    the line says which hooks read it and what to run. The line to print."""
    from harness_memory.installers.token_place import token_readers

    home = stale.parent.parent.parent  # <home>/.claude/harness-memory/token
    named = token_readers(stale, home, environ)  # not the managed hooks: path is theirs now
    if not named:
        stale.unlink()
        return f"removed {stale}: it lay in a git work tree (the managed hooks now read {path})\n"
    wheres = ", ".join(where for where, _ in named)
    fixes = " and ".join(dict.fromkeys(fix for _, fix in named))
    return (
        f"kept {stale}, though it lies in a git work tree: the hooks in {wheres} name it with "
        f"--token-file and would be left without a token; while it is there the managed hooks "
        f"read it, not {path}: run {fixes} to move those hooks' token out of the work tree, "
        "then `harness-memory token set` again\n"
    )
