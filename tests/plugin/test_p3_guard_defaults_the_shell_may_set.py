"""P-3: why ``cd "${TMPDIR:-/tmp}" && echo x > a.md`` and ``> /dev/${OUT:-stderr}`` stay refused.

The guard knows the environment its hook runs with, not the one the command's shell ends up
with: Codex CLI runs the command as ``bash -lc``, whose login files (``~/.profile``, which an
earlier command may have written) set variables before the command's first word. Reading
``${TMPDIR:-/tmp}`` as ``/tmp`` because the hook's environment has no ``TMPDIR`` would let a
``TMPDIR`` from ``~/.profile`` carry the write into another Workspace's scope, as bash does
here; so a ``cd`` into such a default, and a ``/dev/`` link named by one, stay refused.
"""

from __future__ import annotations

import os
import subprocess

from tests.support.guard_cases import Layout, answer, fill, refusal

COMMANDS = [
    'cd "${{TMPDIR:-/tmp}}" && echo x > t1.md',
    "cd {workspace} && echo x > /dev/${{OUT:-stderr}}",
]


def test_p3_a_default_the_login_shell_may_set_stays_refused(where: Layout) -> None:
    other = where.root / where.other
    (where.data / ".profile").write_text(f"export TMPDIR={other}\n", encoding="utf-8")
    commands = [fill(command, where) for command in COMMANDS]

    refused = [refusal(answer(where, "codex", "Bash", {"command": c})) for c in commands]

    assert None not in refused, refused
    environment = {"PATH": os.environ["PATH"], "HOME": str(where.data)}
    subprocess.run(["bash", "-lc", commands[0]], cwd=where.workspace, env=environment, check=True)
    assert (other / "t1.md").exists(), "bash -lc wrote nothing into the other scope"
