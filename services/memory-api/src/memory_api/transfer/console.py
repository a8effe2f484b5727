"""The terminal side of import and export: a progress bar on large folders, summary tables.

Rendered with ``rich``. The progress bar goes to stderr and only for more than
:data:`PROGRESS_MIN_FILES` files (rich draws it only on a terminal); the summary goes to stdout
so it can be piped: one table of counts per scope, then every source file that is not simply
added under its own name: renamed or transcoded, merged (an index merged, a file split into
topic files), skipped (with the reason), and each index line made for a topic the source index
never linked.

Every name, path, line and reason a source chose is printed as text, never as what it would do
(:func:`shown`): a character a person cannot see is shown as a mark, a control character is
escaped (``\x1b``: a file named with a terminal's
escape sequence would clear the screen, retitle the window or write the clipboard of the
operator who imports it), and so is rich's markup (``[red]``).

Paths (the archive written, the folders imported from) are printed on lines of their own that
rich never wraps, not as a table's title or caption: those are wrapped to the table's width, and
a long path came out broken over several lines even on a 200-column terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from memory_core.counting import counted
from memory_core.hidden_text import show_hidden
from memory_core.shown_names import shown_name
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from memory_api.transfer.exporter import ExportReport
from memory_api.transfer.importer import ImportReport

__all__ = ["PROGRESS_MIN_FILES", "import_progress", "print_export", "print_import", "shown"]

PROGRESS_MIN_FILES = 100
"""Folders with more topic files than this get a progress bar (P-5, "on large folders")."""
_ACTIONS = ("added", "renamed", "unchanged", "already imported", "skipped", "index lines added")
_HEADERS = ("added", "renamed", "same", "earlier", "skipped", "index+")


def shown(text: str) -> str:
    r"""``text`` (a name, path, index line or reason from a source) as rich prints it verbatim:
    control characters escaped like a listing's names (:func:`~memory_core.shown_names.
    shown_name`: ``\x1b``, ``\n``, bytes that are not UTF-8 as ``\xe9``), characters a person
    cannot see as a mark (I-9: ``[hidden: U+202E]``, never turning the name around on screen),
    then markup.

    >>> shown("a\x1b[2J[red].md")
    'a\\x1b[2J\\[red].md'
    """
    try:
        plain = shown_name(text)
    except UnicodeEncodeError:  # a lone surrogate, which no file name holds
        plain = shown_name(text.encode("utf-8", "backslashreplace").decode("utf-8"))
    return escape(show_hidden(plain))


@contextmanager
def import_progress(
    total: int, label: str, console: Console | None = None
) -> Iterator[Callable[[], None]]:
    """Yield an ``advance()`` callback that moves a progress bar of ``total`` steps.

    The bar goes to ``console`` (default: stderr) and only when ``total`` is above
    :data:`PROGRESS_MIN_FILES`; otherwise ``advance`` does nothing.
    """
    if total <= PROGRESS_MIN_FILES:
        yield lambda: None
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    out = console or Console(stderr=True)
    with Progress(*columns, console=out, transient=True, refresh_per_second=20) as progress:
        task = progress.add_task(label, total=total)
        yield lambda: progress.advance(task)


def _summary(reports: list[ImportReport]) -> Table:
    dry = any(report.dry_run for report in reports)
    table = Table(
        title="Import (dry run: nothing written)" if dry else "Import",
        caption="same: already there; earlier: kept under a new name by an earlier import; "
        "index+: index lines added",
    )
    table.add_column("scope", overflow="fold")
    for header in _HEADERS:
        table.add_column(header, justify="right")
    for report in reports:
        counts = report.counts()
        table.add_row(shown(report.key), *(str(counts[action]) for action in _ACTIONS))
    return table


def _details(report: ImportReport) -> Table | None:
    table = Table(title=shown(f"{report.key}: details"), show_lines=False)
    table.add_column("what")
    table.add_column("entry", overflow="fold")
    table.add_column("detail", overflow="fold")

    def row(*cells: str) -> None:  # names and lines a source chose: printed, never acted on
        table.add_row(*(shown(cell) for cell in cells))

    for outcome in report.files:
        if outcome.action in ("renamed", "already imported"):
            row(outcome.action, outcome.name, f"kept as {outcome.stored_as}")
        if outcome.note:
            row("stored", outcome.name, outcome.note)
    for merged in report.merged:
        row("merged", merged.origin, merged.detail)
    for name, line in report.indexed:
        row("index line made", name, f"the source index never linked it: {line}")
    for skipped in report.skipped:
        row("not imported", skipped.origin, skipped.reason)
    for line, reason in report.lines_left_out:
        row("index line not added", line, reason)
    for note in report.notes:
        row("note", note, "")
    return table if table.row_count else None


def print_import(reports: list[ImportReport], console: Console | None = None) -> None:
    """Print the summary table, then the details of each scope that has any."""
    out = console or Console(highlight=False)
    for report in reports:
        details = _details(report)
        if details is not None:
            out.print(details)
    for report in reports:
        out.print(f"From: {shown(report.label)}", soft_wrap=True)
    out.print(_summary(reports))
    if any(report.changed for report in reports):
        return
    # a file the source holds but no import takes (another project's, not a memory) is said
    # above; an index line of a memory that is there is missing from its index
    lines = sum(len(report.lines_left_out) for report in reports)
    skipped = sum(len(report.skipped) for report in reports)
    if not any(_offered(report) for report in reports):
        out.print(_nothing_offered(skipped))
    elif lines:
        out.print(
            f"Nothing changed, but not added: {counted(lines, 'index line')} (see why above)."
        )
    elif skipped:  # a file no import takes is not "already there" (T-5b)
        out.print(
            f"Nothing to change: {counted(skipped, 'file')} not taken (see why above); the rest "
            "is already there."
        )
    else:
        out.print("Nothing to change: everything offered is already there.")


NO_MEMORY_HERE = (
    "Nothing to import: the source holds no memory. A memory folder holds Markdown topic "
    "files (*.md), one per memory, and their index MEMORY.md: name that folder."
)
"""The last line of an import whose source held nothing at all to import: an empty folder, or
the wrong one (``~/notes`` for ``~/notes/memory``), said "everything offered is already there"."""


def _offered(report: ImportReport) -> bool:
    """Whether the source offered the scope anything: a topic file, a merge, an index line."""
    return bool(report.files or report.merged or report.index_added or report.index_skipped)


def _nothing_offered(skipped: int) -> str:
    """The last line when no report was offered anything; ``skipped``: source files not taken."""
    if not skipped:
        return NO_MEMORY_HERE
    return f"Nothing to import: {counted(skipped, 'file')} found, none taken (see why above)."


def print_export(report: ExportReport, console: Console | None = None) -> None:
    """Print the scopes and file counts written to the archive, what was left out, and the
    archived files the service never reads (T-5b)."""
    out = console or Console(highlight=False)
    out.print(f"Export → {shown(str(report.output))}", soft_wrap=True)
    table = Table()
    table.add_column("scope")
    table.add_column("files", justify="right")
    if report.history:
        table.add_column("history", justify="right")
    for key, count in report.files.items():
        cells = [shown(key), str(count)]
        if report.history:
            size = report.history.get(key)
            cells.append("none" if size is None else counted(size, "byte"))
        table.add_row(*cells)
    out.print(table)
    for skipped in report.skipped:
        out.print(f"not archived: {shown(skipped.origin)}: {shown(skipped.reason)}")
    for entry in report.not_scopes:  # beside the scopes, in the memory root itself
        out.print(f"not archived, no scope: {shown(entry.origin)}: {shown(entry.reason)}")
    if (more := report.not_scopes_count - len(report.not_scopes)) > 0:
        out.print(
            f"not archived, no scope: {counted(more, 'more entry', 'more entries')} of the "
            "memory root"
        )
    for link in report.linked:
        out.print(f"archived through its symlink: {shown(link.origin)} → {shown(link.reason)}")
    for kept in report.unaddressable:
        out.print(
            f"archived, never read by the service: {shown(kept.origin)}: {shown(kept.reason)}"
        )
    total = sum(report.files.values())
    out.print(
        f"{counted(total, 'file')}, {counted(report.bytes, 'byte')} "
        f"in {counted(len(report.files), 'scope')}"
    )
