"""Q-2b: the group remedy an ``unreadable`` finding gives works when done, as two real accounts.

The agent's account owns its scope folder; the service runs as another account, in a group the
agent's account is in too. The finding's command, run as the agent's account, must let the
service list the folder and read every memory file in it, and keep it so for the files the
agent writes next (``umask 027``): a new topic file, and one replaced by a rename, as editors
and ``memory_core.atomic`` write. Files made in a folder take the maker's own group unless the
folder is setgid, so a remedy of ``chgrp`` and ``chmod g+r`` alone lost the service every file
written after it. Run as root (``setpriv`` takes on the two accounts by number, no user made).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_core.caps import folder_unlisted
from memory_core.unreadable_findings import unreadable_message

AGENT, AGENTS_OWN_GROUP = 64101, 64100
SERVICE, SERVICE_GROUP = 64102, 64110

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="takes on two accounts: needs root and setpriv",
)


def as_account(uid: int, command: str) -> subprocess.CompletedProcess[str]:
    """``command`` run by bash as the agent's account (its own group first, the service's
    group too) or the service's (its group only)."""
    groups = f"{AGENTS_OWN_GROUP},{SERVICE_GROUP}" if uid == AGENT else str(SERVICE_GROUP)
    gid = AGENTS_OWN_GROUP if uid == AGENT else SERVICE_GROUP
    account = [f"--reuid={uid}", f"--regid={gid}", f"--groups={groups}"]
    return subprocess.run(
        ["setpriv", *account, "--", "bash", "-c", command],
        capture_output=True,
        text=True,
        check=False,
        timeout=30,  # a hang guard, not a budget
    )


@pytest.fixture
def scope() -> Iterator[Path]:
    """A scope folder of the agent's account, holding ``a.md`` (``0600``), in a folder every
    account may enter."""
    with tempfile.TemporaryDirectory(dir="/tmp") as base:
        Path(base).chmod(0o711)
        folder = Path(base) / "scope"
        folder.mkdir()
        (folder / "a.md").write_text("own\n")
        (folder / "a.md").chmod(0o600)
        for path in (folder, folder / "a.md"):
            os.chown(path, AGENT, AGENTS_OWN_GROUP)
        yield folder


def done(message: str, scope: Path) -> None:
    """Run the finding's command (its first one in backticks) as the agent's account."""
    [command] = re.findall(r"`(chgrp [^`]+)`", message)
    command = command.replace("SERVICE-GROUP", str(SERVICE_GROUP))
    command = command.replace("FOLDER", str(scope)).replace("FILE", str(scope / "a.md"))
    ran = as_account(AGENT, command)
    assert ran.returncode == 0, (command, ran.stderr)


def assert_the_service_reads_all_the_agent_writes_next(scope: Path) -> None:
    wrote = as_account(
        AGENT,
        f"umask 027 && cd {scope} && echo new > b.md && echo v2 > .a.md.tmp && mv .a.md.tmp a.md",
    )
    assert wrote.returncode == 0, wrote.stderr

    listed = as_account(SERVICE, f"ls {scope}")
    read = as_account(SERVICE, f"cat {scope}/a.md {scope}/b.md")

    assert listed.stdout.split() == ["a.md", "b.md"], listed.stderr
    assert (read.returncode, read.stdout) == (0, "v2\nnew\n"), read.stderr


def test_q2b_the_unlisted_folders_remedy_opens_it_and_its_files_to_the_service(
    scope: Path,
) -> None:
    scope.chmod(0o711)  # entered, not listed: the finding "cannot list it"
    assert as_account(SERVICE, f"ls {scope}").returncode != 0

    done(unreadable_message("", folder_unlisted("Permission denied")), scope)

    assert_the_service_reads_all_the_agent_writes_next(scope)


def test_q2b_the_unread_files_remedy_keeps_the_next_files_readable(scope: Path) -> None:
    scope.chmod(0o755)
    assert as_account(SERVICE, f"cat {scope}/a.md").returncode != 0

    done(unreadable_message("a.md", "cannot read it (Permission denied)"), scope)

    assert_the_service_reads_all_the_agent_writes_next(scope)
