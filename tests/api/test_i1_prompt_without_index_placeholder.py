"""I-1, case ``prompt-without-index-placeholder``: a prompt edit that would inject nothing is
refused, and a Session start's manifest describes the text it answers.

The case (``tests/data/cases/prompt-without-index-placeholder/run.sh``) saved memory prompts
without ``{{MEMORY_USER_INDEX}}``, with it spelled with spaces, and with the Workspace's
``{{MEMORY_INDEX}}`` instead: each PATCH answered 200 and every later Session start said
``injected: true`` and "kept 5" while no index line reached the model. Now such a PATCH is 422
naming the placeholder and what the prompt holds instead, and nothing is saved. A prompt that
reached ``agent.json`` another way (by hand, or saved before this rule) still gets its index
exactly once: after the prompt when it holds no placeholder, with ``placement: after-prompt``
in the manifest; every line the manifest counts as kept is in the text.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from memory_core.injection import INDEX_PLACEHOLDER, USER_INDEX_PLACEHOLDER
from memory_core.prompts import DEFAULT_MEMORY_PROMPT

from tests.api.conftest import AGENT, PROJECT, AgentHome, Client, expect_problem, ok_json

CONFIG = f"/api/projects/{PROJECT}/agents/{AGENT}/config"
START = f"/api/projects/{PROJECT}/agents/{AGENT}/memory/session-start"
USER_LINES = [f"- [Note {n}](note-{n}.md) — user note {n}" for n in range(5)]
WORKSPACE_LINES = ["- [Deploy](deploy.md) — how deploys go"]

REFUSED_MEMORY_PROMPTS = {
    # the three of the case's run.sh
    "missing": ("# Memory\nSave what you learn in the user scope.\n", "it holds none"),
    "spaces": ("# Memory\n{{ MEMORY_USER_INDEX }}\n", "'{{ MEMORY_USER_INDEX }}' instead"),
    "other-scopes": ("# Memory\n{{MEMORY_INDEX}}\n", "'{{MEMORY_INDEX}}' (the Workspace prompt's)"),
    # more of the kind
    "lowercase": ("# Memory\n{{memory_user_index}}\n", "'{{memory_user_index}}' instead"),
    "single-braces": ("# Memory\n{MEMORY_USER_INDEX}\n", "'{MEMORY_USER_INDEX}' instead"),
    "twice": ("A {{MEMORY_USER_INDEX}}\nB {{MEMORY_USER_INDEX}}\n", "it holds it 2 times"),
    "once-and-a-misspelling": (
        "{{MEMORY_USER_INDEX}}\nsee {{MEMORY_USER_INDEX }}\n",
        "also holds '{{MEMORY_USER_INDEX }}', which would reach the model as written",
    ),
    # words in another order or of another placeholder, beside the right one
    "words-reordered": (
        "{{MEMORY_USER_INDEX}}\nand {{USER_MEMORY_INDEX}}\n",
        "also holds '{{USER_MEMORY_INDEX}}', which would reach the model as written",
    ),
    "workspace-index-guessed": (
        "{{MEMORY_USER_INDEX}}\nhere: {{MEMORY_WORKSPACE_INDEX}}\n",
        "also holds '{{MEMORY_WORKSPACE_INDEX}}', which would reach the model as written",
    ),
    "template-placeholder": (
        "{{MEMORY}}\n{{MEMORY_USER_INDEX}}\n",
        "also holds '{{MEMORY}}', which would reach the model as written",
    ),
    "key-placeholder": (
        "Key {{WORKSPACE_MEMORY_KEY}}\n{{MEMORY_USER_INDEX}}\n",
        "also holds '{{WORKSPACE_MEMORY_KEY}}', which would reach the model as written",
    ),
    # a digit, a dot or a template engine's syntax between the braces
    "zero-for-o": (
        "{{MEMORY_USER_INDEX}}\n{{MEM0RY_INDEX}}\n",
        "also holds '{{MEM0RY_INDEX}}', which would reach the model as written",
    ),
    "numbered": (
        "{{MEMORY_USER_INDEX}}\n{{MEMORY_INDEX2}}\n",
        "also holds '{{MEMORY_INDEX2}}', which would reach the model as written",
    ),
    "dotted": ("# Memory\n{{memory.user_index}}\n", "'{{memory.user_index}}' instead"),
    "jinja-filter": (
        "# Memory\n{{ MEMORY_USER_INDEX | trim }}\n",
        "'{{ MEMORY_USER_INDEX | trim }}' instead",
    ),
    # full-width braces, as a Chinese or Japanese input method types them: no placeholder
    "full-width-braces": (
        "{{MEMORY_USER_INDEX}}\nsee \uff5b\uff5bMEMORY_USER_INDEX\uff5d\uff5d\n",
        "also holds '\uff5b\uff5bMEMORY_USER_INDEX\uff5d\uff5d', which would reach the model "
        "as written",
    ),
    "full-width-braces-alone": (
        "# Memory\n\uff5b\uff5bMEMORY_USER_INDEX\uff5d\uff5d\n",
        "'\uff5b\uff5bMEMORY_USER_INDEX\uff5d\uff5d' instead",
    ),
    "handlebars-block": (
        "{{MEMORY_USER_INDEX}}\n{{#MEMORY_INDEX}}\n",
        "also holds '{{#MEMORY_INDEX}}', which would reach the model as written",
    ),
    # where a person reading the prompt rendered never sees the index the model is given
    "in-a-comment": (
        "# M\n<!-- {{MEMORY_USER_INDEX}} -->\n",
        "it holds {{MEMORY_USER_INDEX}} inside an HTML comment opened on line 2",
    ),
    "after-an-unclosed-comment": (
        "<!-- notes\n# M\n{{MEMORY_USER_INDEX}}\n",
        "inside an HTML comment opened on line 1",
    ),
    "in-a-code-fence": (
        "# M\n```\n{{MEMORY_USER_INDEX}}\n```\n",
        "it holds {{MEMORY_USER_INDEX}} in a code block (line 3)",
    ),
}


async def _start(client: Client, agent: AgentHome) -> dict[str, Any]:
    workspace, _key = agent.workspace("app")
    return await ok_json(await client.post(START, json={"workspace": str(workspace)}))


def _fill_indexes(agent: AgentHome) -> None:
    agent.user.joinpath("MEMORY.md").write_text("\n".join(USER_LINES) + "\n", encoding="utf-8")
    _workspace, key = agent.workspace("app")
    agent.root.joinpath(key, "MEMORY.md").write_text(WORKSPACE_LINES[0] + "\n", encoding="utf-8")


def _assert_manifests_describe_the_text(answer: dict[str, Any]) -> None:
    """Every line a manifest counts as kept is in the text, once; no placeholder is left."""
    memory = answer["memory"]
    assert answer["injected"] is True
    for manifest in answer["manifests"]:
        lines = USER_LINES if manifest["scope"] == "user" else WORKSPACE_LINES
        assert manifest["linesKept"] == len(lines)
        for line in lines:
            assert memory.count(line) == 1, (line, memory)
    for placeholder in (USER_INDEX_PLACEHOLDER, INDEX_PLACEHOLDER):
        assert placeholder not in memory


@pytest.mark.parametrize("case", list(REFUSED_MEMORY_PROMPTS))
async def test_prompt_without_index_placeholder_a_memory_prompt_edit_is_refused_with_422(
    client: Client, agent: AgentHome, case: str
) -> None:
    _fill_indexes(agent)
    prompt, found = REFUSED_MEMORY_PROMPTS[case]
    before = (await client.get(CONFIG)).headers["ETag"]
    response = await client.patch(CONFIG, json={"memory": {"prompt": prompt}})
    body = await expect_problem(response, 422, "memory.prompt must hold {{MEMORY_USER_INDEX}}")
    assert "exactly once, as written, where the user index goes" in body["detail"]
    assert found in body["detail"]
    assert "Nothing was saved" in body["detail"]
    assert (await client.get(CONFIG)).headers["ETag"] == before
    answer = await _start(client, agent)
    _assert_manifests_describe_the_text(answer)
    assert answer["memory"].startswith(DEFAULT_MEMORY_PROMPT.split("\n", 1)[0])


@pytest.mark.parametrize(
    ("prompt", "found"),
    [
        ("## Workspace memory\n\nNo index here.", "it holds none"),
        ("{{MEMORY_USER_INDEX}}", "'{{MEMORY_USER_INDEX}}' (the memory prompt's) instead"),
        ("{{MEMORY_INDEX}} {{MEMORY_INDEX}}", "it holds it 2 times"),
        ("{{ Memory_Index }}", "'{{ Memory_Index }}' instead"),
        ("{{WORKSPACE_INDEX}}", "'{{WORKSPACE_INDEX}}' instead"),
        ("{{MEMORY_INDEX}}\n{{INDEX}}", "also holds '{{INDEX}}'"),
        ("<!--\n{{MEMORY_INDEX}}\n-->", "inside an HTML comment opened on line 1"),
    ],
)
async def test_prompt_without_index_placeholder_a_workspace_prompt_edit_is_refused_with_422(
    client: Client, agent: AgentHome, prompt: str, found: str
) -> None:
    response = await client.patch(CONFIG, json={"memory": {"workspacePrompt": prompt}})
    body = await expect_problem(
        response, 422, "memory.workspacePrompt must hold {{MEMORY_INDEX}} exactly once"
    )
    assert found in body["detail"]
    config = await ok_json(await client.get(CONFIG))
    assert config["memory"]["workspacePromptIsDefault"] is True


async def test_prompt_without_index_placeholder_prompts_with_it_once_save_and_inject(
    client: Client, agent: AgentHome
) -> None:
    _fill_indexes(agent)
    memory = {
        "prompt": "# Mine\n\n{{MEMORY_USER_INDEX}}\n",
        "workspacePrompt": "## Here\n{{MEMORY_INDEX}}",
    }
    body = await ok_json(await client.patch(CONFIG, json={"memory": memory}))
    assert body["memory"]["prompt"] == memory["prompt"]
    answer = await _start(client, agent)
    _assert_manifests_describe_the_text(answer)
    # "placeholder" is the default, not sent (a client older than the field reads the answer)
    assert [m.get("placement") for m in answer["manifests"]] == [None, None]
    assert answer["memory"].startswith("# Mine\n\n" + USER_LINES[0])
    restored = await ok_json(await client.patch(CONFIG, json={"memory": {"prompt": None}}))
    assert restored["memory"]["promptIsDefault"] is True


def _store_by_hand(agent: AgentHome, **memory: str) -> None:
    """Edit ``agent.json`` as an operator would, past the API (or as saved before the rule)."""
    path = agent.data_dir / "agents" / agent.id / "agent.json"
    stored = json.loads(path.read_bytes())
    stored["memory"].update(memory)
    path.write_text(json.dumps(stored), encoding="utf-8")


async def test_prompt_without_index_placeholder_stored_by_hand_gets_its_index_after_it(
    client: Client, agent: AgentHome
) -> None:
    _fill_indexes(agent)
    _store_by_hand(
        agent,
        prompt="# Memory\nSave what you learn in the user scope.\n",
        workspacePrompt="## Workspace memory\n{{ MEMORY_INDEX }}",
    )
    answer = await _start(client, agent)
    _assert_manifests_describe_the_text(answer)
    assert [m["placement"] for m in answer["manifests"]] == ["after-prompt", "after-prompt"]
    user_part = "# Memory\nSave what you learn in the user scope.\n\n" + "\n".join(USER_LINES)
    assert answer["memory"].startswith(user_part)
    # the misspelling stays as the operator wrote it; the index follows the prompt
    assert answer["memory"].endswith(
        "## Workspace memory\n{{ MEMORY_INDEX }}\n\n" + WORKSPACE_LINES[0]
    )
    body = {"workspace": str(agent.tmp / "src" / "app"), "sections": True}
    sectioned = await ok_json(await client.post(START, json=body))
    assert "".join(section["text"] for section in sectioned["sections"]) == answer["memory"]


async def test_prompt_without_index_placeholder_stored_twice_injects_the_index_once(
    client: Client, agent: AgentHome
) -> None:
    _fill_indexes(agent)
    _store_by_hand(agent, prompt="A {{MEMORY_USER_INDEX}}\nB {{MEMORY_USER_INDEX}}\n")
    answer = await _start(client, agent)
    _assert_manifests_describe_the_text(answer)
    assert "placement" not in answer["manifests"][0]  # the default: at the (first) placeholder
    assert answer["memory"].startswith("A " + "\n".join(USER_LINES) + "\nB \n\n")


@pytest.mark.parametrize(
    ("prompt", "named"),
    [
        ("# Memory\n{{MEMROY_USER_INDEX}}\n", "it holds '{{MEMROY_USER_INDEX}}' instead"),
        ("# Memory\n{{ MEMORY_USER_INDEX }}\n", "it holds '{{ MEMORY_USER_INDEX }}' instead"),
        ("# Memory\n{{memory}} here\n", "it holds '{{memory}}' instead"),
        ("# Memory\n{{MEMROY}}\n", "it holds none; it holds '{{MEMROY}}', which is no placeholder"),
    ],
)
async def test_a_misspelt_placeholder_stored_by_hand_is_named_in_the_config_answer(
    client: Client, agent: AgentHome, prompt: str, named: str
) -> None:
    """The only sign of a misspelt placeholder in ``agent.json`` was the manifest's
    ``placement: after-prompt``; the config answer a person reads names it, and what a Session
    start does with such a prompt."""
    assert "promptWarnings" not in (await ok_json(await client.get(CONFIG)))["memory"]
    _store_by_hand(agent, prompt=prompt)
    warnings = (await ok_json(await client.get(CONFIG)))["memory"]["promptWarnings"]
    assert warnings == [
        f"memory.prompt must hold {USER_INDEX_PLACEHOLDER} exactly once, as written: {named}; "
        "a Session start adds the user index after the prompt; text written as a placeholder "
        "reaches the model as it is"
    ]
    _store_by_hand(agent, workspacePrompt="## Workspace\n{{MEMORY_INDEX}}\n{{MEMROY}}\n")
    warnings = (await ok_json(await client.get(CONFIG)))["memory"]["promptWarnings"]
    assert warnings[1] == (
        f"memory.workspacePrompt must hold {INDEX_PLACEHOLDER} exactly once, as written: it "
        "holds '{{MEMROY}}', which is no placeholder; text written as a placeholder reaches "
        "the model as it is"
    )


async def test_a_prompt_naming_a_comment_marker_as_text_saves(
    client: Client, agent: AgentHome
) -> None:
    """A ``<!--`` a reader sees (in a code span, escaped, a complete empty comment) hides
    nothing: the prompt saves; one stored by hand with its index in a real comment is named in
    ``promptWarnings``, as the save would refuse it."""
    prompt = "# M\nNever write `<!--` in a memory.\nNo \\<!-- comments.\n<!-->\n"
    prompt += f"{USER_INDEX_PLACEHOLDER}\n"
    await ok_json(await client.patch(CONFIG, json={"memory": {"prompt": prompt}}))
    assert (await ok_json(await client.get(CONFIG)))["memory"]["prompt"] == prompt
    _store_by_hand(agent, prompt=f"# M\n<!--\n{USER_INDEX_PLACEHOLDER}\n-->\n")
    [warning] = (await ok_json(await client.get(CONFIG)))["memory"]["promptWarnings"]
    assert warning.startswith(
        f"memory.prompt must hold {USER_INDEX_PLACEHOLDER} exactly once, as written: it holds "
        f"{USER_INDEX_PLACEHOLDER} inside an HTML comment opened on line 2: "
    )


@pytest.mark.parametrize(
    ("template", "found"),
    [
        ("{{MEMORY}}\n# Again\n{{MEMORY}}\n", "it holds {{MEMORY}} 2 times"),
        (
            "Be kind.\n{{ MEMORY }}\n",
            "it holds '{{ MEMORY }}' (a typo of {{MEMORY}}?), which nothing fills in",
        ),
        ("{{memory}}\n", "it holds '{{memory}}' (a typo of {{MEMORY}}?), which nothing"),
        ("{{MEMORY}}\n{{MEMORY_USER_INDEX}}\n", "'{{MEMORY_USER_INDEX}}', which nothing fills"),
        (
            "{{MEMORY}}\nKey: {{WORKSPACE_MEMORY_KEYS}}\n",
            "'{{WORKSPACE_MEMORY_KEYS}}' (a typo of {{WORKSPACE_MEMORY_KEY}}?), which",
        ),
        (
            "Be kind.\n\uff5b\uff5bMEMORY\uff5d\uff5d\n",
            "'\uff5b\uff5bMEMORY\uff5d\uff5d', which nothing",
        ),
        # misspelt as typed: two letters swapped, a zero for the O, a Cyrillic Е for the E
        ("Be kind.\n{{MEMROY}}\n", "it holds '{{MEMROY}}' (a typo of {{MEMORY}}?), which nothing"),
        ("Be kind.\n{{MEM0RY}}\n", "it holds '{{MEM0RY}}' (a typo of {{MEMORY}}?), which nothing"),
        (
            "Be kind.\n{{M\u0415MORY}}\n",
            "it holds '{{M\u0415MORY}}' (a typo of {{MEMORY}}?), which",
        ),
        (
            "{{MEMORY}}\nKey: {{WORKSPACE_MEMROY_KEY}}\n",
            "'{{WORKSPACE_MEMROY_KEY}}' (a typo of {{WORKSPACE_MEMORY_KEY}}?)",
        ),
        ("Be kind.\n{{MEMORY\n\n# Environment\n", "'{{MEMORY' on line 2 (meant for {{MEMORY}}?)"),
    ],
)
async def test_prompt_without_index_placeholder_a_template_edit_that_would_misplace_memory_is_422(
    client: Client, agent: AgentHome, template: str, found: str
) -> None:
    """I-1 for the template, the prompt the memory goes into: ``{{MEMORY}}`` written twice
    injected the whole memory twice, and a misspelt one reached the model as written (and
    injected nothing); each was saved with 200. Refused, nothing saved; a template without
    ``{{MEMORY}}`` (I-5) and the harness's own placeholders stay allowed."""
    before = (await client.get(CONFIG)).headers["ETag"]
    response = await client.patch(CONFIG, json={"template": template})
    body = await expect_problem(response, 422, "template must hold {{MEMORY}} at most once")
    assert found in body["detail"] and "Nothing was saved" in body["detail"]
    assert (await client.get(CONFIG)).headers["ETag"] == before
    harness_own = "{{MEMORY}}\n- CWD: {{CWD}}\n- Agent: {{AGENT_ID}}\n- Data: {{APP_DATA_DIR}}\n"
    others_own = "{{MEMORY}}\n- {{MEMO}}\n- {{WORKSPACE_MEMORY_URL}}\n- {{WORKSPACE_SECRET_KEY}}\n"
    for allowed in ("No memory here.\n", harness_own, others_own):
        config = await ok_json(await client.patch(CONFIG, json={"template": allowed}))
        assert config["template"] == allowed


@pytest.mark.parametrize("by_hand", [False, True], ids=["saved", "by-hand"])
async def test_a_prompt_starting_with_a_byte_order_mark_reaches_the_model_without_it(
    client: Client, agent: AgentHome, by_hand: bool
) -> None:
    """A prompt pasted from a file saved as "UTF-8 with BOM" starts with U+FEFF: the PATCH takes
    it (a byte order mark is no hidden text), and the Session start answered
    ``[hidden: U+FEFF]# Mine`` as the model's first words. A mark at a prompt's start is the
    file's encoding, never text: the model reads the prompt as a person sees it, in the text
    and in its sections alike."""
    _fill_indexes(agent)
    memory = {
        "prompt": "\ufeff# Mine\n{{MEMORY_USER_INDEX}}\n",
        "workspacePrompt": "\ufeff## Here\n{{MEMORY_INDEX}}",
    }
    if by_hand:
        _store_by_hand(agent, **memory)
    else:
        await ok_json(await client.patch(CONFIG, json={"memory": memory}))
    answer = await _start(client, agent)
    _assert_manifests_describe_the_text(answer)
    assert answer["memory"].startswith("# Mine\n" + USER_LINES[0])
    assert "\n\n## Here\n" + WORKSPACE_LINES[0] in answer["memory"]
    assert "\ufeff" not in answer["memory"] and "[hidden" not in answer["memory"]
    body = {"workspace": str(agent.tmp / "src" / "app"), "sections": True}
    sectioned = await ok_json(await client.post(START, json=body))
    assert "".join(section["text"] for section in sectioned["sections"]) == answer["memory"]


@pytest.mark.parametrize(
    "saved_as",
    [
        pytest.param(lambda text: b"\xef\xbb\xbf" + text.encode(), id="utf-8-with-bom"),
        pytest.param(lambda text: text.replace("\n", "\r\n").encode("utf-16"), id="utf-16"),
    ],
)
async def test_an_agent_json_saved_by_an_editor_with_a_byte_order_mark_stays_the_agent(
    client: Client, agent: AgentHome, saved_as: Any
) -> None:
    """``agent.json`` edited by hand in Notepad (saved "UTF-8 with BOM", or "Unicode"): the agent
    left the list for its ``unreadable`` part and every Session start and config read answered
    503 "JSON is malformed: invalid character (byte 0)". Read as the editor shows it, the prompt
    edited by hand gets its index after it, as any hand edit does; the next change is saved
    back as the service writes ``agent.json`` (UTF-8, no mark)."""
    _fill_indexes(agent)
    path = agent.data_dir / "agents" / agent.id / "agent.json"
    stored = json.loads(path.read_bytes())
    stored["name"] = "Coder \u2014 \u00e9dit\u00e9"
    stored["memory"]["prompt"] = "# Memory\nSave what you learn in the user scope.\n"
    path.write_bytes(saved_as(json.dumps(stored, indent=2, ensure_ascii=False)))

    config = await ok_json(await client.get(CONFIG))
    assert config["name"] == "Coder \u2014 \u00e9dit\u00e9"
    listed = await ok_json(await client.get(f"/api/projects/{PROJECT}/agents"))
    assert [item["id"] for item in listed["agents"]] == [AGENT]
    assert not listed.get("unreadable")
    answer = await _start(client, agent)
    _assert_manifests_describe_the_text(answer)
    assert answer["manifests"][0]["placement"] == "after-prompt"

    await ok_json(await client.patch(CONFIG, json={"name": "Coder"}))
    assert json.loads(path.read_bytes().decode("utf-8"))["name"] == "Coder"


@pytest.mark.parametrize(
    ("mark", "encoding", "said"),
    [
        (b"\xef\xbb\xbf", "utf-8", "not the UTF-8 text its byte order mark (EF BB BF) says"),
        (b"\xff\xfe", "utf-16-le", "not the UTF-16 little-endian text its byte order mark"),
    ],
)
async def test_an_agent_json_that_is_not_the_text_its_mark_says_names_the_byte_at_fault(
    client: Client, agent: AgentHome, mark: bytes, encoding: str, said: str
) -> None:
    """The byte named is the one at fault, at its offset in the file, mark included: a UTF-8
    mark then ``0x80`` was said to be "byte 0xef at offset 0", the mark itself."""
    path = agent.data_dir / "agents" / agent.id / "agent.json"
    text = path.read_bytes().decode("utf-8").encode(encoding)
    odd = b"\x80" if encoding == "utf-8" else b"\n"  # an odd byte after UTF-16 (echo >>)
    path.write_bytes(mark + text + odd)

    offset = len(mark) + len(text)
    body = await expect_problem(await client.get(CONFIG), 503, said)
    assert f"(byte 0x{odd[0]:02x} at offset {offset}: " in body["detail"]
