"""P-3, K-7: the guard refuses a memory file name the service cannot address, and says which.

The guard let the model write ``UPPER.MD``, ``notes.txt``, ``.hidden.md``, a Latin-1 name
(``caf\\xe9-notes.md``), one holding a line break, or a file in a folder of the scope into its
own scope: the service never reads, injects, searches, lists by name or syncs such a file
(``shared/cases/unaddressable-file-names``), so the note was lost without a word. Now a file
tool's path (Claude Code's ``Write``/``Edit``, Codex CLI's ``apply_patch``, Gemini CLI's
``write_file``/``replace``) and a shell command's written name (a redirection, ``tee``,
``touch``, ``cp``'s destination or the name a file takes in it) in a scope the Session may
write are held to K-7: refused with the rule and a name that works. Bash then really writes the
refused name, one no scope file rule accepts; ``MEMORY.md``, ``Deploy notes.md``, a CJK name
and ``rm`` of such a file pass. The backup a writer keeps of a file it replaces in a scope
(``sed -i.bak``, ``perl -pi.bak``, ``cp -b``/``-S``/``--backup``, ``mv -b``, ``install -b``,
``SIMPLE_BACKUP_SUFFIX``, ``VERSION_CONTROL``) is such a name too (``MEMORY.md~``); one the
service addresses (``sed -i'old-*'``, ``-S .old.md``) passes, as does a new file's copy.
"""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
from memory_core.scope_files import is_scope_file

from tests.support.guard_cases import (
    SHELL,
    Layout,
    answer,
    answers_of_every_harness,
    assert_allowed_by_every_harness_and_bash_writes_there,
    fill,
    refusal,
    refusals_by_every_harness,
)

UNADDRESSABLE = [
    ("UPPER.MD", "must end in '.md'", "UPPER.md"),
    ("notes.txt", "must end in '.md'", "notes.md"),
    (".hidden.md", "must not start with '.'", "hidden.md"),
    ("deploy\nsteps.md", "control character", "deploysteps.md"),
    ("review\trules.md", "control character", "reviewrules.md"),
]
"""A name, what K-7 says of it, and the name the refusal offers instead."""


def _file_tools(harness: str, path: str) -> list[tuple[str, dict[str, Any]]]:
    """Each file-writing tool of ``harness`` called on ``path``: its own file tools, the write
    tools of an MCP filesystem server (``@modelcontextprotocol/server-filesystem``'s
    ``write_file``, ``edit_file`` and ``move_file``, as each harness names an MCP tool) and,
    in Codex CLI, ``apply_patch`` run through its shell tool (a here-document, also inside
    ``bash -lc``), which Codex applies as the patch tool or the shell runs."""
    mcp = _mcp_file_tools("mcp_filesystem_" if harness == "gemini" else "mcp__filesystem__", path)
    if harness == "claude-code":
        return [
            ("Write", {"file_path": path, "content": "x\n"}),
            ("Edit", {"file_path": path, "old_string": "x", "new_string": "y"}),
            *mcp,
            *_mcp_file_tools("mcp__plugin_tools_fs__", path),
        ]
    if harness == "codex":
        patch = f"*** Begin Patch\n*** Add File: {path}\n+x\n*** End Patch\n"
        return [
            ("apply_patch", {"command": patch}),
            ("Bash", {"command": f"apply_patch <<'EOF'\n{patch}EOF\n"}),
            ("Bash", {"command": f"bash -lc \"apply_patch <<'EOF'\n{patch}EOF\n\""}),
            ("Bash", {"command": f"applypatch '{patch}'"}),
            *mcp,
        ]
    return [
        ("write_file", {"file_path": path, "content": "x\n"}),
        ("replace", {"file_path": path, "old_string": "x", "new_string": "y"}),
        *mcp,
    ]


def _mcp_file_tools(prefix: str, path: str) -> list[tuple[str, dict[str, Any]]]:
    """An MCP filesystem server's tools writing ``path``, named with ``prefix`` (the harness's
    ``mcp__<server>__`` or ``mcp_<server>_``)."""
    return [
        (f"{prefix}write_file", {"path": path, "content": "x\n"}),
        (f"{prefix}edit_file", {"path": path, "edits": [{"oldText": "x", "newText": "y"}]}),
        (f"{prefix}move_file", {"source": "draft.md", "destination": path}),
    ]


def _without_link_into_other_scope(where: Layout) -> None:
    """Take away the Workspace's ``notes`` link into another scope: a patch's ``*** …`` lines,
    read as a command another shell may run (a quoted word holding white space), are a glob
    matching every entry of the Workspace, that link included, which the guard refuses before
    it looks at any name."""
    (where.workspace / "notes").unlink()


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize(("name", "why", "instead"), UNADDRESSABLE)
@pytest.mark.parametrize("scope", ["own", "user"])
def test_p3_a_file_tool_writing_a_name_the_service_cannot_address_is_refused_saying_which(
    where: Layout, harness: str, name: str, why: str, instead: str, scope: str
) -> None:
    folder = where.root / (where.own if scope == "own" else "user")
    _without_link_into_other_scope(where)
    if harness == "codex" and "\n" in name:  # a patch's header ends at the line break
        name, why, instead = name.split("\n")[0], "must end in '.md'", "deploy.md"
    for tool, arguments in _file_tools(harness, str(folder / name)):
        reason = refusal(answer(where, harness, tool, arguments))
        assert reason is not None, (tool, name)
        assert "cannot address" in reason and why in reason and "(K-7)" in reason, reason
        assert f"name it {instead}" in reason, reason
        good = str(folder / instead)
        fixed = {
            key: value.replace(str(folder / name), good) if isinstance(value, str) else value
            for key, value in arguments.items()
        }
        assert answer(where, harness, tool, fixed) is None, (tool, instead)


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_a_file_in_a_folder_of_a_scope_is_refused(where: Layout, harness: str) -> None:
    path = str(where.root / where.own / "sub" / "a.md")
    _without_link_into_other_scope(where)
    for tool, arguments in _file_tools(harness, path):
        reason = refusal(answer(where, harness, tool, arguments))
        assert reason is not None and "only the files at a scope's top" in reason, reason
        assert "write a.md in the scope itself" in reason, reason


@pytest.mark.parametrize(("name", "denied"), [("notes.txt", True), ("notes.md", False)])
def test_p3_a_shell_apply_patch_names_its_files_from_the_folder_it_runs_in(
    where: Layout, name: str, denied: bool
) -> None:
    """Codex applies ``cd DIR && apply_patch <<'EOF' …`` in ``DIR`` (its own shell-form
    reading): a relative file of the patch is named there, and held to K-7 in the scope."""
    patch = f"*** Begin Patch\n*** Add File: {name}\n+x\n*** End Patch\n"
    command = f"cd {where.root / where.own} && apply_patch <<'EOF'\n{patch}EOF\n"
    reason = refusal(answer(where, "codex", "Bash", {"command": command}))
    assert (reason is not None and "cannot address" in reason) is denied, reason


def test_p3_patch_text_no_apply_patch_runs_is_data(where: Layout) -> None:
    """A patch's text written to a file or printed (``cat > p.patch <<'EOF'``) writes none of
    the files it names: no K-7 rule holds for them."""
    patch = f"*** Begin Patch\n*** Add File: {where.root / 'user' / 'notes.txt'}\n*** End Patch"
    _without_link_into_other_scope(where)
    for command in (f"cat > /tmp/p.patch <<'EOF'\n{patch}\nEOF\n", f"echo '{patch}'"):
        assert refusals_by_every_harness(where, command) == dict.fromkeys(SHELL), command


SHELL_WRITES = [
    ("echo x > {root}/{own}/UPPER.MD", "UPPER.MD"),
    ("echo x >> {root}/user/notes.txt", "notes.txt"),
    ("echo x > $'{root}/{own}/caf\\xe9-notes.md'", "caf\\xe9-notes.md"),
    ("echo x > $'{root}/{own}/deploy\\nsteps.md'", "deploy\\nsteps.md"),
    ("echo x | tee {root}/{own}/T.txt", "T.txt"),
    ("touch {root}/{own}/.hidden.md", ".hidden.md"),
    ("cp note.md {root}/{own}/Note.MD", "Note.MD"),
    ("cp note.txt {root}/{own}/", "note.txt"),
    ("mkdir -p {root}/{own}/sub && echo x > {root}/{own}/sub/a.md", "sub/"),
    ("dd if=note.md of={root}/{own}/X.MD", "X.MD"),
    ("mv note.txt {root}/{own}/X.MD", "X.MD"),
    ("install -m 644 note.md {root}/{own}/X.MD", "X.MD"),
    ("echo x >| {root}/{own}/X.MD", "X.MD"),
    ("cat <<EOF > {root}/{own}/X.MD\nx\nEOF", "X.MD"),
    # a source copied into a folder by its name, whatever options come first
    ("cp -t {root}/{own} note.txt", "note.txt"),
    ("mv -t {root}/{own} note.txt", "note.txt"),
    ("cp -vt {root}/user note.txt", "note.txt"),
    ("install -m 644 note.txt {root}/{own}/", "note.txt"),
    ("cp -S .bak -b note.txt {root}/{own}/", "note.txt"),
    ("rsync -a --chmod F644 note.txt {root}/{own}/", "note.txt"),
    ("pax -rw note.txt {root}/{own}", "note.txt"),
    # a temporary name that stays, or is moved onto another the service cannot address
    ("cd {root}/{own} && grep -v old MEMORY.md > MEMORY.md.tmp", "MEMORY.md.tmp"),
    ("cd {root}/{own} && echo x > a.tmp && mv a.tmp UPPER.MD", "UPPER.MD"),
    ("cd {root}/{own} && echo x > a.tmp && mv a.tmp a.md && rm a.md && echo y > a.tmp", "a.tmp"),
    # a backup of a file replaced in the scope, kept under a name with a suffix after its own
    ("sed -i.bak s/old/new/ {root}/{own}/MEMORY.md", "MEMORY.md.bak"),
    ("cd {root}/{own} && sed --in-place=.orig s/old/new/ MEMORY.md", "MEMORY.md.orig"),
    ("perl -pi.bak -e s/old/new/ {root}/{own}/MEMORY.md", "MEMORY.md.bak"),
    ("cp -b note.md {root}/{own}/MEMORY.md", "MEMORY.md~"),
    # the same, the file named by a variable whose value is known (a loop's, an assignment's)
    ('f={root}/{own}/MEMORY.md; sed -i.bak s/old/new/ "$f"', "MEMORY.md.bak"),
    ('cd {root}/{own} && for f in *.md; do perl -pi.bak -e s/x/y/ "$f"; done', "MEMORY.md.bak"),
    ('for f in {root}/{own}/MEMORY.md; do cp -b note.md "$f"; done', "MEMORY.md~"),
    ('d={root}/{own}; cp -b note.md "$d/MEMORY.md"', "MEMORY.md~"),
    ('d={root}/{own}; f=$d/MEMORY.md; cp -S .old note.md "$f"', "MEMORY.md.old"),
    ("cp -S .bak note.md {root}/{own}/MEMORY.md", "MEMORY.md.bak"),
    ("cp --backup=numbered note.md {root}/{own}/MEMORY.md", "MEMORY.md.~1~"),
    ("SIMPLE_BACKUP_SUFFIX=.old cp -b note.md {root}/{own}/MEMORY.md", "MEMORY.md.old"),
    ("VERSION_CONTROL=t cp -b note.md {root}/{own}/MEMORY.md", "MEMORY.md.~1~"),
    ("cp note.md {root}/{own}/MEMORY.md; cp -b note.md {root}/{own}/MEMORY.md", "MEMORY.md~"),
    ("cp -b {root}/{own}/MEMORY.md {root}/user/", "MEMORY.md~"),
    ("mv -b note.txt {root}/{own}/MEMORY.md", "MEMORY.md~"),
    ("install -b -m 644 note.md {root}/{own}/MEMORY.md", "MEMORY.md~"),
]
"""Each was let through: bash wrote a file no route of the service can address."""


@pytest.mark.parametrize(("command", "shown"), SHELL_WRITES)
def test_p3_a_shell_write_of_a_name_the_service_cannot_address_is_refused(
    where: Layout, command: str, shown: str
) -> None:
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "note.txt").write_text("x\n", encoding="utf-8")
    (where.root / where.own / "MEMORY.md").write_text("keep\nold\n", encoding="utf-8")
    shell = fill(command, where)
    own, user = where.root / where.own, where.root / "user"
    before = {*own.iterdir(), *user.iterdir()}

    reasons = refusals_by_every_harness(where, shell)

    for harness, reason in reasons.items():
        assert reason is not None and "(K-7)" in reason and shown in reason, (harness, reason)
    subprocess.run(["bash", "-c", shell], cwd=where.workspace, check=True)
    made = {*own.iterdir(), *user.iterdir()} - before
    assert made and not any(is_scope_file(path.name) and path.is_file() for path in made), made


@pytest.mark.parametrize(
    ("command", "place"),
    [
        ("echo x >> {root}/{own}/MEMORY.md", "{root}/{own}/MEMORY.md"),
        ('echo x > "{root}/{own}/Deploy notes.md"', "{root}/{own}/Deploy notes.md"),
        ("echo x > {root}/{own}/数据库迁移.md", "{root}/{own}/数据库迁移.md"),
        ("echo x > {root}/user/Memory.md", "{root}/user/Memory.md"),
        ("cp note.md {root}/{own}/", "{root}/{own}/note.md"),
        ("echo x > UPPER.MD", "UPPER.MD"),
        ("echo x > {root}/{own}/ok.md && rm {root}/{own}/ok.md && echo y > b.md", "b.md"),
        # options and their values, and the -t folder, are no name copied into the scope
        ("cp -t {root}/{own} note.md", "{root}/{own}/note.md"),
        ("mv -t {root}/{own} note.md", "{root}/{own}/note.md"),
        ("cp -vt {root}/{own} note.md", "{root}/{own}/note.md"),
        ("cp -t {root}/user note.md", "{root}/user/note.md"),
        ("cp --target-dir={root}/{own} note.md", "{root}/{own}/note.md"),
        ("install -m 644 note.md {root}/{own}/", "{root}/{own}/note.md"),
        ("cp -S .bak -b note.md {root}/{own}/", "{root}/{own}/note.md"),
        ("rsync -a --chmod F644 note.md {root}/{own}/", "{root}/{own}/note.md"),
        ("pax -rw note.md {root}/{own}", "{root}/{own}/note.md"),
        # a backup under a name the service addresses, of a file outside memory, or none
        ("cd {root}/{own} && sed -i'old-*' s/old/new/ MEMORY.md", "{root}/{own}/old-MEMORY.md"),
        ("cp -b -S .old.md note.md {root}/{own}/MEMORY.md", "{root}/{own}/MEMORY.md.old.md"),
        ("cp -b note.md {root}/{own}/new.md", "{root}/{own}/new.md"),
        ("cp --backup=none note.md {root}/{own}/MEMORY.md", "{root}/{own}/MEMORY.md"),
        ("sed -i.bak s/x/y/ note.md", "note.md.bak"),
        ("cp note.md copy.md; cp -b note.md copy.md", "copy.md~"),
        # a temporary name moved onto its own in the same command
        (
            "cd {root}/{own} && grep -v old MEMORY.md > MEMORY.md.tmp"
            " && mv MEMORY.md.tmp MEMORY.md",
            "{root}/{own}/MEMORY.md",
        ),
    ],
)
def test_p3_names_the_service_addresses_and_writes_outside_memory_pass(
    where: Layout, command: str, place: str
) -> None:
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.root / where.own / "MEMORY.md").write_text("keep\nold\n", encoding="utf-8")
    assert_allowed_by_every_harness_and_bash_writes_there(where, command, place)


def test_p3_removing_a_file_the_service_cannot_address_passes(where: Layout) -> None:
    """The way out of an unaddressable name stays open: ``rm`` and ``mv`` to a good name."""
    stray = where.root / where.own / "UPPER.MD"
    stray.write_text("x\n", encoding="utf-8")
    for command in (
        f"mv {stray} {stray.with_name('upper.md')}",
        f"rm {stray.with_name('upper.md')}",
    ):
        assert answers_of_every_harness(where, command) == dict.fromkeys(SHELL), command
        subprocess.run(["bash", "-c", command], cwd=where.workspace, check=True)
    assert list((where.root / where.own).iterdir()) == [where.root / where.own / "MEMORY.md"]


def _patches(where: Layout, stray: str) -> dict[str, str]:
    """Patches cleaning up ``stray`` (a file of the Session's own scope): deleted, or moved
    onto a name the service addresses."""
    folder = where.root / where.own
    return {
        "delete": f"*** Begin Patch\n*** Delete File: {folder / stray}\n*** End Patch\n",
        "rename": (
            f"*** Begin Patch\n*** Update File: {folder / stray}\n*** Move to: "
            f"{folder / 'notes.md'}\n@@\n-x\n+y\n*** End Patch\n"
        ),
    }


def _patch_calls(patch: str) -> list[tuple[str, dict[str, Any]]]:
    """Codex CLI's ways of applying ``patch``: its patch tool and its shell tool."""
    return [
        ("apply_patch", {"command": patch}),
        ("Bash", {"command": f"apply_patch <<'EOF'\n{patch}EOF\n"}),
        ("Bash", {"command": f"bash -lc \"apply_patch <<'EOF'\n{patch}EOF\n\""}),
    ]


@pytest.mark.parametrize("how", ["delete", "rename"])
def test_p3_a_patch_deleting_or_renaming_a_badly_named_file_passes(where: Layout, how: str) -> None:
    """K-7 holds for the names a patch writes: a ``*** Delete File:`` path and the source of
    an ``*** Update File:`` moved by ``*** Move to:`` are taken away, as ``rm`` and ``mv`` do,
    so the way out of an unaddressable name stays open in Codex CLI too."""
    _without_link_into_other_scope(where)
    (where.root / where.own / "notes.txt").write_text("x\n", encoding="utf-8")
    for tool, arguments in _patch_calls(_patches(where, "notes.txt")[how]):
        assert answer(where, "codex", tool, arguments) is None, (tool, how)


@pytest.mark.parametrize("tool_index", [0, 1, 2])
def test_p3_a_patch_still_holds_the_names_it_writes_and_other_scopes(
    where: Layout, tool_index: int
) -> None:
    """A move onto a bad name, an update kept in place under one, and a delete or move away
    of another Workspace's file stay refused."""
    _without_link_into_other_scope(where)
    own, other = where.root / where.own, where.root / where.other
    for patch, said in (
        (
            f"*** Begin Patch\n*** Update File: {own / 'a.md'}\n*** Move to: {own / 'B.MD'}\n"
            "@@\n-x\n+y\n*** End Patch\n",
            "(K-7)",
        ),
        (
            f"*** Begin Patch\n*** Update File: {own / 'notes.txt'}\n@@\n-x\n+y\n*** End Patch\n",
            "(K-7)",
        ),
        (f"*** Begin Patch\n*** Delete File: {other / 'MEMORY.md'}\n*** End Patch\n", "scope"),
        (
            f"*** Begin Patch\n*** Update File: {other / 'MEMORY.md'}\n*** Move to: "
            f"{own / 'moved.md'}\n@@\n-x\n+y\n*** End Patch\n",
            "scope",
        ),
    ):
        tool, arguments = _patch_calls(patch)[tool_index]
        reason = refusal(answer(where, "codex", tool, arguments))
        assert reason is not None and said in reason, (tool, patch, reason)
