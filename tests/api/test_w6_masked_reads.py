"""W-6 / I-8 on the read API: a topic file answers its likely credentials masked unless the
caller asks to reveal them, with the file's own lint findings; a listing carries the scope's
findings so the page can open them from each row."""

from __future__ import annotations

from tests.api.conftest import AgentHome, Client, expect_problem, file_url, memory_url, ok_json

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
BODY = f"Deploy with the bot.\n\nGITHUB_TOKEN={TOKEN}\n\nThen tag the release.\n"


def _write_leaky(agent: AgentHome) -> None:
    (agent.user / "deploy-bot.md").write_text(
        "---\nname: deploy-bot\ndescription: how the deploy bot logs in\n"
        f"updated_at: 2026-11-20\n---\n{BODY}",
        encoding="utf-8",
    )


async def test_i8_file_answer_masks_credentials_and_names_them_in_findings(
    client: Client, agent: AgentHome
) -> None:
    _write_leaky(agent)

    topic = await ok_json(await client.get(file_url("user", "deploy-bot.md")))

    assert TOKEN not in topic["body"]
    assert "GITHUB_TOKEN=[masked: " in topic["body"]
    assert topic["body"].startswith("Deploy with the bot.")
    assert topic["masked"] is True
    secrets = [finding for finding in topic["findings"] if finding["code"] == "secret"]
    assert [finding["line"] for finding in secrets] == [8]
    assert all(finding["file"] == "deploy-bot.md" for finding in topic["findings"])
    assert TOKEN not in str(topic["findings"])


async def test_w6_reveal_answers_the_text_as_written(client: Client, agent: AgentHome) -> None:
    _write_leaky(agent)

    topic = await ok_json(await client.get(file_url("user", "deploy-bot.md") + "?reveal=true"))

    assert topic["body"] == BODY.strip("\n")  # the body as the service trims it
    assert topic["masked"] is False
    assert [finding["code"] for finding in topic["findings"]].count("secret") == 1


async def test_w6_reveal_takes_only_true_or_false(client: Client, agent: AgentHome) -> None:
    _write_leaky(agent)
    await expect_problem(
        await client.get(file_url("user", "deploy-bot.md") + "?reveal=yes"), 400, "reveal"
    )


async def test_w6_a_clean_file_is_not_masked(client: Client, agent: AgentHome) -> None:
    (agent.user / "plain.md").write_text(
        "---\nname: plain\ndescription: d\n---\npassword hashing uses argon2\n", encoding="utf-8"
    )
    topic = await ok_json(await client.get(file_url("user", "plain.md")))
    assert topic["masked"] is False
    assert topic["body"] == "password hashing uses argon2"


async def test_w6_listing_carries_the_scope_findings_per_file(
    client: Client, agent: AgentHome
) -> None:
    _write_leaky(agent)

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    index = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))

    assert listing["findings"] == index["findings"]
    codes = {(f["file"], f["code"]) for f in listing["findings"]}
    assert ("deploy-bot.md", "secret") in codes
    assert ("MEMORY.md", "missing-index") in codes


async def test_i8_the_index_answers_its_credentials_masked_unless_revealed(
    client: Client, agent: AgentHome
) -> None:
    """The index route answered a credential in ``MEMORY.md`` as written, in ``raw`` and in
    its lines, while Session start injects it masked and a topic file answers it masked (I-8,
    W-6): any index, in any encoding or line ends, is answered masked; ``?reveal=true``
    answers it as written."""
    key_line = "- [Deploy bot](deploy-bot.md) — logs in with GITHUB_TOKEN=" + TOKEN
    for encoding, ends in (("utf-8", "\n"), ("utf-16", "\r\n"), ("utf-8", "\r")):
        text = ends.join(["# Index", key_line, "- [Other](other.md) — plain"]) + ends
        (agent.user / "MEMORY.md").write_bytes(text.encode(encoding))
        index = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
        assert TOKEN not in str(index), encoding
        assert "GITHUB_TOKEN=[masked: " in index["raw"]
        assert [line["text"] for line in index["lines"]][0::2] == [
            "# Index",
            "- [Other](other.md) — plain",
        ]
        assert "GITHUB_TOKEN=[masked: " in index["lines"][1]["text"]
        url = f"{memory_url()}/scopes/user/index?reveal=true"
        revealed = await ok_json(await client.get(url))
        assert revealed["lines"][1]["text"] == key_line
        assert key_line in revealed["raw"]
