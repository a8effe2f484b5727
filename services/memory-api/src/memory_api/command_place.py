"""Where a ``memory-api`` command works: through the running service, or in a data dir (Q-1).

A shell without ``MEMORY_API_DATA_DIR`` beside ``make run`` used to create agents in the
default data dir, which no running service used: exit 0, and the page never showed them. Now:

1. ``--url`` / ``MEMORY_API_URL`` names a service: the command goes through it, or fails when it
   does not answer.
2. ``--data-dir`` / ``MEMORY_API_DATA_DIR`` names a data dir: the command works in it directly;
   a service over the same data dir sees the change at its next request (Q-4). A named data
   dir that is not there is refused (:class:`PlaceRefused`), never read as an empty one nor
   made: a mistyped ``--data-dir /tmp/typo`` listed "no tokens: the service is open" and
   ``agent create`` made the typo's folder. Only the commands documented to make a data dir
   (``token create``, the first of a new server's, and ``demo seed``, ``make run``'s) make it.
3. Neither: a command with an API (``agent``) goes through the service that answers at
   ``MEMORY_API_HOST``:``MEMORY_API_PORT`` (default ``127.0.0.1:8765``). Otherwise a command
   that writes is refused with what to name instead (:class:`PlaceRefused`); one that only
   reads works in the default data dir and says so, and names the service that answers there
   (``token list`` beside ``make run`` said "no tokens" of the default data dir while the
   service, over ``.data``, had them).

Every command prints the :attr:`Place.said` of where it worked.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path

from memory_api.remote import Remote, RemoteError, default_url
from memory_api.settings import Settings

__all__ = ["NAME_THE_DATA_DIR", "Place", "PlaceRefused", "data_dir_exists", "place_for"]


NAME_THE_DATA_DIR = "name the data dir to work in with --data-dir DIR (or MEMORY_API_DATA_DIR)"
"""What to do when the data dir worked in is not the service's (Q-1)."""


class PlaceRefused(Exception):
    """No place where the command may work; the message says what to name (exit 2)."""


@dataclass(frozen=True, slots=True)
class Place:
    """Through ``remote`` (a service that answered), or (None) in the settings' data dir;
    ``said`` tells the user which ("through the service at …", "in the data dir …")."""

    remote: Remote | None
    said: str


def place_for(
    settings: Settings,
    args: argparse.Namespace,
    *,
    writes: bool,
    api: bool = True,
    makes: bool = False,
) -> Place:
    """Where the command of ``args`` works (see the module docstring). ``writes``: it changes
    data; ``api``: the service's API can do it (else only a data dir can); ``makes``: it makes
    a named data dir that is not there yet (documented so: ``token create``, ``demo seed``).

    Raises :class:`PlaceRefused` when a named service does not answer, when a named data dir
    is not there (unless ``makes``), or when a command that writes has neither a data dir named
    nor (with ``api``) a service answering.
    """
    token = getattr(args, "token", None) or settings.service_token
    named_url = getattr(args, "url", None) or settings.service_url
    if api and named_url:
        remote = Remote(named_url.rstrip("/"), token)
        if not remote.answers():
            raise PlaceRefused(f"nothing done: no memory-api service answers at {remote.shown}")
        return Place(remote, f"through the service at {remote.shown}")
    data_dir = settings.data_dir
    if settings.data_dir_named:
        if not makes and not data_dir_exists(data_dir):
            raise PlaceRefused(_missing(args, data_dir, writes=writes))
        how = " (written directly; a service over this data dir sees it at once)" if writes else ""
        return Place(None, f"in the data dir {data_dir}{how}")
    local = Remote(default_url(settings.host, settings.port), token)
    answering = _answers_here(local)
    if api and answering:
        return Place(local, f"through the service at {local.shown}")
    if not writes:
        said = f"in the data dir {data_dir} (the default: none is named)"
        if answering:  # e.g. token list beside make run: that service's data dir is another
            said += (
                f"; a memory-api service answers at {local.shown}: to read its data dir, "
                f"{NAME_THE_DATA_DIR}, the one that service logged as 'data dir: …'"
            )
        return Place(None, said)
    raise PlaceRefused(_refusal(args, local.shown, answering, data_dir))


def data_dir_exists(data_dir: Path) -> bool:
    """Whether ``data_dir`` is there. Only a path that is not there at all is no data dir: a
    file or a folder that cannot be looked at in its place is one, whose use then fails with
    its reason (ENOTDIR, no permission on the way)."""
    try:
        os.lstat(data_dir)
    except FileNotFoundError:
        return False
    except OSError:  # not looked at: said by its use
        return True
    return True


def _missing(args: argparse.Namespace, data_dir: Path, *, writes: bool) -> str:
    """Why a command naming a data dir that is not there did nothing (Q-1), and the way on."""
    named = "--data-dir" if getattr(args, "data_dir", None) else "MEMORY_API_DATA_DIR"
    done = "nothing done" if writes else "nothing read"
    return (
        f"{done}: no data dir at {data_dir} ({named} names a folder that is not there): check "
        "the path, the one a service logs as 'data dir: …' when it starts; a new data dir is "
        "made by `memory-api serve` (make run) or `memory-api token create`"
    )


def _answers_here(local: Remote) -> bool:
    """Whether a memory-api service answers at the default local address, which nobody named:
    something else answering there with a redirect is no memory-api service (``token list``
    and ``memory export`` failed saying "give … --url" though no ``--url`` was given)."""
    try:
        return local.answers()
    except RemoteError:  # a redirect: never followed, and no service of ours
        return False


def _refusal(args: argparse.Namespace, url: str, answering: bool, default: Path) -> str:
    """Why a command that writes did nothing, and what to name."""
    command = " ".join(part for part in (args.command, getattr(args, "action", None)) if part)
    name_it = NAME_THE_DATA_DIR
    if answering:
        return (
            f"nothing done: `memory-api {command}` works on the files of a data dir, and none "
            f"is named. A service answers at {url}: {name_it}, the one that service logged as "
            "'data dir: …' when it started."
        )
    if args.command == "agent":
        what = (
            "Start the service (make run) or point --url at it: if make run was given another "
            "port (make run MEMORY_API_PORT=…), `export MEMORY_API_PORT=…` with it in this "
            f"shell (or pass --url); or {name_it}."
        )
    else:
        what = f"To write there anyway, {name_it}."
    return (
        f"nothing done: no data dir is named and no memory-api service answers at {url}. "
        f"The default data dir {default} may be one no service looks at (make run's is .data "
        f"in the checkout). {what}"
    )
