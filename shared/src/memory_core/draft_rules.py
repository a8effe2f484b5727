"""The rule on a draft's prompt (A-12): text, and no character hidden wherever it stands (I-9).

A draft's prompt opens a chat Session as its first message: the model reads it as the user's
words, so it is held to what a system prompt template is held to (``TEMPLATE_RULE``: no control
character but tab and the line ends, zero-width space, bidirectional embedding, override or
isolate, invisible operator, tag character) besides being text at all (``DRAFT_PROMPT_RULE``).
Built from those two rules of :mod:`memory_core.rules`, so a change to either reaches drafts;
the refusal names the line and the characters, as a template's does.

>>> DRAFT_TEXT_RULE.problem("update memory\\n\\x00")  # doctest: +ELLIPSIS
'must not hold hidden characters (line 2: 1 control character (U+0000)): ...'
>>> DRAFT_TEXT_RULE.problem(" \\n"), DRAFT_TEXT_RULE.problem("update memory X")
('must not be empty', None)
"""

from __future__ import annotations

from memory_core.rules import DRAFT_PROMPT_RULE, TEMPLATE_RULE, WHITESPACE_CLASS, TextRule

__all__ = ["DRAFT_TEXT_RULE"]

DRAFT_TEXT_RULE = TextRule(
    # TEMPLATE_RULE's anchored pattern, and first (a lookahead) a character DRAFT_PROMPT_RULE
    # asks for: not only whitespace
    pattern=f"^(?=[\\s\\S]*[^{WHITESPACE_CLASS}]){TEMPLATE_RULE.pattern.removeprefix('^')}",
    summary=f"{DRAFT_PROMPT_RULE.summary}, and {TEMPLATE_RULE.summary}",
    explanations=(DRAFT_PROMPT_RULE.problem, TEMPLATE_RULE.problem),
)
"""A draft's prompt (A-12, I-9): accepted exactly when both ``DRAFT_PROMPT_RULE`` and
``TEMPLATE_RULE`` accept it; refused with the first one's reason."""
