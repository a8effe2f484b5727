"""I-1, I-5: a harness's template file (``--template-file``, ``HARNESS_MEMORY_TEMPLATE``) whose
``{{MEMORY}}`` is missing, misspelt, doubled or never closed is named at Session start, as the
service refuses such a template for an agent (422); everyday text (``f"{{user: {name}}}"``) is
not.

Before, ``harness-memory session-start`` with a template holding ``{{ MEMORY }}`` or
``{{memory}}`` answered a system prompt without memory and with the misspelt placeholder in it,
and said nothing; one without ``{{MEMORY}}`` injected nothing, silently.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.session import template_problem
from memory_core.template import TemplateFileError, read_template_file

MISSING = "it holds no {{MEMORY}}, so no memory is injected (I-5)"
CASES = {
    "You are Coder.\n": MISSING,
    "You are Coder.\n{{ MEMORY }}\n": (
        f"{MISSING}; it holds '{{{{ MEMORY }}}}' (a typo of {{{{MEMORY}}}}?), which nothing fills "
        "in: it would reach the model as written"
    ),
    "You are Coder.\n{{memory}}\n": f"{MISSING}; it holds '{{{{memory}}}}'",
    "{{MEMORY}}\nand again {{MEMORY}}\n": (
        "it holds {{MEMORY}} 2 times: the memory goes at the first only"
    ),
    "{{MEMORY}}\n- Workspace Memory Key: {{ WORKSPACE_MEMORY_KEY }}\n": (
        "it holds '{{ WORKSPACE_MEMORY_KEY }}' (a typo of {{WORKSPACE_MEMORY_KEY}}?), which"
    ),
    "{{MEMORY}}\n- Workspace Memory Key: {{WORKSPACE_MEMROY_KEY}}\n": (
        "it holds '{{WORKSPACE_MEMROY_KEY}}' (a typo of {{WORKSPACE_MEMORY_KEY}}?), which nothing "
        "fills in: it would reach the model as written"
    ),
    "You are Coder.\n{{MEM0RY}}\n": (
        f"{MISSING}; it holds '{{{{MEM0RY}}}}' (a typo of {{{{MEMORY}}}}?), which nothing fills in"
    ),
    "You are Coder.\r{{MEMORY\r": (
        f"{MISSING}; it holds '{{{{MEMORY' on line 2 (meant for {{{{MEMORY}}}}?), which is never "
        "closed: nothing fills it in, it would reach the model as written; close it with }}"
    ),
    "{{MEMORY}}\n- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY\n": (
        "it holds '{{WORKSPACE_MEMORY_KEY' on line 2 (meant for {{WORKSPACE_MEMORY_KEY}}?), which "
        "is never closed"
    ),
}
FINE = [
    "You are Coder.\n{{MEMORY}}\n",
    "{{MEMORY}}\n# Environment\n- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}\n- CWD: {{CWD}}\n",
    "{{MEMORY}}\n- Memo: {{MEMO}}\n- Memory service: {{WORKSPACE_MEMORY_URL}}\n",
    '{{MEMORY}}\n```python\nprint(f"{{user: {name}}}")\n```\n',
    "{{MEMORY}}\n{% for user in users %}\n{{ user\n   | upper }}\n{% endfor %}\n",
]


def start(tmp_path: Path, template: str) -> str:
    """``harness-memory session-start`` with ``template`` as its file (the service down: the
    Session fails open), and what it printed."""
    path = tmp_path / "template.md"
    path.write_text(template, encoding="utf-8")
    out = io.StringIO()
    words = ["session-start", "--url", "http://127.0.0.1:9", "--project", "acme"]
    words += ["--agent", "coder", "--workspace", str(tmp_path), "--template-file", str(path)]
    assert main(words, environ={"HOME": str(tmp_path)}, stdout=out) == 0
    return out.getvalue()


@pytest.mark.parametrize("template", list(CASES))
def test_a_template_file_without_its_placeholder_as_written_is_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, template: str
) -> None:
    caplog.set_level(logging.WARNING, logger="harness_memory")

    start(tmp_path, template)

    said = [r.getMessage() for r in caplog.records if "template file" in r.getMessage()]
    assert len(said) == 1
    assert said[0].startswith(f"the template file {tmp_path / 'template.md'}: ")
    assert CASES[template] in said[0]


@pytest.mark.parametrize("template", FINE)
def test_a_template_file_holding_it_once_says_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, template: str
) -> None:
    caplog.set_level(logging.WARNING, logger="harness_memory")

    start(tmp_path, template)

    assert template_problem(template) is None
    assert not [r for r in caplog.records if "template file" in r.getMessage()]


TEMPLATE = "You are Coder \u2014 caf\u00e9.\n{{MEMORY}}\n"
SAVED_AS = {
    "utf-8 with BOM (Notepad)": b"\xef\xbb\xbf" + TEMPLATE.encode(),
    "utf-16 (Notepad's Unicode)": TEMPLATE.encode("utf-16"),
    "utf-16 big-endian with BOM": b"\xfe\xff" + TEMPLATE.encode("utf-16-be"),
    "utf-32 with BOM": TEMPLATE.encode("utf-32"),
    "crlf line ends": TEMPLATE.replace("\n", "\r\n").encode(),
}


@pytest.mark.parametrize("saved_as", list(SAVED_AS))
def test_a_template_file_is_read_as_its_editor_shows_it(tmp_path: Path, saved_as: str) -> None:
    """A template file saved by a Windows editor starts with a byte order mark (or is UTF-16):
    the prompt began ``[hidden: U+FEFF]You are Coder`` (or the Session start refused "'utf-8'
    codec can't decode byte 0xff"). What reaches the model is the text a person sees in the
    editor, with LF line ends, and ``memory-api agent create --template-file`` reads it alike
    (:func:`~memory_core.template.read_template_file`)."""
    path = tmp_path / "template.md"
    path.write_bytes(SAVED_AS[saved_as])

    assert read_template_file(path) == TEMPLATE
    out = io.StringIO()
    words = ["session-start", "--url", "http://127.0.0.1:9", "--project", "acme", "--agent"]
    words += ["coder", "--workspace", str(tmp_path), "--template-file", str(path)]
    assert main(words, environ={"HOME": str(tmp_path)}, stdout=out) == 0
    assert out.getvalue().startswith("You are Coder \u2014 caf\u00e9.\n")
    assert "\r" not in out.getvalue() and "[hidden" not in out.getvalue()


def test_a_template_file_in_a_legacy_encoding_is_named_with_the_byte_that_is_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Latin-1 (no byte order mark says which encoding): refused, naming the file, the byte and
    where it is, never the codec's bare "'utf-8' codec can't decode"."""
    path = tmp_path / "template.md"
    path.write_bytes("You are Coder, caf\u00e9.\n{{MEMORY}}\n".encode("latin-1"))

    with pytest.raises(TemplateFileError) as raised:
        read_template_file(path)
    said = (
        f"the template file {path} is not UTF-8 text (byte 0xe9 at offset 18: invalid "
        "continuation byte): save it again as UTF-8"
    )
    assert str(raised.value) == said
    words = ["session-start", "--url", "http://127.0.0.1:9", "--project", "acme", "--agent"]
    words += ["coder", "--workspace", str(tmp_path), "--template-file", str(path)]
    with pytest.raises(SystemExit):
        main(words, environ={"HOME": str(tmp_path)}, stdout=io.StringIO())
    assert said in capsys.readouterr().err


@pytest.mark.parametrize(
    ("mark", "encoding", "said"),
    [
        (b"\xef\xbb\xbf", "utf-8", "UTF-8 text its byte order mark (EF BB BF) says"),
        (b"\xff\xfe", "utf-16-le", "UTF-16 little-endian text its byte order mark (FF FE) says"),
        (b"\xfe\xff", "utf-16-be", "UTF-16 big-endian text its byte order mark (FE FF) says"),
    ],
)
def test_a_marked_template_file_that_is_not_its_text_names_its_encoding_and_the_byte_at_fault(
    tmp_path: Path, mark: bytes, encoding: str, said: str
) -> None:
    """A file whose byte order mark names an encoding is judged in that encoding, and the
    byte at fault is named at its offset in the whole file (mark included): ``EF BB BF 80``
    was said to be byte 0xef at offset 0, and "not UTF-8 text: save it as UTF-8" of a file
    saved as UTF-8."""
    path = tmp_path / "template.md"
    good = "You are Coder.\n".encode(encoding)
    lone = "\ud800A".encode(encoding, "surrogatepass")  # a surrogate no other one follows
    bad = b"\x80" if encoding == "utf-8" else lone
    path.write_bytes(mark + good + bad)

    with pytest.raises(TemplateFileError) as raised:
        read_template_file(path)
    offset = len(mark) + len(good)
    assert str(raised.value).startswith(
        f"the template file {path} is not the {said} (byte 0x{(mark + good + bad)[offset]:02x} "
        f"at offset {offset}: "
    )
