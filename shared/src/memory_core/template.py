"""Template placeholders: insert them (I-7), render the key line (I-2), substitute (P-1).

A template is the agent's system prompt with ``{{…}}`` placeholders. Memory owns two of them:
``{{MEMORY}}`` (the injected prompts and indexes, I-1) and ``{{WORKSPACE_MEMORY_KEY}}`` (the value
on the Environment section's ``- Workspace Memory Key:`` line, I-2). Every other placeholder is
left for the harness.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a type of annotations only: the write guard's settings load no wire DTOs
    from memory_core.wire import WorkspaceKind

__all__ = [
    "AGENT_ID_PLACEHOLDER",
    "APP_DATA_DIR_PLACEHOLDER",
    "CWD_PLACEHOLDER",
    "ENVIRONMENT_HEADING",
    "KEY_LINE",
    "KEY_PLACEHOLDER",
    "MEMORY_PLACEHOLDER",
    "OFF_KEY_VALUE",
    "TEMPLATE_FILE_MAX_BYTES",
    "TEMPORARY_KEY_VALUE",
    "TemplateFileError",
    "default_template",
    "environment_section",
    "has_memory_placeholder",
    "insert_placeholder",
    "key_line_value",
    "read_template_file",
    "substitute",
]

TEMPLATE_FILE_MAX_BYTES = 1024 * 1024
"""The longest template file read (bytes), as long as the service's default request body."""

MEMORY_PLACEHOLDER = "{{MEMORY}}"
KEY_PLACEHOLDER = "{{WORKSPACE_MEMORY_KEY}}"
KEY_LINE = f"- Workspace Memory Key: {KEY_PLACEHOLDER}"
ENVIRONMENT_HEADING = "# Environment"
TEMPORARY_KEY_VALUE = "(none — temporary workspace)"
OFF_KEY_VALUE = "(none — memory is off)"
APP_DATA_DIR_PLACEHOLDER = "{{APP_DATA_DIR}}"
"""A harness placeholder for the data dir, which the prompts' ``Directory:`` lines name."""
AGENT_ID_PLACEHOLDER = "{{AGENT_ID}}"
"""A harness placeholder for the agent id, the other value the ``Directory:`` lines need."""
CWD_PLACEHOLDER = "{{CWD}}"
"""A harness placeholder for the Session's working directory."""

# An ATX heading whose text is "Environment" (any level, optional closing #s), as CommonMark
# reads it: up to three spaces of indent.
_ENV_HEADING = r"(?i) {0,3}#{1,6}[ \t]+Environment[ \t]*(?:#+[ \t]*)?"
_LIST_ITEM = r" {0,3}[-*+][ \t]"
_ANY_HEADING = r" {0,3}#{1,6}(?:[ \t]|$)"
_SETEXT_UNDERLINE = r" {0,3}(?:=+|-+)[ \t]*"
_SUBSTITUTE = re.escape(MEMORY_PLACEHOLDER) + "|" + re.escape(KEY_PLACEHOLDER)


def has_memory_placeholder(template: str) -> bool:
    """Tell whether ``template`` holds ``{{MEMORY}}``; without it nothing is injected (I-5)."""
    return MEMORY_PLACEHOLDER in template


def default_template(
    *,
    intro: str = "",
    app_data_dir: str = APP_DATA_DIR_PLACEHOLDER,
    agent_id: str = AGENT_ID_PLACEHOLDER,
    cwd: str | None = None,
) -> str:
    """Return the starting template: ``intro``, ``{{MEMORY}}``, then the Environment section.

    The one home of the default template's shape, used by the service for a new agent (A-1) and
    by the plugin when the harness configures none (P-1). ``{{MEMORY}}`` and the key line stand
    where the placeholder insert puts them (I-7: the key line right after the heading), so
    :func:`insert_placeholder` leaves the result unchanged. ``app_data_dir`` and ``agent_id`` are
    the values the prompts' ``Directory:`` lines refer to (I-6), placeholders by default; a
    ``- CWD:`` line follows when ``cwd`` is given. Ends with a newline.

    >>> print(default_template(), end="")
    {{MEMORY}}
    <BLANKLINE>
    # Environment
    - Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}
    - App data dir: {{APP_DATA_DIR}}
    - Agent id: {{AGENT_ID}}
    >>> insert_placeholder(default_template(intro="Be kind.", cwd=CWD_PLACEHOLDER))[1]
    False
    """
    head = [intro.rstrip("\n"), ""] if intro.strip() else []
    environment = [
        ENVIRONMENT_HEADING,
        KEY_LINE,
        f"- App data dir: {app_data_dir}",
        f"- Agent id: {agent_id}",
    ]
    if cwd is not None:
        environment.append(f"- CWD: {cwd}")
    return "\n".join([*head, MEMORY_PLACEHOLDER, "", *environment, ""])


def _find_environment_heading(lines: list[str]) -> int | None:
    """Index of the first Environment heading outside fenced code blocks, or None."""
    content = [line.removesuffix("\n").removesuffix("\r") for line in lines]
    from memory_core.markdown import fenced_lines

    for number, (line, fenced) in enumerate(zip(content, fenced_lines(content), strict=True)):
        if not fenced and re.fullmatch(_ENV_HEADING, line):
            return number
    return None


def environment_section(lines: Sequence[str]) -> list[int]:
    """The indexes in ``lines`` (each with its line end or without) of the first Environment
    section's lines outside code fences, those the default template's values are on: from the
    line after its heading (outside code fences, as :func:`insert_placeholder` finds it) up to
    the next heading outside code fences (ATX, or setext: :func:`_setext_heading_lines`), or
    the end. Empty without an Environment heading.

    >>> environment_section(["Note:", "# Environment", "- CWD: x", "# Notes", "- CWD: y"])
    [2]
    >>> environment_section(["# Environment", "- CWD: x", "```", "- CWD: y", "```", "- CWD: z"])
    [1, 5]
    >>> environment_section(["```", "# Environment", "```", "- CWD: x"])
    []
    >>> environment_section(["# Environment", "- CWD: x", "Notes", "-----", "- CWD: y"])
    [1]
    """
    heading = _find_environment_heading(list(lines))
    if heading is None:
        return []
    from memory_core.markdown import fenced_lines

    content = [line.removesuffix("\n").removesuffix("\r") for line in lines]
    fenced = fenced_lines(content)
    setext = _setext_heading_lines(content, fenced)
    section: list[int] = []
    for number in range(heading + 1, len(lines)):
        if number in setext or (not fenced[number] and re.match(_ANY_HEADING, content[number])):
            break
        if not fenced[number]:
            section.append(number)
    return section


def _setext_heading_lines(content: Sequence[str], fenced: Sequence[bool]) -> set[int]:
    """The indexes of setext headings' lines outside code fences (each line without its end):
    a paragraph's lines (not blank, no list item, no ATX heading) and the ``=``/``-`` underline
    right under them. Dashes under a list item or a blank line are a thematic break, none."""
    headings: set[int] = set()
    paragraph: list[int] = []
    for number, line in enumerate(content):
        if fenced[number] or not line.strip() or re.match(f"{_LIST_ITEM}|{_ANY_HEADING}", line):
            paragraph = []
        elif re.fullmatch(_SETEXT_UNDERLINE, line):
            headings.update(paragraph, [number] if paragraph else [])
            paragraph = []
        else:
            paragraph.append(number)
    return headings


def insert_placeholder(template: str) -> tuple[str, bool]:
    """Insert ``{{MEMORY}}`` and the Workspace Memory Key line into ``template`` (I-7, A-4).

    Returns ``(new_template, changed)``. Idempotent: a placeholder already present anywhere is
    never added again, and nothing already in the template is altered or removed — only lines
    are added:

    - ``{{MEMORY}}`` on its own line (then a blank line) just before the first ``# Environment``
      heading outside code fences;
    - ``- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}`` right after that heading — as the first
      item when the section starts with a list after blank lines, so the list stays one list;
    - with no such heading: ``{{MEMORY}}`` and a new ``# Environment`` section holding the line,
      appended at the end (only the parts still missing).

    The template's line ending style (``\\r\\n`` or ``\\n``) is kept for the added lines.

    >>> print(insert_placeholder("Be kind.\\n\\n# Environment\\n- CWD: {{CWD}}\\n")[0])
    Be kind.
    <BLANKLINE>
    {{MEMORY}}
    <BLANKLINE>
    # Environment
    - Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}
    - CWD: {{CWD}}
    <BLANKLINE>
    >>> insert_placeholder("{{MEMORY}}\\n# Environment\\n" + KEY_LINE + "\\n")[1]
    False
    """
    need_memory = MEMORY_PLACEHOLDER not in template
    need_key = KEY_PLACEHOLDER not in template
    if not need_memory and not need_key:
        return template, False
    newline = "\r\n" if "\r\n" in template else "\n"
    from memory_core.markdown import lines_with_ends

    lines = lines_with_ends(template)
    heading = _find_environment_heading(lines)
    if heading is None:
        return _append_section(template, newline, need_memory, need_key), True

    if need_key:
        at = heading + 1
        after = at
        while after < len(lines) and not lines[after].strip():
            after += 1
        if after > at and after < len(lines) and re.match(_LIST_ITEM, lines[after]):
            at = after
        if at == len(lines) and not lines[heading].endswith("\n"):
            lines[heading] += newline  # the heading was the last line, without a line end
        lines.insert(at, KEY_LINE + newline)
    if need_memory:
        block = [MEMORY_PLACEHOLDER + newline, newline]
        if heading > 0 and lines[heading - 1].strip():
            block.insert(0, newline)
        lines[heading:heading] = block
    return "".join(lines), True


def _append_section(template: str, newline: str, need_memory: bool, need_key: bool) -> str:
    parts: list[str] = []
    if template and not template.endswith("\n"):
        parts.append(newline)
    if template.strip():
        parts.append(newline)  # a blank line between the old text and what is added
    if need_memory:
        parts.append(MEMORY_PLACEHOLDER + newline)
        if need_key:
            parts.append(newline)
    if need_key:
        parts.append(ENVIRONMENT_HEADING + newline + KEY_LINE + newline)
    return template + "".join(parts)


def key_line_value(kind: WorkspaceKind, key: str | None) -> str:
    """Return what ``{{WORKSPACE_MEMORY_KEY}}`` renders as (I-2).

    ``persistent`` → the key itself (``ValueError`` if it is None); ``temporary`` →
    ``(none — temporary workspace)``; ``off`` → ``(none — memory is off)`` (em dashes, exact).

    >>> key_line_value("temporary", None)
    '(none — temporary workspace)'
    """
    if kind == "persistent":
        if not key:
            raise ValueError("a persistent Workspace needs its key")
        return key
    if kind == "temporary":
        return TEMPORARY_KEY_VALUE
    return OFF_KEY_VALUE


def substitute(
    template: str, memory: str, key_value: str, extra: Mapping[str, str] | None = None
) -> str:
    """Replace ``{{MEMORY}}`` and ``{{WORKSPACE_MEMORY_KEY}}`` by their values (P-1).

    ``extra`` maps further whole placeholders (``{"{{AGENT_ID}}": "coder"}``) to values, filled
    in the same pass. One pass over the template: placeholder text that arrives inside a value
    (an index that mentions ``{{WORKSPACE_MEMORY_KEY}}``) is never expanded again. Other ``{{…}}``
    placeholders are left for the harness. Hidden characters of the template's own text are
    shown escaped (I-9), as the plugin's rendering does, and a byte order mark at its start is
    left out (:func:`~memory_core.hidden_text.show_prompt`). The memory fills the first
    ``{{MEMORY}}`` only; a second one is left out (I-1: the indexes reach the model once).

    >>> substitute("a\\u202eb {{MEMORY}}", "M", "k")
    'a[hidden: U+202E]b M'
    >>> substitute("{{MEMORY}}|{{WORKSPACE_MEMORY_KEY}}|{{CWD}}", "M {{MEMORY}}", "k-0000abcd")
    'M {{MEMORY}}|k-0000abcd|{{CWD}}'
    >>> substitute("{{AGENT_ID}}: {{MEMORY}}", "{{AGENT_ID}}", "k", {"{{AGENT_ID}}": "coder"})
    'coder: {{AGENT_ID}}'
    >>> substitute("{{MEMORY}} and again {{MEMORY}}", "M", "k")
    'M and again '
    """
    from memory_core.hidden_text import show_prompt  # not on a write guard's path (H-5)

    template = show_prompt(template)
    values = {**(extra or {}), MEMORY_PLACEHOLDER: memory, KEY_PLACEHOLDER: key_value}
    pattern = re.compile("|".join(re.escape(name) for name in values) if extra else _SUBSTITUTE)

    def value(match: re.Match[str]) -> str:
        found = values[match.group(0)]
        if match.group(0) == MEMORY_PLACEHOLDER:
            values[MEMORY_PLACEHOLDER] = ""  # the memory once (I-1): a second {{MEMORY}} goes
        return found

    return pattern.sub(value, template)


class TemplateFileError(ValueError):
    """A template file that holds no text this reads (:func:`read_template_file`); the message
    names the file, its encoding, the first byte that is not such text and where it is."""


def read_template_file(path: Path, max_bytes: int = TEMPLATE_FILE_MAX_BYTES) -> str:
    """Read an operator's template file (UTF-8) of at most ``max_bytes``, never blocking.

    For ``--template-file`` options and ``HARNESS_MEMORY_TEMPLATE``. A FIFO nobody writes would
    block a plain ``open`` and ``/dev/zero`` never ends, so the file is opened non-blocking and
    must be a regular file. The text is what a person sees in an editor: a file that starts
    with a byte order mark (Windows Notepad's "UTF-8 with BOM", or its "Unicode": UTF-16) is
    read in that encoding without the mark, which never reaches the model, and CRLF line ends
    read as LF (I-9). Raises :class:`~memory_core.errors.NotRegularFileError` (a folder, FIFO,
    device or socket), ``OSError`` with ``EFBIG`` when it is longer than ``max_bytes``, other
    ``OSError`` (missing, unreadable) and :class:`TemplateFileError` (not UTF-8 and no byte
    order mark: Latin-1, say; or not the text its mark says: the message names the encoding
    and the byte at fault, at its offset in the whole file,
    :func:`~memory_core.byte_order.not_text`).
    """
    from memory_core.byte_order import decode_marked, not_text
    from memory_core.regular_files import read_regular_file

    raw = read_regular_file(path, max_bytes)
    try:
        text = decode_marked(raw)
    except UnicodeDecodeError as error:
        raise TemplateFileError(
            f"the template file {path} is {not_text(error)}: save it again as UTF-8"
        ) from None
    return text.replace("\r\n", "\n")
