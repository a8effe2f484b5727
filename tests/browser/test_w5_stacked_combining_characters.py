"""W-5 and Q-2: a memory stacking combining characters on one letter never freezes the page.

A browser lays out a stack of combining characters on one base in time growing with its height
squared (Chromium: 30,000 acute accents on one letter 8 s, 10,000 skin tone modifiers 14 s), and
an agent's file under the 1 MiB read cap holds 300,000: the Memory tab froze for minutes on the
row's description before this was fixed. The page shows a stack's first 30 (Unicode's
stream-safe limit, UAX #15: no text anyone writes stacks more) and then a mark naming how many
more the file holds, wherever it shows what an agent wrote (a row, the viewer's body, an index
line); the file is unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import SeededDataDirs, module_service
from tests.browser.pages import (
    MEMORY_TAB,
    PROMPT_TAB,
    PageFactory,
    open_memory_tab,
    row,
    user_group,
    viewer,
)
from tests.browser.service import Service, write_topic

pytestmark = pytest.mark.browser

ACUTE = "\u0301"
SKIN_TONE = "\U0001f3fb"
STACK = 200_000
"""Combining characters on one letter: 400 kB of UTF-8; the description and the body, twice
that, lie under a topic file's 1 MiB read cap."""
SHOWN = 30
LISTED = "[stacked: 969 more combining characters]…"
"""A listing row carries a description's first 1,000 characters and marks the cut (A-5): its
stack counts the 999 marks the row carries, past the 30 shown, then the cut's ellipsis."""
KHMER_JOINED = "\u17c6\u200d"
"""A Khmer sign and a zero width joiner: the joiner is no Grapheme_Extend, yet joins the
character before it, so ``ក`` + this × N is one grapheme as tall as N."""
TAGS = "".join(chr(0xE0000 + ord(char)) for char in "curl x | sh")
EVERYDAY = [
    "Tiếng Việt, ệ ở ữ",
    "שָׁלוֹם עֲלֵיכֶם",
    "क्षत्रिय, ज्ञान",
    "👍🏽 🧑🏿‍🚀 🏳️‍🌈",
    "Z̷̢̛a̴̡l̸g̵o̶ lite",
    "👩🏽‍🤝‍👨🏿 👨‍👩‍👧‍👦 🧑🏻‍❤️‍💋‍🧑🏿",
    "ស្រី​ក្នុង ក្‍ស",
    "น้ำดื่ม กำลัง ນ້ຳ, தமிழ் கொண்டு, ស្រែ",
    "e" + ACUTE * SHOWN,
]
"""Texts with combining characters as people write them, the tallest stack at the limit."""


@pytest.fixture(scope="module")
def stacks_service(seeded_data_dirs: SeededDataDirs) -> Iterator[Service]:
    """The demo service this module's tests write their stacks to, shared by them: each writes
    a file of its own name, an index line, a draft or the template, which no other test here
    reads, so one seed and one start serve them all instead of one per test."""
    with module_service(seeded_data_dirs) as service:
        yield service


@pytest.fixture
def page(open_page: PageFactory, stacks_service: Service) -> Page:
    """A desktop-sized page against :func:`stacks_service`."""
    return open_page(stacks_service)


def test_w5_a_stack_of_combining_characters_shows_its_first_30_and_a_mark(
    page: Page, stacks_service: Service
) -> None:
    scope = stacks_service.scope_dir("user")
    write_topic(
        scope,
        "stacked.md",
        name="stacked",
        description="x" + ACUTE * STACK,
        updated_at="2026-12-05",
        body=f"# Stacked\n\ne{ACUTE * STACK} accents\n\nthumbs 👍{SKIN_TONE * 10_000} up\n",
    )
    index = scope / "MEMORY.md"
    index.write_text(
        index.read_text(encoding="utf-8") + f"- [Stacked](stacked.md) — y{ACUTE * STACK}\n",
        encoding="utf-8",
    )
    more = f"[stacked: {STACK - SHOWN:,} more combining characters]"

    open_memory_tab(page)
    target = row(user_group(page), "stacked.md")
    expect(target.locator(".row-desc")).to_have_text("x" + ACUTE * SHOWN + LISTED)

    target.get_by_role("button", name="View").click()
    body = viewer(page).locator(".viewer-body .md")
    expect(body).to_contain_text("e" + ACUTE * SHOWN + more + " accents")
    expect(body).to_contain_text(f"👍{SKIN_TONE * SHOWN}[stacked: 9,970 more combining characters]")

    page.goto(MEMORY_TAB + "/index/user")
    lines = viewer(page).locator(".index-lines")
    expect(lines).to_contain_text("y" + ACUTE * SHOWN + more)
    assert (scope / "stacked.md").read_text(encoding="utf-8").count(ACUTE) == 2 * STACK


def test_w5_combining_characters_as_people_write_them_show_as_written(
    open_page: PageFactory, read_only_service: Service
) -> None:
    page = open_page(read_only_service)  # the page's own rule, run in it: nothing is written
    open_memory_tab(page)
    shown = page.evaluate(
        """async (texts) => {
             const url = new URL("static/js/hidden-text.js", document.baseURI);
             const { showHidden } = await import(url.href);
             return texts.map((text) => showHidden(text));
           }""",
        EVERYDAY,
    )
    assert shown == EVERYDAY


def test_w5_a_stack_joined_by_zero_width_joiners_is_cut_too(
    page: Page, stacks_service: Service
) -> None:
    """Found: ``ក`` + (U+17C6 U+200D) × N was never cut, the joiners breaking the run of
    Grapheme_Extend characters while the whole stays one grapheme on one base."""
    stack = KHMER_JOINED * 20_000
    write_topic(
        stacks_service.scope_dir("user"),
        "khmer.md",
        name="khmer",
        description="\u1780" + stack,
        updated_at="2026-12-05",
        body="a body\n",
    )
    open_memory_tab(page)
    description = row(user_group(page), "khmer.md").locator(".row-desc")
    expect(description).to_have_text("\u1780" + stack[:SHOWN] + LISTED)


SPACING_MARKS = {
    "\u0e01": "\u0e33",  # Thai SARA AM: a letter (Lo) that joins the one before it
    "\u0e81": "\u0eb3",  # Lao AM, the same
    "\u1780": "\u17c2",  # a Khmer vowel sign (Mc)
    "\u0915": "\u0903",  # Devanagari VISARGA (Mc)
}
"""A base and a spacing mark (Grapheme_Cluster_Break=SpacingMark, no Grapheme_Extend): each
stacks on the one before it as one grapheme (UAX #29 GB9a)."""


def test_w5_a_stack_of_spacing_marks_is_cut_too(page: Page, stacks_service: Service) -> None:
    """Found: a stack of spacing marks was never cut, only Grapheme_Extend characters were
    counted; Chromium laid ``ก`` + U+0E33 × 20,000 out in 2.8 s (a Lao or Khmer one alike),
    growing with the square as accents do, so a description of 200,000 froze the Memory tab."""
    stacks = {base: base + mark * 20_000 for base, mark in SPACING_MARKS.items()}
    write_topic(
        stacks_service.scope_dir("user"),
        "spacing.md",
        name="spacing",
        description=stacks["\u0e01"],
        updated_at="2026-12-05",
        body="".join(f"{stack} x\n\n" for stack in stacks.values()),
    )
    more = f"[stacked: {20_000 - SHOWN:,} more combining characters]"
    open_memory_tab(page)
    target = row(user_group(page), "spacing.md")
    expect(target.locator(".row-desc")).to_have_text(stacks["\u0e01"][: SHOWN + 1] + LISTED)

    target.get_by_role("button", name="View").click()
    body = viewer(page).locator(".viewer-body .md")
    for stack in stacks.values():
        expect(body).to_contain_text(stack[: SHOWN + 1] + more + " x")


def test_w5_a_prompt_copied_and_sent_keeps_a_stack_whole_its_preview_cuts_it(
    page: Page, stacks_service: Service
) -> None:
    """The bridge's prompt is what the agent saves: found, Copy and the draft carried the
    page's ``[stacked: …]`` mark in place of the accents pasted into Add, so the memory would
    have held the mark. Only the preview, which shows the prompt, cuts the stack."""
    pasted = "Café au lait: e" + ACUTE * (SHOWN + 10)
    open_memory_tab(page)
    user_group(page).get_by_role("button", name="Add a memory to user memory").click()
    modal = page.locator("dialog.bridge")
    modal.locator("#bridge-field").fill(pasted)
    preview = modal.locator("#bridge-preview")
    prompt = f"Save this into your user memory:\n\n{pasted}"
    expect(preview).to_have_text(prompt[:-10] + "[stacked: 10 more combining characters]")

    modal.get_by_role("button", name="Copy").click()
    expect(modal.locator(".inline-status")).to_have_text("Prompt copied.")
    assert page.evaluate("() => navigator.clipboard.readText()") == prompt
    with page.context.expect_page() as opened:
        modal.get_by_role("button", name="Open a new chat").click()
    chat = opened.value
    chat.wait_for_url("**/chat/**")
    draft_id = chat.url.split("?", 1)[0].rsplit("/", 1)[-1]
    assert (
        stacks_service.get(stacks_service.agent_path() + f"/drafts/{draft_id}")["prompt"] == prompt
    )


def test_w5_fix_this_memory_shows_a_stack_cut_and_sends_it_as_the_agent_wrote_it(
    page: Page, stacks_service: Service
) -> None:
    """ "Fix this memory" prefills the lint's words, which quote a dangling wiki link as
    written. The field, and the memory's name above it, show a stack cut with the mark, as
    everywhere the page shows an agent's text (found: the field held 3,000 accents whole, and
    a textarea lays a stack out in time growing with its height squared, as any element
    does); what is copied holds the stack whole, sent as is or edited around its mark (found
    before: the mark was sent for it)."""
    stack = ACUTE * 3_000
    write_topic(
        stacks_service.scope_dir("user"),
        "links.md",
        name=f"links{stack}",
        description="a note with a link",
        updated_at="2026-12-05",
        body=f"See [[e{stack}]].\n",
    )
    more = f"[stacked: {len(stack) - SHOWN:,} more combining characters]"
    cut = f"[[e{ACUTE * SHOWN}{more}]]"
    page.goto(f"{MEMORY_TAB}/fix/user/links.md")
    modal = page.locator("dialog.bridge")
    expect(modal.locator("#bridge-title")).to_have_text(f"Edit “links{ACUTE * SHOWN}{more}”")
    field = modal.locator("#bridge-field")
    expect(field).to_have_value(re.compile(r"names no topic file"))
    assert re.search(re.escape(cut[:-3]) + r" · [a-z2-9]{5}\]\]", field.input_value())
    expect(modal.locator("#bridge-preview")).to_contain_text(cut)

    copied = []
    for added in ("", "\nAnd say why in its description."):
        field.fill(field.input_value() + added)
        modal.locator(".inline-status").evaluate("(status) => { status.textContent = ''; }")
        modal.get_by_role("button", name="Copy").click()
        expect(modal.locator(".inline-status")).to_have_text("Prompt copied.")
        copied.append(page.evaluate("() => navigator.clipboard.readText()"))

    assert [f"[[e{stack}]]" in text and "[stacked:" not in text for text in copied] == [True] * 2
    assert copied[1].endswith("\nAnd say why in its description.")


GRAVE = "\u0300"
MORE = "[stacked: 2,970 more combining characters]"
"""The mark of a stack of 3,000 cut at 30, as the page shows it outside a field."""
FIELD = """async (text) => {
  const { fieldText } = await import(new URL("static/js/hidden-text.js", document.baseURI).href);
  const prefilled = fieldText(text);
  const field = document.createElement("textarea");
  field.id = "w5-field";
  field.value = prefilled.shown;
  document.body.append(field);
  window.w5Sent = () => prefilled.whole(field.value);
}"""
"""A field prefilled as the Fix modal's is (:func:`fieldText`); ``w5Sent()`` is what would be
copied or sent."""
FIELD_MARK = r"\[stacked: [\d,]+ more combining characters? · [a-z2-9]{5}\]"
"""A mark in a field: the page's mark with the field's token."""
CARET = """(field, [pattern, which, over]) => {
  const marks = [...field.value.matchAll(new RegExp(pattern, "g"))];
  const at = which === "end" ? field.value.length : marks[which].index;
  field.focus();
  field.setSelectionRange(at, over ? at + marks[which][0].length : at);
  return over ? marks[which][0] : "";
}"""
"""Puts the caret before the field's mark ``which`` (or at the end), selecting the mark when
``over``; returns the selected mark's text."""

Step = tuple[str, str | int]
"""One thing a person does in the field: ("caret", mark index or "end"), ("select", mark
index), ("copy", mark index: its text, to ("paste", "")), ("type", keys), ("paste", text),
("press", a key)."""


def _sent_after(page: Page, text: str, *steps: Step) -> str:
    """What is sent after a person does ``steps`` in a field prefilled with ``text``."""
    page.evaluate("() => document.querySelector('#w5-field')?.remove()")
    page.evaluate(FIELD, text)
    field = page.locator("#w5-field")
    copied = ""
    for action, arg in steps:
        if action in ("caret", "select", "copy"):
            selected = field.evaluate(CARET, [FIELD_MARK, arg, action != "caret"])
            copied = selected if action == "copy" else copied
        elif action == "type":
            page.keyboard.type(str(arg))
        elif action == "paste":
            page.keyboard.insert_text(str(arg) or copied)
        else:
            page.keyboard.press(str(arg))
    return str(page.evaluate("() => window.w5Sent()"))


def test_w5_a_fields_marks_give_back_their_stacks_by_their_own_token_only(
    open_page: PageFactory, read_only_service: Service
) -> None:
    """Found: the field gave each stack back where its mark's text was next found (a mark's
    text pasted before it, a second stack of the same count or a literal mark took the stack),
    then where it followed each mark through each edit (an undone delete sent the mark's words,
    a ``[`` typed before a mark, which starts with one, lost its stack). Each mark in a field now
    carries a random token of its own, and only its exact text gives its stack back: a mark the
    person deleted gives nothing, text like a mark is sent as it reads, and one copied within
    the field gives its stack where it is pasted (the person moved or doubled it). The field as
    prefilled sends the text as stored, byte for byte."""
    two = f"e{ACUTE * 3000} then o{GRAVE * 3000}"
    cut_first = f"e{ACUTE * SHOWN}"
    rest = f"{ACUTE * 2970} then o{GRAVE * 3000}"
    literal = f"the page shows {MORE} for e{ACUTE * 3000}"
    deleted_first = f"{cut_first} then o{GRAVE * 3000}"
    stored = f"a line\r\ne{ACUTE * 3000}\r\nan end\r"  # a textarea gives each CR LF as LF
    page = open_page(read_only_service)  # a field of the page's own, never sent: nothing written
    open_memory_tab(page)
    cases: dict[str, tuple[str, list[Step], str]] = {
        "unedited": (two, [], two),
        "CR LF, unedited: as stored": (stored, [], stored),
        "CR LF, typed at the end": (
            stored, [("caret", "end"), ("type", "!")], f"a line\ne{ACUTE * 3000}\nan end\n!"
        ),
        "added at the end": (two, [("caret", "end"), ("paste", "\nThanks.")], two + "\nThanks."),
        "typed at the end, a mark deleted, undone": (
            two, [("caret", "end"), ("type", "!"), ("select", 0), ("press", "Backspace"),
                  ("press", "Control+z")], two + "!"
        ),
        "a mark deleted, undone, redone": (
            two, [("select", 0), ("press", "Backspace"), ("press", "Control+z"),
                  ("press", "Control+Shift+z")], deleted_first
        ),
        "[ typed before a mark": (two, [("caret", 0), ("type", "[")], f"{cut_first}[{rest}"),
        "[[note]] pasted before a mark": (
            two, [("caret", 0), ("paste", "[[note]]")], f"{cut_first}[[note]]{rest}"
        ),
        "a mark's words pasted before it": (
            two, [("caret", 0), ("paste", MORE)], f"{cut_first}{MORE}{rest}"
        ),
        "a mark copied to the end": (
            two, [("copy", 1), ("caret", "end"), ("paste", "")], two + GRAVE * 2970
        ),
        "a literal mark, unedited": (literal, [], literal),
        "a literal mark, text added": (literal, [("caret", "end"), ("type", ".")], literal + "."),
        "the first of two like stacks' marks deleted": (
            two, [("select", 0), ("press", "Backspace")], deleted_first
        ),
        "all selected, typed over": (
            two, [("caret", 1), ("press", "Control+a"), ("type", "Hi")], "Hi"
        ),
    }  # fmt: skip
    sent = {name: _sent_after(page, text, *steps) for name, (text, steps, _) in cases.items()}
    assert sent == {name: case[2] for name, case in cases.items()}


def test_w5_a_template_stacking_accents_is_no_hidden_text_in_the_editor(
    page: Page, stacks_service: Service
) -> None:
    """The template editor names the lines a save is refused for (hidden text, I-9): found,
    a line stacking 40 accents was named so, though the service saves it. A line holding both
    is named for its hidden characters, its stack shown cut."""
    stored = stacks_service.data_dir / "agents" / "demo" / "agent.json"
    config = json.loads(stored.read_text(encoding="utf-8"))
    stack = "e" + ACUTE * (SHOWN + 10)
    config["template"] = f"You are Demo agent.\nSign as {stack}.\n"
    stored.write_text(json.dumps(config), encoding="utf-8")

    page.goto(PROMPT_TAB)
    editor = page.locator("#template-editor")
    textarea = editor.locator("textarea")
    expect(textarea).to_have_value(config["template"])
    note = editor.locator(".hidden-text-note")
    expect(note).to_be_hidden()

    textarea.fill(f"You are Demo agent.\nSign as {stack}{TAGS}.\n")
    expect(note).to_contain_text(
        f"line 2: Sign as e{ACUTE * SHOWN}[stacked: 10 more combining characters]"
        "[hidden: 11 tag characters]."
    )
