"""P-3: a path the guard cannot look up past ``PATH_MAX`` is refused; a long word that names
no file is data, not a file.

The guard resolved a written path with ``os.path.realpath``, which takes a name it cannot
``lstat`` (``ENAMETOOLONG``: the absolute path is past ``PATH_MAX``) for a plain folder and
folds the ``..`` after it by its text. Bash ``cd``s to a folder just short of ``PATH_MAX``
and opens ``<link>/../x.md`` from there: the kernel follows the link into another Workspace's
scope first, then takes the ``..``. Every harness let it through; now where such a path leads
is unknown and refused (:class:`memory_core.errors.UnseenName`).

A quoted sentence of 4.5 KB is read as a possible path too (any word may be one); no file has
that name (it is longer than a file name may be), so it has no other names and writing the
Session's own ``MEMORY.md`` beside it passes. A write to such a word is no write: bash's
``open`` answers ``File name too long``.
"""

from __future__ import annotations

import subprocess
import tarfile

from harness_memory.hooks.archive_members import ArchiveLinks, member_places
from harness_memory.hooks.tool_targets import shell_paths

from tests.support.guard_cases import (
    Layout,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusals_by_every_harness,
)
from tests.support.past_path_max import LINK_NAME, link_past_path_max

_LOREM = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 80
"""A paragraph of 4,560 characters: one shell word when quoted, past ``PATH_MAX``."""
_EVERY = ("claude-code", "codex", "gemini")


def _assert_refused_as_unknown(where: Layout, commands: list[str]) -> None:
    """Each of ``commands`` (filled) is refused by every harness as a place that cannot be
    known (:class:`memory_core.errors.UnseenName`), not as the guard failing."""
    for command in commands:
        refused = refusals_by_every_harness(where, fill(command, where))
        assert all(reason and "cannot be known" in reason for reason in refused.values()), (
            command[-60:],
            refused,
        )


def test_p3_a_symlink_past_path_max_then_dots_is_refused_and_bash_writes_through_it(
    where: Layout,
) -> None:
    (where.root / where.other / "sub").mkdir()
    deep = link_past_path_max(where.workspace / "deep", where.root / where.other / "sub")
    through = [
        f"cd {deep} && echo x >> {LINK_NAME}/../MEMORY.md",
        f"cd {deep} && echo x > {LINK_NAME}/notes.md",
        f'cd {deep} && echo "{_LOREM}" > {LINK_NAME}/../lorem.md',  # the long word beside it
    ]
    _assert_refused_as_unknown(where, through)

    assert_refused_by_every_harness_and_bash_writes(
        where, f"cd {deep} && echo x > {LINK_NAME}/../x.md"
    )
    assert (where.root / where.other / "x.md").read_text(encoding="utf-8") == "x\n"


def test_p3_a_long_quoted_word_is_data_and_no_file(where: Layout) -> None:
    passing = [
        f'echo "{_LOREM}" >> {{root}}/{{own}}/MEMORY.md',
        f"printf '%s\\n' '{'y' * 5000}' > {{root}}/{{own}}/printed.md",
        f'git commit -q --allow-empty -m "{_LOREM}"',
        f'echo x > "{_LOREM}"',  # a target the kernel cannot open: no write
    ]
    for command in passing:
        assert refusals_by_every_harness(where, fill(command, where)) == dict.fromkeys(_EVERY), (
            command[:60]
        )
    refused = refusals_by_every_harness(
        where, fill(f'echo "{_LOREM}" > {{root}}/{{other}}/x.md', where)
    )
    assert all(reason and "another Workspace" in reason for reason in refused.values())

    ran = subprocess.run(
        ["bash", "-c", "; ".join(fill(command, where) for command in (*passing[:2], passing[3]))],
        cwd=where.workspace,
        capture_output=True,
        check=False,
    )
    own = where.root / where.own
    assert (own / "MEMORY.md").read_text(encoding="utf-8") == _LOREM + "\n"
    assert (own / "printed.md").read_text(encoding="utf-8") == "y" * 5000 + "\n"
    assert b"File name too long" in ran.stderr
    assert sorted(path.name for path in where.workspace.iterdir()) == ["notes"]


def test_p3_a_patch_or_an_unpack_through_a_symlink_past_path_max_is_not_read_as_spelled(
    where: Layout,
) -> None:
    """What the guard reads ahead of the command, the patch ``apply_patch`` is fed and the
    places an archive's members land, is not read through the folded spelling either: the
    patch is one the guard cannot read (judged as such), the members' places unknown."""
    (where.root / where.other / "sub").mkdir()
    deep = link_past_path_max(where.workspace / "deep", where.root / where.other / "sub")
    patch = "*** Begin Patch\n*** Add File: harmless.md\n+x\n*** End Patch\n"
    with open(f"{deep}/p.diff", "w", encoding="utf-8") as spelled_file:  # noqa: PTH123
        spelled_file.write(patch)
    archive = where.workspace / "a.tar"
    with tarfile.open(archive, "w") as tar:
        info = tarfile.TarInfo("a.md")
        tar.addfile(info)

    found = shell_paths(f"cd {deep} && apply_patch < {LINK_NAME}/../p.diff", deep, {})
    places = member_places("tar", str(archive), f"{deep}/{LINK_NAME}/..", ArchiveLinks(), ["-x"])

    assert found.fed_patches
    assert places is None


def test_p3_a_glob_matching_a_symlink_past_path_max_is_refused_and_bash_writes_through_it(
    where: Layout,
) -> None:
    """A glob that matches the link (no ``..`` spelled, or one after it) is judged by what it
    matches: the guard's look at the match's absolute path answers ``ENAMETOOLONG``, which is
    no answer that it is missing (bash matches it from the folder it stands in). A copy into
    it is refused as a place that cannot be known, not as the guard failing."""
    (where.root / where.other / "sub" / "inner").mkdir(parents=True)
    deep = link_past_path_max(where.workspace / "deep", where.root / where.other / "sub")
    (where.workspace / "deep" / "f").write_text("f\n", encoding="utf-8")
    glob = LINK_NAME[:10] + "*"
    through = [
        f"cd {deep} && echo x >> {glob}/../MEMORY.md",
        f"cd {deep} && cd {glob} && echo x > b4.md",
        f"cd {deep} && cp {where.workspace}/deep/f {glob}",
        f"cd {deep} && cp {where.workspace}/deep/f {glob}/..",
        f"cd {deep} && cp {where.workspace}/deep/f {LINK_NAME}/../x.md",
        f"cd {deep} && mv {where.workspace}/deep/f {LINK_NAME}/../x.md",
        f"cd {deep} && cp -b {where.workspace}/deep/f {LINK_NAME}/../x.md",  # its backup
        f"cd {deep} && rsync -b {where.workspace}/deep/f {LINK_NAME}/..",  # where it lands
        # a glob below the match: the folder is listed from the shell's cwd (review54h)
        f"cd {deep} && cp {where.workspace}/deep/f {glob}/*/",
        f"cd {deep} && echo z | tee -a {glob}/*/../../MEMORY.md",
        f"cd {deep} && cp {where.workspace}/deep/f {glob}/[i]nner/",
        f"cd {deep} && bash -c 'cp {where.workspace}/deep/f {glob}/*/n2.md'",
    ]
    _assert_refused_as_unknown(where, through)

    assert_refused_by_every_harness_and_bash_writes(
        where, f"cd {deep} && cp {where.workspace}/deep/f {glob}/.."
    )
    assert (where.root / where.other / "f").read_text(encoding="utf-8") == "f\n"
