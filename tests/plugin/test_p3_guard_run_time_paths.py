"""P-3: a path the shell builds at run time is refused when what the command spells could name
another scope.

A word with nothing literal before its first expansion (``$(…)/<other>/a.md``,
``$UNSET/<other>/a.md``), the text glued after a command substitution (``$(printf %s /)…``) and
the words inside one (``$(printf '\\x2f%s' '…/<other>/a.md')``) may land anywhere: one naming
another Workspace's key or the marker is refused. Paths built from variables set earlier in the
same command (``D=~/…; echo x > $D/…``) and ``$(echo ~/…)`` were judged already (kept here as
the spec). Each refused form is then run by bash, which writes into the other scope: the gap was
real. What stays open (``docs/security.md``): a path built wholly at run time with no scope's key
literal in it (``"$(cat target)"/a.md``, a key split or encoded).
"""

from __future__ import annotations

import pytest

from tests.support.guard_cases import SHELL, Layout, answer, assert_refused_and_bash_writes, fill

NEWLY_REFUSED = [
    "echo x > $(printf %s /)$(printf %s {root_tail})/{other}/a.md",
    "echo x > $(printf '\\x2f%s' '{root_tail}/{other}/a.md')",
    "echo x > `printf '\\x2f%s' '{root_tail}/{other}/a.md'`",
    "echo x > $(printf '\\x2f%s' '{root_tail}')/{other}/a.md",
    "echo x > $(printf '\\x2f%s' '{root_tail}/{other}')/.workspace",
]
ALREADY_REFUSED = [
    "echo x > ${{UNSET_VARIABLE:-/}}{root_tail}/{other}/a.md",
    "echo x > $(printf '%s/%s/a.md' {root} {other})",
    "echo x > $(echo ~/agents/coder/agent_state/memory/{other})/a.md",
    "echo x > $(echo ~/agents/coder/agent_state/memory)/{other}/a.md",
    "D=~/agents/coder/agent_state/memory; echo x > $D/{other}/a.md",
    'D=$(printf %s {root}); echo x > "$D/{other}/a.md"',
    "D=`echo {root}`; echo x > $D/{other}/a.md",
    "D={root} bash -c 'echo x > $D/{other}/a.md'",
    "read D <<< {root}; echo x > $D/{other}/a.md",
    "P=/{other}/a.md; echo x > {root}$P",
    "echo x > $(base64 -d <<< $(echo {root}/{other}/a.md | base64))",
]


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize("command", NEWLY_REFUSED + ALREADY_REFUSED)
def test_p3_paths_built_at_run_time_naming_another_scope_are_refused(
    where: Layout, harness: str, command: str
) -> None:
    """``NEWLY_REFUSED`` were let through (and bash wrote into the other scope)."""
    assert_refused_and_bash_writes(where, harness, command)


@pytest.mark.parametrize(
    "command",
    [
        "echo x > $(printf '\\x2f%s' '{root_tail}/{own}/a.md')",
        "echo x > $(printf %s /)$(printf %s {root_tail})/user/a.md",
        "echo $(date) > /tmp/guard-test-out.txt",
        "cp $(git ls-files 2>/dev/null) /tmp/guard-test-out/ || true",
        "ls $(pwd)/*.md $UNSET_VARIABLE/*.tmp",
        "tar -czf backup-$(date +%F).tgz src/",
        "echo x > `mktemp`",
        "docker logs $(docker ps -q --filter name=web-1a2b3c4) > logs.txt",
    ],
)
def test_p3_run_time_paths_into_own_scopes_or_elsewhere_pass(where: Layout, command: str) -> None:
    """What names no other scope passes (``web-1a2b3c4`` has 7 hex digits, no key's 8)."""
    shell = fill(command, where)
    assert answer(where, "claude-code", "Bash", {"command": shell}) is None, shell
