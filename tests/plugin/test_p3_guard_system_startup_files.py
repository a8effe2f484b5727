"""P-3, H-5: the system's startup files are judged for what they source, not as commands.

The guard judges a started shell's startup files (and the scripts they source) as commands of
the call because an agent could write one in one call and have ``bash -lc 'ls'`` run it in the
next. The system's own ``/etc/profile`` and ``/etc/bash.bashrc`` (root's, writable by no one
else; for another account, ones it can neither write nor replace:
``named_scripts.system_startup_file``) it did not write: their commands are not judged as the
call's (≈ 170 M instructions of every ``bash -lc`` hook), but they are read as a script the
call sources, for the memory they name and every script they source (a ``profile.d`` loop's,
a ``$HOME/.alias``), judged as before. Everything else, the home's files and any other file a
shell runs first, is judged as commands as before.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from harness_memory.hooks import guarding, named_scripts
from harness_memory.hooks.named_scripts import read_script
from harness_memory.hooks.settings_file import read_settings_file
from harness_memory.hooks.shell_startup import is_interactive

from tests.support.guard_cases import Layout, answer, refusal

WRITES = 'cp note.md "$(cat target)"/a.md\n'
"""A startup file's line writing into the folder ``target`` names, built at run time."""


@pytest.fixture
def read(where: Layout, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the guard reads as startup files or as scripts they run, in the order read,
    in the harness's environment (``HOME`` the data dir, the system's ``PATH``, no
    ``BASH_ENV``, ``ENV`` or ``PS1``), a Workspace holding ``note.md`` and ``target`` (naming
    the other scope)."""
    for name in ("BASH_ENV", "ENV", "PS1"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(where.data))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    files: list[str] = []

    def read_settings(file: str, cap: int) -> bytes | None:
        files.append(file)
        return read_settings_file(file, cap)

    def read_a_script(file: str, *, run: bool) -> tuple[str, str]:
        files.append(file)
        return read_script(file, run=run)

    monkeypatch.setattr(guarding, "read_settings_file", read_settings)
    monkeypatch.setattr(guarding, "read_script", read_a_script)
    return files


def _system(path: str) -> bool:
    """Whether ``path`` is there and the system's as this test sees it (root's, writable by
    no one else), so the machine's own ``/etc/profile`` can stand for one."""
    status = Path(path).stat()
    return status.st_uid == 0 and not status.st_mode & 0o022


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the guard judges as commands of the call (``_Judge.texts``), in order."""
    texts: list[str] = []
    judge = guarding._Judge.texts

    def recorded(
        self: guarding._Judge,
        given: list[str],
        known: str | None,
        depth: int = 0,
        *,
        own_code: bool = False,
    ) -> str | None:
        texts.extend(given)
        return judge(self, given, known, depth, own_code=own_code)

    monkeypatch.setattr(guarding._Judge, "texts", recorded)
    return texts


def test_p3_a_login_shell_judges_the_homes_profile_not_the_systems_commands(
    where: Layout, read: list[str], judged: list[str]
) -> None:
    """``bash -lc`` (Codex's form) runs ``/etc/profile``, then ``~/.profile``: the home's is
    judged as commands, the system's only for what it names and sources (its commands once
    cost ≈ 170 M instructions of every such hook)."""
    assert _system("/etc/profile")
    home = "PATH=$HOME/bin:$PATH\n"
    (where.data / ".profile").write_text(home, encoding="utf-8")

    assert answer(where, "codex", "Bash", {"command": "bash -lc 'git status'"}) is None

    assert Path("/etc/profile").read_text(encoding="utf-8") not in judged
    assert home in judged
    assert "/etc/profile" in read  # as a script: what it names and sources
    assert str(where.data / ".profile") in read


def test_p3_the_systems_script_a_home_bashrc_sources_is_not_judged_as_commands(
    where: Layout, read: list[str], judged: list[str]
) -> None:
    """``~/.bashrc`` sourcing the system's ``/etc/bash.bashrc`` (``-i`` runs both): the home's
    file is judged as commands, the system's neither as a startup file nor as the script
    sourced (read as a script, for what it names and sources)."""
    assert _system("/etc/bash.bashrc")
    home = ". /etc/bash.bashrc\nalias ll='ls -l'\n"
    (where.data / ".bashrc").write_text(home, encoding="utf-8")

    assert answer(where, "codex", "Bash", {"command": "bash -ic 'ls'"}) is None

    assert Path("/etc/bash.bashrc").read_text(encoding="utf-8") not in judged
    assert home in judged
    assert "/etc/bash.bashrc" in read  # as a script: what it names and sources


def test_p3_a_home_profile_linking_to_the_systems_is_not_judged_as_commands(
    where: Layout, read: list[str], judged: list[str]
) -> None:
    """A ``~/.profile`` that is a link to ``/etc/profile`` runs the system's file (for root:
    for another account the link, in a home it owns, is its own to change: judged)."""
    (where.data / ".profile").symlink_to("/etc/profile")

    assert answer(where, "codex", "Bash", {"command": "bash -lc 'ls'"}) is None

    assert Path("/etc/profile").read_text(encoding="utf-8") not in judged


@pytest.mark.parametrize(
    "profile",
    [
        f". /etc/profile\n{WRITES}",
        f"{Path('/etc/profile').read_text(encoding='utf-8')}\n{WRITES}",
    ],
    ids=["sourcing-the-systems", "the-systems-text"],
)
def test_p3_a_home_profile_writing_other_memory_is_still_refused(
    where: Layout, read: list[str], profile: str
) -> None:
    """The home's ``~/.profile`` (the agent may have written it), sourcing the system's
    profile or holding its text, then writing into another Workspace's scope: refused as
    before; run by bash, the file lands there."""
    (where.data / ".profile").write_text(f"cd {where.workspace}\n{profile}", encoding="utf-8")
    command = "bash -lc 'ls'"

    reason = refusal(answer(where, "codex", "Bash", {"command": command}))

    assert reason is not None and "first runs" in reason and ".profile" in reason, reason
    subprocess.run(
        ["bash", "-c", command],
        cwd=where.workspace,
        env={"HOME": str(where.data), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert (where.root / where.other / "a.md").exists(), "nothing landed: no bypass"


def test_p3_a_root_owned_startup_file_outside_the_systems_folders_is_still_read(
    where: Layout, read: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``$BASH_ENV`` naming a file owned by this account (root in CI), writable by no one
    else, but in a folder the agent may write (not ``/etc``, ``/usr``…): judged and refused."""
    started = where.workspace / "conf" / "start.sh"
    started.parent.mkdir()
    started.write_text(f"cd {where.workspace}\n{WRITES}", encoding="utf-8")
    started.chmod(0o444)
    monkeypatch.setenv("BASH_ENV", str(started))

    reason = refusal(answer(where, "codex", "Bash", {"command": "bash -c 'ls'"}))

    assert reason is not None and "start.sh" in reason, reason
    assert str(started) in read


AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
"""Run a program as ``nobody``, no group kept (from root)."""
SYSTEM_FILE_AS_NOBODY = """
import os, sys, tempfile
from harness_memory.hooks.named_scripts import system_file
assert os.geteuid() != 0
handle, own = tempfile.mkstemp(dir="/tmp")
os.close(handle)
print(system_file("/etc/profile"), system_file(own), system_file("/tmp/not-there/x.sh"))
os.unlink(own)
"""
"""What ``system_file`` tells an account other than root: the system's ``/etc/profile`` (it
can neither write nor replace it), a file it made itself, a file it may make."""


def test_p3_for_an_account_other_than_root_the_system_file_is_one_it_cannot_change() -> None:
    """Run as ``nobody`` (``setpriv``, from a root test run; as the account itself, from
    another): ``/etc/profile`` is the system's, a file the account wrote or may make in
    ``/tmp`` is not."""
    as_nobody = AS_NOBODY if os.geteuid() == 0 else []  # CI runs as root
    assert not as_nobody or shutil.which("setpriv")
    source = str(Path(guarding.__file__).resolve().parents[2])
    ran = subprocess.run(
        [*as_nobody, sys.executable, "-c", SYSTEM_FILE_AS_NOBODY],
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": source, "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["True", "False", "False"]


@pytest.fixture
def system_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder taken for one of the system's (as ``/etc`` is) for a root agent, holding
    ``x.sh``, root's (CI runs as root), writable by no one else, whose line writes into the
    folder ``target`` names (another Workspace's scope)."""
    folder = tmp_path / "etc"
    folder.mkdir()
    (folder / "x.sh").write_text(f"cd {tmp_path}\n{WRITES}", encoding="utf-8")
    (folder / "x.sh").chmod(0o644)
    system = (*named_scripts.SYSTEM_FOLDERS, f"{folder}/")
    monkeypatch.setattr(named_scripts, "SYSTEM_FOLDERS", system)
    return folder


def test_p3_a_root_agents_own_source_of_a_system_file_is_still_read(
    where: Layout, read: list[str], system_folder: Path
) -> None:
    """A root agent may have written ``/etc/x.sh`` in its call before: its own ``source
    /etc/x.sh`` reads the file for the memory it names, as before (only what a startup file
    or other settings run of the system's is trusted unread)."""
    assert os.geteuid() == 0, "CI and this test run as root"
    script = system_folder / "x.sh"
    script.write_text(f"cp note.md {where.root / where.other}/a.md\n", encoding="utf-8")

    reason = refusal(answer(where, "codex", "Bash", {"command": f"source {script}"}))

    assert reason is not None and "x.sh" in reason, reason
    assert str(script) in read


def test_p3_a_script_in_the_systems_folders_a_home_profile_sources_is_read(
    where: Layout, read: list[str], system_folder: Path
) -> None:
    """A root agent puts a script in the system's folders (``/usr/share/x.sh``, root's,
    ``0644``) in one call and a line sourcing it in ``~/.profile``: the next ``bash -lc``
    reads it and refuses the memory it names (review rv-hook69: it was trusted unread)."""
    assert os.geteuid() == 0, "CI and this test run as root"
    script = system_folder / "x.sh"
    script.write_text(f"cp note.md {where.root / where.other}/a.md\n", encoding="utf-8")
    (where.data / ".profile").write_text(f". {script}\nalias ll='ls -l'\n", encoding="utf-8")

    reason = refusal(answer(where, "codex", "Bash", {"command": "bash -lc 'git status'"}))

    assert reason is not None and "x.sh" in reason, reason
    assert str(script) in read


@pytest.mark.parametrize(
    ("variable", "command"), [("BASH_ENV", "bash -c ls"), ("ENV", "sh -ic ls")]
)
def test_p3_a_system_file_named_as_a_startup_file_is_read(
    where: Layout,
    read: list[str],
    system_folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    command: str,
) -> None:
    """Only the system's ``/etc/profile`` and ``/etc/bash.bashrc`` at their places are
    trusted: a root-owned ``/etc/profile.d/x.sh`` that ``BASH_ENV`` or ``ENV`` names as the
    file a shell runs first is judged (rv-hook69: it was trusted unread)."""
    script = system_folder / "x.sh"
    script.write_text(f"cp note.md {where.root / where.other}/a.md\n", encoding="utf-8")
    monkeypatch.setenv(variable, str(script))

    reason = refusal(answer(where, "codex", "Bash", {"command": command}))

    assert reason is not None and "first runs" in reason and "x.sh" in reason, reason
    assert str(script) in read


def test_p3_usr_local_is_no_system_folder_for_a_root_agent() -> None:
    """Root agents install into ``/usr/local`` as they work: a root-owned file there is not
    the system's (rv-hook69: ``/usr/local/games/x.sh`` sourced from ``~/.bashrc`` was trusted
    unread); ``/usr/bin`` is."""
    assert os.geteuid() == 0, "CI and this test run as root"
    assert Path("/usr/local/bin").stat().st_uid == 0
    assert not named_scripts.system_file("/usr/local/bin")
    assert named_scripts.system_file("/usr/bin")


@pytest.fixture
def as_account(monkeypatch: pytest.MonkeyPatch) -> int:
    """This process asked as an account other than root that may write no folder (the uid
    ``os.geteuid`` answers and every ``os.access`` write refused), so only ownership tells
    whose a file is."""
    uid = 4242
    monkeypatch.setattr(os, "geteuid", lambda: uid)
    monkeypatch.setattr(os, "access", lambda _path, _mode: False)
    return uid


def test_p3_a_file_its_owner_made_read_only_is_still_changeable(
    tmp_path: Path, as_account: int
) -> None:
    """rv-hook69: an agent's own ``~/.bashrc`` made ``0444`` in a home made ``0555`` was
    taken for the system's and trusted unread; its owner may make either writable again."""
    home = tmp_path / "home"
    home.mkdir()
    bashrc = home / ".bashrc"
    bashrc.write_text("true\n", encoding="utf-8")
    os.chown(bashrc, as_account, as_account)
    assert not named_scripts.unchangeable(str(bashrc))
    assert not named_scripts.system_file(str(bashrc))

    os.chown(bashrc, 0, 0)
    os.chown(home, as_account, as_account)  # its folder: chmod, then replace the file
    assert not named_scripts.unchangeable(str(bashrc))

    os.chown(home, 0, 0)
    assert named_scripts.unchangeable(str(bashrc))  # none of its own, none writable


@pytest.fixture
def system_startup(
    system_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, pytest.MonkeyPatch]:
    """``system_folder``'s ``profile`` taken for the system's ``/etc/profile`` (one of
    ``SYSTEM_STARTUP_FILES``), run first by ``bash -c`` through ``BASH_ENV``."""
    profile = system_folder / "profile"
    startup = {*named_scripts.SYSTEM_STARTUP_FILES, str(profile)}
    monkeypatch.setattr(named_scripts, "SYSTEM_STARTUP_FILES", frozenset(startup))
    monkeypatch.setenv("BASH_ENV", str(profile))
    return profile, monkeypatch


def test_p3_what_the_systems_profile_sources_in_its_loop_is_judged(
    where: Layout, read: list[str], judged: list[str], system_startup: tuple[Path, object]
) -> None:
    """Debian's ``/etc/profile`` sources each ``/etc/profile.d/*.sh`` in a loop: a script
    there naming other memory (a root agent's, or one the agent's group may write) is read
    and refused as before stop 69, while ``/etc/profile``'s own commands are not judged
    (review rv-fix69h: trusting the file unread trusted its loop too)."""
    profile, _ = system_startup
    folder = profile.parent / "profile.d"
    folder.mkdir()
    (folder / "zz-evil.sh").write_text(
        f"cp {where.workspace}/note.md {where.root / where.other}/a.md\n", encoding="utf-8"
    )
    text = f"for i in {folder}/*.sh; do\n  if [ -r $i ]; then\n    . $i\n  fi\ndone\nunset i\n"
    profile.write_text(text, encoding="utf-8")
    profile.chmod(0o644)

    reason = refusal(answer(where, "codex", "Bash", {"command": "bash -c ls"}))

    assert reason is not None and "zz-evil.sh" in reason, reason
    assert str(folder / "zz-evil.sh") in read
    assert text not in judged


def test_p3_a_home_file_the_systems_bashrc_sources_is_judged(
    where: Layout, read: list[str], system_startup: tuple[Path, object]
) -> None:
    """openSUSE's ``/etc/bash.bashrc`` sources ``$HOME/.alias``: a home file, the agent's to
    write, naming other memory is read and refused (review rv-fix69h)."""
    profile, _ = system_startup
    profile.write_text("test -s $HOME/.alias && . $HOME/.alias\n", encoding="utf-8")
    profile.chmod(0o644)
    alias = where.data / ".alias"
    alias.write_text(f"cp note.md {where.root / where.other}/a.md\n", encoding="utf-8")

    reason = refusal(answer(where, "codex", "Bash", {"command": "bash -c ls"}))

    assert reason is not None and ".alias" in reason, reason
    assert str(alias) in read


def test_p3_a_projects_etc_profile_written_before_a_login_shell_passes(where: Layout) -> None:
    """An image overlay's ``rootfs/etc/profile`` written before ``bash -lc`` is the project's
    file, not the shell's, and ``bash -n /etc/profile`` reads the system's: both pass."""
    for command in (
        "mkdir -p rootfs/etc && cp note.md rootfs/etc/profile && bash -lc 'git status'",
        "bash -n /etc/profile && bash -lc ls",
    ):
        assert refusal(answer(where, "codex", "Bash", {"command": command})) is None, command


def test_p3_a_root_agents_own_source_of_the_systems_profile_reads_what_it_sources(
    where: Layout, read: list[str], system_startup: tuple[Path, pytest.MonkeyPatch]
) -> None:
    """A root agent's own ``. /etc/profile`` (or ``bash -c '. /etc/profile; ls'``): the
    profile is read as any script it sources is, and a ``profile.d`` script its loop matches
    that names other memory is refused, as before stop 69 (review rv-fix69i: the system's
    startup file sourced by name was skipped unread)."""
    profile, patch = system_startup
    patch.delenv("BASH_ENV")  # the agent's own source, no shell started with it
    folder = profile.parent / "profile.d"
    folder.mkdir()
    (folder / "zz.sh").write_text(f"cp note.md {where.root / where.other}/a.md\n")
    profile.write_text(f"for i in {folder}/*.sh; do\n  . $i\ndone\n", encoding="utf-8")
    profile.chmod(0o644)
    for command in (f". {profile}", f"bash -c '. {profile}; ls'"):
        reason = refusal(answer(where, "codex", "Bash", {"command": command}))
        assert reason is not None and "zz.sh" in reason, (command, reason)


def test_p3_what_the_systems_file_sources_from_home_is_the_home_the_command_gives(
    where: Layout, read: list[str], system_startup: tuple[Path, object], tmp_path: Path
) -> None:
    """``HOME=h bash -c ls`` runs the system's file (here through ``BASH_ENV``) with that
    ``HOME``: its ``$HOME/.alias`` is ``h/.alias``, read and refused when it names other
    memory (review rv-fix69i: the hook's own ``HOME`` was read)."""
    profile, _ = system_startup
    profile.write_text("test -s $HOME/.alias && . $HOME/.alias\n", encoding="utf-8")
    profile.chmod(0o644)
    home = tmp_path / "h"
    home.mkdir()
    (home / ".alias").write_text(f"cp note.md {where.root / where.other}/a.md\n")

    reason = refusal(answer(where, "codex", "Bash", {"command": f"HOME={home} bash -c ls"}))

    assert reason is not None and ".alias" in reason, reason
    assert str(home / ".alias") in read


def test_p3_the_systems_bashrc_sourced_again_by_name_is_read_again(
    where: Layout,
    read: list[str],
    system_startup: tuple[Path, pytest.MonkeyPatch],
    tmp_path: Path,
) -> None:
    """``HOME=clean bash -ic '…; . /etc/bash.bashrc'``: the started shell reads the system's
    file with ``clean``'s ``HOME`` (no ``.alias`` there), the command sources it again by name
    with the home the hook knows, whose ``.alias`` names other memory: read again and refused
    (review rv-fix69j: the first reading was kept as read and the second skipped)."""
    profile, patch = system_startup
    patch.delenv("BASH_ENV")
    patch.setattr(
        guarding,
        "startup_files",
        lambda _shell, words, _environ: [str(profile)] if is_interactive(words) else [],
    )
    profile.write_text("test -s $HOME/.alias && . $HOME/.alias\n", encoding="utf-8")
    profile.chmod(0o644)
    (where.data / ".alias").write_text(f"cp note.md {where.root / where.other}/a.md\n")
    clean = tmp_path / "clean"
    clean.mkdir()
    command = f"HOME={clean} bash -ic '. {profile}; ls'"

    reason = refusal(answer(where, "codex", "Bash", {"command": command}))

    assert reason is not None and ".alias" in reason, reason


def test_p3_what_the_systems_profile_sources_is_as_deep_as_before(
    where: Layout, read: list[str], system_startup: tuple[Path, pytest.MonkeyPatch]
) -> None:
    """The system's profile → ``profile.d/x.sh`` → ``a.sh`` → ``d.sh`` (an alias): as deep as
    the guard follows when the profile's text was judged as the call's, not one level less
    (review rv-fix69j: refused as past the files deep)."""
    profile, _ = system_startup
    folder = profile.parent / "profile.d"
    folder.mkdir()
    (folder / "x.sh").write_text(f". {folder}/a.sh\n", encoding="utf-8")
    (folder / "a.sh").write_text(f". {folder}/d.sh\n", encoding="utf-8")
    (folder / "d.sh").write_text("alias ll='ls -l'\n", encoding="utf-8")
    profile.write_text(f"for i in {folder}/x.sh; do\n  . $i\ndone\n", encoding="utf-8")
    profile.chmod(0o644)

    assert refusal(answer(where, "codex", "Bash", {"command": "bash -c ls"})) is None
    assert str(folder / "d.sh") in read
