"""What the write guard does not cover, per harness: one table for the install output and the
plugin README (P-3).

The guard reads what a harness shows its hooks: a file tool's path, a shell command's text, an
MCP tool's arguments. What a harness never shows them, or what a command's text does not name,
the guard cannot refuse. ``harness-memory install HARNESS --verbose`` prints these lines (also
with ``--dry-run``; without ``--verbose`` one line says where they are), and the README's
harness table states the same lines in its "what is not guarded" row —
``tests/plugin/test_p3_guard_gaps.py`` checks both against :data:`GUARD_GAPS`, so the two
cannot drift apart. The first gap is shown real (the guard lets such a command
through, and run it writes into another Workspace's scope) by ``test_p3_guard_bypasses.py``,
and the run-time places it refuses by ``test_p3_guard_run_time_paths.py``;
the others state what the README's table measured of each harness (its sandbox, its terminals,
its include directories)."""

from __future__ import annotations

from harness_memory.installers.detail import Detail

__all__ = [
    "GUARD_GAPS",
    "HEADING",
    "SWITCHED_HOW",
    "SWITCHED_OFF",
    "TURNED_BACK_ON",
    "UNFENCED",
    "gap_notes",
]

HEADING = "What the write guard does not cover (P-3):"
"""The first line of the block the install prints."""

_RUN_TIME = (
    "A path a program the command starts builds from what the command's text does not show "
    "is not judged: the guard reads the text, never parses the programs it runs (a script, "
    "`python -c` reading a file or listing folders, `git apply` of a patch file, "
    '`mkdir "$(cat f)"`, a script a settings file names that the '
    "guard reads (a git hook, npm's `script-shell`) naming no memory in its text, a file a "
    "shell's startup file sources, an archive the guard cannot list unpacked into the "
    "Workspace); only the harness's sandbox fences those. A program the guard does not "
    "read (`python`, `node`, `perl`, `awk`, `sed`, `git`, `xargs`, a script) is refused "
    "when the text names another Workspace's scope, the memory root outside the user scope "
    "and the Session's own, or the Session records. A place the shell builds at run time "
    '(`> "$(cat f)"/a.md`, `d=$(cat f); cp x $d`) is refused only where the command surely '
    "writes it (a redirection; `cp`, `mv`, `ln`, `install`, `rsync`, `tee`, `touch`, "
    "`truncate`, `rm`, `dd of=`, `tar -x -C`, `unzip -d`, `patch -d`, `sort -o`, `curl -o` "
    "…)."
)

GUARD_GAPS: dict[str, tuple[str, ...]] = {
    "claude-code": (
        _RUN_TIME,
        "Claude Code's Bash sandbox (`sandbox.enabled`, off unless turned on) is the only fence "
        "for those; without it nothing fences them.",
        "Reads: other Workspaces' scopes can be read (`permissions.additionalDirectories` opens "
        "the whole memory root to reading); the guard refuses writes only.",
    ),
    "codex": (
        _RUN_TIME,
        "Codex's sandbox is the only fence for those, and it lets the whole memory root be "
        "written (`sandbox_workspace_write.writable_roots`): Codex 0.171 has no per-Workspace "
        "writable root in static settings.",
        "Typing into a running terminal (`write_stdin`) is never shown to Codex's hooks; it "
        "stays shut only while the install's `features.unified_exec_tty = false` holds (every "
        "command then goes through `exec_command`, which the guard reads).",
        "Reads: other Workspaces' scopes can be read; the guard refuses writes only.",
        "A trusted project's own `.codex/config.toml` switches these hooks off (`[features] "
        "hooks = false`: no memory, no write guard, nobody told), terminals back on "
        "(`unified_exec_tty = true`) or Codex's own memories back on (`memories = true`: its "
        "memory summary reaches the model beside Agent Memory's). No user setting prevents it; "
        "`/etc/codex/requirements.toml` with `[features] hooks = true`, `memories = false` and "
        "`unified_exec_tty = false` does: `harness-memory install codex --managed` (as root) "
        "writes the hooks and those lines there. Trust only projects whose `.codex/` you have "
        "read.",
    ),
    "gemini": (
        _RUN_TIME,
        "Gemini CLI runs no sandbox by default, so nothing else fences those.",
        "Reads: Gemini CLI's file tools reach the memory root only because the install adds it "
        "to `context.includeDirectories`, which also opens other Workspaces' scopes to reading; "
        "the guard refuses writes only.",
        "A trusted Workspace's own `.gemini/settings.json` switches these hooks off "
        "(`hooksConfig.enabled: false`, their names in `hooksConfig.disabled`, or a "
        '`"hooks"` that is no object: `null`, `[]`, `false` or `""`, which replaces every hook '
        "of your settings in the merge): its Sessions then get no memory and no write guard, "
        "and nobody is told. Gemini CLI's system settings override them: `harness-memory "
        "install gemini --managed` (as root) writes the hooks and `hooksConfig.enabled: true` "
        "there, merged last so a Workspace's `hooks` cannot replace them, the hooks named with "
        "a random part no repository can know, so its `hooksConfig.disabled` misses them. "
        "Without it, "
        "trust only folders whose `.gemini/` you have read; `harness-memory status` run in a "
        "Workspace says when its settings switch these hooks off.",
    ),
}
"""Harness name (as ``harness-memory install`` takes it) → the sentences saying what its
guard does not cover, in the order printed."""


_READS = (
    "The write guard refuses a shell command whose text writes into another scope, but does "
    "not fence what the programs it runs write (a script, a build)"
)
UNFENCED: dict[str, str] = {
    "claude-code": f"{_READS}: only Claude Code's Bash sandbox does (`sandbox.enabled`, off "
    "unless you turn it on).",
    "codex": f"{_READS}, and Codex's sandbox lets the whole memory root be written.",
    "gemini": f"{_READS}, and Gemini CLI runs no sandbox by default.",
}
"""Harness name → the first sentence of :data:`GUARD_GAPS`' gist: what fences
(or does not) the shell commands the guard cannot judge."""

SWITCHED_OFF = (
    "A repository's own settings can switch these hooks off{how} (no memory, no write guard)"
    "{also}: `harness-memory install {harness} --managed` (as root) prevents it."
)
"""The gist's second sentence for an install without ``--managed`` (``{harness}``: its name;
``{how}``: :data:`SWITCHED_HOW`'s clause; ``{also}``: :data:`TURNED_BACK_ON`'s clause)."""
SWITCHED_HOW = {
    "claude-code": (
        ' (a Workspace\'s .claude/settings.json or settings.local.json with "disableAllHooks": '
        "true)"
    ),
}
"""How a repository's settings switch the hooks off, by harness, where one key does it."""
TURNED_BACK_ON = {
    "claude-code": (
        " or turn Claude Code's own auto memory back on beside Agent Memory "
        '("env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"})'
    ),
}
"""What a repository's settings may also turn back on, by harness: said plainly (H-6)."""


def gap_notes(harness: str, *, managed: bool) -> list[str]:
    """The install notes for ``harness``: :data:`UNFENCED`'s sentence and, unless the install
    is ``managed`` (its hooks in settings no repository overrides), :data:`SWITCHED_OFF` (with
    :data:`TURNED_BACK_ON`'s clause, H-6); then :data:`HEADING` and
    each line of :data:`GUARD_GAPS` as ``"  - …"``, each a
    :class:`~harness_memory.installers.detail.Detail` (printed by ``install --verbose``).
    ``KeyError`` for a harness not in the table."""
    gist = [UNFENCED[harness]]
    if not managed:
        how, also = SWITCHED_HOW.get(harness, ""), TURNED_BACK_ON.get(harness, "")
        gist.append(SWITCHED_OFF.format(harness=harness, how=how, also=also))
    lines = [*gist, HEADING, *(f"  - {line}" for line in GUARD_GAPS[harness])]
    return [Detail(line) for line in lines]
