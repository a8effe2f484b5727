"""What an install writes into any harness: the hook commands and how to recognise ours (H-3).

Every hook command an installer writes runs ``<harness-memory> hook <harness> <event> …flags``
with the service URL, project, agent and memory root as flags (P-2a: they come from the
harness's own user settings, never from a Workspace). :func:`is_ours` recognises those commands
again, so an install replaces exactly its own entries and an uninstall removes exactly them;
every other hook in the file is kept as it is.
"""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["InstallOptions", "default_executable", "is_ours"]

_OURS_RE = re.compile(r"harness-memory['\"]? +hook +(?P<harness>[a-z-]+) ")


@dataclass(frozen=True, slots=True)
class InstallOptions:
    """The settings an install writes: ``executable`` is the ``harness-memory`` command to run,
    ``memory_root`` the directory the write guard protects (and the offline fallback reads,
    H-4); ``home`` the user's home directory, whose harness settings files are changed;
    ``token`` an optional bearer token, written where the harness keeps hook environment."""

    executable: str
    url: str
    project: str
    agent: str
    memory_root: Path
    home: Path
    token: str | None = None
    timeout: float | None = None

    def hook_command(
        self, harness: str, event: str, *, state_dir: Path | None = None, token: bool = False
    ) -> str:
        """The shell command of one hook: ``harness-memory hook HARNESS EVENT --url … …``.

        With ``token`` the bearer token (if any) is a flag too, for harnesses whose settings
        have no place for hook environment variables."""
        words = [self.executable, "hook", harness, event]
        words += ["--url", self.url, "--project", self.project, "--agent", self.agent]
        words += ["--memory-root", str(self.memory_root)]
        if self.timeout is not None:
            words += ["--timeout", f"{self.timeout:g}"]
        if token and self.token is not None:
            words += ["--token", self.token]
        if state_dir is not None:
            words += ["--state-dir", str(state_dir)]
        return shlex.join(words)


def default_executable() -> str:
    """The ``harness-memory`` beside the running Python (a venv's ``bin``), else on ``PATH``."""
    beside = Path(sys.executable).parent / "harness-memory"
    if beside.exists():
        return str(beside)
    return shutil.which("harness-memory") or "harness-memory"


def is_ours(command: object, harness: str) -> bool:
    """Whether a hook ``command`` is one this plugin wrote for ``harness``."""
    if not isinstance(command, str):
        return False
    match = _OURS_RE.search(command + " ")
    return match is not None and match.group("harness") == harness
