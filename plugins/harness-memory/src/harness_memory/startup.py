"""One home for "check the settings, read the template, start the Session" (P-1, P-2a, P-4).

The command line's ``session-start`` and every harness's Session-start hook begin the same way:
the service URL, project and agent must be configured (from the harness's own settings, P-2a),
the template is read, and the Session starts. They differ only in what a bad setting means: a
usage error in a shell (:func:`start_from_settings`), a notice to the user in a hook, which must
never stop the Session (:func:`start_for_hook`, which also writes the Session's record for the
write guard). The hook's path loads neither msgspec nor ``logging`` unless it must (H-5).
"""

from __future__ import annotations

from pathlib import Path

from harness_memory import logs
from harness_memory.session_core import DEFAULT_TEMPLATE, Started, start_session_record
from harness_memory.settings import HarnessSettings

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    from harness_memory.session import SessionStart

__all__ = [
    "MissingSettingsError",
    "TemplateUnreadableError",
    "start_for_hook",
    "start_from_settings",
]


class MissingSettingsError(Exception):
    """The service URL, project or agent is not configured; ``names`` lists the variables."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        super().__init__(f"set {', '.join(names)}")

    def notice(self) -> str:
        """What a hook tells the user (its ``systemMessage``): memory is off, and what to set."""
        return f"Agent Memory is off for this Session: {self}"


class TemplateUnreadableError(Exception):
    """The configured template file cannot be read (missing, unreadable, not UTF-8)."""


def start_from_settings(
    settings: HarnessSettings,
    *,
    workspace: str,
    session_id: str | None = None,
    draft_id: str | None = None,
    template_fallback: bool = False,
) -> SessionStart:
    """Start a Session's memory with what ``settings`` configure (P-1).

    Raises :class:`MissingSettingsError` when URL, project or agent is missing, before any
    request. A template file that cannot be read raises :class:`TemplateUnreadableError`, or
    with ``template_fallback`` is logged and replaced by the built-in template (a hook must
    start the Session regardless). Service problems never raise (P-2).
    """
    from harness_memory.session import session_start_of

    return session_start_of(
        _start(
            settings,
            workspace=workspace,
            session_id=session_id,
            draft_id=draft_id,
            template_fallback=template_fallback,
        )
    )


def start_for_hook(
    settings: HarnessSettings,
    *,
    cwd: str | None,
    session_id: str | None,
    save_record: bool = True,
) -> Started:
    """A Session-start hook's start (P-4): the Workspace is the hook's ``cwd`` (else the process's).

    An unreadable template is replaced by the built-in one; with a ``session_id`` and
    ``save_record`` (one of several parallel hook entries of a Session writes it) the Session's
    record is written to the state dir for the write guard (a failure to write it is logged, and
    the guard then falls back to ``HARNESS_MEMORY_ROOT``). Raises :class:`MissingSettingsError`
    (its :meth:`~MissingSettingsError.notice` is the hook's answer); never raises otherwise.
    """
    from harness_memory.records import write_record

    started = _start(
        settings, workspace=cwd or str(Path.cwd()), session_id=session_id, template_fallback=True
    )
    if session_id and save_record:
        try:
            write_record(settings.state_dir, session_id, started.record)
        except (OSError, UnicodeEncodeError) as error:  # a lone surrogate in the cwd or the id
            logs.logger(__name__).warning("could not write the Session record: %s", error)
    return started


def _start(
    settings: HarnessSettings,
    *,
    workspace: str,
    session_id: str | None,
    draft_id: str | None = None,
    template_fallback: bool,
) -> Started:
    url, project, agent = settings.url, settings.project, settings.agent
    if not (url and project and agent):
        raise MissingSettingsError(settings.missing())
    try:
        template = settings.read_template()
    except (OSError, UnicodeDecodeError) as error:
        if not template_fallback:
            raise TemplateUnreadableError(f"cannot read the template file: {error}") from error
        logs.logger(__name__).warning(
            "template %s unreadable, using the default: %s", settings.template_file, error
        )
        template = DEFAULT_TEMPLATE
    local_copy = None
    if settings.remote:
        from harness_memory.remote import RemoteCopy

        local_copy = RemoteCopy(
            url=url,
            token=settings.token,
            project=project,
            agent=agent,
            state_dir=settings.state_dir,
            timeout=settings.timeout,
        )
    return start_session_record(
        service_url=url,
        token=settings.token,
        project=project,
        agent=agent,
        workspace=workspace,
        template=template,
        session_id=session_id,
        timeout_s=settings.timeout,
        draft_id=draft_id,
        memory_root=settings.memory_root,
        local_copy=local_copy,
    )
