"""A-10: a service URL whose path holds an id, installed once the user says it is no secret.

An install refuses to write a service URL whose path holds a UUID or hex segment: it may be a
capability secret (``…/hook/<uuid>``). A tenant-routed gateway (``…/tenants/<uuid>/memory``)
had no way out ("give its address without it" cannot be followed), and a project's number of
16 decimal digits (``/projects/1234567890123456/memory``) was refused as "hex". Now digits
alone are no id, the refusal names ``--url-id-not-secret``, that flag installs the URL as
given, and ``status`` does not warn of hooks installed that way (the install record keeps it).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from harness_memory.cli import main
from memory_core.addresses import url_secret
from memory_core.credentials import looks_like_id

from tests.plugin.helpers import HARNESS_MEMORY

UNREACHABLE = "http://127.0.0.1:9"
TENANT = "123e4567-e89b-12d3-a456-426614174000"
TENANT_URL = f"{UNREACHABLE}/tenants/{TENANT}/memory"
PROJECT_NUMBER_URL = f"{UNREACHABLE}/projects/1234567890123456/memory"
HARNESSES = ["claude-code", "codex", "gemini"]
ID_WARNING = "WARNING: the hooks' service URL holds an id in its path"


def install(tmp_path: Path, harness: str, url: str, *extra: str) -> int:
    home = tmp_path / "home"
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    flags = ["--home", str(home), "--memory-root", str(root), "--url", url, "--no-check"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    return main(["install", harness, *flags, *extra], environ={"HOME": str(home)})


def status_of(home: Path) -> str:
    out = io.StringIO()
    main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    return out.getvalue()


def settings_text(home: Path) -> str:
    return "".join(p.read_text() for p in home.rglob("*") if p.name in SETTINGS_NAMES)


SETTINGS_NAMES = ("settings.json", "hooks.json")


@pytest.mark.parametrize("digits", ["1234567890123456", "98765432109876543210"])
def test_a10_decimal_digits_alone_are_no_id(digits: str) -> None:
    """A number (a project's, an account's) is no hex id: a URL holding one is written."""
    assert not looks_like_id(digits)
    assert url_secret(f"https://gw.example/projects/{digits}/memory", written=True) is None
    assert looks_like_id("1234567890123456a")  # one hex letter: an id again


@pytest.mark.parametrize("harness", HARNESSES)
def test_a10_a_project_number_in_the_url_installs_and_status_does_not_warn(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, harness: str
) -> None:
    assert install(tmp_path, harness, PROJECT_NUMBER_URL) == 0, caplog.text
    home = tmp_path / "home"
    assert PROJECT_NUMBER_URL in settings_text(home)
    assert ID_WARNING not in status_of(home)


@pytest.mark.parametrize("harness", HARNESSES)
def test_a10_the_refusal_of_an_id_names_the_flag_that_says_it_is_no_secret(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, harness: str
) -> None:
    """The refusal is one line that says why (the id may be a capability secret, written where
    others read) and exactly what to add; it led with the bearer token and named the flag
    last, after "give its address without it", in a 600-character sentence."""
    assert install(tmp_path, harness, TENANT_URL) == 1
    (said,) = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert "\n" not in said
    assert (
        f"the service URL '{UNREACHABLE}/tenants/***/memory' holds an id in its path (a UUID "
        "or hex segment), which may be a capability secret, so install does not write it into "
        "settings files and hook command lines other accounts (ps) and a repository read: if "
        "it is no secret (a tenant's id a gateway routes by), add --url-id-not-secret; else "
        "give the address without it, and the bearer token with --token-file or "
        "HARNESS_MEMORY_TOKEN (nothing was changed)"
    ) in said
    assert said.count("--url-id-not-secret") == 1
    assert TENANT not in caplog.text.lower()
    assert not (tmp_path / "home").exists() or TENANT not in settings_text(tmp_path / "home")


def test_a10_a_key_in_the_path_is_refused_without_naming_the_flag(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The flag speaks for an id only: a key standing alone stays refused, and its refusal
    offers no way to write it."""
    url = f"{UNREACHABLE}/Xk9mPqRtZw2LnBvCx7YhJd4F/memory"
    assert install(tmp_path, "codex", url, "--url-id-not-secret") == 1
    assert "a secret in its path" in caplog.text
    assert "--url-id-not-secret" not in caplog.text


@pytest.mark.parametrize("harness", HARNESSES)
def test_a10_an_id_said_to_be_no_secret_is_installed_as_given_and_status_is_quiet(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, harness: str
) -> None:
    home = tmp_path / "home"
    assert install(tmp_path, harness, TENANT_URL, "--url-id-not-secret") == 0, caplog.text
    assert TENANT_URL in settings_text(home)
    (record,) = home.rglob("harness-memory/install.json")
    kept = json.loads(record.read_text())["urlIdNotSecret"]
    assert len(kept) == 1 and TENANT not in record.read_text()  # a digest, not the URL
    said = status_of(home)
    assert "installed in" in said and ID_WARNING not in said

    # another URL with an id the user never spoke for (a settings file edited by hand) is warned of
    (settings,) = [p for p in home.rglob("*") if p.name in SETTINGS_NAMES]
    other = f"{UNREACHABLE}/hook/3f2a9c0d8e7b6a5f4e3d2c1b0a9f8e7d"
    settings.write_text(settings.read_text().replace(TENANT_URL, other), encoding="utf-8")
    said = status_of(home)
    assert ID_WARNING in said and "--url-id-not-secret" in said


@pytest.mark.parametrize("harness", HARNESSES)
def test_a10_installing_again_without_the_flag_forgets_what_was_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, harness: str
) -> None:
    """The record speaks for the install that said it: one with another URL drops it."""
    home = tmp_path / "home"
    assert install(tmp_path, harness, TENANT_URL, "--url-id-not-secret") == 0, caplog.text
    assert install(tmp_path, harness, f"{UNREACHABLE}/memory") == 0, caplog.text
    (record,) = home.rglob("harness-memory/install.json")
    assert "urlIdNotSecret" not in json.loads(record.read_text())


@pytest.mark.parametrize("harness", HARNESSES)
def test_a10_installing_again_with_nothing_given_keeps_what_was_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, harness: str
) -> None:
    """Installing again with nothing given takes every setting from the installed hooks (the
    upgrade ``status`` names): the id said to be no secret is taken as said, not refused."""
    home = tmp_path / "home"
    assert install(tmp_path, harness, TENANT_URL, "--url-id-not-secret") == 0, caplog.text
    again = ["install", harness, "--home", str(home), "--no-check"]
    again += ["--executable", str(HARNESS_MEMORY)]
    assert main(again, environ={"HOME": str(home)}) == 0, caplog.text
    assert TENANT_URL in settings_text(home)
    assert ID_WARNING not in status_of(home)
