"""``memory import --from HARNESS``: find a coding agent's own memory and split it (P-5).

=================  ========================================================================
``--from``         what is read, and where it goes
=================  ========================================================================
``claude-code``    the Workspace's auto-memory folder (:mod:`.claude_code`), checked to be
                   the Workspace's (:mod:`.ownership`) → the Workspace scope
``codex``          ``$CODEX_HOME/memories_v2`` and ``memories`` (:mod:`.codex`), each one
                   folder for every project:
                   what names the Workspace's directory → the Workspace scope, what names
                   none → the user scope, what names another directory → not imported
``gemini``         ``~/.gemini/GEMINI.md`` → the user scope; the Workspace's private memory
                   folder and ``GEMINI.md``'s added memories → the Workspace scope
                   (:mod:`.gemini`)
``vscode``         VS Code's memory tool: user memory → the user scope, the Workspace's
                   repository memory → the Workspace scope (:mod:`.memory_tool`)
``memory-tool``    a ``/memories`` folder named as SOURCE → the scope the command names
=================  ========================================================================

With ``--workspace PATH`` both halves are imported (the user part is the same for every
Workspace, so importing it again changes nothing); with ``--user`` only the user part.
Every source ends with an index line for each topic file its index never linked
(:func:`~memory_api.transfer.topic_making.index_unlinked`).

Blocking.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memory_api.transfer.claude_code import claude_code_memory_dir, config_dir
from memory_api.transfer.codex import codex_scopes
from memory_api.transfer.gemini import gemini_scopes
from memory_api.transfer.harness_names import HARNESSES
from memory_api.transfer.memory_tool import memory_tool_scope, vscode_scopes
from memory_api.transfer.ownership import check_claude_code_folder, import_command
from memory_api.transfer.sources import (
    ELSEWHERE,
    NothingHere,
    SourceError,
    SourceScope,
    read_budget,
    read_source,
    recorded_as,
)
from memory_api.transfer.topic_making import index_unlinked

__all__ = ["HARNESSES", "HarnessRequest", "harness_scopes"]

_CLAUDE_DIR = "the folder it uses in place of ~/.claude"
_CLAUDE_ELSEWHERE = ELSEWHERE.format(
    variable="CLAUDE_CONFIG_DIR", harness="Claude Code", folder=_CLAUDE_DIR
)


@dataclass(frozen=True, slots=True)
class HarnessRequest:
    """What ``memory import --from`` was asked: the ``harness``, the ``workspace`` as written
    (None with ``--user``), ``user`` (``--user``), a ``source`` folder (``memory-tool`` only),
    and the ``project`` and ``agent`` (for the commands the report suggests)."""

    harness: str
    workspace: str | None
    user: bool
    source: str | None
    project: str
    agent: str


def _workspace(request: HarnessRequest) -> Path | None:
    """The Workspace's real path; :class:`SourceError` when it is no directory here."""
    if request.workspace is None:
        return None
    real = Path(os.path.realpath(request.workspace))
    # the path as given: the kernel follows at most 40 symlinks, realpath any number (K-1)
    if not Path(request.workspace).is_dir():
        raise SourceError(f"the Workspace {request.workspace} is no directory on this machine")
    return real


def _check_usage(request: HarnessRequest) -> None:
    name = f"--from {request.harness}"
    if request.harness == "memory-tool":
        if request.source is None or (request.workspace is None and not request.user):
            raise SourceError(f"{name} takes the FOLDER and --user or --workspace PATH")
        return
    if request.source is not None:
        raise SourceError(f"{name} finds the folder itself: it takes no SOURCE")
    if request.harness == "claude-code" and request.workspace is None:
        raise SourceError(f"{name} takes --workspace PATH and no SOURCE")
    if request.workspace is None and not request.user:
        raise SourceError(f"{name} takes --workspace PATH (or --user for its user part)")


def _claude_code(request: HarnessRequest, workspace: Path, env: Mapping[str, str]) -> SourceScope:
    folder = claude_code_memory_dir(str(workspace), env)
    if not folder.is_dir():
        raise NothingHere(
            f"Claude Code keeps no memory for that Workspace here: {folder}. {_CLAUDE_ELSEWHERE}"
        )
    if folder.parent.parent == config_dir(env) / "projects":
        anyway = import_command(folder, workspace, request.project, request.agent)
        owner = check_claude_code_folder(folder, workspace, anyway)
    else:  # autoMemoryDirectory: the user chose one folder
        owner = None
    [scope] = read_source(folder)
    scope.role = "workspace"
    if owner is not None and owner.shared_with:
        shared = ", ".join(map(str, owner.shared_with))
        scope.notes.append(
            f"Claude Code's folder is shared with {shared} (its transcripts name it)"
        )
    if owner is None:
        scope.notes.append("autoMemoryDirectory: Claude Code keeps one folder for every project")
    return scope


@read_budget()
def harness_scopes(
    request: HarnessRequest, env: Mapping[str, str] | None = None
) -> list[SourceScope]:
    """Read ``request.harness``'s memory for the import (see the module docstring).

    Raises :class:`SourceError` for a wrong combination of options or nothing to import, and
    :class:`~memory_api.transfer.ownership.WrongProject` when the folder found belongs to
    another project.
    """
    environment = os.environ if env is None else env
    _check_usage(request)
    workspace = None if request.user else _workspace(request)
    if request.harness == "claude-code":
        assert workspace is not None
        scopes = [_claude_code(request, workspace, environment)]
    elif request.harness == "codex":
        scopes = codex_scopes(workspace, environment)
    elif request.harness == "gemini":
        scopes = gemini_scopes(workspace, request.workspace, environment)
    elif request.harness == "vscode":
        scopes = vscode_scopes(workspace, environment)
    else:
        assert request.source is not None
        folder = Path(request.source)
        scopes = recorded_as([memory_tool_scope(folder, shown=request.source)], folder)
    for scope in scopes:
        index_unlinked(scope)
    return scopes
