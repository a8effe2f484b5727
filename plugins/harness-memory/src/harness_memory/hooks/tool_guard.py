"""The P-3 guard's decision on one tool call, harness-neutral (:func:`write_refusal`): its paths
and the files it touches judged by :func:`~harness_memory.hooks.path_refusal.refusal`, its texts
(a shell command, an MCP tool's string arguments) by
:func:`~harness_memory.hooks.guarding.shell_refusal`, which is imported only for a call that
has texts: a file tool's call (``Write``, ``apply_patch``, ``write_file``), the most frequent,
never loads the shell reader (H-5: a hook process imports what it uses).

One tool call is one decision: the kernel's mount table is read once for it
(:func:`harness_memory.mounts.read_mount_table`) and handed to every path judged.
"""

from __future__ import annotations

from harness_memory.guard_view import UnreadableRecord
from harness_memory.hooks import claude_code
from harness_memory.hooks.path_refusal import REFUSAL_PREFIX, refusal
from harness_memory.hooks.tool_writes import ToolWrites
from harness_memory.mounts import read_mount_table
from harness_memory.settings import HarnessSettings
from harness_memory.state_trust import UNTRUSTED_SAID, UntrustedStateDir

__all__ = ["write_refusal"]


def write_refusal(
    writes: ToolWrites, hook: claude_code.HookInput, settings: HarnessSettings
) -> str | None:
    """The guard's reason to refuse a tool call that writes ``writes`` (its paths and the
    files it touches with :func:`~harness_memory.hooks.path_refusal.refusal`, its texts with
    :func:`~harness_memory.hooks.guarding.shell_refusal`), or None when
    it is allowed. A call whose target cannot be read (:attr:`ToolWrites.unread`) is refused
    wherever a memory root is known (P-3: never allowed unjudged); every call that may write
    is refused while the Session's state dir cannot be trusted
    (:func:`~harness_memory.state_trust.untrusted_state`: another account could have written
    its record), and while the Session's record cannot be read
    (:class:`~harness_memory.guard_view.UnreadableRecord`), saying which folder or file and how
    to fix it."""
    try:
        return _refusal(writes, hook, settings)
    except UntrustedStateDir as error:  # its records tell nothing: refused, never allowed
        return f"{REFUSAL_PREFIX}{UNTRUSTED_SAID}: {error}"
    except UnreadableRecord as error:  # a read error never widens access
        return f"{REFUSAL_PREFIX}the guard cannot tell which memory this Session may write: {error}"


def _refusal(
    writes: ToolWrites, hook: claude_code.HookInput, settings: HarnessSettings
) -> str | None:
    """:func:`write_refusal`, raising :class:`UntrustedStateDir` and
    :class:`~harness_memory.guard_view.UnreadableRecord` as
    :func:`~harness_memory.hooks.claude_code._locate` does."""
    if writes.unread is not None:  # what it writes is unknown: refused where memory is guarded
        if claude_code._locate(hook, settings) is None:
            return None
        return f"the guard cannot tell what {writes.unread} writes; send it as the harness does"
    mounts = read_mount_table()  # once for the whole decision
    reason = refusal(writes.paths, hook, settings, mounts=mounts, served=writes.served)
    if reason is None and writes.touched:
        reason = refusal(
            writes.touched, hook, settings, mounts=mounts, naming=False, served=writes.served
        )
    if reason is None and writes.texts:
        from harness_memory.hooks.guarding import shell_refusal  # only a call with texts (H-5)

        reason = shell_refusal(
            writes.texts, hook, settings, mounts=mounts, served=writes.served, run_by=writes.run_by
        )
    return reason
