"""The Session-start hook of any harness: start from its settings, keep the record, fit (P-4, H-1).

Every harness adds Session-start context in the JSON shape Claude Code reads
(``{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": …},
"systemMessage": …}``). :func:`start_for_hook` starts the Session's memory from the harness's
own settings (with the offline fallback of H-4 when a memory root is configured) in the hook's
working directory and writes the Session's record for the write guard.
:func:`session_start_answer` answers a harness that takes its context in one piece of a
limited size (Codex CLI, Gemini CLI): the prompt fitted with :func:`harness_memory.fitting.fit`,
whole when it fits; otherwise index lines are left out at a line boundary with the I-4 note,
the key line and the rest of the template stay, and the user is told in ``systemMessage``
(never a silent preview). Claude Code's N pieces: :mod:`harness_memory.hooks.claude_code_start`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memory_core.caps import index_unread, is_folder_unread

from harness_memory.advice import Hooks
from harness_memory.fitting import Delivery, HarnessLimits, fit
from harness_memory.hooks.claude_code import HookInput
from harness_memory.records import SessionMeta, write_record
from harness_memory.session import SessionStart, start_from_settings
from harness_memory.settings import (
    DEFAULT_TIMEOUT_S,
    ENV_PREFIX,
    MANAGED_TOKEN_SET,
    TOKEN_FILE_NAME,
    HarnessSettings,
    MissingSettingsError,
    account_state_dir,
    unknown_account_note,
)
from harness_memory.state_trust import untrusted_state

__all__ = [
    "availability_message",
    "context_answer",
    "cut_summary",
    "ignored_env_message",
    "merged_message",
    "prompt_message",
    "session_start_answer",
    "start_for_hook",
    "template_message",
    "uncreated_message",
    "unknown_account_message",
    "unreadable_message",
    "untrusted_state_message",
]


def start_for_hook(
    settings: HarnessSettings,
    *,
    cwd: str | None,
    session_id: str | None,
    save_record: bool = True,
    say: bool = True,
) -> SessionStart:
    """A Session-start hook's start (P-4): the Workspace is the hook's ``cwd`` (else the process's).

    An unreadable template is replaced by the built-in one; with a ``session_id`` and
    ``save_record`` (one of several parallel hook entries of a Session writes it) the Session's
    record is written to the state dir for the write guard (a failure to write it is logged, and
    the guard then falls back to the configured memory root). ``say`` False: what went wrong
    is not logged on stderr (another entry of the Session says it, P-2). Raises
    :class:`~harness_memory.settings.MissingSettingsError` (its ``notice()`` is the hook's
    answer); never raises otherwise.
    """
    result = start_from_settings(
        settings,
        workspace=cwd or str(Path.cwd()),
        session_id=session_id,
        template_fallback=True,
        say=say,
    )
    if session_id and save_record and settings.state_dir is not None:
        try:
            write_record(settings.state_dir, session_id, result.session_meta)
        except (OSError, UnicodeEncodeError) as error:  # a lone surrogate in the cwd or the id
            import logging  # only then (H-5)

            logging.getLogger(__name__).warning("could not write the Session record: %s", error)
    return result


def session_start_answer(
    hook: HookInput,
    settings: HarnessSettings,
    harness: str,
    limits: HarnessLimits,
    *,
    installed_as: str,
) -> dict[str, Any]:
    """The SessionStart answer of a one-piece ``harness`` (its name for the user;
    ``installed_as`` the name ``harness-memory install`` takes). Never raises."""
    try:
        result = start_for_hook(settings, cwd=hook.cwd, session_id=hook.session_id)
    except MissingSettingsError as error:
        return {"systemMessage": error.notice()}
    delivery = fit(result.sections, result.session_meta.manifests, limits)
    answer = context_answer(delivery.pieces[0]) if delivery.pieces else {}
    notices = (
        untrusted_state_message(settings, hook.session_id),
        ignored_env_message(settings, installed_as),
        unknown_account_message(settings),
        availability_message(result.session_meta),
        prompt_message(result),
        template_message(result.session_meta),
        unreadable_message(result.session_meta),
        uncreated_message(result.session_meta),
        merged_message(result.session_meta),
    )
    said = [notice for notice in notices if notice is not None]
    if cut := cut_summary(delivery):
        said.append(
            f"Agent Memory: {harness} takes at most {limits.limit_text}, so memory was cut "
            f"({'; '.join(cut)})."
        )
    if said:
        answer["systemMessage"] = " ".join(said)
    return answer


def context_answer(piece: str) -> dict[str, Any]:
    """The hook answer that adds ``piece`` to the model's context."""
    return {
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": piece.lstrip("\n"),
        }
    }


def ignored_env_message(settings: HarnessSettings, harness: str) -> str | None:
    """Tell the user which ``HARNESS_MEMORY_*`` variables of the Session's environment the
    installed hooks ignored (``--flags-only``): a repository's settings can set them, and the
    hooks' flags decide where memory lives and what is injected (P-2a).

    When the token was among them and the hooks have none of their own, it names the one
    command that gives them theirs: for the managed hooks, which name no state folder,
    ``harness-memory token set --managed``; for Claude Code's (``harness`` as the install takes it),
    whose install from before the token file kept it in the settings' ``env``,
    ``harness-memory install claude-code``, which takes everything else from the installed
    hooks; when that install was done (its token file is there) and a command run by hand
    names no token file, the flag that names it."""
    if not settings.ignored_env:
        return None
    said = (
        f"Agent Memory ignored {', '.join(settings.ignored_env)} in this Session's environment "
        "(a repository's settings can set it): the installed hooks' own flags decide where "
        "memory lives, what is injected and which token is sent."
    )
    if ENV_PREFIX + "TOKEN" in settings.ignored_env and settings.token_file is None:
        managed = settings.state_dir is not None and settings.state_dir == account_state_dir({})
        if managed:  # the managed hooks name no state dir
            said += (
                " They read your token from a file only you can read, and there is none: "
                f"run {MANAGED_TOKEN_SET} once to put yours there."
            )
        elif harness == "claude-code" and (installed := _installed_token_file()) is not None:
            said += (
                " They read the token from a file only you can read, and this command names "
                f"none: add `--token-file {installed}` (where `harness-memory install` keeps "
                "yours)."
            )
        elif harness == "claude-code":  # the one install that kept a token in env
            said += (
                " They read the token from a file only you can read, and there is none: run "
                f"{_install_with(settings, harness)} once to move yours there."
            )
    return said


def _install_with(settings: HarnessSettings, harness: str) -> str:
    """The install of ``harness`` that writes hooks with the ``settings`` of this hook, every
    flag it needs named (:meth:`~harness_memory.advice.Hooks.install_with`, ``--timeout`` when
    not the default): run by hand before
    any install there are no hooks to take them from (H-3). The URL as it may be shown (A-10:
    never a password or an id)."""
    from memory_core.addresses import shown_url

    url = shown_url(settings.url) if settings.url else None
    root = str(settings.memory_root) if settings.memory_root is not None else None
    hooks = Hooks(harness, settings.managed_hooks)
    timeout = f"{settings.timeout:g}"
    extra = () if settings.timeout == DEFAULT_TIMEOUT_S else (f"--timeout {timeout}",)
    return hooks.install_with(
        url, settings.project, settings.agent, root, remote=settings.remote, extra=extra
    )


def _installed_token_file() -> Path | None:
    """The token file ``harness-memory install claude-code`` wrote in the account's state dir
    (its home from the password database: :func:`~harness_memory.settings.account_state_dir`),
    or None when there is none."""
    state = account_state_dir({})
    token = None if state is None else state / TOKEN_FILE_NAME
    return token if token is not None and token.is_file() else None


def untrusted_state_message(settings: HarnessSettings, session_id: str | None) -> str | None:
    """Tell the user that the state dir's Session records cannot be trusted
    (:func:`~harness_memory.state_trust.untrusted_state`: another account could change them),
    so the write guard refuses the Session's writes until the folder is fixed (P-3); None when
    they can be, or when no records are kept."""
    if settings.state_dir is None:
        return None
    why = untrusted_state(settings.state_dir, session_id)
    if why is None:
        return None
    return (
        "Agent Memory: the Session records in the state dir cannot be trusted, so the write "
        f"guard refuses this Session's writes until that is fixed: {why}."
    )


def unknown_account_message(settings: HarnessSettings) -> str | None:
    """Tell the user that hooks naming no state dir (the managed install's) keep no Session
    records and read no token file for an account the password database does not know
    (:func:`~harness_memory.settings.account_state_dir`), and how to fix it; None otherwise."""
    if settings.state_dir is not None:
        return None
    return f"Agent Memory: {unknown_account_note()}."


def availability_message(meta: SessionMeta) -> str | None:
    """Tell the user when memory failed open (P-2) or was read from the files (H-4), or from
    remote mode's local copy without reaching the service (R-2).

    ``meta`` is the Session's :class:`~harness_memory.records.SessionMeta`.
    """
    if meta.status == "failed-open":
        return f"Agent Memory unavailable for this Session: {meta.error}"
    if meta.status == "offline" and meta.remote_sync is not None:
        return (
            f"Agent Memory: {meta.error}; memory comes from this machine's copy as it was last "
            "synced, and writes go back at the next sync."
        )
    if meta.status == "offline":
        return (
            f"Agent Memory: the memory service is unreachable ({meta.error}); memory was read "
            "straight from the files on this machine, and the agent's memory writes still go "
            "to them (their versions are recorded at the next Session start the service "
            "answers)."
        )
    return None


def merged_message(meta: SessionMeta) -> str | None:
    """Tell the user what remote mode's sync at this Session start did beyond taking the files
    (R-2: both texts of a file edited on two machines kept, a rename met by another machine's
    change, an index the service could not write and where its lines are kept), one sentence
    per scope with the service's words and what to do; None when it did nothing more.

    ``meta`` is the Session's :class:`~harness_memory.records.SessionMeta`; its
    ``remote_sync`` objects' ``outcomes`` hold the lines."""
    said = [
        f"syncing scope {result.get('scope')}: {'; '.join(str(line) for line in outcomes)}"
        for result in meta.remote_sync or []
        if isinstance(result, dict)
        and (outcomes := result.get("outcomes"))
        and isinstance(outcomes, list)
    ]
    return f"Agent Memory: {'. '.join(said)}." if said else None


def unreadable_message(meta: SessionMeta) -> str | None:
    """Tell the user of each index the service found but could not read (Q-2b): the model was
    told so too, and memories saved there are not in this Session until it is fixed.

    ``meta`` is the Session's :class:`~harness_memory.records.SessionMeta`; its manifests'
    ``unreadable`` say why.
    """
    unread = [m for m in meta.manifests if m.unreadable is not None]
    if not unread:
        return None
    said = [
        f"the {'user' if m.scope == 'user' else 'Workspace'} memory index could not be read "
        f"({index_unread(m.unreadable or '')})"
        for m in unread
    ]
    fix = (
        "let Agent Memory read that scope folder (its owner and mode)"
        if any(is_folder_unread(m.unreadable or "") for m in unread)
        else "make MEMORY.md a plain file of its scope folder that Agent Memory may read"
    )
    return f"Agent Memory: {'; '.join(said)}, so what it lists is not in this Session; {fix}."


def prompt_message(result: SessionStart) -> str | None:
    """Tell the user when the agent's memory prompts, as stored, reached the model with text
    written as a memory placeholder (``{{MEMROY_INDEX}}``, ``{{ MEMORY_USER_INDEX }}``): a
    prompt edited by hand in ``agent.json`` (the API refuses one, I-1). Such text is no
    placeholder and stands in the model's context as written, and a prompt without its own
    placeholder gets its index after it (the manifest's ``placement: after-prompt``); this
    names both. None when the prompts hold their placeholders as written."""
    from memory_core.rules import placeholder_lookalikes  # only a Session start reads prompts

    found = [
        name
        for section in result.sections
        if section.kind == "prompt"
        for name in placeholder_lookalikes(section.text)
    ]
    after = [
        "user" if m.scope == "user" else "Workspace"
        for m in result.session_meta.manifests
        if m.placement == "after-prompt"
    ]
    if not found and not after:
        return None
    said = "Agent Memory: the agent's memory prompts "
    if found:
        names = ", ".join(repr(name) for name in dict.fromkeys(found))
        said += f"hold {names}: not a placeholder, so the model read it as written"
    if after:
        said += "; " if found else "hold no index placeholder; "
        said += f"the {' and '.join(after)} index went after its prompt"
    return (
        f"{said}. Fix memory.prompt ({{{{MEMORY_USER_INDEX}}}}) or memory.workspacePrompt "
        "({{MEMORY_INDEX}}) in the agent's settings (the web page, or PATCH …/config)."
    )


def template_message(meta: SessionMeta) -> str | None:
    """Tell the user when no memory was injected because a template holds no ``{{MEMORY}}``
    (I-5): the agent's on the service (``not-injected``: the Prompt tab, or ``agent.json``
    edited by hand) or the hooks' own template file (``no-placeholder``). Memory is on, the
    Session has none, and nothing else says so. None otherwise."""
    if meta.status == "not-injected":
        return (
            "Agent Memory: no memory in this Session: the agent's template holds no "
            "{{MEMORY}} (its Prompt tab, or agent.json edited by hand), and without it the "
            "service injects none (I-5). Put {{MEMORY}} back in the agent's settings "
            "(the web page, or PATCH …/config), or switch Memory off to mean it."
        )
    if meta.status == "no-placeholder":
        return (
            "Agent Memory: no memory in this Session: the template file these hooks read "
            "(--template-file, HARNESS_MEMORY_TEMPLATE) holds no {{MEMORY}} (I-5)."
        )
    return None


def uncreated_message(meta: SessionMeta) -> str | None:
    """Tell the user of each scope whose folder the service could not create (a read-only or
    full data dir, no permission): the model was told not to save there, so nothing learnt in
    this Session is kept in it until it is fixed (A-9).

    ``meta`` is the Session's :class:`~harness_memory.records.SessionMeta`; its manifests'
    ``uncreated`` say why.
    """
    said = [
        f"{'user' if m.scope == 'user' else 'Workspace'} memory cannot be saved in this "
        f"Session: Agent Memory {m.uncreated}"
        for m in meta.manifests
        if m.uncreated is not None
    ]
    if not said:
        return None
    directories = meta.directories
    where = f" in {directories.memory_root}" if directories is not None else ""
    return (
        f"Agent Memory: {'; '.join(said)}. Make the memory folder{where} writable by the "
        "memory service (or free space on its disk) and start a new Session."
    )


def cut_summary(delivery: Delivery) -> list[str]:
    """What the fitting left out, one phrase each (empty when everything arrived)."""
    cut = [f"{c.scope} index: {c.kept} of {c.total} lines" for c in delivery.cuts]
    if delivery.prompt_lines_cut:
        cut.append(f"{delivery.prompt_lines_cut} lines of the memory instructions left out")
    if not delivery.complete:
        cut.append("the rest of the prompt did not fit")
    return cut
