"""P-3: a word longer than a file name may be is no file with other names; a path too long is.

A quoted sentence in a command (``git commit -m "…"`` of 325 characters, ``echo "…" >>
MEMORY.md`` of 4 KB, a JSON body) is read as a possible path; the kernel refuses to look it up
(``ENAMETOOLONG``), and the guard took that read error for a file with other names (hard
links) and refused the everyday command, even one writing the Session's own scope. A name
longer than its filesystem allows names no file under any spelling, however long the path
around it (past ``PATH_MAX`` too, where the kernel's error is for the path's length): it
passes, and so does a long path whose leading folders are missing. A path longer than the
kernel looks up through folders that exist may still be reached by a ``cd`` and a shorter
spelling: it stays refused (a read error never widens access). A long word beside a real
target never hides it.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from harness_memory.guard import has_other_names

from tests.support.guard_cases import (
    Layout,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusals_by_every_harness,
)

_PATH_MAX = os.pathconf("/", "PC_PATH_MAX")
_LOREM = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 80
"""A paragraph of 4,560 characters: one shell word when quoted, past ``PATH_MAX``."""


def test_p3_a_name_longer_than_a_filesystem_allows_has_no_other_names(tmp_path: Path) -> None:
    sentence = " ".join(["a sentence quoted in a commit message"] * 8)
    assert len(sentence.encode()) > 255
    assert not has_other_names(str(tmp_path / sentence), str(tmp_path))


def test_p3_a_name_too_long_in_a_path_past_path_max_has_no_other_names(tmp_path: Path) -> None:
    assert len(_LOREM) > _PATH_MAX
    assert not has_other_names(str(tmp_path / _LOREM), str(tmp_path))
    assert not has_other_names(str(tmp_path / "x") * (_PATH_MAX + 10), str(tmp_path))


def test_p3_a_path_past_path_max_below_a_missing_folder_has_no_other_names(
    tmp_path: Path,
) -> None:
    """A sentence with a ``/`` every few words (each name short) names no file when the
    folder its first words name is missing."""
    too_long = str(tmp_path) + "/see the docs at example.com" * (_PATH_MAX // 28 + 1)
    assert not has_other_names(too_long, str(tmp_path))


@contextmanager
def _deeper_than_path_max(top: Path) -> Iterator[tuple[str, int]]:
    """Folders below ``top`` deeper than ``PATH_MAX`` (made name by name, as a ``cd`` can):
    the deepest one's path and an open descriptor of it."""
    name, path = "d" * 200, str(top)
    folder = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        while len(path) < _PATH_MAX + 300:
            os.mkdir(name, dir_fd=folder)
            below = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=folder)
            os.close(folder)
            folder, path = below, f"{path}/{name}"
        yield path, folder
    finally:
        os.close(folder)


def test_p3_a_hard_link_past_path_max_through_existing_folders_still_counts(
    tmp_path: Path,
) -> None:
    """The kernel will not look the path up, but a ``cd`` down the folders and a shorter
    spelling reach the file, which has another name: refused; so is a name there that no
    file has yet, which the guard cannot tell apart without walking the folders."""
    (tmp_path / "memory.md").write_text("x\n", encoding="utf-8")
    with _deeper_than_path_max(tmp_path) as (deep, folder):
        os.link(tmp_path / "memory.md", "linked.md", dst_dir_fd=folder)
        assert has_other_names(f"{deep}/linked.md", str(tmp_path))
        assert has_other_names(f"{deep}/not-yet.md", str(tmp_path))
        done = subprocess.run(
            ["bash", "-c", f"echo x >> {deep}/linked.md"], capture_output=True, check=False
        )
        assert b"File name too long" in done.stderr  # by this spelling the kernel says no


def test_p3_a_long_quoted_word_writing_the_session_s_own_scope_passes(where: Layout) -> None:
    """Each harness lets through a 4 KB sentence, a long run of one letter, a here-string and
    a commit message written or given beside the Session's own scope (once refused with the
    hard-link reason past 4,088 characters); bash then writes each file there."""
    made = ["MEMORY.md", "ok.md", "printed.md", "here.md"]
    commands = [
        f'echo "{_LOREM}" >> {{root}}/{{own}}/MEMORY.md',
        f"echo '{'x' * 4100}' > {{root}}/{{own}}/ok.md",
        f"printf '%s\\n' '{'y' * 5000}' > {{root}}/{{own}}/printed.md",
        f'cat <<< "{_LOREM}" > {{root}}/{{own}}/here.md',
        f'git commit -q --allow-empty -m "{_LOREM}"',
    ]
    for command in commands:
        shell = fill(command, where)
        assert refusals_by_every_harness(where, shell) == dict.fromkeys(
            ("claude-code", "codex", "gemini")
        ), command[:60]
    subprocess.run(
        ["bash", "-c", " && ".join(fill(command, where) for command in commands[:4])],
        cwd=where.workspace,
        check=True,
        capture_output=True,
    )
    own = where.root / where.own
    assert all((own / name).stat().st_size > 4000 for name in made)


def test_p3_a_long_quoted_word_hides_no_write_into_another_scope(where: Layout) -> None:
    """A long sentence beside a real target in another Workspace's scope (echoed into it, or
    a here-string) is refused by each harness, and bash really writes there."""
    assert_refused_by_every_harness_and_bash_writes(
        where,
        f'echo "{_LOREM}" > {{root}}/{{other}}/a.md && cat <<< "{"x" * 5000}" >> '
        "{root}/{other}/b.md",
    )
