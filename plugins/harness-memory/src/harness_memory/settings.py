"""The harness's own memory settings (P-2a): flags first, then ``HARNESS_MEMORY_*`` variables.

Where memory lives is decided here and only here, from what the harness's operator configured:
the service URL and token, the project and agent, and where the plugin keeps its per-Session
records. Nothing is ever read from the Workspace, so a cloned repository cannot redirect memory
writes. Only the entry point (``cli.main``) hands ``os.environ`` in.

==========================  =============================================================
variable                    meaning
==========================  =============================================================
HARNESS_MEMORY_URL          the memory service root, e.g. ``http://127.0.0.1:8080``
HARNESS_MEMORY_TOKEN        bearer token (optional against a loopback service without tokens)
HARNESS_MEMORY_PROJECT      project id (K-7)
HARNESS_MEMORY_AGENT        agent id (K-7)
HARNESS_MEMORY_TIMEOUT      seconds for each request to the service (default 2, at most 3600)
HARNESS_MEMORY_TEMPLATE     path of a template file (default: the hook's built-in template)
HARNESS_MEMORY_STATE_DIR    where Session records go (default ``~/.claude/harness-memory``,
                            or ``$CLAUDE_CONFIG_DIR/harness-memory``)
HARNESS_MEMORY_ROOT         memory root for the write guard when no Session record exists
HARNESS_MEMORY_REMOTE       ``on``: remote mode (R-1): the memory is a local copy under the
                            state dir, synced with the service over git; the memory root is
                            that copy's unless ``HARNESS_MEMORY_ROOT`` says otherwise
HARNESS_MEMORY_TOKEN_FILE   a file holding the bearer token (first line), read when no token
                            is given; it must be private to its owner (mode 0600)
==========================  =============================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from harness_memory.defaults import DEFAULT_TIMEOUT_S
from harness_memory.frozen import Frozen

__all__ = [
    "ENV_PREFIX",
    "MAX_TIMEOUT_S",
    "HarnessSettings",
    "SettingsError",
    "default_state_dir",
    "load_settings",
    "remote_memory_root",
]

ENV_PREFIX = "HARNESS_MEMORY_"
MAX_TIMEOUT_S = 3600.0
"""The longest timeout accepted (seconds): longer than any harness waits for a hook, and far
below what a socket can take (``inf`` or ``1e308`` would overflow it mid-request)."""


class SettingsError(ValueError):
    """A setting is present but unusable (a timeout that is not a positive number)."""


class HarnessSettings(Frozen):
    """Resolved settings; ``None`` means "not configured" (the caller decides if that is fatal).

    A :class:`~harness_memory.frozen.Frozen` record: every hook process builds one (H-5).
    """

    __slots__ = (
        "agent",
        "memory_root",
        "project",
        "remote",
        "state_dir",
        "template_file",
        "timeout",
        "token",
        "url",
    )  # fmt: skip
    url: str | None
    token: str | None
    project: str | None
    agent: str | None
    timeout: float
    template_file: Path | None
    state_dir: Path
    memory_root: Path | None
    remote: bool

    def __init__(
        self,
        *,
        url: str | None,
        token: str | None,
        project: str | None,
        agent: str | None,
        timeout: float,
        template_file: Path | None,
        state_dir: Path,
        memory_root: Path | None,
        remote: bool = False,
    ) -> None:
        self._set(
            url=url,
            token=token,
            project=project,
            agent=agent,
            timeout=timeout,
            template_file=template_file,
            state_dir=state_dir,
            memory_root=memory_root,
            remote=remote,
        )

    def missing(self) -> list[str]:
        """Name the variables a Session start still needs (URL, project, agent)."""
        needed = {"URL": self.url, "PROJECT": self.project, "AGENT": self.agent}
        return [ENV_PREFIX + name for name, value in needed.items() if not value]

    def read_template(self) -> str:
        """Return the template file's text (UTF-8); without a file, the built-in template.

        The built-in one is :func:`memory_core.template.default_template` with the app data dir
        and agent id left as ``{{APP_DATA_DIR}}`` and ``{{AGENT_ID}}`` for :mod:`session` to fill
        (imported here, not at the top: the write guard never needs it, H-5). Raises ``OSError``
        or ``UnicodeDecodeError`` when the configured file cannot be read: also when it is no
        regular file (a FIFO nobody writes would block, ``/dev/zero`` never ends) or is longer
        than :data:`memory_core.template.TEMPLATE_FILE_MAX_BYTES`.
        """
        if self.template_file is None:
            from memory_core.template import default_template

            return default_template()
        from memory_core.template import read_template_file

        return read_template_file(self.template_file)


def default_state_dir(environ: Mapping[str, str]) -> Path:
    """Return the plugin's state dir inside Claude Code's own config dir (never the Workspace)."""
    config = environ.get("CLAUDE_CONFIG_DIR")
    base = Path(config) if config else Path(environ.get("HOME") or Path.home()) / ".claude"
    return base / "harness-memory"


def remote_memory_root(state_dir: Path, project: str, agent: str) -> Path:
    """The memory root of remote mode's local copy (R-1, :mod:`harness_memory.remote`), shaped
    ``<app data dir>/agents/<agent>/agent_state/memory`` so the offline reader (H-4) and the
    write guard (P-3) treat it as any memory root."""
    return state_dir / "remote" / project / "agents" / agent / "agent_state" / "memory"


def _token_from_file(path: str) -> str | None:
    """The first line of the token file ``path``; raises :class:`SettingsError` when it cannot
    be read or group or others may read it (a token file is private: H-7)."""
    import os
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as handle:
            if stat.S_IMODE(os.fstat(handle.fileno()).st_mode) & 0o077:
                raise SettingsError(f"token file {path} may be read by others: chmod 600 it")
            line = handle.read(4096).decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise SettingsError(f"token file {path} cannot be read: {error}") from None
    return (line[0].strip() or None) if line else None


def load_settings(flags: Mapping[str, str | None], environ: Mapping[str, str]) -> HarnessSettings:
    """Merge command-line ``flags`` (``url``, ``token``, …; None = not given) over ``environ``.

    Raises :class:`SettingsError` for a timeout that is not a number of seconds in
    (0, :data:`MAX_TIMEOUT_S`], a ``remote`` value other than on/off, and a token file that
    cannot be read or is not private.
    """

    def pick(name: str) -> str | None:
        value = flags.get(name)
        if value is None:
            value = environ.get(ENV_PREFIX + name.upper())
        return value or None

    raw_timeout = pick("timeout")
    try:
        timeout = float(raw_timeout) if raw_timeout is not None else DEFAULT_TIMEOUT_S
    except ValueError as error:
        raise SettingsError(f"timeout must be a number of seconds, got {raw_timeout!r}") from error
    if not timeout > 0:
        raise SettingsError(f"timeout must be positive, got {raw_timeout!r}")
    if not timeout <= MAX_TIMEOUT_S:
        raise SettingsError(
            f"timeout must be at most {MAX_TIMEOUT_S:g} seconds, got {raw_timeout!r}"
        )
    template = pick("template")
    state_dir = Path(pick("state_dir") or default_state_dir(environ))
    root = pick("root")
    remote_flag = (pick("remote") or "off").lower()
    if remote_flag not in _SWITCH:
        raise SettingsError(f"remote must be on or off, got {remote_flag!r}")
    remote = _SWITCH[remote_flag]
    project, agent = pick("project"), pick("agent")
    memory_root = Path(root) if root else None
    if remote and memory_root is None and project and agent:
        memory_root = remote_memory_root(state_dir, project, agent)
    token = pick("token")
    token_file = pick("token_file")
    if token is None and token_file is not None:
        token = _token_from_file(token_file)
    return HarnessSettings(
        url=pick("url"),
        token=token,
        project=project,
        agent=agent,
        timeout=timeout,
        template_file=Path(template) if template else None,
        state_dir=state_dir,
        memory_root=memory_root,
        remote=remote,
    )


_SWITCH = {"on": True, "1": True, "true": True, "yes": True, "off": False, "0": False}
_SWITCH |= {"false": False, "no": False}
