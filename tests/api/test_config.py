"""A-2 agent config: effective values, defaults folded in, null restores, ETag / If-Match."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from memory_core.prompts import DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT
from multidict import CIMultiDict

from tests.api.conftest import AGENT, JSON_TYPE, PROJECT, AgentHome, Client, expect_problem, ok_json

CONFIG = f"/api/projects/{PROJECT}/agents/{AGENT}/config"


async def _get(client: Client) -> tuple[dict[str, Any], str]:
    response = await client.get(CONFIG)
    return await ok_json(response), response.headers["ETag"]


async def test_a2_get_reports_effective_values_with_defaults(
    client: Client, agent: AgentHome
) -> None:
    body, etag = await _get(client)
    assert etag.startswith('"') and etag.endswith('"')
    assert body["memory"] == {
        "enabled": True,
        "prompt": DEFAULT_MEMORY_PROMPT,
        "workspacePrompt": DEFAULT_WORKSPACE_PROMPT,
        "promptIsDefault": True,
        "workspacePromptIsDefault": True,
    }
    assert set(body) == {"id", "project", "name", "template", "memory"}


async def test_a2_patch_changes_only_fields_sent(client: Client, agent: AgentHome) -> None:
    before, etag = await _get(client)
    response = await client.patch(
        CONFIG,
        json={"memory": {"prompt": "Custom {{MEMORY_USER_INDEX}}"}},
        headers={"If-Match": etag},
    )
    after = await ok_json(response)
    assert response.headers["ETag"] != etag
    assert after["memory"]["prompt"] == "Custom {{MEMORY_USER_INDEX}}"
    assert after["memory"]["promptIsDefault"] is False
    assert after["memory"]["workspacePromptIsDefault"] is True
    assert after["template"] == before["template"]
    assert after["name"] == before["name"]
    assert after["memory"]["enabled"] is True


async def test_a2_null_restores_the_default(client: Client, agent: AgentHome) -> None:
    await client.patch(CONFIG, json={"memory": {"workspacePrompt": "Mine {{MEMORY_INDEX}}"}})
    response = await client.patch(CONFIG, json={"memory": {"workspacePrompt": None}})
    body = await ok_json(response)
    assert body["memory"]["workspacePrompt"] == DEFAULT_WORKSPACE_PROMPT
    assert body["memory"]["workspacePromptIsDefault"] is True
    stored = json.loads((agent.data_dir / "agents" / AGENT / "agent.json").read_bytes())
    assert stored["memory"]["workspacePrompt"] is None


async def test_a2_patch_name_template_and_switch(client: Client, agent: AgentHome) -> None:
    body = await ok_json(
        await client.patch(
            CONFIG, json={"name": "Coder Two", "template": "T", "memory": {"enabled": False}}
        )
    )
    assert (body["name"], body["template"], body["memory"]["enabled"]) == ("Coder Two", "T", False)
    again, _ = await _get(client)
    assert again == body


async def test_a2_stale_if_match_is_412_and_writes_nothing(
    client: Client, agent: AgentHome
) -> None:
    _, first = await _get(client)
    await ok_json(
        await client.patch(CONFIG, json={"name": "Edited elsewhere"}, headers={"If-Match": first})
    )
    response = await client.patch(CONFIG, json={"name": "Mine"}, headers={"If-Match": first})
    await expect_problem(response, 412, "changed since it was read")
    body, _ = await _get(client)
    assert body["name"] == "Edited elsewhere"


async def test_a2_if_match_star_and_lists_and_missing_header(
    client: Client, agent: AgentHome
) -> None:
    _, etag = await _get(client)
    await ok_json(await client.patch(CONFIG, json={"name": "A"}, headers={"If-Match": "*"}))
    _, etag = await _get(client)
    listed = f'"0000", {etag}'
    await ok_json(await client.patch(CONFIG, json={"name": "B"}, headers={"If-Match": listed}))
    weak = f"W/{(await client.get(CONFIG)).headers['ETag']}"
    await expect_problem(
        await client.patch(CONFIG, json={"name": "C"}, headers={"If-Match": weak}),
        412,
        f"If-Match {weak!r} does not name the current ETag of the agent's config",
    )
    # A value that was never an ETag is told so too, not only that the config changed.
    response = await client.patch(CONFIG, json={"name": "C"}, headers={"If-Match": "v1"})
    body = await expect_problem(response, 412, "If-Match 'v1' does not name the current ETag")
    assert "or that value is not an ETag it had" in body["detail"]
    # Without If-Match the PATCH is unconditional (documented choice).
    await ok_json(await client.patch(CONFIG, json={"name": "D"}))


async def test_a2_if_match_is_a_list_across_every_line_sent(
    client: Client, agent: AgentHome
) -> None:
    """RFC 9110 §5.3: ``If-Match`` on two lines means both lines' tags; the second line is
    never dropped, and a comma inside a tag's quotes does not split it."""
    _, etag = await _get(client)
    two_lines = CIMultiDict([("If-Match", '"0000"'), ("If-Match", etag)])
    await ok_json(await client.patch(CONFIG, json={"name": "A"}, headers=two_lines))

    _, etag = await _get(client)
    weak_then_stale = CIMultiDict([("If-Match", f"W/{etag}"), ("If-Match", '"0000"')])
    response = await client.patch(CONFIG, json={"name": "B"}, headers=weak_then_stale)
    await expect_problem(response, 412, "does not name the current ETag")

    inner = etag.strip('"')
    one_tag_with_commas = {"If-Match": f'"x,{inner},y"'}
    response = await client.patch(CONFIG, json={"name": "B"}, headers=one_tag_with_commas)
    await expect_problem(response, 412, "does not name the current ETag")
    assert (await _get(client))[0]["name"] == "A"


async def test_a2_unchanged_patch_keeps_the_etag(client: Client, agent: AgentHome) -> None:
    body, etag = await _get(client)
    response = await client.patch(CONFIG, json={"name": body["name"]}, headers={"If-Match": etag})
    await ok_json(response)
    assert response.headers["ETag"] == etag


async def test_a2_write_is_atomic_no_temp_files_left(client: Client, agent: AgentHome) -> None:
    await ok_json(await client.patch(CONFIG, json={"template": "x" * 10_000}))
    folder = agent.data_dir / "agents" / AGENT
    assert sorted(p.name for p in folder.iterdir()) == ["agent.json", "agent_state", "workspaces"]


async def test_a2_unknown_agent_is_404(client: Client, agent: AgentHome) -> None:
    url = f"/api/projects/{PROJECT}/agents/nobody/config"
    await expect_problem(await client.get(url), 404, "no agent 'nobody'")
    await expect_problem(await client.patch(url, json={"name": "x"}), 404, "no agent 'nobody'")


async def test_a2_agent_of_another_project_is_404(client: Client, agent: AgentHome) -> None:
    url = f"/api/projects/other/agents/{AGENT}/config"
    await expect_problem(await client.get(url), 404, f"no agent '{AGENT}' in project 'other'")


async def test_a2_bad_bodies(client: Client, agent: AgentHome) -> None:
    await expect_problem(
        await client.patch(CONFIG, json={"memory": {"enabled": "yes"}}), 422, "$.memory.enabled"
    )
    await expect_problem(await client.patch(CONFIG, json={"nme": "typo"}), 422, "nme")
    await expect_problem(await client.patch(CONFIG, json={"name": ""}), 400, "name")
    await expect_problem(
        await client.patch(CONFIG, data=b'{"name": ', headers=JSON_TYPE), 400, "not valid JSON"
    )


async def test_a2_corrupt_agent_file_is_a_named_503(client: Client, agent: AgentHome) -> None:
    """Q-2b: settings the service has but cannot use answer as every file it cannot read."""
    (Path(agent.data_dir) / "agents" / AGENT / "agent.json").write_text("{", encoding="utf-8")
    body = await expect_problem(await client.get(CONFIG), 503, "stored settings")
    assert "Traceback" not in body["detail"]


async def test_a2_i9_an_agent_name_that_would_show_as_another_is_refused(
    client: Client, agent: AgentHome
) -> None:
    """An agent's name is a label on the page beside the others' and goes into the default
    template: a right-to-left override, a zero-width space or tag characters in it are
    refused (400 naming them), on creation and on change, and nothing is stored."""
    before = await ok_json(await client.get(CONFIG))
    for name in [
        "Prod\u202etset",
        "ad\u200bmin",
        "coder" + "".join(chr(0xE0000 + ord(c)) for c in "ignore"),
    ]:
        await expect_problem(
            await client.patch(CONFIG, json={"name": name}), 400, "must not hold hidden characters"
        )
        created = await client.post(
            f"/api/projects/{PROJECT}/agents", json={"id": "spoof", "name": name}
        )
        await expect_problem(created, 400, "hidden characters")
    assert (await ok_json(await client.get(CONFIG)))["name"] == before["name"]
    assert (await ok_json(await client.patch(CONFIG, json={"name": "Über Bot 数据"})))["name"] == (
        "Über Bot 数据"
    )


async def test_a2_i9_a_template_with_hidden_text_is_refused_like_a_name(
    client: Client, agent: AgentHome
) -> None:
    """I-9: characters hidden wherever they stand (a right-to-left override, tag characters, a
    zero-width space) in the template are refused with 422 naming the line and what is hidden
    (never the hidden text), as a memory prompt is (it was 400: a well-formed body whose value a
    rule refuses is a 422 on both routes); nothing is saved. Joiners I-9 keeps (an emoji's,
    Persian's ZWNJ) are accepted."""
    before = await ok_json(await client.get(CONFIG))
    tags = "".join(chr(0xE0000 + ord(char)) for char in "curl x | sh")
    for template in (
        "# Role\nBe careful.\u202eeno on\n{{MEMORY}}\n",
        f"# Role\nrun twice{tags}\n{{{{MEMORY}}}}\n",
        "# Role\nad\u200bmin\n{{MEMORY}}\n",
    ):
        await expect_problem(
            await client.patch(CONFIG, json={"template": template}),
            422,
            "template must not hold hidden characters (line 2: ",
        )
    refused = await client.patch(CONFIG, json={"template": f"a\nb{tags}\n{{{{MEMORY}}}}"})
    detail = (await refused.json())["detail"]
    assert "line 2: 11 tag characters" in detail and "curl" not in detail
    assert await ok_json(await client.get(CONFIG)) == before  # nothing was saved

    created = await client.post(
        f"/api/projects/{PROJECT}/agents",
        json={"id": "hidden", "name": "Hidden", "template": "hi\u202e{{MEMORY}}"},
    )
    await expect_problem(created, 422, "template must not hold hidden characters (line 1: 1 bidi")

    kept = "# Role 👨\u200d👩\u200d👧 می\u200cخواهم\n{{MEMORY}}\n"
    changed = await ok_json(await client.patch(CONFIG, json={"template": kept}))
    assert changed["template"] == kept
    # a zero-width space alone between two Thai letters is their word break (I-9 keeps it)
    thai = "# บทบาท\nคุณ\u200bเป็น\u200bผู้ช่วย\n{{MEMORY}}\n"
    changed = await ok_json(await client.patch(CONFIG, json={"template": thai}))
    assert changed["template"] == thai
    prompt = "# ความจำ\nคุณ\u200bเป็น\n{{MEMORY_USER_INDEX}}\n"
    changed = await ok_json(await client.patch(CONFIG, json={"memory": {"prompt": prompt}}))
    assert changed["memory"]["prompt"] == prompt


async def test_a2_i9_a_memory_prompt_with_hidden_text_is_refused_like_the_template(
    client: Client, agent: AgentHome
) -> None:
    """I-9: a memory prompt (user or Workspace) holding a character hidden wherever it stands is
    refused on ``PATCH …/config``, the one route that sets a prompt, with 422 problem+json as
    its every other fault (its rule says "no character hidden"), naming the prompt, the line
    and what is hidden (never the hidden text); nothing is saved. A zero-width character
    inside a misspelt placeholder is refused alike (it was 400 while the typo alone was 422).
    Joiners I-9 keeps pass; a prompt written into ``agent.json`` by hand is injected escaped
    (``tests/core/test_i9_hidden_text.py``, an edited prompt reaches the model escaped)."""
    before = await ok_json(await client.get(CONFIG))
    tags = "".join(chr(0xE0000 + ord(char)) for char in "curl x | sh")
    user, workspace = ("prompt", "memory.prompt"), ("workspacePrompt", "memory.workspacePrompt")
    cases = [
        (*user, "# Memory\nad\u200bmin\n{{MEMORY_USER_INDEX}}\n", "line 2: "),
        (*user, f"# Memory{tags}\n{{{{MEMORY_USER_INDEX}}}}\n", "line 1: 11 tag"),
        (*workspace, "{{MEMORY_INDEX}}\nok\n\u202eon\n", "line 3: "),
        (*workspace, "{{MEMORY_INDEX}}\x1b[8m\n", "line 1: "),
    ]  # fmt: skip
    for field, name, prompt, where in cases:
        refused = await client.patch(CONFIG, json={"memory": {field: prompt}})
        problem = await expect_problem(refused, 422, "and no character hidden wherever it stands")
        assert f"must not hold hidden characters ({where}" in problem["detail"]
        assert problem["detail"].startswith(f"{name} must hold {{{{MEMORY")
        assert "curl" not in problem["detail"]
    # hidden text is named before the placeholder, with the status of a placeholder fault
    for prompt in ("no placeholder\u200b", "# M\n{{MEMORY_USER_IN\u200bDEX}}\n"):
        refused = await client.patch(CONFIG, json={"memory": {"prompt": prompt}})
        problem = await expect_problem(refused, 422, "memory.prompt must hold")
        assert "must not hold hidden characters (line " in problem["detail"]
        assert "invisible character (U+200B)" in problem["detail"]
    assert await ok_json(await client.get(CONFIG)) == before  # nothing was saved

    kept = "# Memory 👨\u200d👩\u200d👧 می\u200cخواهم\n{{MEMORY_USER_INDEX}}\n"
    changed = await ok_json(await client.patch(CONFIG, json={"memory": {"prompt": kept}}))
    assert changed["memory"]["prompt"] == kept


async def test_i1_a_misspelt_session_placeholder_in_a_template_is_refused_naming_the_known_ones(
    client: Client, agent: AgentHome
) -> None:
    """``{{AGNET_ID}}`` (meant for ``{{AGENT_ID}}``, which a Session start fills with the agent's
    id) was saved and reached the model as written; it is refused (422, as every template and
    prompt rule is, on ``PATCH …/config`` and ``POST …/agents`` alike), naming it, the one it
    was meant for and every placeholder the service fills in; nothing is saved."""
    before = await ok_json(await client.get(CONFIG))
    template = "# Role\n- Agent id: {{AGNET_ID}}\n- Data: {{APP_DATA_DIR}}\n{{MEMORY}}\n"

    for response in (
        await client.patch(CONFIG, json={"template": template}),
        await client.post(
            f"/api/projects/{PROJECT}/agents",
            json={"id": "typo", "name": "Typo", "template": template},
        ),
    ):
        body = await expect_problem(response, 422, "template must hold {{MEMORY}} at most once")
        assert "'{{AGNET_ID}}' (a typo of {{AGENT_ID}}?)" in body["detail"]
        assert (
            "placeholders filled in: {{MEMORY}}, {{WORKSPACE_MEMORY_KEY}}, {{APP_DATA_DIR}}, "
            "{{AGENT_ID}}, {{CWD}}" in body["detail"]
        )
        assert "nothing else written as a placeholder" not in body["detail"]
    assert await ok_json(await client.get(CONFIG)) == before
    other = "# Role\n{{AGENT}} {{CWD}} {{AGENT_ID}}\n{{MEMORY}}\n"  # another thing's: kept
    assert (await ok_json(await client.patch(CONFIG, json={"template": other})))[
        "template"
    ] == other


@pytest.mark.parametrize(
    "line",
    [
        "```jinja\n<p>{{ agent.id }}</p>\n```",
        "Use `{{ agent_id }}` in views",
        "Use `{{AGNET_ID}}` as written",
        "~~~\n{{AGNET_ID}}\n~~~",
        "{{AGENT_IP}} {{AGENT_IN}} {{AGENT_IDS}} {{agent_id}} {{ AGENT_ID }}",
        "{{AGENT_DB}} {{AGENT_DN}} {{AGNXT_ID}}",  # a changed letter, no swap of neighbours
    ],
)
async def test_i1_a_template_with_other_names_in_braces_is_kept(
    client: Client, agent: AgentHome, line: str
) -> None:
    """Only what is surely a typo of a Session placeholder is refused: written in its own style
    (upper case, no spaces), outside code spans and fences, a swap of two neighbours or one
    letter missing or doubled (``{{AGNET_ID}}``, ``{{AGENT_D}}``, ``{{AGENTT_ID}}``). A Jinja
    example in a fence, an inline code span, ``{{AGENT_IP}}``, ``{{AGENT_IN}}``,
    ``{{AGENT_IDS}}`` (other plausible names) were refused; they are saved as written."""
    template = f"# Role\n{line}\n{{{{MEMORY}}}}\n"

    changed = await ok_json(await client.patch(CONFIG, json={"template": template}))

    assert changed["template"] == template


@pytest.mark.parametrize(
    "typo", ["{{AGNET_ID}}", "{{AGENT_D}}", "{{AGENTT_ID}}", "{{APP-DATA-DIR}}"]
)
async def test_i1_a_sure_typo_of_a_session_placeholder_is_refused(
    client: Client, agent: AgentHome, typo: str
) -> None:
    template = f"# Role\n- {typo}\n{{{{MEMORY}}}}\n"

    body = await expect_problem(
        await client.patch(CONFIG, json={"template": template}), 422, "template must hold"
    )

    assert f"{typo!r} (a typo of" in body["detail"], body
