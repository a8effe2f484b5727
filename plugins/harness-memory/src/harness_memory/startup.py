"""One home for "check the settings, read the template, start the Session" (P-1, P-2a, P-4).

The command line's ``session-start`` and every harness's Session-start hook begin the same way:
the service URL, project and agent must be configured (from the harness's own settings, P-2a),
the template is read, and :func:`~harness_memory.session.start_session_sync` runs. They differ
only in what a bad setting means: a usage error in a shell, a notice to the user in a hook
(which must never stop the Session).
"""

from __future__ import annotations

import logging

from harness_memory.session import DEFAULT_TEMPLATE, SessionStart, start_session_sync
from harness_memory.settings import HarnessSettings

__all__ = ["MissingSettingsError", "TemplateUnreadableError", "start_from_settings"]

logger = logging.getLogger(__name__)


class MissingSettingsError(Exception):
    """The service URL, project or agent is not configured; ``names`` lists the variables."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        super().__init__(f"set {', '.join(names)}")


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
    url, project, agent = settings.url, settings.project, settings.agent
    if not (url and project and agent):
        raise MissingSettingsError(settings.missing())
    try:
        template = settings.read_template()
    except (OSError, UnicodeDecodeError) as error:
        if not template_fallback:
            raise TemplateUnreadableError(f"cannot read the template file: {error}") from error
        logger.warning(
            "template %s unreadable, using the default: %s", settings.template_file, error
        )
        template = DEFAULT_TEMPLATE
    return start_session_sync(
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
    )
