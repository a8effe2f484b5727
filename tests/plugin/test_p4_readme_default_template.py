"""P-4, I-7: the built-in template the plugin README shows ("Without `--template-file` the
built-in template is used") is exactly the one ``harness-memory session-start`` uses, key line
right after ``# Environment`` as the placeholder insert puts it."""

from __future__ import annotations

from pathlib import Path

from harness_memory.settings import DEFAULT_TEMPLATE

README = Path(__file__).resolve().parents[2] / "plugins" / "harness-memory" / "README.md"


def readme_default_template() -> str:
    """The Markdown block that follows the README's words naming the built-in template."""
    text = README.read_text(encoding="utf-8")
    after = text.split("Without `--template-file` the built-in template\nis used:\n", 1)[1]
    return after.split("```markdown\n", 1)[1].split("```", 1)[0]


def test_p4_readme_default_template_is_the_one_used() -> None:
    assert readme_default_template() == DEFAULT_TEMPLATE
