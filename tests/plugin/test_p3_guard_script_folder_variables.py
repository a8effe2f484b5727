"""P-3: a script's folder as bash keeps it, not as the environment had it (review rv-guard63).

Each script below was let through by Claude Code's, Codex's and Gemini's hooks, and bash, run
in the Workspace (``notes`` a link into another Workspace's scope, ``sub`` a folder), wrote
into that scope:

- P2/P6: the guard followed ``cd -``, a bare ``cd``, ``cd ~`` and ``popd`` with the
  environment's ``OLDPWD``/``HOME`` and its own ``pushd`` stack, while the script had set
  ``OLDPWD=$PWD/../notes``, ``HOME=$PWD/notes``, ``DIRSTACK[1]=…`` or run ``dirs -c`` (bash's
  ``popd`` then fails and stays in the folder a lost ``cd`` entered). Now any of these (any
  way: ``declare``, ``read``, ``printf -v``, ``export``, ``local``, ``unset``) makes where
  they lead unknown, and a relative write after it is refused as after any lost ``cd``.
- P3: ``$(dirname "$0")`` was read as the script's folder after ``export
  PATH="$PWD/tools:$PATH"`` put a ``dirname`` printing ``notes`` first.
- P4: after a ``cd`` into a folder known only at run time, a program writing in its folder
  without naming a path (``sed -n 'w x'``, ``git init``, ``python3 -c "open('x','w')"``)
  passed; now any command but a keyword, a builtin that writes no file or a plain reader
  (``ls``, ``cat``…, when ``PATH`` is the environment's) is refused there.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_each_refused_by_every_harness,
    guarded_layout,
    refusals_by_every_harness,
)

FOLDER_VARIABLES = {
    "a.sh": "cd sub\nOLDPWD=$PWD/../notes\ncd -\necho x > p2a.md\n",
    "b.sh": "HOME=$PWD/notes\ncd\necho x > p2b.md\n",
    "c.sh": "HOME=$PWD/notes\ncd ~\necho x > p2c.md\n",
    "d.sh": "pushd sub >/dev/null\nDIRSTACK[1]=$PWD/../notes\npopd >/dev/null\necho x > p2d.md\n",
    "e.sh": (
        'pushd sub >/dev/null\ncd "$(printf %s%s "$OLDPWD/no" tes)"\ndirs -c\n'
        "popd 2>/dev/null\necho x > p6.md\n"
    ),
    "f.sh": "cd sub\ndeclare OLDPWD=$PWD/../notes\ncd -\necho x > f.md\n",
    "g.sh": 'cd sub\nread OLDPWD <<< "$PWD/../notes"\ncd -\necho x > g.md\n',
    "h.sh": 'cd sub\nprintf -v OLDPWD %s "$PWD/../notes"\ncd -\necho x > h.md\n',
    "i.sh": "cd sub\nexport OLDPWD=$PWD/../notes\ncd -\necho x > i.md\n",
    "j.sh": "f() { local HOME=$PWD/notes; cd; echo x > j.md; }\nf\n",
    "k.sh": 'n=OLD; cd sub\nprintf -v "${n}PWD" %s "$PWD/../notes"\ncd -\necho x > k.md\n',
    "l.sh": 'p=PWD; cd sub\nprintf -v "OLD$p" %s "$PWD/../notes"\ncd -\necho x > l.md\n',
    "m.sh": "for HOME in $PWD/notes; do cd; done\necho x > m.md\n",
}
"""Scripts setting a variable bash's folder changes read, then writing a relative file."""
OWN_FOLDER = {
    "p3.sh": 'export PATH="$PWD/tools:$PATH"\ncd "$(dirname "$0")"\necho x > p3.md\n',
    "p3b.sh": 'dirname() { echo notes; }\ncd "$(dirname "$0")"\necho x > p3b.md\n',
    "p3c.sh": 'f() { cd "$(dirname "$0")"; }\nPATH="$PWD/tools:$PATH"\nf\necho x > p3c.md\n',
}
"""``$(dirname "$0")`` after ``PATH`` or ``dirname`` changed (``tools/dirname`` prints
``notes``)."""
LOST_WRITERS = {
    "s.sh": "cd \"$(printf %s%s no tes)\"\nsed -n 'w p4.md' /etc/hostname\n",
    "t.sh": 'cd "$(printf %s%s no tes)"\ngit init -q\n',
    "u.sh": "cd \"$(printf %s%s no tes)\"\npython3 -c \"open('p4u.md','w')\"\n",
    "v.sh": 'cd "$(printf %s%s no tes)"\nnpm init -y\n',
    "w.sh": 'ls() { sed -n "w $1" /etc/hostname; }\ncd "$(printf %s%s no tes)"\nls p4w.md\n',
    "x.sh": 'export PATH=".:$PATH"\ncd "$(printf %s%s no tes)"\ncat /etc/hostname\n',
}
"""After a ``cd`` known only at run time: a program writing in its folder; ``ls`` a function,
``cat`` found through a relative ``PATH`` folder."""
HARMLESS = {
    "ok1.sh": "cd sub\ncd -\necho x > ok1.txt\n",
    "ok2.sh": "pushd sub >/dev/null\npopd >/dev/null\necho x > ok2.txt\n",
    "ok3.sh": 'echo "$HOME $OLDPWD"\ncd "$(dirname "$0")"\necho x > ok3.txt\n',
    "ok4.sh": 'cd "$(dirname "$0")"\nexport PATH="$PWD/bin:$PATH"\necho x > ok4.txt\n',
    "ok5.sh": 'cd "$1"\nls -la\ncat /etc/hostname\npwd\necho done\n',
    "ok6.sh": 'cd "$(mktemp -d)"\ngit init -q\n',
    "ok7.sh": 'for d in sub tools; do (cd "$d" && ls); done\necho x > ok7.txt\n',
}
"""Everyday scripts: a plain ``cd -``/``popd``, ``$HOME`` read, the script's folder entered
before ``PATH`` is set, readers after a ``cd "$1"``, a program in a new temporary folder."""


def _layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """The guard's layout with ``sub``, ``tools/dirname`` (printing ``notes``) and every
    script above in the Workspace."""
    where = guarded_layout(tmp_path, monkeypatch)
    ws = where.workspace
    (ws / "sub").mkdir()
    (ws / "tools").mkdir()
    (ws / "tools" / "dirname").write_text("#!/bin/sh\necho notes\n", encoding="utf-8")
    (ws / "tools" / "dirname").chmod(0o755)
    scripts = {**FOLDER_VARIABLES, **OWN_FOLDER, **LOST_WRITERS, **HARMLESS}
    for name, text in scripts.items():
        (ws / name).write_text(text, encoding="utf-8")
    return where


def _bash_writes_there(where: Layout, names: list[str]) -> list[str]:
    """The scripts of ``names`` that, run by one bash each in the Workspace with the
    guard's environment, changed the other Workspace's scope."""
    other = where.root / where.other
    wrote = []
    for name in names:
        before = {path: path.read_bytes() for path in other.rglob("*") if path.is_file()}
        subprocess.run(["bash", name, "sub"], cwd=where.workspace, capture_output=True, timeout=20)
        after = {path: path.read_bytes() for path in other.rglob("*") if path.is_file()}
        wrote += [name] if any(before.get(p) != after[p] for p in after) else []
    return wrote


REFUSED = {
    "folder variables (P2, P6)": (FOLDER_VARIABLES, "a cd into a folder known only", "abcde"),
    "PATH or dirname changed (P3)": (OWN_FOLDER, "", ["p3", "p3b"]),
    "a program after a lost cd (P4)": (LOST_WRITERS, "a program that may write in", "stu"),
}
"""Each set: its scripts, what each refusal says, the scripts (by name without ``.sh``) one
bash runs to prove the bypass."""


@pytest.mark.parametrize("kind", list(REFUSED))
def test_p3_a_script_whose_folder_bash_knows_otherwise_is_refused(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripts, saying, proven = REFUSED[kind]
    where = _layout(tmp_path, monkeypatch)

    assert_each_refused_by_every_harness(where, [f"bash {name}" for name in scripts], saying)
    run = [f"{name}.sh" for name in proven]
    assert _bash_writes_there(where, run) == run


def test_p3_everyday_scripts_changing_folders_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _layout(tmp_path, monkeypatch)

    answers = {name: refusals_by_every_harness(where, f"bash {name} sub") for name in HARMLESS}

    assert answers == {name: dict.fromkeys(("claude-code", "codex", "gemini")) for name in HARMLESS}
