"""JSON with comments, edited in place: a commented settings file keeps every byte the install
does not own (H-3).

Gemini CLI reads its settings through ``strip-json-comments``: ``//`` and ``/* */`` comments
anywhere between tokens. Rewriting such a file from its object would drop them, so
:func:`edit` changes the text itself, as little as the object's change needs: a member whose
value changes has that value's text replaced (objects on both sides are edited member by
member, recursively); a new member is inserted after the object's last one, laid out like its
siblings (or, in an empty object, one indent deeper than the object's line); a member taken out
is cut with the comma and line it brings. Everything else — comments, blank lines, key order,
spacing — stays byte for byte. A change that would cut or rewrite a comment (a member holding
one is taken out, a value holding one is replaced) is refused (:class:`JsoncError`) rather than
lose it; so is a file with a key twice in one object (which one a reader takes is its own
choice). Only the install's own keys change, and they carry no comment of the user's.

Libraries looked at: ``json-five`` keeps comments through its model loader and dumper, but a
new member must be built as model nodes with their whitespace lists by hand, and it reads
JSON5 (unquoted keys, trailing commas), more than Gemini CLI does; ``jsonc-edit`` runs
Microsoft's ``jsonc-parser`` in a Node.js child process. This module is the small scanner the
edits need.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from memory_core import json_text

from harness_memory.installers.json_values import escaped_surrogates

__all__ = ["JsoncError", "edit", "has_comments", "loads"]


class JsoncError(ValueError):
    """The text is not JSON with comments, or the edit would lose a comment; the message names
    the line."""


@dataclass(slots=True)
class _Member:
    key: str
    start: int
    value: _Node
    comma: int | None = None


@dataclass(slots=True)
class _Node:
    start: int
    end: int
    value: Any = None
    members: list[_Member] = field(default_factory=list)
    """An object's members; an array's items (each as a member without a key)."""
    is_object: bool = False
    is_array: bool = False


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text

    def line(self, at: int) -> int:
        return self.text.count("\n", 0, at) + 1

    def fail(self, at: int, what: str) -> JsoncError:
        return JsoncError(f"line {self.line(at)}: {what}")

    def skip(self, at: int) -> int:
        """The index of the next token at or after ``at``: white space and comments skipped."""
        text = self.text
        while at < len(text):
            if text[at] in " \t\r\n\ufeff":
                at += 1
            elif text.startswith("//", at):
                end = text.find("\n", at)
                at = len(text) if end < 0 else end
            elif text.startswith("/*", at):
                end = text.find("*/", at + 2)
                if end < 0:
                    raise self.fail(at, "a /* comment is never closed")
                at = end + 2
            else:
                break
        return at

    def value(self, at: int) -> _Node:
        at = self.skip(at)
        if at >= len(self.text):
            raise self.fail(at, "a value is missing")
        char = self.text[at]
        if char == "{":
            return self.object(at)
        if char == "[":
            return self.array(at)
        if char == '"':
            end = self.string_end(at)
            return _Node(at, end, json_text.loads(self.text[at:end]))
        end = at
        while end < len(self.text) and self.text[end] not in ",:]}/ \t\r\n":
            end += 1
        try:
            return _Node(at, end, json_text.loads(self.text[at:end]))
        except ValueError:
            raise self.fail(at, f"{self.text[at:end][:20]!r} is no JSON value") from None

    def string_end(self, at: int) -> int:
        index = at + 1
        while index < len(self.text):
            char = self.text[index]
            if char == "\\":
                index += 2
                continue
            if char == '"':
                return index + 1
            if char == "\n":
                break
            index += 1
        raise self.fail(at, "a string is never closed")

    def object(self, at: int) -> _Node:
        node = _Node(at, at, {}, is_object=True)
        index = self.skip(at + 1)
        while self.text[index : index + 1] != "}":
            if self.text[index : index + 1] != '"':
                raise self.fail(index, "a key (a string) or } is expected")
            key_end = self.string_end(index)
            key = json_text.loads(self.text[index:key_end])
            if key in node.value:
                raise self.fail(index, f"the key {key!r} is there twice")
            colon = self.skip(key_end)
            if self.text[colon : colon + 1] != ":":
                raise self.fail(colon, "':' is expected after a key")
            value = self.value(colon + 1)
            member = _Member(key, index, value)
            node.members.append(member)
            node.value[key] = value.value
            index = self.skip(value.end)
            if self.text[index : index + 1] == ",":
                member.comma = index
                index = self.skip(index + 1)
                if self.text[index : index + 1] == "}":
                    raise self.fail(index, "a ',' before '}'")
            elif self.text[index : index + 1] != "}":
                raise self.fail(index, "',' or '}' is expected")
        node.end = index + 1
        return node

    def array(self, at: int) -> _Node:
        node = _Node(at, at, [], is_array=True)
        index = self.skip(at + 1)
        while self.text[index : index + 1] != "]":
            item = self.value(index)
            node.value.append(item.value)
            node.members.append(_Member("", item.start, item))
            index = self.skip(item.end)
            if self.text[index : index + 1] == ",":
                node.members[-1].comma = index
                index = self.skip(index + 1)
                if self.text[index : index + 1] == "]":
                    raise self.fail(index, "a ',' before ']'")
            elif self.text[index : index + 1] != "]":
                raise self.fail(index, "',' or ']' is expected")
        node.end = index + 1
        return node

    def document(self) -> _Node:
        node = self.value(0)
        rest = self.skip(node.end)
        if rest < len(self.text):
            raise self.fail(rest, "text follows the value")
        return node


def loads(text: str) -> Any:
    """The value of a JSON text that may hold ``//`` and ``/* */`` comments.

    Raises :class:`JsoncError` naming the line for text that is not one value, a key twice in
    one object, or a comment never closed."""
    try:
        return _Scanner(text).document().value
    except RecursionError:
        raise JsoncError("line 1: nested too deeply") from None


def has_comments(text: str) -> bool:
    """Whether ``text`` (JSON, with or without comments) holds a comment outside its strings."""
    return _comment_in(_Scanner(text), 0, len(text))


def _comment_in(scanner: _Scanner, start: int, end: int) -> bool:
    text = scanner.text
    index = start
    while index < end:
        if text[index] == '"':
            index = scanner.string_end(index)
        elif text.startswith(("//", "/*"), index):
            return True
        else:
            index += 1
    return False


def edit(text: str, new: dict[str, Any], unit: str = "  ") -> str:
    """``text`` (a JSON object, comments allowed) changed to hold ``new``, every byte outside
    the members that change kept; ``unit`` is one level of indent where the file shows none.

    Raises :class:`JsoncError` for text that is not a JSON object, or a change that would cut
    or rewrite a comment."""
    scanner = _Scanner(text)
    try:
        root = scanner.document()
    except RecursionError:
        raise JsoncError("line 1: nested too deeply") from None
    if not root.is_object:
        raise scanner.fail(root.start, "the settings are not a JSON object")
    edits: list[tuple[int, int, str]] = []
    _edit_object(scanner, root, new, _unit_of(scanner, root) or unit, edits)
    ordered = sorted(edits)
    for before, after in itertools.pairwise(ordered):
        start = after[0]
        if start < before[1]:  # a member added where one is taken out: no text does both here
            raise scanner.fail(start, "the change both takes out and adds members there")
    for start, end, replacement in reversed(ordered):
        text = text[:start] + replacement + text[end:]
    return text


def _unit_of(scanner: _Scanner, root: _Node) -> str | None:
    """One level of indent as the file shows it: the white space before its first member."""
    if not root.members:
        return None
    indent = _indent_at(scanner.text, root.members[0].start)
    return indent or None


def _indent_at(text: str, at: int) -> str | None:
    """The white space between the start of ``at``'s line and ``at``; None when anything else
    stands there (the member shares its line with what comes before it)."""
    line_start = text.rfind("\n", 0, at) + 1
    lead = text[line_start:at]
    return lead if lead.strip() == "" else None


def _edit_object(
    scanner: _Scanner,
    node: _Node,
    new: dict[str, Any],
    unit: str,
    edits: list[tuple[int, int, str]],
    *,
    compact: bool = False,
) -> None:
    """Add to ``edits`` what turns ``node`` (an object) into ``new``; ``compact``: the object
    stands on a line with other members (an empty one then gets its members on that line)."""
    members = {member.key: member for member in node.members}
    for member in node.members:
        if member.key not in new:
            continue
        wanted = new[member.key]
        if not _types_differ(member.value.value, wanted):
            continue
        indent = _indent_at(scanner.text, member.start)
        if member.value.is_object and isinstance(wanted, dict):
            _edit_object(scanner, member.value, wanted, unit, edits, compact=indent is None)
            continue
        if member.value.is_array and isinstance(wanted, list):
            grown = _edit_array(scanner, member.value, wanted, unit, compact=indent is None)
            if grown is not None:
                edits += grown
                continue
        if _comment_in(scanner, member.value.start, member.value.end):
            raise scanner.fail(member.value.start, f"{member.key!r} holds a comment")
        edits.append((member.value.start, member.value.end, _render(wanted, indent, unit)))
    added: list[tuple[str | None, Any]] = [(key, new[key]) for key in new if key not in members]
    gone = [member for member in node.members if member.key not in new]
    edits += _cuts(scanner, node, gone, keep_comma=bool(added))
    if added:
        kept = [member for member in node.members if member.key in new]
        if len(kept) < len(node.members) and not kept:
            raise scanner.fail(node.start, "the change takes out every member and adds others")
        edits += _insertion(scanner, node, added, unit, compact, kept)


def _edit_array(
    scanner: _Scanner, node: _Node, new: list[Any], unit: str, *, compact: bool
) -> list[tuple[int, int, str]] | None:
    """The edits turning the array ``node`` into ``new`` when ``new`` only adds items after
    its own or only takes items off its end (the user's items keep their bytes); None when
    the change is another (the caller replaces the array)."""
    old: list[Any] = node.value
    if len(new) > len(old) and not _types_differ(old, new[: len(old)]):
        return _insertion(scanner, node, [(None, item) for item in new[len(old) :]], unit, compact)
    if len(new) < len(old) and not _types_differ(old[: len(new)], new):
        return _cuts(scanner, node, node.members[len(new) :])
    return None


def _types_differ(old: Any, new: Any) -> bool:
    """``1 == True`` and ``1 == 1.0`` in Python, not in the file."""
    return json.dumps(old) != json.dumps(new)


def _render(value: Any, indent: str | None, unit: str) -> str:
    if indent is None:  # a compact object: its members on one line
        return escaped_surrogates(json.dumps(value, ensure_ascii=False, separators=(", ", ": ")))
    text = escaped_surrogates(json.dumps(value, ensure_ascii=False, indent=unit))
    return text.replace("\n", "\n" + indent)


def _insertion(
    scanner: _Scanner,
    node: _Node,
    added: list[tuple[str | None, Any]],
    unit: str,
    compact: bool,
    kept: list[_Member] | None = None,
) -> list[tuple[int, int, str]]:
    """The edits adding ``added`` (``(key, value)``; key None for an array's item) after the
    last of ``kept`` (``node``'s members or items that stay; all of them by default), laid out
    like it."""
    text = scanner.text
    newline = "\r\n" if "\r\n" in text else "\n"
    members = node.members if kept is None else kept
    if members:
        tail = members[-1]  # its comma stays when members after it are taken out (_cuts)
        last = tail.value
        anchor = last.end if tail.comma is None else tail.comma + 1
        indent = _indent_at(text, tail.start)
        if indent is None:  # a compact object: on the same line
            parts = [_key(k) + _render(v, None, unit) for k, v in added]
            joined = ", ".join(parts)
            return [(anchor, anchor, (", " if tail.comma is None else " ") + joined)]
        parts = [indent + _key(k) + _render(v, indent, unit) for k, v in added]
        body = "".join("," + newline + part for part in parts)[1:]  # without the first comma
        line_end = text.find("\n", anchor)
        if (
            line_end < 0
            or scanner.skip(anchor) < line_end
            or not _closed(text[anchor:line_end])
            or text[anchor:line_end].strip() == ""
        ):
            return [(anchor, anchor, ("," if tail.comma is None else "") + body)]
        if text[line_end - 1 : line_end] == "\r":
            line_end -= 1
        # the comma after the value, the members after whatever comment ends its line
        comma = [(last.end, last.end, ",")] if tail.comma is None else []
        return [*comma, (line_end, line_end, body)]
    if compact:
        parts = [_key(k) + _render(v, None, unit) for k, v in added]
        if text[node.start + 1 : node.end - 1].strip() == "":
            return [(node.start + 1, node.end - 1, ", ".join(parts))]
        return [(node.end - 1, node.end - 1, ", ".join(parts))]  # after the comments inside
    outer = _line_indent(text, node.start)
    indent = outer + unit
    parts = [indent + _key(k) + _render(v, indent, unit) for k, v in added]
    joined = ("," + newline).join(parts)
    close = node.end - 1
    if text[node.start + 1 : close].strip() == "":
        return [(node.start + 1, close, newline + joined + newline + outer)]
    close_line = text.rfind("\n", 0, close) + 1
    if close_line > node.start and text[close_line:close].strip() == "":
        return [(close_line, close_line, joined + newline)]
    # a comment and the closing bracket on one line: the members after it on that line too
    inline = [_key(k) + _render(v, None, unit) for k, v in added]
    return [(close, close, ", ".join(inline))]


def _key(key: str | None) -> str:
    """What stands before a value: ``"key": `` in an object, nothing in an array."""
    return "" if key is None else escaped_surrogates(json.dumps(key, ensure_ascii=False)) + ": "


def _closed(segment: str) -> bool:
    """Whether a block comment opened in ``segment`` (the rest of a line) also ends there."""
    return "/*" not in segment or segment.rfind("*/") > segment.rfind("/*")


def _line_indent(text: str, at: int) -> str:
    line_start = text.rfind("\n", 0, at) + 1
    line = text[line_start:at]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _cuts(
    scanner: _Scanner, node: _Node, gone: list[_Member], *, keep_comma: bool = False
) -> list[tuple[int, int, str]]:
    """The edits taking the members ``gone`` out of ``node``, each with its line and comma:
    one before a kept member from its line to that member's line; those after the last kept
    member from the end of its line, its comma too (unless ``keep_comma``: members are added
    after it)."""
    text = scanner.text
    members = node.members
    kept = [index for index, member in enumerate(members) if member not in gone]
    last_kept = kept[-1] if kept else -1
    cuts: list[tuple[int, int]] = []
    for index, member in enumerate(members[: last_kept + 1]):
        if member not in gone:
            continue
        line_start = text.rfind("\n", 0, member.start) + 1
        own_line = text[line_start : member.start].strip() == ""
        start = line_start if own_line else member.start
        end = members[index + 1].start
        next_line = text.rfind("\n", 0, end) + 1
        if next_line > start and text[next_line:end].strip() == "":
            end = next_line
        cuts.append((start, end))
    if last_kept + 1 < len(members):  # a run at the end
        first, last = members[last_kept + 1], members[-1]
        close = node.end - 1
        if last_kept < 0 and text[node.start + 1 : first.start].strip() == "":
            cuts.append((node.start + 1, close))  # nothing of the user's inside: `{}` again
        elif last_kept < 0:  # comments of the user's before them: from the members' lines
            line_start = text.rfind("\n", 0, first.start) + 1
            start = line_start if text[line_start : first.start].strip() == "" else first.start
            close_line = text.rfind("\n", 0, close) + 1
            end = last.value.end
            if close_line > end and text[end:close_line].strip() == "":
                end = close_line
            cuts.append((start, end))
        else:
            comma = members[last_kept].comma
            assert comma is not None
            line_start = text.rfind("\n", 0, first.start) + 1
            if text[line_start : first.start].strip() == "" and line_start > comma:
                start = line_start - 1 - (text[line_start - 2 : line_start - 1] == "\r")
                cuts.append((max(start, comma + 1), last.value.end))
                if not keep_comma:
                    cuts.append((comma, comma + 1))
            else:
                cuts.append((comma + 1 if keep_comma else comma, last.value.end))
    for start, end in cuts:
        if _comment_in(scanner, start, end):
            raise scanner.fail(start, "taking the install's keys out would cut a comment")
    return [(start, end, "") for start, end in cuts]
