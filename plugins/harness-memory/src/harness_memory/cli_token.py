"""``harness-memory token set``: write a user's token file, reading the token from stdin (H-7).

::

    printf '%s\\n' "$TOKEN" | harness-memory token set [--file PATH]
    harness-memory token set [--file PATH]        # at a terminal: asks, without echo

The managed install (``install claude-code --managed``) writes hooks for every user of a
machine and takes no token: each hook reads the token of the account running it from
``.claude/harness-memory/token`` in the account's home as the password database gives it
(:func:`~harness_memory.settings.account_state_dir`). This command writes that file — or the
one ``--file`` names (a user-settings install's ``--token-file``) — owner-only (``0600``, its
new folders ``0700``), replacing it atomically: never a moment where the file holds half a
token or is readable by others. The token is read from stdin, never from the command line,
which every local user can read (``ps``); it is never printed. Exit status 0 when written, 2
for a token that cannot be one (empty, a space or control character inside, larger than a
token file may be) or a file that cannot be written; nothing is written then.
"""

from __future__ import annotations

import argparse
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from harness_memory.settings import (
    TOKEN_FILE_MAX_BYTES,
    TOKEN_FILE_NAME,
    account_state_dir,
    unknown_account_note,
)

__all__ = [
    "TOKEN_HELP",
    "TokenInputError",
    "add_token_flags",
    "read_token",
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
    put.add_argument(
        "--file",
        type=Path,
        default=None,
        metavar="PATH",
        help="the token file to write (default: .claude/harness-memory/token in your home as "
        "the password database gives it, which the managed hooks read)",
    )


def read_token(stream: IO[str], *, interactive: bool) -> str:
    """The token on ``stream``: its text with surrounding white space (a final line end) cut.

    ``interactive`` (stdin is a terminal) asks for it with :func:`getpass.getpass` instead, so
    it is not echoed. Raises :class:`TokenInputError` when it is empty, holds white space or a
    control character inside (a second line included), or is over
    :data:`~harness_memory.settings.TOKEN_FILE_MAX_BYTES` bytes.
    """
    if interactive:
        import getpass  # only this command asks; a hook process never loads it (H-5)

        text = getpass.getpass("token: ")
    else:
        try:
            text = stream.read(TOKEN_FILE_MAX_BYTES + 2)
        except UnicodeDecodeError:
            raise TokenInputError("stdin is not UTF-8 text") from None
    token = text.strip()
    if not token:
        raise TokenInputError("no token on stdin")
    if len(token.encode("utf-8")) > TOKEN_FILE_MAX_BYTES:
        raise TokenInputError(f"the token is larger than {TOKEN_FILE_MAX_BYTES} bytes")
    if any(char.isspace() or not char.isprintable() for char in token):
        raise TokenInputError(
            "the token holds white space or a control character (more than one line?)"
        )
    return token


def set_token(token: str, path: Path) -> None:
    """Replace ``path`` with ``token`` and a line end, mode ``0600`` (folders made ``0700``).

    A symlink at ``path`` is replaced by the file, never written through (a link could lead
    the token where others read it). Raises ``OSError`` when the folder cannot be made or
    written, ``IsADirectoryError`` when ``path`` is a folder; nothing is written then.
    """
    try:
        if stat.S_ISDIR(path.lstat().st_mode):
            raise IsADirectoryError(f"{path} is a folder")
    except FileNotFoundError:
        pass
    from memory_core.atomic import atomic_write_bytes, make_dirs  # not in hooks (H-5)

    make_dirs(path.parent, 0o700)
    atomic_write_bytes(path, (token + "\n").encode("utf-8"), mode=0o600)


def run_token(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    environ: Mapping[str, str],
    stdin: IO[str],
    out: IO[str],
) -> int:
    """``token set``: read the token, write the file, say where (never the token)."""
    state = account_state_dir(environ)
    if args.file is None and state is None:
        parser.error(f"token set: {unknown_account_note()}; or give --file PATH")
    path = args.file if args.file is not None or state is None else state / TOKEN_FILE_NAME
    try:
        token = read_token(stdin, interactive=stdin.isatty())
    except TokenInputError as error:
        parser.error(f"token set: {error}; nothing written")
    try:
        set_token(token, path)
    except OSError as error:
        parser.error(f"token set: cannot write {path}: {error.strerror or error}")
    out.write(f"wrote the token to {path} (mode 0600)\n")
    return 0
