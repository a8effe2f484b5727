"""H-3, H-7: a settings file whose folder its owner made read-only is not written, and a dry
run refuses what the run would.

A dotfiles manager may leave ``~/.claude`` itself read-only (0555). Root may write into any
folder, and the tests run as root: the folder is judged by its owner-write bit, as a read-only
settings file is, so the install stops there naming it, with nothing changed, and no file is
created in such a folder. ``--dry-run`` runs the same checks first: it says ``would refuse: …``
and ends as the run would (exit 1), never showing a diff the run would not write.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.test_h7_read_only_settings import settings_of
from tests.plugin.test_h7_settings_files import HARNESSES, LINKED, backups_of, memory_root, run

REFUSED_FOLDER = "its folder is missing or not writable"


@pytest.mark.parametrize("harness", HARNESSES)
@pytest.mark.parametrize("dry_run", [False, True])
def test_a_file_in_a_read_only_folder_is_not_rewritten(
    tmp_path: Path, harness: str, dry_run: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """``~/.claude`` at 0555 holding a 0644 settings file: refused, as root too."""
    link, target = settings_of(tmp_path, harness, "plain")
    before = target.read_bytes()
    target.parent.chmod(0o555)

    status, said = run(link.parents[1], memory_root(tmp_path), "install", harness, *_dry(dry_run))

    target.parent.chmod(0o755)
    assert status == 1, said
    assert f"cannot write {target.parent}/" in caplog.text  # Codex: hooks.json beside it
    assert REFUSED_FOLDER in caplog.text
    # which folder, and what to do about it
    assert f"{target.parent} is read-only (mode 0555)" in caplog.text
    assert f"(chmod u+w {target.parent}) and run this again" in caplog.text
    assert ("would refuse: " in said) == dry_run and "+++" not in said
    assert target.read_bytes() == before and not backups_of(target)


@pytest.mark.parametrize("harness", HARNESSES)
@pytest.mark.parametrize("dry_run", [False, True])
def test_no_file_is_created_in_a_read_only_folder(
    tmp_path: Path, harness: str, dry_run: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """An empty ``~/.gemini`` at 0555: the settings file is not created in it."""
    home = tmp_path / "home"
    folder = home / LINKED[harness][0].split("/")[0]
    folder.mkdir(parents=True)
    folder.chmod(0o555)

    status, said = run(home, memory_root(tmp_path), "install", harness, *_dry(dry_run))

    folder.chmod(0o755)
    assert status == 1, said
    assert REFUSED_FOLDER in caplog.text
    assert ("would refuse: " in said) == dry_run
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("harness", HARNESSES)
def test_a_dry_run_refuses_a_read_only_settings_file(
    tmp_path: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Mode 0444: the dry run says the run would refuse it, shows no diff and exits 1."""
    link, target = settings_of(tmp_path, harness, "link")
    target.chmod(0o444)

    status, said = run(link.parents[1], memory_root(tmp_path), "install", harness, "--dry-run")

    assert status == 1, said
    refusal = f"cannot write {link} (a symlink to {target}): it is read-only (mode 0444)"
    assert f"would refuse: {refusal}" in said
    assert refusal in caplog.text and "+++" not in said


def _dry(dry_run: bool) -> tuple[str, ...]:
    return ("--dry-run",) if dry_run else ()
