"""H-3, H-7: upgrading a Claude Code install whose token is in the settings' ``env``.

An install from before the token file kept its token in ``env.HARNESS_MEMORY_TOKEN``, its hooks
naming the service's ``--url``. ``harness-memory status`` tells the user to run
``harness-memory install claude-code`` again, and ``--no-check`` moves that token into the
token file; but the install's service check asked a service that needs a token with none
("needs a bearer token and none was given") and failed. The check is asked with the token the
install keeps (the same-service rule: only for the service the hooks name).
"""

from __future__ import annotations

import io
import json
import stat
from pathlib import Path

import pytest
from harness_memory.cli import main
from memory_core import layout

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.real_service import RealService

EXECUTABLE = ["--executable", str(HARNESS_MEMORY)]


def run(home: Path, *words: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main([*words, "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    return status, out.getvalue()


@pytest.mark.parametrize("given", ["nothing", "settings"])
def test_h3_the_env_tokens_service_is_checked_with_that_token(
    tmp_path: Path,
    shared_service: RealService,
    new_agent: str,
    given: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    home, url = tmp_path / "home", shared_service.url
    root = layout.memory_root(shared_service.data_dir, new_agent)
    flags = ["--url", url, "--project", "acme", "--agent", new_agent, "--memory-root", str(root)]
    status, said = run(home, "install", "claude-code", *flags, *EXECUTABLE, "--no-check")
    assert status == 0, said
    path, token = home / ".claude" / "settings.json", home / ".claude" / "harness-memory" / "token"
    document = json.loads(path.read_text("utf-8").replace(" --flags-only", ""))
    document["env"] = {"HARNESS_MEMORY_TOKEN": shared_service.token}  # as an older release
    path.write_text(json.dumps(document, indent=2), "utf-8")
    assert not token.exists()
    assert "run `harness-memory install claude-code` again" in run(home, "status")[1]

    again = flags if given == "settings" else []
    status, said = run(home, "install", "claude-code", *again, *EXECUTABLE)

    said += caplog.text
    assert status == 0, said
    assert "needs a bearer token" not in said
    assert shared_service.token not in said + path.read_text("utf-8")
    assert token.read_text("utf-8") == shared_service.token + "\n"
    assert stat.S_IMODE(token.stat().st_mode) == 0o600
