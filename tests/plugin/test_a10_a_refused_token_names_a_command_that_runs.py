"""A-10, H-7: a hook refusing a token recorded for another service names a command that runs as
printed, and that command makes the hook take the token.

Reviewers found three hints that could not be run: the managed hooks said "run `harness-memory
token set --managed` with URL's token" (no ``--url``: the record it writes is then guessed from
the installed hooks); a user hook said "`HARNESS_MEMORY_TOKEN=… harness-memory install HARNESS`
again", which an install now refuses, since it never replaces a token the user gave for another
service; and for a URL installed with ``--url-id-not-secret`` the URL in the hint was
``…/tenants/***/memory``. Each hint is run here as printed.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from harness_memory.settings import TokenFileError, load_settings

from tests.plugin.test_a10_a_token_keeps_its_recorded_service import TOKEN, token_set
from tests.plugin.test_a10_install_again_makes_the_token_file_private import install
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags

A = "http://127.0.0.1:9"
B = "http://127.0.0.2:9"
TENANT_URL = f"{A}/tenants/123e4567-e89b-12d3-a456-426614174000/memory"
NEW_TOKEN = TOKEN + "-new"


def hook_settings(token_file: Path, url: str, *, managed: bool = False) -> dict[str, str]:
    flags_ = {"url": url, "token_file": str(token_file)}
    return flags_ if managed else flags_ | {"state_dir": str(token_file.parent)}


def refusal(settings: dict[str, str]) -> str:
    with pytest.raises(TokenFileError) as refused:
        load_settings(settings, {}, flags_only=True).bearer_token()
    return str(refused.value)


def run_printed(said: str, home: Path) -> None:
    """Run the one `harness-memory token set …` command ``said`` prints, as printed."""
    (command,) = re.findall(r"`(harness-memory token set [^`]*)`", said)
    words = shlex.split(command)
    status, out = token_set(home, *words[3:], token=NEW_TOKEN)
    assert status == 0, out


def installed_for(tmp_path: Path, url: str, *extra: str) -> tuple[Path, Path]:
    home = tmp_path / "home"
    Path(flags(home)[1]).mkdir(parents=True, exist_ok=True)
    status, said = install(
        home, "codex", *flags(home, url), *extra, environ={"HARNESS_MEMORY_TOKEN": TOKEN}
    )
    assert status == 0, said
    return home, home / ".codex" / "harness-memory" / "token"


@pytest.mark.parametrize(
    ("url", "extra"), [(A, ()), (TENANT_URL, ("--url-id-not-secret",))], ids=["plain", "id"]
)
def test_a10_a_user_hook_names_the_token_set_that_gives_its_service_a_token(
    tmp_path: Path, url: str, extra: tuple[str, ...]
) -> None:
    home, token_file = installed_for(tmp_path, url, *extra)
    (token_file.parent / "token.url").write_text(f"{B}\n", "utf-8")  # token set --url B's
    settings = hook_settings(token_file, url)

    said = refusal(settings)

    assert f"`harness-memory token set --file {token_file} --url {url}`" in said, said
    run_printed(said, home)
    assert load_settings(settings, {}, flags_only=True).bearer_token() == NEW_TOKEN


def test_a10_a_users_own_url_file_beside_the_token_is_said_to_be_none_of_ours(
    tmp_path: Path,
) -> None:
    """``F.url`` beside ``--token-file F`` that is the user's own (notes, not one URL) was
    "an unreadable record" to be checked and removed (``rm``): it is said to be no record of
    ours, neither used nor replaced, and the way on moves it aside, keeping it."""
    home, token_file = installed_for(tmp_path, TENANT_URL, "--url-id-not-secret")
    mine = token_file.parent / "token.url"
    mine.write_text("my notes: which service is this?\nsecond line\n", "utf-8")
    settings = hook_settings(token_file, TENANT_URL)

    said = refusal(settings)

    assert (
        f"{mine} is not a service record harness-memory wrote (one http(s) URL on one line): "
        "your own file, or a token put there by mistake; harness-memory neither uses nor "
        "replaces it, and sends this token to no service while it is there"
    ) in said, said
    assert "unreadable" not in said and "rm " not in said and "my notes" not in said
    (move,) = re.findall(r"`(mv -n [^`]*)`", said)  # -n: never over a .mine already there
    assert "-n never overwrites" in said, said
    _, _, source, target = shlex.split(move)
    Path(source).rename(target)  # as printed
    run_printed(said, home)
    assert load_settings(settings, {}, flags_only=True).bearer_token() == NEW_TOKEN
    assert Path(target).read_text("utf-8").startswith("my notes")


def test_a10_the_managed_hooks_name_token_set_with_its_url(tmp_path: Path) -> None:
    token_file = tmp_path / "account" / ".claude" / "harness-memory" / "token"
    assert token_set(tmp_path, "--file", str(token_file), "--url", B)[0] == 0

    said = refusal(hook_settings(token_file, A, managed=True))

    assert f"run `harness-memory token set --managed --url {A}` with {A}'s token" in said, said


def test_a10_an_id_no_one_said_is_no_secret_stays_hidden_in_the_hint(tmp_path: Path) -> None:
    _, token_file = installed_for(tmp_path, TENANT_URL, "--url-id-not-secret")
    record = json.loads((token_file.parent / "install.json").read_text("utf-8"))
    record.pop("urlIdNotSecret")
    (token_file.parent / "install.json").write_text(json.dumps(record), "utf-8")
    (token_file.parent / "token.url").write_text(f"{B}\n", "utf-8")

    said = refusal(hook_settings(token_file, TENANT_URL))

    assert "123e4567" not in said and f"--url '{A}/tenants/***/memory'" in said, said
