"""H-3, H-7: Claude Code 2.1 reads its managed settings as ``managed-settings.json`` with every
``*.json`` of the ``managed-settings.d/`` folder beside it laid over it, in the order of their
names (hidden files skipped; Claude Code's settings docs, and its bundle: ``managed-settings.d``
listed, ``.json`` names not starting with ``.``, sorted). A ``"disableAllHooks": true`` or
``"allowManagedHooksOnly": true`` in such a drop-in file keeps our hooks from running just as
in ``managed-settings.json``: ``install`` fails and ``status`` names that file. Before, both
read ``managed-settings.json`` alone: the install said success and status nothing while
Claude Code ran none of our hooks. A drop-in Claude Code cannot parse stops it before any
Session starts (2.1.332, measured: ``test_e2e_claude_code_managed_drop_ins.py``): the check
says so, naming the file, and only that Claude Code refuses to start with it (no install
writes a drop-in). One Claude Code cannot read (a link to a folder or in a loop, over its
2,097,152 bytes) or a folder it cannot list does not stop it: it starts without that file
("Managed settings failed to load") and runs the hooks; the check leaves it out and
``status`` notes it, never a PROBLEM. A managed install still writes ``managed-settings.json``
only.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.plugin.test_h7_install_names_machine_settings_switching_hooks_off import (
    install,
    machine_settings,
)
from tests.plugin.test_h7_status_names_codex_hooks_it_skips import cli

DROP_INS = {
    '{"disableAllHooks": true}': (
        'this machine\'s settings, switch the hooks of your settings off ("disableAllHooks": true)'
    ),
    '{"allowManagedHooksOnly": true}': (
        'lets only managed hooks run ("allowManagedHooksOnly": true)'
    ),
    # Claude Code cannot parse these as a JSON object: it stops before any Session starts
    '{"disableAllHooks": tru': "Claude Code refuses to start with it",
    "[]": "Claude Code refuses to start with it",
    '// a comment\n{"disableAllHooks": true}': "Claude Code refuses to start with it",
}


def drop_in(path: Path, name: str, text: str) -> Path:
    """``managed-settings.d/name`` holding ``text`` beside the managed settings ``path``."""
    folder = path.parent / "managed-settings.d"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder / name


@pytest.mark.parametrize("text", list(DROP_INS))
def test_a_drop_in_keeping_the_hooks_from_running_fails_the_install_and_status_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    path, env = machine_settings(tmp_path, monkeypatch, "claude-code", "{}")
    held = drop_in(path, "50-policy.json", text)

    code, said = install(tmp_path, "claude-code", env)

    problem = next(line for line in said.splitlines() if ": PROBLEM: " in line)
    assert problem.startswith(f"claude-code: PROBLEM: {held}"), said
    assert DROP_INS[text] in problem
    assert "run the command again" not in problem  # no install writes a drop-in
    assert "written back" not in problem and "by hand" not in problem
    assert code == 1
    code, status = cli(tmp_path / "home", "status", **env)
    assert problem in status.splitlines(), status
    assert code == 1
    held.unlink()
    code, said = install(tmp_path, "claude-code", env)
    assert code == 0 and ": PROBLEM: " not in said, said


@pytest.mark.parametrize(
    ("files", "off"),
    [
        # a later name wins a scalar, over managed-settings.json too
        ({"10-a.json": '{"disableAllHooks": true}', "20-b.json": '{"disableAllHooks": false}'}, 0),
        ({"20-b.json": '{"disableAllHooks": true}', "10-a.json": '{"disableAllHooks": false}'}, 1),
        # only *.json files, and no hidden one
        ({".hidden.json": '{"disableAllHooks": true}', "off.txt": '{"disableAllHooks": 1}'}, 0),
    ],
    ids=str,
)
def test_drop_ins_are_laid_over_in_the_order_claude_code_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], off: int
) -> None:
    path, env = machine_settings(tmp_path, monkeypatch, "claude-code", '{"disableAllHooks": true}')
    for name, text in files.items():
        drop_in(path, name, text)
    if "10-a.json" not in files:
        path.write_text("{}", encoding="utf-8")

    code, said = install(tmp_path, "claude-code", env)

    assert code == off, said
    assert ('"disableAllHooks": true' in said) is bool(off), said


def test_a_managed_install_warns_of_a_drop_in_switching_every_hook_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``disableAllHooks`` in managed settings switches managed hooks off too; the install
    writes ``managed-settings.json`` alone and leaves the drop-in as it is."""
    path, env = machine_settings(tmp_path, monkeypatch, "claude-code", "{}")
    held = drop_in(path, "90-off.json", '{"disableAllHooks": true}')

    _, said = install(tmp_path, "claude-code", env, "--managed", str(path.parent))

    assert f"WARNING: {held} switches these hooks off itself" in said, said
    assert sorted(p.name for p in held.parent.iterdir()) == ["90-off.json"]
    assert held.read_text(encoding="utf-8") == '{"disableAllHooks": true}'
    code, status = cli(tmp_path / "home", "status", **env)
    assert f"claude-code (managed): PROBLEM: {held} switches these hooks off itself" in status
    assert code == 1


LIMIT = 2_097_152
"""Claude Code 2.1.332 reads a settings file of at most this many bytes (its bundle: ``$m``,
``size > limit`` refused, "File exceeds maxBytes limit")."""


def _to_a_folder(held: Path) -> None:
    (held.parent / "sub").mkdir()
    held.symlink_to("sub")  # EISDIR


def _loop(held: Path) -> None:
    held.symlink_to(held.name)  # ELOOP


def _folder_loop(held: Path) -> None:
    folder = held.parent
    folder.rmdir()
    folder.symlink_to(folder.name)  # managed-settings.d itself cannot be listed


def _too_large(held: Path) -> None:
    text = '{"disableAllHooks": true}'
    held.write_text(text + " " * (LIMIT + 1 - len(text)), encoding="utf-8")


UNREAD: dict[str, Callable[[Path], None]] = {
    "link to a folder": _to_a_folder,
    "link loop": _loop,
    "folder a link loop": _folder_loop,
    "larger than Claude Code reads": _too_large,
}


@pytest.mark.parametrize("how", list(UNREAD))
def test_a_drop_in_claude_code_cannot_read_is_left_out_and_only_noted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """Claude Code 2.1.332 (measured): it starts, says "Managed settings failed to load;
    policies from the failed source are NOT in effect" and runs the hooks; a drop-in it
    cannot read (or a folder it cannot list) is no reason to fail an install or status."""
    path, env = machine_settings(tmp_path, monkeypatch, "claude-code", "{}")
    held = drop_in(path, "50.json", "{}")
    held.unlink()
    UNREAD[how](held)
    shown = held.parent if how == "folder a link loop" else held

    code, said = install(tmp_path, "claude-code", env)

    assert code == 0 and ": PROBLEM: " not in said, said
    code, status = cli(tmp_path / "home", "status", **env)
    assert ": PROBLEM: " not in status, status
    note = next(line for line in status.splitlines() if str(shown) in line)
    assert note.startswith(f"claude-code: note: {shown}"), status
    assert "none of its settings are in effect" in note, note
    assert code == 0, status


def test_a_drop_in_of_claude_code_s_largest_size_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, env = machine_settings(tmp_path, monkeypatch, "claude-code", "{}")
    text = '{"disableAllHooks": true}'
    held = drop_in(path, "50.json", text + " " * (LIMIT - len(text)))
    assert held.stat().st_size == LIMIT

    code, said = install(tmp_path, "claude-code", env)

    assert code == 1 and f"claude-code: PROBLEM: {held}, this machine's settings" in said, said


def test_a_managed_install_beside_a_drop_in_claude_code_cannot_read_only_notes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, env = machine_settings(tmp_path, monkeypatch, "claude-code", "{}")
    held = drop_in(path, "50.json", "{}")
    held.unlink()
    _to_a_folder(held)

    _, said = install(tmp_path, "claude-code", env, "--managed", str(path.parent))

    assert str(held) not in said, said
    _, status = cli(tmp_path / "home", "status", **env)
    named = [line for line in status.splitlines() if str(held) in line]
    assert named == [f"claude-code (managed): note: {held}, {named[0].split(', ', 1)[1]}"]
    assert "is a folder: Claude Code starts without it" in named[0], status
