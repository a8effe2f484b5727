"""A-10, H-7: an install keeps a token only for the service it is known to belong to, and says
so when it drops one.

A token is kept by an install given another ``--url`` only when the hooks installed before
name that same service (:func:`~harness_memory.installers.spec.same_service`). An older Claude
Code install's ``env.HARNESS_MEMORY_TOKEN`` with no service URL recorded anywhere (no hook
command naming ``--url``, no ``env.HARNESS_MEMORY_URL``) was kept and sent to whatever URL the
install was given; a token of another service was removed with no word of why. Both are
dropped now, and the install says which token it dropped, why (the old URL, the new one) and
the command that gives the new service its token.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from harness_memory.cli import main
from memory_core import layout

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.real_service import RealService
from tests.plugin.test_a10_install_again_makes_the_token_file_private import (
    TOKEN,
    install,
    installed,
)
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags

OLD = "http://127.0.0.1:9"
NEW = "http://127.0.0.2:9"


def env_token_instead(home: Path, token_file: Path) -> Path:
    """Give Claude Code's settings (returned) the token in ``env``, as an older install kept
    it, and no token file."""
    settings = home / ".claude" / "settings.json"
    document = json.loads(settings.read_text("utf-8"))
    document["env"] = {"HARNESS_MEMORY_TOKEN": TOKEN}
    settings.write_text(json.dumps(document), "utf-8")
    token_file.unlink()
    return settings


def test_a10_a_claude_code_env_token_with_no_service_recorded_is_dropped_and_said(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"env": {"HARNESS_MEMORY_TOKEN": TOKEN}}), "utf-8")
    Path(flags(home)[1]).mkdir(parents=True)

    status, said = install(home, "claude-code", *flags(home, NEW), environ={})

    assert status == 0, said
    token_file = settings.parent / "harness-memory" / "token"
    assert not token_file.exists()
    assert TOKEN not in settings.read_text("utf-8") and TOKEN not in said
    assert (
        f"claude-code: dropped the bearer token in {settings} (env.HARNESS_MEMORY_TOKEN): no "
        f"service URL is recorded with it, so it is not known to be {NEW}'s (A-10); give "
        f"{NEW}'s token: `HARNESS_MEMORY_TOKEN=… harness-memory install claude-code` again"
    ) in said


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_a10_a_token_of_another_service_is_removed_and_the_install_says_why(
    tmp_path: Path, harness: str
) -> None:
    how = f"`HARNESS_MEMORY_TOKEN=… harness-memory install {harness}` again"
    home, token_file = installed(tmp_path, harness)

    status, said = install(home, harness, *flags(home, NEW), environ={})

    assert status == 0, said
    assert not token_file.exists() and TOKEN not in said
    assert (
        f"{harness}: dropped the earlier hooks' bearer token: it was given for "
        f"the service at {OLD}, not {NEW} (A-10: a token is never sent to another service); "
        f"give {NEW}'s token: {how}"
    ) in said


def test_a10_a_claude_code_env_token_of_another_service_is_said_once(tmp_path: Path) -> None:
    home, token_file = installed(tmp_path, "claude-code")
    settings = env_token_instead(home, token_file)

    status, said = install(home, "claude-code", *flags(home, NEW), environ={})

    assert status == 0, said
    assert TOKEN not in settings.read_text("utf-8") + said
    assert said.count("earlier hooks' bearer token") == 1, said
    assert f"it was given for the service at {OLD}, not {NEW}" in said


def test_a10_a_token_of_hooks_naming_no_one_service_is_removed_and_said(tmp_path: Path) -> None:
    """Hooks whose commands name two services (one edited by hand) record no one URL for
    their token: it is not known to be the new service's, so it is dropped, and said."""
    home, token_file = installed(tmp_path, "gemini")
    settings = home / ".gemini" / "settings.json"
    text = settings.read_text("utf-8")
    settings.write_text(text.replace(f"--url {OLD}", "--url http://127.0.0.3:9", 1), "utf-8")

    status, said = install(home, "gemini", *flags(home, NEW), environ={})

    assert status == 0, said
    assert not token_file.exists() and TOKEN not in said
    assert (
        "gemini: dropped the earlier hooks' bearer token: they name no one "
        f"service URL, so it is not known to be {NEW}'s (A-10); give {NEW}'s token: "
        "`HARNESS_MEMORY_TOKEN=… harness-memory install gemini` again"
    ) in said


SECRET_URL = "http://coder:SeCrEtPaSsWoRd@127.0.0.1:9/0123456789abcdef0123456789abcdef"
SHOWN = "http://***@127.0.0.1:9/***"


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_a10_the_urls_an_install_says_hide_their_userinfo_and_ids(
    tmp_path: Path, harness: str
) -> None:
    """ "removed the earlier hooks' bearer token: it was given for the service at OLD" and
    "installing again with the settings of …: --url OLD" printed the URL whole: its password
    and the hex key in its path went to the terminal and every log of it. (An install refuses
    such a URL now; hooks installed by hand, or by an older release, name it.)"""
    home, _ = installed(tmp_path, harness)
    settings = next(path for path in home.rglob("*") if path.is_file() and OLD in path.read_text())
    settings.write_text(settings.read_text("utf-8").replace(OLD, SECRET_URL), "utf-8")
    served = next(home.rglob("token.url"))  # as an install for that URL recorded it
    served.write_text(f"{SECRET_URL}\n", "utf-8")

    again = install(home, harness, environ={})[1]  # then refused: a URL holding a password
    assert f"--url '{SHOWN}'" in again

    status, said = install(home, harness, *flags(home, NEW), environ={})

    assert status == 0, said
    assert f"given for the service at {SHOWN}, not {NEW}" in said
    assert "SeCrEtPaSsWoRd" not in again + said and "0123456789abcdef" not in again + said


def test_a10_a_claude_code_env_token_of_a_secret_url_is_said_hidden(tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    env = {"HARNESS_MEMORY_TOKEN": TOKEN, "HARNESS_MEMORY_URL": SECRET_URL}
    settings.write_text(json.dumps({"env": env}), "utf-8")
    Path(flags(home)[1]).mkdir(parents=True)

    status, said = install(home, "claude-code", *flags(home, NEW), environ={})

    assert status == 0, said
    assert f"given for the service at {SHOWN}, not {NEW}" in said
    assert "SeCrEtPaSsWoRd" not in said and "0123456789abcdef" not in said


def test_a10_a_claude_code_dry_run_says_it_would_drop_the_env_token(tmp_path: Path) -> None:
    """``--dry-run`` said "dropped the bearer token" (and "removed") of a run that changes
    nothing."""
    home, token_file = installed(tmp_path, "claude-code")
    settings = env_token_instead(home, token_file)
    before = settings.read_text("utf-8")

    status, said = install(home, "claude-code", *flags(home, NEW), "--dry-run", environ={})

    assert status == 0, said
    assert "would drop the earlier hooks' bearer token: it was given for the service" in said
    assert "dropped the" not in said and "removed" not in said
    assert settings.read_text("utf-8") == before


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_a10_a_refused_service_check_says_why_the_earlier_token_is_not_sent(
    tmp_path: Path,
    harness: str,
    shared_service: RealService,
    new_agent: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The service check refused ("needs a bearer token and none was given") after codex and
    gemini said "removed the earlier hooks' bearer token" of an install that changed nothing;
    a Claude Code ``env`` token so dropped was never explained."""
    home, token_file = installed(tmp_path, harness)
    if harness == "claude-code":  # an older install's env token, no token file
        env_token_instead(home, token_file)
    root = layout.memory_root(shared_service.data_dir, new_agent)
    words = ["--url", shared_service.url, "--project", "acme", "--agent", new_agent]
    out = io.StringIO()
    argv = ["install", harness, "--home", str(home), *words, "--memory-root", str(root)]
    argv += ["--executable", str(HARNESS_MEMORY)]
    status = main(argv, environ={"HOME": str(home)}, stdout=out)

    said = out.getvalue() + caplog.text
    assert status == 1, said
    assert "needs a bearer token and none was given" in said
    assert f"would drop the earlier hooks' bearer token: it was given for the service at {OLD}" in (
        said
    )
    assert "removed" not in said and "dropped the" not in said
    assert token_file.exists() or harness == "claude-code"


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_a10_a_managed_install_for_another_url_says_each_users_token_goes_there(
    tmp_path: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Changing a managed install's --url said nothing: every user's managed token (from
    `token set --managed`, given for the old service) went to the new one. `token set` now
    records its service beside it, so the hooks refuse it there; one set before that still
    goes, which the warning says too."""
    home = tmp_path / "home"
    Path(flags(home)[1]).mkdir(parents=True)
    managed = ["--managed", str(tmp_path / "managed")]
    assert install(home, harness, *flags(home, OLD), *managed, environ={})[0] == 0

    status, said = install(home, harness, *flags(home, NEW), *managed, environ={})

    assert status == 0, said
    assert (
        f"the managed hooks named the service at {OLD}: each user's managed token was given "
        f"for it, so these hooks no longer send it (A-10; one set before `token set` recorded "
        f"its service beside it still goes to {NEW}); tell every user to run "
        f"`harness-memory token set --managed --url {NEW}` with {NEW}'s token"
    ) in said + caplog.text
    caplog.clear()  # installed again for the same service: nothing to say
    status, said = install(home, harness, *flags(home, NEW), *managed, environ={})
    assert status == 0 and "each user's managed token" not in said + caplog.text
