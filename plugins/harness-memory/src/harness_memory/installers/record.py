"""The install's state folder beside the harness's settings: ``<settings folder>/harness-memory``.

It holds the install record (``install.json``: what :mod:`~harness_memory.installers.own_memory`
found before it switched the harness's own memory off, H-6), the hooks' Session records
(``sessions/``) and, for Codex CLI and Gemini CLI, whose hook settings give a hook no
environment of its own, the bearer token (``token``, mode 0600, H-7) that their Session-start
hook command names with ``--token-file``: a token on a command line is every local user's to
read (``ps``). :meth:`InstallRecord.change` plans the record's new text as a
:class:`~harness_memory.installers.files.FileChange` (no backup: it is ours),
:func:`~harness_memory.installers.token_place.token_plan` the token file, :func:`ignore_plan`
the folder's ``.gitignore`` (a settings folder kept in a dotfiles repository must not take the
token into a commit); :func:`leftovers` names what ``uninstall`` removes from the folder, and
:func:`others_in` what it leaves because this plugin did not make it.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any

from harness_memory.installers.files import (
    FileChange,
    SettingsFileError,
    backups_of,
    dump_json,
    read_json_object,
    read_text,
)
from harness_memory.installers.settings_text import decoded, encoded
from harness_memory.installers.spec import our_flag_values
from harness_memory.settings import (
    TOKEN_FILE_NAME,
    service_digests,
    service_key,
    token_service,
    token_service_file,
)

__all__ = [
    "IGNORE_NAME",
    "IGNORE_TEXT",
    "RECORD_NAME",
    "STATE_FOLDER",
    "TOKEN_NAME",
    "InstallRecord",
    "hook_urls",
    "ignore_plan",
    "left_said",
    "leftovers",
    "others_in",
    "read_record",
    "removal_command",
    "text_digest",
    "unignored_token",
]

STATE_FOLDER = "harness-memory"
RECORD_NAME = "install.json"
TOKEN_NAME = TOKEN_FILE_NAME
IGNORE_NAME = ".gitignore"
IGNORE_TEXT = "# harness-memory: this machine's state (a bearer token, Session records)\n*\n"
"""The state folder's ``.gitignore``: git leaves out everything in the folder, itself too, so
``git add -A`` in a dotfiles repository holding ``~/.claude`` (or a link into one) commits no
token; what ``.pytest_cache`` and ``.ruff_cache`` do for the same reason."""
_SESSIONS = "sessions"
_WRITTEN_KEPT = 16
"""How many texts an install wrote the record keeps per settings file (the newest): enough for
the installs again between an install and its uninstall, and a bound on the record's size."""


TOKENS_NAMED_BY = "resolvedFolder"
"""What an install record says (``"tokenNamedBy"``) of how the install names a token file it
keeps in the config folder: by the settings folder with its symlinks resolved
(:func:`~harness_memory.installers.token_place.token_place`). A record without it is from
before, whose install named it by the folder as spelled."""


def text_digest(data: bytes) -> str:
    """The SHA-256 of a settings file's bytes, hex: how the record names a text it wrote."""
    return hashlib.sha256(data).hexdigest()


class InstallRecord:
    """The install record of one settings folder: ``previous`` (see ``own_memory.Record``),
    ``created``: the settings files (paths as the harness names them) that did not exist before
    an install made them, which ``uninstall`` removes again when it leaves them empty, and
    ``created_folders``: the folders an install made to hold them (``~/.claude``,
    ``~/.codex``, ``~/.gemini``, a ``$CLAUDE_CONFIG_DIR`` and its parents, the managed
    settings folder), which ``uninstall`` removes again when nothing else is left in them;
    ``written``: per settings file (its path as the harness names it), the digests
    (:func:`text_digest`) of the texts installs wrote there, oldest first: a file or backup
    holding one of them holds nothing of the user's, so ``uninstall`` keeps no copy of it
    (H-3); ``backed_up``: the same of the texts installs backed up before changing the file,
    whose backups ``uninstall`` removes once it has put the file back (a backup the user
    changed since, or a symlink named like one, is not one of them)."""

    def __init__(self, path: Path, text: str | None, document: dict[str, Any]) -> None:
        self.path = path
        self.text = text
        previous = document.get("previous")
        self.previous: dict[str, Any] = dict(previous) if isinstance(previous, dict) else {}
        created = document.get("created")
        listed = created if isinstance(created, list) else []
        self.created: list[str] = [name for name in listed if isinstance(name, str)]
        folders = document.get("createdFolders")
        listed = folders if isinstance(folders, list) else []
        self.created_folders: list[str] = [name for name in listed if isinstance(name, str)]
        self.written = _digests(document.get("written"))
        self.backed_up = _digests(document.get("backedUp"))
        token_file = document.get("tokenFile")
        self.token_file: str | None = token_file if isinstance(token_file, str) else None
        """The token file an install keeps outside the state folder (its folder lies in a git
        work tree: :mod:`~harness_memory.installers.token_place`), which ``uninstall``
        removes; None when the token is in the state folder, or there is none."""
        named_by = document.get("tokenNamedBy")
        self.tokens_named_as_spelled = text is not None and named_by != TOKENS_NAMED_BY
        """Whether the install that wrote this record (one from before the record said
        ``"tokenNamedBy"``) named a token it keeps in the config folder by the settings folder
        as spelled (``~/.claude``) rather than with its symlinks resolved
        (:func:`~harness_memory.installers.token_place.own_token_file`): only then is a token
        of that name this settings folder's own. False for a record moved aside (nothing tells
        its age: a token of that name may be another folder's, H-7, A-10)."""
        served = document.get("serviceUrl")
        self.service_digest: str | None = served if isinstance(served, str) else None
        """The digest (:func:`text_digest`) of the service URL the last install wrote its hooks
        and token record for: a token file whose record names another was given by the user
        (``token set --url``, A-10), and ``uninstall`` keeps it. None: not known (an install
        from before)."""
        said = document.get("urlIdNotSecret")
        listed = said if isinstance(said, list) else []
        self.url_id_not_secret: list[str] = [d for d in listed if isinstance(d, str)]
        """The digests (:func:`text_digest`) of the service URLs whose path holds an id the
        user said is no secret when installing them (``--url-id-not-secret``, A-10):
        ``status`` does not warn of those."""

    def wrote(self, path: Path, data: bytes) -> bool | None:
        """Whether ``data`` is a text an install wrote to the settings file ``path``; None
        when the record keeps no text of ``path``."""
        digests = self.written.get(str(path))
        return None if digests is None else text_digest(data) in digests

    def backed_up_by_us(self, path: Path, data: bytes) -> bool:
        """Whether ``data`` is a text an install backed up, or wrote, at ``path``."""
        digest = text_digest(data)
        return digest in self.backed_up.get(str(path), []) or self.wrote(path, data) is True

    def first_found(self, path: Path, parse: Callable[[str, Path], Any]) -> Any:
        """The settings file ``path`` as the user had it before the first install the record
        keeps: ``parse`` (the harness's own reading of a settings file's text; the backup's
        path, named in its errors) of the backup holding the oldest text an install backed up
        there, the very bytes whose digest was checked (one read); a backup that cannot be
        read, or holds another text, is passed over for the next. None when no backup holds
        it (removed, changed, a record that keeps none) or it is no settings the harness
        reads. For what an older record did not note (H-6: whether a table on the way to a
        switch was there)."""
        oldest = self.backed_up.get(str(path), [None])[0]
        for backup in backups_of(path) if oldest else []:
            try:
                raw = backup.read_bytes()
                if text_digest(raw) == oldest:
                    return parse(decoded(raw), backup)
            except (OSError, ValueError, SettingsFileError):
                continue  # unreadable here (a backup made private, its folder's mode): the next
        return None

    def note_written(self, path: Path, text: str) -> None:
        """Remember ``text`` as written to ``path`` by this install (the newest few kept)."""
        _note(self.written, path, text)

    def note_backed_up(self, path: Path, text: str) -> None:
        """Remember ``text`` as backed up by this install before it changed ``path``."""
        _note(self.backed_up, path, text)

    def note_url(self, url: str, id_not_secret: bool, *, install: bool) -> None:
        """Remember whether the user said the id in the path of the service ``url`` this
        install writes is no secret (``id_not_secret``, only this install's URL is kept; an
        uninstall keeps none), and (``install``) the service the hooks are installed for, as
        :func:`~harness_memory.settings.service_key` spells it. An uninstall never notes its
        own URL (its environment's ``HARNESS_MEMORY_URL``) as the installed service: the
        record says what was installed."""
        digest = text_digest(service_key(url).encode("utf-8"))
        self.url_id_not_secret = [digest] if install and id_not_secret and url else []
        if install and url:
            self.service_digest = text_digest(service_key(url).encode("utf-8"))

    def id_said_not_secret(self, url: str) -> bool:
        """Whether the user said the id in ``url``'s path is no secret when installing it: the
        record keeps the digest of its one spelling (:func:`~harness_memory.settings.
        service_key`), or (written before) of the URL as the install was given it."""
        return not service_digests(url).isdisjoint(self.url_id_not_secret)

    def installed_service(self, urls: Iterable[str]) -> str | None:
        """The one spelling (:func:`~harness_memory.settings.service_key`) of the service the
        last install was for, found among ``urls`` (the hooks' ``--url`` values) by the
        digest the record keeps: of that spelling, or (a record written before) of the URL as
        given. None when none of ``urls`` is it, or the record keeps none (A-10)."""
        for url in urls:
            if self.service_digest in service_digests(url):
                return service_key(url)
        return None

    def change(self) -> FileChange:
        """The record's new text, holding :attr:`previous` (and :attr:`created`,
        :attr:`created_folders`, :attr:`written` when they name any), as a change without a
        backup."""
        document: dict[str, Any] = {"previous": self.previous}
        if self.created:
            document["created"] = self.created
        if self.created_folders:
            document["createdFolders"] = self.created_folders
        if self.written:
            document["written"] = self.written
        if self.backed_up:
            document["backedUp"] = self.backed_up
        if self.token_file:
            document["tokenFile"] = self.token_file
        document["tokenNamedBy"] = TOKENS_NAMED_BY
        if self.url_id_not_secret:
            document["urlIdNotSecret"] = self.url_id_not_secret
        if self.service_digest:
            document["serviceUrl"] = self.service_digest
        return FileChange(self.path, self.text, dump_json(document), backup=False)


def _digests(found: object) -> dict[str, list[str]]:
    """A record's ``written`` or ``backedUp``: path → digests, what is not one left out."""
    if not isinstance(found, dict):
        return {}
    return {
        str(path): [d for d in digests if isinstance(d, str)]
        for path, digests in found.items()
        if isinstance(digests, list)
    }


def _note(digests: dict[str, list[str]], path: Path, text: str) -> None:
    digest = text_digest(encoded(text))
    kept = [d for d in digests.get(str(path), []) if d != digest] + [digest]
    digests[str(path)] = kept[-_WRITTEN_KEPT:]


def read_record(settings_folder: Path) -> InstallRecord:
    """The install record of ``settings_folder`` (empty when there is none).

    Raises :class:`~harness_memory.installers.files.SettingsFileError` for a record that is not
    a JSON object (or not read): its values cannot be guessed, so nothing is changed; the
    message ends with :data:`UNREADABLE_RECORD`, the way out.
    """
    path = settings_folder / STATE_FOLDER / RECORD_NAME
    try:
        text, document = read_json_object(path)
    except SettingsFileError as error:
        raise SettingsFileError(f"{error}; {UNREADABLE_RECORD}") from None
    return InstallRecord(path, text, document)


UNREADABLE_RECORD = (
    "what it held cannot be guessed: move it aside (mv it to install.json.broken) and run the "
    "command again; an uninstall then takes the hooks out and leaves what the earlier install "
    "switched (the harness's own memory) as it is, with the backups it made"
)
"""What to do with an install record that cannot be read (H-7): it alone says what to put
back, so ``install`` and ``uninstall`` refuse until it is moved aside."""


def ignore_plan(settings_folder: Path) -> list[FileChange]:
    """The change making the state folder's ``.gitignore`` :data:`IGNORE_TEXT` (none when it
    holds that); one the user made is left as it is. Raises
    :class:`~harness_memory.installers.files.SettingsFileError` for one that cannot be read."""
    path = settings_folder / STATE_FOLDER / IGNORE_NAME
    old = read_text(path)
    if old is not None:
        return []
    # private like the folder it lies in: only its owner's git reads it (a 0644 file there would
    # count as one every user's harness must read, and the install would warn it cannot be)
    return [FileChange(path, None, IGNORE_TEXT, backup=False)]


def unignored_token(settings_folder: Path) -> str | None:
    """A note when the state folder's ``.gitignore`` is the user's (:func:`ignore_plan` keeps
    it) and leaves the token file to git, as git itself judges it (its own ``.gitignore``
    alone, no user or system configuration): a dotfiles repository holding the settings
    folder would take the token into ``git add -A`` (H-7). None when it leaves it out, is
    ours or absent, or no git is installed to judge it (nor to commit it)."""
    state = settings_folder / STATE_FOLDER
    ignore = state / IGNORE_NAME
    git = shutil.which("git")
    if git is None or not ignore.is_file() or read_text(ignore) == IGNORE_TEXT:
        return None
    env = {
        "PATH": os.environ.get("PATH", ""),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "LC_ALL": "C",
    }
    with tempfile.TemporaryDirectory() as scratch:
        judged = [git, f"--git-dir={scratch}", f"--work-tree={state}", "check-ignore", "-q"]
        try:
            made = subprocess.run(  # noqa: S603 - git, no shell
                [git, "init", "-q", "--bare", scratch], env=env, capture_output=True, check=False
            )
            done = subprocess.run(  # noqa: S603 - git, no shell
                [*judged, "--no-index", TOKEN_NAME],
                cwd=state, env=env, capture_output=True, check=False,
            )  # fmt: skip
        except OSError:
            return None
    if made.returncode != 0 or done.returncode != 1:  # 0: ignored; 128: git could not judge
        return None
    return (
        f"{ignore} is yours and does not leave out the token file beside it: a dotfiles "
        f"repository holding {settings_folder} would take the token into `git add -A`; add "
        f"the line `{TOKEN_NAME}` (or `*`) to it"
    )


def leftovers(
    record: InstallRecord,
    hook_urls: Collection[str] = (),
    outside: Path | None = None,
    tokens: Path | None = None,
) -> tuple[list[Path], list[Path]]:
    """What uninstall removes of the settings folder ``record`` belongs to (``hook_urls``: the
    ``--url`` values of the hooks it takes out, :func:`hook_urls`; ``outside``: the token file
    they keep outside the state folder when the record names none, a record moved aside,
    :func:`~harness_memory.installers.token_place.outside_token`; ``tokens``: the tokens
    folder of this install, :func:`~harness_memory.installers.token_place.tokens_folder`):
    (files: the record, the token file (also one kept outside, which the record names, else
    ``outside``: only this settings folder's own in ``tokens``, :func:`~harness_memory.
    installers.token_place.own_token_file`, never another settings folder's a copied record
    names, nor one in another tokens folder) and its service
    record (not a ``.url``
    file there that is no record harness-memory wrote: the user's, A-10), the ``.gitignore``
    an install wrote and
    the Session records; folders, deepest first, removed when they are then empty: with
    ``outside``, its ``tokens`` and ``harness-memory`` folders too, as the record's own
    ``createdFolders`` has them when it is there)."""
    from harness_memory.installers.token_place import own_token_file  # it imports this module

    state = record.path.parent
    if state.is_symlink():  # nothing is removed through a link: not a folder an install made
        return [], []
    files = [state / name for name in (RECORD_NAME, TOKEN_NAME) if (state / name).is_file()]
    named = Path(record.token_file) if record.token_file else None
    own = named is not None and own_token_file(named, record, tokens)
    kept = named if own else outside
    if kept is not None and own_token_file(kept, record, tokens) and kept.is_file():
        files.append(kept)
    files = [path for path in files if not _users_token(path, record, hook_urls)]
    secrets = [token for token in files if token.name != RECORD_NAME]
    served = [token_service_file(token) for token in secrets if token_service(token) != ""]
    files += [path for path in served if path.is_file() and not path.is_symlink()]
    sessions = state / _SESSIONS
    if sessions.is_dir() and not sessions.is_symlink():
        files += sorted(p for p in sessions.iterdir() if p.suffix == ".json" and p.is_file())
    ignore = state / IGNORE_NAME
    ours = ignore.is_file() and not ignore.is_symlink() and read_text(ignore) == IGNORE_TEXT
    if ours and not any(map(_secret_name, others_in(state.parent, [*files, ignore]))):
        files.append(ignore)  # kept while a token stays, out of a dotfiles repository's git
    # with no record of them, the folders kept outside (tokens, harness-memory) when empty;
    # the state folder last: what is left in it is said
    made = []
    if outside is not None and outside in files and kept is outside:  # real folders (lstat)
        made = [outside.parent, outside.parent.parent]  # as own_token_file found them
    folders = [folder for folder in (*made, sessions, state) if folder.is_dir()]
    return files, folders


def _secret_name(path: Path) -> bool:
    """Whether ``path`` in the state folder is named as a file holding a token may be: the
    token file, its service record (the user's own may hold one by mistake), one moved aside
    (``token.url.mine``, ``.token.aside-…``, an install's ``.token.harness-memory-kept-…``);
    the ``.gitignore`` stays while one is left (H-7), not for the
    user's other files, which it would hide from their dotfiles repository."""
    return path.name.startswith((TOKEN_NAME, f".{TOKEN_NAME}"))  # ``.token.harness-memory-kept-…``


def _users_token(token_file: Path, record: InstallRecord, hook_urls: Collection[str]) -> bool:
    """Whether ``token_file``'s service record names a service other than the one the last
    install (``record``) wrote it for: the user gave it (``token set --url``), and it is no
    uninstall's to remove (A-10, H-7). Services are compared by their one spelling
    (:func:`~harness_memory.settings.service_key`). A record written before that rule holds
    the digest of the URL as the install was given it (``http://Host:80/api/``): the hooks'
    own ``--url`` (``hook_urls``) whose digest it is names the installed service; without one,
    the token's record is compared as written and in normal form. With no record of the
    service (none, or one from before), nothing tells the user's token from the hooks' own (an
    install writes the same service record): it is removed, as before (review final66: an
    install record moved aside, as uninstall's own advice says, kept the hooks' token)."""
    given_for = None if token_file.name == RECORD_NAME else token_service(token_file)
    if not given_for or record.service_digest is None:
        return False
    installed = record.installed_service(hook_urls)
    if installed is not None:
        return installed != service_key(str(given_for))
    return record.service_digest not in service_digests(str(given_for))


def hook_urls(texts: Iterable[str | None], flag: str = "--url") -> set[str]:
    """The values of ``flag`` (``--url VALUE`` or ``--url=VALUE``) in our own hook commands of
    the settings ``texts`` (JSON, JSONC or TOML): only a handler's ``command`` in
    ``hooks.<event>[].hooks[]`` that runs ``harness-memory hook <harness>``
    (:func:`~harness_memory.installers.spec.our_flag_values`), never a ``statusLine``, a
    permission rule, an ``env`` value or a hook of another program reading like one (H-7): the
    service URLs our hooks name, as an install was given them, for
    :meth:`InstallRecord.installed_service` (a word that is no URL there matches no digest and
    is never used). A text that is none of those formats gives none."""
    return our_flag_values(texts, flag)


def left_said(path: Path) -> str:
    """Why ``uninstall`` left ``path`` in the state folder (one of :func:`others_in`): a token
    given for another service (``token set --url``, A-10) with its record, the ``.gitignore``
    that keeps them out of a dotfiles repository's ``git add -A`` while they are there (H-7),
    or a file harness-memory did not make."""
    from memory_core.addresses import shown_url

    recorded = token_service(path) if path.name == TOKEN_NAME else None
    if recorded:
        return (
            f"left {path}: it holds the bearer token given for the service at "
            f"{shown_url(recorded)} (`harness-memory token set --url`), not the one these "
            "hooks were installed for, so this uninstall keeps it (A-10); if no one needs it, "
            f"remove it yourself: `{removal_command(path)}`; if you keep it, move it out of "
            "this folder: run again, with no install record left, an uninstall cannot tell it "
            "from the hooks' own and removes it"
        )
    beside = path.with_name(TOKEN_NAME)
    if path == token_service_file(beside) and beside.is_file() and token_service(beside):
        return f"left {path}: the service record of {beside}, kept with it"
    if path.name == IGNORE_NAME and read_text(path) == IGNORE_TEXT:
        return (
            f"left {path}: it keeps what is left in {path.parent} out of git (a dotfiles "
            "repository's `git add -A`, H-7) while a token is there; remove it with them"
        )
    return f"left {path} (not made by harness-memory)"


def removal_command(token_file: Path) -> str:
    """The shell command, runnable as printed, that removes the token file ``token_file`` that
    harness-memory left (``uninstall`` keeps one given for another service; a managed
    uninstall the managed hooks' own, A-10, H-7) with what was made around it: its service
    record (``token.url``), and when nothing else is left in the folder, the ``.gitignore`` an
    install or ``token set`` wrote there and the folder (``rm … && rmdir …``): while anything
    stays (another token, the install record, Session records) the ``.gitignore`` keeps it out
    of a dotfiles repository's ``git add -A`` (H-7). Each path quoted for a POSIX shell; a
    folder that cannot be listed is not removed, nor one that is a symlink: the store it leads
    to is the user's (A-10). A link above it (``~/.codex`` into a dotfiles folder) changes
    nothing: the folder is still the plugin's own."""
    folder = token_file.parent
    record = token_service_file(token_file)
    gone = [token_file, *([record] if record.is_file() else [])]
    try:
        others = [p for p in folder.iterdir() if p not in gone]
    except OSError:
        others = [folder]  # not listed: never said to be empty
    ignore = folder / IGNORE_NAME
    ours = ignore.is_file() and not ignore.is_symlink() and read_text(ignore) == IGNORE_TEXT
    if ours and others == [ignore]:  # with the folder only: else it keeps the rest out of git
        gone.append(ignore)
        others.remove(ignore)
    command = "rm " + " ".join(shlex.quote(str(path)) for path in gone)
    linked = folder.is_symlink()
    return command + (f" && rmdir {shlex.quote(str(folder))}" if not (others or linked) else "")


def others_in(settings_folder: Path, removed: list[Path]) -> list[Path]:
    """Entries of the state folder (and its ``sessions``) that are not among ``removed``."""
    state = settings_folder / STATE_FOLDER
    found: list[Path] = []
    for folder in (state, state / _SESSIONS):
        if folder.is_dir() and not folder.is_symlink():
            entries = sorted(folder.iterdir())
            found += [p for p in entries if p not in removed and p.name != _SESSIONS]
    return found
