"""What an import is offered (P-5): a memory folder, or an archive written by the export.

A **folder** is read one level deep, the way coding agents keep their memory: ``MEMORY.md`` is
its index, every other ``*.md`` file whose name passes K-7 a topic file. Everything else is
listed with the reason it is not imported: a file that is not Markdown, a folder, a symlink
(never followed: it could lead anywhere), a file with a name outside the folder (another hard
link: its content is another file's, as the service never reads such a memory file, A-7), a
FIFO or device, a name no route could address, a file larger than :data:`IMPORT_FILE_CAP`, a
topic file larger than the 1 MiB the service reads of one (:data:`OVER_TOPIC_CAP`, checked by
the importer).

An **archive** is a ``.tar.gz`` written by :mod:`memory_api.transfer.exporter`: its members are
read into memory and judged by name and type; nothing is ever extracted to disk, so a member
named ``../x`` or a link member can do no harm (it is listed as skipped).

Topic bytes are kept as they are when they are UTF-8 (a BOM included). Text in another
encoding is decoded as reading does (:func:`memory_core.decoding.decode_text`: UTF-16 by its
BOM, else cp1252, byte by byte) and stored as UTF-8, so the scope reads the same text and every
tool can open it; the report names the file and the encoding. A file (topic or index) that
looks like a legacy CJK encoding (Shift-JIS, GB18030, Big5, EUC-*) is not imported but listed
as skipped, naming the encoding and the iconv command: stored as UTF-8 from a cp1252 reading
it would be mojibake for good (:func:`memory_core.decoding.not_decoded_why`).

One import reads at most :data:`IMPORT_READ_CAP` bytes of files in all, and of history bundles
:data:`~memory_api.store.history.bundles.BUNDLE_CAP` (:func:`read_budget`): what it reads is
held in memory until it is written, and a folder of a thousand 16 MiB files, or a 20 MB archive
of members that compress a thousandfold, would otherwise take gigabytes. A source holding more
is refused (:class:`SourceError`) before anything is written.

Blocking: run in a worker thread or from the command line.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import stat
import tarfile
import unicodedata
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Literal

from memory_core import json_text, layout
from memory_core.decoding import decode_text, not_decoded_why
from memory_core.errors import InvalidId
from memory_core.hard_links import HARD_LINKED, NamedElsewhereError
from memory_core.hidden_text import find_hidden
from memory_core.keys import check_scope_key, check_topic_file_name
from memory_core.rules import marker_problem
from memory_core.scope_files import TOPIC_CAP

from memory_api.store.containment import NotRegularFileError, read_regular
from memory_api.store.history.bundles import BUNDLE_CAP

__all__ = [
    "ARCHIVE_FORMAT",
    "ARCHIVE_MANIFEST",
    "ARCHIVE_ROOT",
    "ELSEWHERE",
    "HISTORY_FOLDER",
    "IMPORT_FILE_CAP",
    "IMPORT_READ_CAP",
    "OVER_TOPIC_CAP",
    "OWN_FOLDER",
    "SETTINGS_READ_CAP",
    "Merged",
    "NothingHere",
    "Role",
    "Skipped",
    "SourceError",
    "SourceFile",
    "SourceScope",
    "entry_kind",
    "is_archive",
    "json_value",
    "no_folder",
    "read_archive",
    "read_budget",
    "read_bytes",
    "read_folder",
    "read_small_text",
    "read_source",
    "stored_bytes",
    "topic_name_problem",
]

IMPORT_FILE_CAP = 16 * 1024 * 1024
"""A file larger than this (bytes) is not read (listed with the reason): an index may be this
large (:data:`~memory_core.scope_files.INDEX_CAP`); a topic file is imported up to
:data:`~memory_core.scope_files.TOPIC_CAP` only (:data:`OVER_TOPIC_CAP`)."""
OVER_TOPIC_CAP = (
    f"larger than {TOPIC_CAP // (1024 * 1024)} MiB, the most the service reads of a topic file "
    "(T-2): it could never be read, nor deleted with an undo (V-1)"
)
"""Why a topic file over :data:`~memory_core.scope_files.TOPIC_CAP` bytes is not imported:
stored, it would be a memory no route reads and no delete can take away (409)."""
ARCHIVE_ROOT = "agent-memory"
"""The one top folder of an export archive: ``agent-memory/scopes/<key>/<file>``."""
ARCHIVE_MANIFEST = "export.json"
"""``agent-memory/export.json``: format, version, project, agent, time and scopes."""
ARCHIVE_FORMAT = "agent-memory-export"
HISTORY_FOLDER = "history"
"""``agent-memory/history/<key>.bundle``: a scope's history, exported ``--with-history`` (V-3)."""
ARCHIVE_MAX_MEMBERS = 200_000
"""An archive with more members than this is refused (a guard against a tar bomb)."""
IMPORT_READ_CAP = 256 * 1024 * 1024
"""The bytes of files one import reads in all (topic files, indexes, a coding agent's notes),
history bundles aside: thousands of memories are a few MiB (T-2 reads 1 MiB of a file at most)."""
_MIB = 1024 * 1024


Role = Literal["user", "workspace"]
"""Where a coding agent's memory belongs: the user scope, or the Workspace scope of the
Workspace it was imported for."""


class SourceError(ValueError):
    """The source cannot be imported at all (missing, not a folder or archive, corrupt, or
    holding more than an import reads: :func:`read_budget`)."""


OWN_FOLDER = "; a memory folder of your own: "
"""What :class:`NothingHere` says before the import of a folder the user names."""


class NothingHere(SourceError):
    """``memory import --from HARNESS`` found nothing where HARNESS keeps it (P-5): the message
    says where it looked and how to move it; :meth:`with_next` ends it with the import of a
    folder the user names, built from their own command line (``own``: the words before that
    command; ``tool``: the folder is in VS Code's memory-tool layout, ``--from memory-tool``)."""

    def __init__(self, said: str, *, own: str = OWN_FOLDER, tool: bool = False) -> None:
        super().__init__(said)
        self.own = own
        self.tool = tool

    def with_next(self, flags: list[str], *, user: bool) -> str:
        """The whole message, the command naming ``flags`` (the scope, ``--project``,
        ``--agent`` and ``--data-dir`` as given: ``user`` says the scope was ``--user``) after
        ``memory-api memory import FOLDER``, quoted for the shell, and the other scope's flag."""
        import shlex  # the command line's, never the service's

        tool = " --from memory-tool" if self.tool else ""
        other = "--workspace PATH" if user else "--user"
        command = f"memory-api memory import FOLDER{tool} {shlex.join(flags)}"
        return f"{self}{self.own}`{command}` (or {other})"


@dataclass(slots=True)
class _Budget:
    """The bytes an import may still read: of files, and of history bundles."""

    files: int
    history: int


_BUDGET: ContextVar[_Budget | None] = ContextVar("import_read_budget", default=None)


@contextlib.contextmanager
def read_budget() -> Iterator[None]:
    """Count what the reads of one import take against one budget: :data:`IMPORT_READ_CAP`
    bytes of files, :data:`~memory_api.store.history.bundles.BUNDLE_CAP` of history bundles
    (see the module docstring). Nested uses share the outermost; also a decorator."""
    if _BUDGET.get() is not None:
        yield
        return
    token = _BUDGET.set(_Budget(files=IMPORT_READ_CAP, history=BUNDLE_CAP))
    try:
        yield
    finally:
        _BUDGET.reset(token)


def _spend(size: int, origin: str, *, history: bool = False) -> None:
    """Take ``size`` bytes read at ``origin`` from the current :func:`read_budget` (none: no
    limit); raises :class:`SourceError` once the source holds more than it allows."""
    budget = _BUDGET.get()
    if budget is None:
        return
    if history:
        budget.history -= size
        left, cap, what = budget.history, BUNDLE_CAP, "history bundles"
    else:
        budget.files -= size
        left, cap, what = budget.files, IMPORT_READ_CAP, "files"
    if left < 0:
        raise SourceError(
            f"the source holds more than {cap // _MIB} MiB of {what} (at {origin}); an import "
            "reads at most that much, so that it never holds more in memory: import its "
            "folders or scopes one at a time (--archive-scope KEY), leaving out what is not "
            "memory"
        )


ELSEWHERE = (
    "If {harness} keeps its files elsewhere, set {variable} to {folder} and run the import again"
)
"""The next step a ``--from HARNESS`` import that found nothing says first (``harness``, the
``variable`` that moves its files, and ``folder``: which folder that variable names, as the
harness reads it — not the memory folder the message named before it, which lies deeper);
:class:`NothingHere` ends it with the import of a folder of the user's own."""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A topic file offered for import: its K-7 name, the bytes to store, where it came from,
    and a note when the bytes were transcoded or made (``None`` when stored as they are).

    ``made`` marks a topic file made from part of a source file (a section, a list item):
    a file of the same name holding the same ``name``, ``description`` and body counts as this
    memory already there, whatever its other frontmatter says (the date it was made).
    """

    name: str
    data: bytes
    origin: str
    note: str | None = None
    made: bool = False


@dataclass(frozen=True, slots=True)
class Skipped:
    """Something offered that is not imported, with the reason."""

    origin: str
    reason: str


@dataclass(frozen=True, slots=True)
class Merged:
    """A source file (or part of one) that became index lines or made topic files rather than
    a topic file of its own: where it came from and what became of it."""

    origin: str
    detail: str


@dataclass(slots=True)
class SourceScope:
    """One memory folder's content: topic files, index text, and what is skipped.

    ``label`` names it for the report (a folder path or ``archive:<key>``); ``key`` is the
    archived scope key (None for a folder); ``index`` is the decoded ``MEMORY.md`` (None when
    there is none) and ``index_origin`` where it was read; ``marker`` the archived
    ``.workspace`` text and ``history`` the scope's history bundle (archives only). ``role`` is
    where a coding agent's memory belongs (None: where the command line says); ``merged`` the
    source files that became index lines or made topics; ``indexed`` the ``(file, line)`` index
    lines made for topics the source index never linked; ``notes`` anything else the report
    must say. ``recorded`` is the source as the scope's history names it (V-1: a version read
    later, from any folder, by someone who did not type the path): the absolute folder, or the
    archive's with the scope it held; None records ``label``.
    """

    label: str
    key: str | None = None
    files: list[SourceFile] = field(default_factory=list)
    index: str | None = None
    marker: str | None = None
    skipped: list[Skipped] = field(default_factory=list)
    history: bytes | None = None
    role: Role | None = None
    index_origin: str | None = None
    merged: list[Merged] = field(default_factory=list)
    indexed: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    recorded: str | None = None

    def entry_names(self) -> frozenset[str]:
        """The names (NFC) of the entries the source holds, imported or not: its topic files
        and each entry it skipped (a symlink, a FIFO, an unreadable file, a name no topic file
        may have: the last part of its origin). A link of its index spelled as one of them
        means that entry, never a file named so in another case (P-5)."""
        skipped = (PurePosixPath(item.origin.replace("\\", "/")).name for item in self.skipped)
        return frozenset(
            unicodedata.normalize("NFC", name)
            for name in (*(item.name for item in self.files), *skipped)
        )


def recorded_as(scopes: list[SourceScope], path: Path) -> list[SourceScope]:
    """``scopes`` read from ``path`` (a folder, or an archive of scopes with keys), each given
    the name the history records it by (:attr:`SourceScope.recorded`): ``path`` resolved
    against the working directory, and for an archived scope ``(scope KEY)`` after it
    ("Import ./memories" or "Import archive:user" named no folder or file a reader could find)."""
    where = str(path.resolve())
    for scope in scopes:
        scope.recorded = where if scope.key is None else f"{where} (scope {scope.key})"
    return scopes


def json_value(text: str | bytes) -> object:
    """The JSON value ``text`` holds (:func:`memory_core.json_text.loads`); raises ValueError
    when it is not JSON, also when it nests deeper than Python reads (``JsonTooDeep``: a
    hostile file of 200 000 ``[``) or when a string holds a lone surrogate (``"\ud800"``: no
    text, its UTF-8 encoding failed the whole import later).
    """
    value = json_text.loads(text)
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except RecursionError:  # as deep as loads reads: never met, said as loads says it
        raise json_text.JsonTooDeep(json_text.TOO_DEEP) from None
    except UnicodeEncodeError:
        raise ValueError("JSON whose strings hold a lone surrogate (not text)") from None
    return value


def stored_bytes(raw: bytes) -> tuple[bytes, str | None]:
    """Return the bytes to store for a topic file's ``raw`` bytes, and a note if transcoded.

    UTF-8 (with or without a BOM) is kept byte for byte; anything else is decoded as reading
    does and stored as UTF-8 (the note names the encoding read).

    >>> stored, note = stored_bytes("Café".encode("cp1252"))
    >>> stored
    b'Caf\\xc3\\xa9'
    >>> note
    'not valid UTF-8 (byte 0xe9 at offset 3, line 1); read as cp1252; stored as UTF-8'
    """
    body = raw[len(codecs.BOM_UTF8) :] if raw.startswith(codecs.BOM_UTF8) else raw
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return raw, None
    text, problems = decode_text(raw)
    encoding = [p.removeprefix("encoding: ") for p in problems if p.startswith("encoding: ")]
    return text.encode("utf-8"), "; ".join([*encoding, "stored as UTF-8"])


def _legacy_reason(raw: bytes) -> str | None:
    """Why a file is not imported when its bytes look like a legacy CJK encoding, else None."""
    why = not_decoded_why(raw)
    if why is None:
        return None
    return f"not imported: {why.removeprefix('does not decode it: ')}, then import it again"


def _index_text(raw: bytes) -> str:
    text, _ = decode_text(raw)
    return text


def _file_reason(name: str) -> str | None:
    """Why a regular file named ``name`` is not a topic file, or None when it is one."""
    if not name.endswith(".md"):
        return "not a Markdown file (.md)"
    why = topic_name_problem(name)
    return None if why is None else f"file name {why}"


def topic_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be an imported topic file's name, or None when it can: K-7's reason
    (``"must not start with '.'"``), or the characters in it a person cannot see (I-9: a
    bidirectional override or a tag character makes it read as another name, and the index
    line an import makes for it would carry them).

    >>> topic_name_problem("evil\u202edm.md")
    'holds 1 bidirectional control (U+202E), which a person cannot see (rename it)'
    """
    try:
        check_topic_file_name(name)
    except InvalidId as error:
        return error.reason
    hidden = find_hidden(name, text_start=False)
    if hidden:
        return f"holds {hidden[0][1]}, which a person cannot see (rename it)"
    return None


def entry_kind(path: Path) -> Literal["file", "folder"] | Skipped:
    """Whether ``path`` is a regular ``file`` or a ``folder`` (never through a symlink), or
    why it is not read (a symlink, a FIFO or device, unreadable)."""
    try:
        info = os.lstat(path)
    except OSError as error:
        return Skipped(str(path), f"cannot be read ({error.strerror or error})")
    if stat.S_ISLNK(info.st_mode):
        return Skipped(str(path), "a symlink (not followed)")
    if stat.S_ISDIR(info.st_mode):
        return "folder"
    if not stat.S_ISREG(info.st_mode):
        return Skipped(str(path), "not a regular file (FIFO, socket or device)")
    if info.st_size > IMPORT_FILE_CAP:
        return Skipped(str(path), f"larger than {IMPORT_FILE_CAP // (1024 * 1024)} MiB")
    return "file"


IMPORT_HARD_LINKED = (
    f"{HARD_LINKED}; to import it, copy the source folder (`cp -r SRC COPY`: each copy has "
    "one name) and import the copy"
)
"""Why an import refuses a source file with a name outside its own folder (A-7, P-5), and
the way on: a backup made with ``cp -al`` or rsnapshot names every file twice."""


def read_bytes(path: Path) -> bytes | Skipped:
    """The bytes of the regular file ``path`` (never through a symlink), or why not: one with
    a name outside its own folder (another hard link, judged on the file opened; two names in
    that folder are read) is not read, as a symlink is not followed and the service reads no
    such memory file (A-7, P-5): :data:`IMPORT_HARD_LINKED` says why and the way on."""
    kind = entry_kind(path)
    if isinstance(kind, Skipped):
        return kind
    if kind == "folder":
        return Skipped(str(path), "a folder (only the top level is imported)")
    try:
        raw, _ = read_regular(path, IMPORT_FILE_CAP + 1, memory=True)
    except NamedElsewhereError:
        return Skipped(str(path), IMPORT_HARD_LINKED)
    except (OSError, NotRegularFileError) as error:
        return Skipped(str(path), f"cannot be read ({error.strerror or error})")
    _spend(len(raw), str(path))
    return raw


SETTINGS_READ_CAP = 1024 * 1024
"""A coding agent's own small file (its settings, a project registry, a git pointer) longer
than this (bytes) is not read: it is a few lines."""


def read_small_text(path: Path) -> str | None:
    """The UTF-8 text of a coding agent's own small file (``settings.json``, a registry, a
    ``.git`` pointer), or None when it cannot be read: missing, no permission, not UTF-8, not a
    regular file, longer than :data:`SETTINGS_READ_CAP`. Symlinks are followed (a dotfile
    manager links these files); a FIFO or a device is never read (one blocked the import for
    ever, ``/dev/zero`` read until memory ran out)."""
    try:
        raw, _ = read_regular(path, SETTINGS_READ_CAP + 1, follow_symlinks=True)
        return None if len(raw) > SETTINGS_READ_CAP else raw.decode("utf-8")
    except (OSError, NotRegularFileError, UnicodeDecodeError):
        return None


def _read_entry(scope: SourceScope, path: Path, known: Mapping[str, str] | None = None) -> None:
    """Judge one folder entry and add it to ``scope`` as a file, the index, or skipped;
    ``known`` names entries skipped with a reason of their own (a harness's bookkeeping)."""
    if path.name in layout.SIDE_FILES:
        return  # the service's own record of the Workspace's disk (K-6a): not a note
    if known is not None and path.name in known:
        scope.skipped.append(Skipped(str(path), known[path.name]))
        return
    reason = None if path.name == layout.INDEX_FILE else _file_reason(path.name)
    if reason is not None and entry_kind(path) == "file":
        scope.skipped.append(Skipped(str(path), reason))
        return
    raw = read_bytes(path)
    if isinstance(raw, Skipped):
        scope.skipped.append(raw)
        return
    if (legacy := _legacy_reason(raw)) is not None:
        scope.skipped.append(Skipped(str(path), legacy))
        return
    if path.name == layout.INDEX_FILE:
        scope.index = _index_text(raw)
        scope.index_origin = str(path)
        return
    data, note = stored_bytes(raw)
    scope.files.append(SourceFile(path.name, data, str(path), note))


def no_folder(path: Path, where: str, *, symlinks: bool = True) -> SourceError:
    """The error for a source ``path`` (``where``: as the user wrote it) that is no folder to
    read: ``does not exist`` when nothing is there, or only a symlink to nothing (it said "is
    not a folder" of a mistyped path); a symlink when ``symlinks`` is False (the reader follows
    none); ``cannot be read`` with the cause; else ``is not a folder``."""
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode) and symlinks:
            info = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return SourceError(f"{where} does not exist")
    except OSError as error:
        return SourceError(f"{where} cannot be read ({error.strerror or error})")
    if stat.S_ISLNK(info.st_mode):
        return SourceError(f"{where} is a symlink, which is not followed: name the folder itself")
    return SourceError(f"{where} is not a folder")


@read_budget()
def read_folder(
    folder: Path, known: Mapping[str, str] | None = None, *, shown: str | None = None
) -> SourceScope:
    """Read a memory folder one level deep (see the module docstring); ``known`` maps entry
    names to the reason they are skipped (a coding agent's own bookkeeping); ``shown`` is the
    folder as the user wrote it (``./memories``), for messages and the label (default: ``folder``).

    Raises :class:`SourceError` when ``folder`` is missing, not a folder, or cannot be listed.
    """
    where = str(folder) if shown is None else shown
    if not folder.is_dir():
        raise no_folder(folder, where)
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError as error:
        raise SourceError(f"{where} cannot be listed: {error.strerror or error}") from None
    scope = SourceScope(label=where)
    for entry in entries:
        _read_entry(scope, Path(entry.path), known)
    scope.files.sort(key=lambda item: item.name)
    return scope


def is_archive(path: Path) -> bool:
    """Tell whether ``path`` is a regular file holding a tar archive (gzip'ed or not)."""
    return path.is_file() and tarfile.is_tarfile(path)


def _member_scope(
    scopes: dict[str, SourceScope], member: tarfile.TarInfo, archive: str
) -> tuple[SourceScope, str] | Skipped:
    """The archived scope and file name of ``member``, or why it is skipped."""
    parts = PurePosixPath(member.name).parts
    origin = f"{archive}:{member.name}"
    if len(parts) != 4 or parts[0] != ARCHIVE_ROOT or parts[1] != "scopes":
        return Skipped(origin, "not a file of an archived scope (agent-memory/scopes/KEY/FILE)")
    key, name = parts[2], parts[3]
    try:
        check_scope_key(key)
    except InvalidId as error:
        return Skipped(origin, f"scope key {error.reason}")
    scope = scopes.setdefault(key, SourceScope(label=f"archive:{key}", key=key))
    if not member.isreg():
        return Skipped(origin, "a link or special member (not imported)")
    return scope, name


def _history_member(
    archive: tarfile.TarFile,
    member: tarfile.TarInfo,
    scopes: dict[str, SourceScope],
    label: str,
    loose: list[Skipped],
) -> bool:
    """Take ``agent-memory/history/<key>.bundle`` into its scope; False for other members."""
    parts = PurePosixPath(member.name).parts
    if len(parts) != 3 or parts[:2] != (ARCHIVE_ROOT, HISTORY_FOLDER):
        return False
    origin = f"{label}:{member.name}"
    key = parts[2].removesuffix(".bundle")
    try:
        check_scope_key(key)
    except InvalidId as error:
        loose.append(Skipped(origin, f"history of no scope: key {error.reason}"))
        return True
    if not member.isreg() or member.size > BUNDLE_CAP:
        loose.append(Skipped(origin, "not a history bundle the import reads (link, or too big)"))
        return True
    _spend(member.size, origin, history=True)
    handle = archive.extractfile(member)
    scope = scopes.setdefault(key, SourceScope(label=f"archive:{key}", key=key))
    scope.history = handle.read(BUNDLE_CAP + 1) if handle is not None else None
    return True


def _add_member(scope: SourceScope, name: str, raw: bytes, origin: str) -> None:
    if name in layout.SIDE_FILES:
        return  # an older export's K-6a side file: true of the exporting service's disks only
    if name != layout.MARKER_FILE and (legacy := _legacy_reason(raw)) is not None:
        scope.skipped.append(Skipped(origin, legacy))
        return
    if name == layout.INDEX_FILE:
        scope.index = _index_text(raw)
        scope.index_origin = origin
    elif name == layout.MARKER_FILE:
        scope.marker = _marker(raw, scope, origin)
    else:
        reason = _file_reason(name)
        if reason is not None:
            scope.skipped.append(Skipped(origin, reason))
            return
        data, note = stored_bytes(raw)
        scope.files.append(SourceFile(name, data, origin, note))


def _marker(raw: bytes, scope: SourceScope, origin: str) -> str | None:
    """The Workspace path an archived ``.workspace`` marker holds, or None (listed as skipped)
    when it is none a Session start could have written (K-5): not UTF-8, several lines, a NUL
    or another control character, not absolute, longer than 4096 bytes. Such a marker was
    restored as it was (a 5 MB one, one holding a terminal's escape sequence)."""
    path, reason = marker_problem(raw)
    if reason is None:
        return path or None
    scope.skipped.append(
        Skipped(origin, f"a marker that names no Workspace path: it {reason}; not restored")
    )
    return None


@read_budget()
def read_archive(path: Path, *, shown: str | None = None) -> list[SourceScope]:
    """Read an export archive into one :class:`SourceScope` per archived scope, sorted by key;
    ``shown`` is the path as the user wrote it, for messages (default: ``path``).

    Raises :class:`SourceError` when it is not a readable tar archive of the export's format.
    """
    where = str(path) if shown is None else shown
    scopes: dict[str, SourceScope] = {}
    loose: list[Skipped] = []
    manifest_seen = False
    try:
        with tarfile.open(path, "r:*") as archive:
            for count, member in enumerate(archive):
                if count >= ARCHIVE_MAX_MEMBERS:
                    raise SourceError(f"{where} holds more than {ARCHIVE_MAX_MEMBERS} members")
                if member.isdir():
                    continue
                if member.name == f"{ARCHIVE_ROOT}/{ARCHIVE_MANIFEST}" and member.isreg():
                    manifest_seen = _check_manifest(archive, member, where)
                    continue
                if _history_member(archive, member, scopes, path.name, loose):
                    continue
                found = _member_scope(scopes, member, path.name)
                if isinstance(found, Skipped):
                    loose.append(found)
                    continue
                scope, name = found
                origin = f"{path.name}:{member.name}"
                if member.size > IMPORT_FILE_CAP:
                    scope.skipped.append(Skipped(origin, "larger than the import cap"))
                    continue
                _spend(member.size, origin)
                handle = archive.extractfile(member)
                raw = handle.read(IMPORT_FILE_CAP + 1) if handle is not None else b""
                _add_member(scope, name, raw, origin)
    except (tarfile.TarError, EOFError, OSError) as error:
        raise SourceError(f"{where} is not a readable archive: {error}") from None
    if not manifest_seen:
        raise SourceError(f"{where} is not an Agent Memory export (no {ARCHIVE_MANIFEST})")
    ordered = [scopes[key] for key in sorted(scopes)]
    if ordered:
        ordered[0].skipped[:0] = loose
    for scope in ordered:
        scope.files.sort(key=lambda item: item.name)
    return ordered


def _check_manifest(archive: tarfile.TarFile, member: tarfile.TarInfo, where: str) -> bool:
    handle = archive.extractfile(member)
    try:
        manifest = json_value(handle.read(1024 * 1024) if handle else b"")
    except ValueError:
        raise SourceError(f"{where}: {ARCHIVE_MANIFEST} is not JSON") from None
    if not isinstance(manifest, dict) or manifest.get("format") != ARCHIVE_FORMAT:
        raise SourceError(f"{where} is not an Agent Memory export ({ARCHIVE_MANIFEST} format)")
    return True


@read_budget()
def read_source(path: Path, *, shown: str | None = None) -> list[SourceScope]:
    """Read ``path`` as an export archive when it is one, else as a memory folder; ``shown``
    is the path as the user wrote it (``./memories``), which messages name (default: ``path``).

    Raises :class:`SourceError` when it is neither (missing, a plain file, unreadable).
    """
    where = str(path) if shown is None else shown
    if is_archive(path):
        return read_archive(path, shown=where)
    if path.is_file():
        raise SourceError(f"{where} is a file, not a memory folder or an export archive")
    return [read_folder(path, shown=where)]
