"""I-1: a template's placeholder never closed is refused exactly when the same name closed would
be memory's: one memory fills in (``{{MEMORY``, ``{{WORKSPACE_MEMORY_KEY``) or one the closed
rule refuses (``{{memory``, ``{{MEMROY``); everyday text with an opening ``{{`` is allowed.

Before, every ``{{NAME`` made of memory's placeholder words (one edit each) was refused: an
unclosed ``{{user``, ``{{key`` or ``{{hey`` (closed, allowed), so a Python f-string
``f"{{user: {name}}}"``, a Rust ``format!("{{key {}", k)`` or a multi-line Jinja ``{{ user``
were refused with 422; the line was counted by LF only (a CR-only file said "line 1" for all);
and each ``{{…`` was judged again and counted from the start of the text, and all were named: a
1 MiB template of ``{{user`` lines took minutes and a 3.6 MB detail.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import SupportsIndex

import pytest
from memory_core import placeholder_typos
from memory_core.rules import template_placeholder_problem

EVERYDAY = [
    '```python\nprint(f"{{user: {name}}}")\n```\n',
    '```rust\nlet s = format!("{{key {}", k);\n```\n',
    "{% for user in users %}\n{{ user\n   | upper }}\n{% endfor %}\n",
    *(f"- {{{{{name}\n" for name in ("user", "key", "users", "used", "hey", "ker", "workspace")),
    "{{ WORKSPACE_MEMORY_URL\n",
    "- CWD: {{CWD\n",
]


@pytest.mark.parametrize("text", EVERYDAY)
def test_i1_everyday_text_with_an_unclosed_brace_is_allowed(text: str) -> None:
    assert template_placeholder_problem("{{MEMORY}}\n" + text) is None


@pytest.mark.parametrize(
    ("name", "found"),
    [
        ("{{MEMORY", "'{{MEMORY' on line 2 (meant for {{MEMORY}}?)"),
        ("{{MEMROY", "'{{MEMROY' on line 2 (meant for {{MEMORY}}?)"),
        ("{{MEM0RY", "'{{MEM0RY' on line 2 (meant for {{MEMORY}}?)"),
        ("{{memory", "'{{memory' on line 2 (meant for {{MEMORY}}?)"),
        ("{{ memory_user_index", "'{{ memory_user_index' on line 2"),
        ("{{WORKSPACE_MEMORY_KEY", "'{{WORKSPACE_MEMORY_KEY' on line 2"),
        ("{{WORKSPACE_MEMROY_KEY", "'{{WORKSPACE_MEMROY_KEY' on line 2 (meant for {{WORKSPACE"),
        ("{{index", "'{{index' on line 2"),
    ],
)
def test_i1_a_memory_name_never_closed_is_refused(name: str, found: str) -> None:
    problem = template_placeholder_problem(f"{{{{MEMORY}}}}\n- {name} here\n")

    assert problem is not None and found in problem, problem
    assert "which is never closed" in problem


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"])
def test_i1_the_line_named_follows_the_files_own_line_ends(end: str) -> None:
    template = end.join(["{{MEMORY}}", "Be kind.", "{{MEMORY", "End {{CWD}}", ""])

    problem = template_placeholder_problem(template)

    assert problem is not None and "'{{MEMORY' on line 3" in problem, problem


class _Tally(str):
    """A template that counts the characters read out of it to count its line ends."""

    read = 0

    def count(
        self, x: str, start: SupportsIndex | None = None, end: SupportsIndex | None = None
    ) -> int:
        first = 0 if start is None else int(start)
        _Tally.read += (len(self) if end is None else int(end)) - first
        return super().count(x, start, end)

    def __getitem__(self, key: SupportsIndex | slice) -> str:
        part = super().__getitem__(key)
        _Tally.read += len(part)
        return part


def _counting(judge: Callable[[str], str | None], calls: list[str]) -> Callable[[str], str | None]:
    def counted(name: str) -> str | None:
        calls.append(name)
        return judge(name)

    return counted


def test_i1_a_long_template_is_read_once_and_each_name_judged_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """20,000 unclosed names, five distinct memory ones among them: each distinct name is judged
    once, the text is read once to count its {{MEMORY}} and once to count lines, and three are
    named, the rest counted."""
    calls: list[str] = []
    # rules imports it where it judges (H-5: no hook process loads the typo rule unasked)
    monkeypatch.setattr(placeholder_typos, "intended", _counting(placeholder_typos.intended, calls))
    names = ["{{user", "{{MEMORY", "{{memory", "{{MEMROY", "{{MEM0RY", "{{ memory_index"]
    template = _Tally("{{MEMORY}}\n" + "".join(f"{names[i % 6]}\n" for i in range(20_000)))
    _Tally.read = 0

    problem = template_placeholder_problem(template)

    assert len(calls) <= 2 * len(names), len(calls)  # the closed rule and the hint's
    assert _Tally.read <= 2 * len(template), _Tally.read  # {{MEMORY}} counted, lines counted
    assert problem is not None and len(problem) < 400, len(problem or "")
    assert problem.endswith(
        "it holds '{{MEMORY' on line 3 (meant for {{MEMORY}}?), '{{memory' on line 4 (meant for "
        "{{MEMORY}}?), '{{MEMROY' on line 5 (meant for {{MEMORY}}?) and 2 more, each never "
        "closed: nothing fills it in, it would reach the model as written; close it with }}"
    )
