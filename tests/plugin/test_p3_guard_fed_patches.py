"""P-3, K-7: Codex's ``apply_patch`` fed its patch indirectly, and ``busybox --install``.

The ``apply_patch`` program Codex puts on the shell's ``PATH`` takes its patch as its argument
or, given none, on its standard input. The guard read only a patch written in the command (its
argument, a here-document), so ``apply_patch < p.diff``, ``cat p.diff | apply_patch`` and
``xargs -0 apply_patch < p.diff`` wrote any file a patch file names, a name the memory service
cannot address in the Session's own scope included. Now a literal file on its standard input
(redirected, or printed by ``cat`` into the pipe) is read before the command runs and its files
are judged as the patch tool's are; a patch the guard cannot read then (a pipe from another
program, ``xargs``, ``"$P"``, a file the command writes first, one over the cap, no regular file
or read through ``/proc/self``, a file line built at run time, a ``cat`` the command redefines)
is refused in any folder: a patch's file lines may be absolute paths into any scope (refused
only where the memory root was within reach, ``sed -n p p.diff | apply_patch`` in a Workspace
wrote into another scope). A program named at run time that may be ``apply_patch`` is read as
one; ``find -name apply_patch`` and ``xargs grep apply_patch`` run none. ``busybox --install [-s]
DIR`` makes a link per applet in ``DIR`` (``sh``, ``cp``: names no scope file takes): judged as
such a file written there, refused in a scope, passing elsewhere (it was let through into a
scope without ``-s``, and refused everywhere with ``-s``, read as a shell's option).
"""

from __future__ import annotations

import pytest

from tests.support.guard_cases import SHELL, Layout, fill, refusals_by_every_harness

_HIDDEN = "*** Begin Patch\n*** Add File: {name}\n+x\n*** End Patch\n"


@pytest.fixture
def patches(where: Layout) -> Layout:
    """The layout with patch files in the Workspace: ``hidden.diff`` adds ``.hidden.md`` (a
    name the service cannot address, K-7) from the folder it runs in, ``own-hidden.diff``
    adds it by its absolute path in the Session's own scope, ``note.diff`` adds
    ``src/note.txt`` from the folder it runs in."""
    own = where.root / where.own
    for name, added in [
        ("hidden.diff", ".hidden.md"),
        ("own-hidden.diff", f"{own}/.hidden.md"),
        ("note.diff", "src/note.txt"),
    ]:
        (where.workspace / name).write_text(_HIDDEN.format(name=added), encoding="utf-8")
    (where.workspace / "other.diff").write_text(
        _HIDDEN.format(name=f"{where.root / where.other}/x.md"), encoding="utf-8"
    )
    big = _HIDDEN.format(name=f"{where.root / where.other}/big.md") + "#" * (1 << 20) + "\n"
    (where.workspace / "big.diff").write_text(big, encoding="utf-8")
    (where.workspace / "self.diff").symlink_to("/proc/self/cwd/other.diff")
    return where


REFUSED = [
    ("cd {root}/{own} && apply_patch < {workspace}/hidden.diff", "cannot address"),
    ("apply_patch < own-hidden.diff", "cannot address"),
    ("< own-hidden.diff apply_patch", "cannot address"),
    ("cat own-hidden.diff | apply_patch", "cannot address"),
    ("cd {root}/{own} && cat {workspace}/hidden.diff | apply_patch", "cannot address"),
    ("xargs -0 apply_patch < own-hidden.diff", "xargs gives it"),
    ("cd {root}/{own} && sed 1p {workspace}/hidden.diff | apply_patch", "(read from a pipe;"),
    ("cd {root}/{own} && xargs -0 apply_patch < {workspace}/hidden.diff", "xargs gives it"),
    ("cd {root}/{own} && find {workspace} -name '*.diff' -exec apply_patch {{}} +", "find"),
    ('cd {root}/{own} && P="$(cat {workspace}/hidden.diff)" && apply_patch "$P"', "argument"),
    (
        "printf '*** Begin Patch\\n*** Add File: {root}/{own}/.x.md\\n+x\\n*** End Patch\\n'"
        " > p.diff && apply_patch < p.diff",
        "read from p.diff",
    ),
    (
        "echo .x.md | xargs -I{{}} apply_patch '*** Begin Patch\n*** Add File: {root}/{own}/{{}}"
        "\n+x\n*** End Patch'",
        "xargs gives it",
    ),
    ("cd {root} && cat {workspace}/note.diff | tee /dev/null | apply_patch", "a pipe"),
    ("cd {root}/{own} && {{ apply_patch; }} < {workspace}/hidden.diff", "standard input"),
    ("apply_patch < big.diff", "read from big.diff"),
    ("cp other.diff p2.diff && apply_patch < p2.diff", "read from p2.diff"),
    ("sed -n p other.diff | apply_patch", "a pipe"),
    ("cat other.diff | tee /dev/null | apply_patch", "a pipe"),
    ('apply_patch "$(cat other.diff)"', "its argument is built at run time"),
    ("apply_patch < /proc/self/cwd/other.diff", "read from /proc/self/cwd/other.diff"),
    ("apply_patch < /proc/thread-self/cwd/other.diff", "read from /proc/thread-self"),
    ("apply_patch < /dev/stdin", "read from /dev/stdin"),
    ("exec 3< other.diff; apply_patch < /dev/fd/3", "read from /dev/fd/3"),
    ("apply_patch < self.diff", "read from self.diff"),
    # a program word a ``for`` sets is each of its words (round 59): apply_patch, in a loop
    ("for ap in apply_patch; do $ap < other.diff; done", "apply_patch with a patch"),
    ('for ap in apply_patch; do cat note.diff | "$ap"; done', "apply_patch with a patch"),
    ('for ap in $(cat names); do cat note.diff | "$ap"; done', "names the program"),
    ("git diff | $UNSET_PAGER", "may run apply_patch with a patch"),
    ('echo hi | "$@"', "named at run time, so it may be apply_patch; read from a pipe"),
    ("cat() {{ command cat other.diff; }}; cat note.diff | apply_patch", "a pipe"),
    ("alias cat='sed -n p'; cat note.diff | apply_patch", "a pipe"),
    ("sed 1p note.diff | apply_patch", "a pipe"),
    ("xargs -0 apply_patch < note.diff", "xargs gives it"),
    ("git diff --no-color | apply_patch", "a pipe"),
    ("find . -name '*.diff' -exec apply_patch {{}} +", "find gives it"),
]
"""A command feeding ``apply_patch`` a patch the guard cannot read before it runs (in the
Workspace too: ``other.diff`` adds a file by its absolute path in another scope, ``big.diff``
does too past :data:`~harness_memory.hooks.named_scripts.SCRIPT_CAP`, ``self.diff`` links to
``/proc/self/cwd/other.diff``, the hook's folder when the hook reads it) or one naming a file
the service cannot address, and what its refusal says."""


@pytest.mark.parametrize(("command", "says"), REFUSED)
def test_p3_a_patch_fed_to_apply_patch_the_guard_cannot_read_is_refused_anywhere(
    patches: Layout, command: str, says: str
) -> None:
    reasons = refusals_by_every_harness(patches, fill(command, patches))

    assert all(reason is not None and says in reason for reason in reasons.values()), reasons


PASSED = [
    "apply_patch < note.diff",
    "cat note.diff | apply_patch",
    "apply_patch < hidden.diff",  # .hidden.md in the Workspace: no memory file
    "apply_patch < ./src/../note.diff",
    "cat note.diff hidden.diff | apply_patch",
    "type apply_patch && which apply_patch",
    "find . -name apply_patch",
    "find . -name '*.py' -exec grep -l apply_patch {{}} +",
    "git ls-files | xargs grep -n apply_patch",
    "xargs -0 grep apply_patch < note.diff",
    "grep -rn apply_patch . | head",
    "command -v apply_patch",
    "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: src/a.py\n+x\n*** End Patch\nEOF",
    "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: {root}/{own}/note.md\n+x\n"
    "*** End Patch\nEOF",
    "apply_patch < {workspace}/own-note.diff",
    "cd {root}/{own} && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: note.md\n+x\n"
    "*** End Patch\nEOF",
    "bash -lc \"cd {root}/{own} && apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: "
    'MEMORY.md\n@@\n+x\n*** End Patch\nEOF"',
    "busybox --install -s /tmp/applets",
    "busybox --install ./applets && ./applets/ls",
    "toybox --install -s ~/bin",
    "busybox --list",
]
"""Everyday forms: a patch whose files the guard reads (Codex's own ``cd SCOPE && apply_patch
<<'EOF'`` included, a literal file on its standard input), a search for the word
``apply_patch`` (``find -name``, ``xargs grep``); ``busybox --install`` into a folder outside
the memory root."""


@pytest.mark.parametrize("command", PASSED)
def test_p3_a_patch_the_guard_reads_or_a_search_for_apply_patch_passes(
    patches: Layout, command: str
) -> None:
    (patches.workspace / "own-note.diff").write_text(
        _HIDDEN.format(name=f"{patches.root / patches.own}/note.md"), encoding="utf-8"
    )
    shell = fill(command, patches)

    assert refusals_by_every_harness(patches, shell) == dict.fromkeys(SHELL), shell


@pytest.mark.parametrize(
    "command",
    [
        "busybox --install {root}/{own}",
        "busybox --install -s {root}/{own}",
        "cd {root}/{own} && busybox --install -s .",
        "cd {root}/user && toybox --install -s -- .",
        'd={root}/{own}; busybox --install "$d"',
    ],
)
def test_p3_busybox_install_into_a_scope_is_refused_for_its_applet_names(
    where: Layout, command: str
) -> None:
    """Each applet's link (``sh``, ``cp``) is a file no scope may hold (K-7)."""
    reasons = refusals_by_every_harness(where, fill(command, where))

    assert all(reason and "'sh'" in reason for reason in reasons.values()), reasons


def test_p3_a_patch_named_with_dot_dot_after_a_link_is_read_where_the_kernel_goes(
    patches: Layout,
) -> None:
    """``lnk/../p.diff`` is ``p.diff`` in the folder holding the link's target, not beside the
    link: the guard read the harmless patch the name spells and let through the one the kernel
    opens (it adds a file in another scope). Such a patch is not read, so refused; a ``..``
    with no link before it is read as written."""
    side = patches.workspace / "side"
    (side / "x").mkdir(parents=True)
    (side / "p.diff").write_text((patches.workspace / "other.diff").read_text(), "utf-8")
    (patches.workspace / "p.diff").write_text((patches.workspace / "note.diff").read_text())
    (patches.workspace / "lnk").symlink_to(side / "x")

    reasons = refusals_by_every_harness(patches, "apply_patch < lnk/../p.diff")
    passed = refusals_by_every_harness(patches, "apply_patch < side/x/../../p.diff")

    assert all(reason is not None and "read from" in reason for reason in reasons.values()), reasons
    assert passed == dict.fromkeys(SHELL), passed
