"""H-7: the user's settings files are theirs.

A settings file that is a symlink into a dotfiles checkout is written through (its target
changes, the link stays; ``tests/data/cases/install-through-symlinked-settings``), and a file
that holds the bearer token after an install is readable by its owner only, as is a backup that
holds one; no output shows the token (``tests/data/cases/token-in-readable-settings``).
"""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers import files as files_module
from harness_memory.installers.files import BACKUP_SUFFIX
from harness_memory.installers.secrets import MASK
from harness_memory.records import write_record

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.test_plugin_surface import meta

CASES = Path(__file__).resolve().parents[1] / "data" / "cases"
HARNESSES = ("claude-code", "codex", "gemini")
LINKED = {
    "claude-code": (".claude/settings.json", "dotfiles/claude/settings.json"),
    "gemini": (".gemini/settings.json", "dotfiles/gemini/settings.json"),
    "codex": (".codex/config.toml", "dotfiles/codex/config.toml"),
}
TOKEN_FILES = {
    "claude-code": ".claude/harness-memory/token",  # named by --token-file (test_h7_token_file)
    "codex": ".codex/harness-memory/token",
    "gemini": ".gemini/harness-memory/token",
}
SETTINGS_FILES = {
    "claude-code": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}
TOKEN = "s3cr3t-Token-4711"
URL = "http://127.0.0.1:9"


def memory_root(tmp_path: Path) -> Path:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    return root


def run(home: Path, root: Path, verb: str, harness: str, *extra: str) -> tuple[int, str]:
    out = io.StringIO()
    flags = ["--home", str(home), "--memory-root", str(root)]
    if verb == "install":
        flags += ["--url", URL, "--project", "acme", "--agent", "coder"]
        flags += ["--executable", str(HARNESS_MEMORY)]
    status = main([verb, harness, *flags, *extra], environ={"HOME": str(home)}, stdout=out)
    return status, out.getvalue()


def make_home(case: str, tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    subprocess.run(["sh", str(CASES / case / "make_home.sh"), str(home)], check=True)
    return home


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def backups_of(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}{BACKUP_SUFFIX}*"))


# --- install-through-symlinked-settings ---------------------------------------------------------


@pytest.mark.parametrize("harness", HARNESSES)
def test_install_through_symlinked_settings(tmp_path: Path, harness: str) -> None:
    home = make_home("install-through-symlinked-settings", tmp_path)
    root = memory_root(tmp_path)
    link, target = (home / LINKED[harness][0], home / LINKED[harness][1])
    link_text = link.readlink()
    before = target.read_text(encoding="utf-8")

    status, said = run(home, root, "install", harness)
    assert status == 0, said
    assert link.is_symlink() and link.readlink() == link_text  # the same link
    after = target.read_text(encoding="utf-8")
    assert str(root) in after  # the dotfiles copy got the change
    assert ("harness-memory hook" in after) == (harness != "codex")  # codex: hooks.json apart
    assert f"wrote its target {target}" in said
    [backup] = backups_of(target)  # beside the target, not beside the link
    assert backup.read_text(encoding="utf-8") == before
    assert not backups_of(link)

    status, said = run(home, root, "uninstall", harness)
    assert status == 0, said
    assert link.is_symlink() and link.readlink() == link_text
    assert str(root) not in target.read_text(encoding="utf-8")


@pytest.mark.parametrize("harness", HARNESSES)
def test_install_through_a_symlink_into_a_git_dotfiles_repository_says_what_git_now_shows(
    tmp_path: Path, harness: str
) -> None:
    """Written through a link into a dotfiles repository, the settings file's hooks (this
    machine's paths) and its backup show in that repository's ``git status``: the install
    says so, naming the repository and the backup; into a plain folder it says nothing of it."""
    home = make_home("install-through-symlinked-settings", tmp_path)
    root = memory_root(tmp_path)
    target = home / LINKED[harness][1]
    status, said = run(home, root, "install", harness)
    assert status == 0, said
    assert "git work tree" not in said
    assert run(home, root, "uninstall", harness)[0] == 0

    (home / "dotfiles" / ".git").mkdir()
    status, said = run(home, root, "install", harness)

    assert status == 0, said
    [backup] = backups_of(target)
    assert (
        f"{target} lies in the git work tree {home / 'dotfiles'}: its `git status` now shows "
        f"the hooks (they name this machine's paths, no token), and so does its backup {backup}"
    ) in said
    assert "commit them only if every machine that checks it out has these paths" in said
    assert TOKEN not in target.read_text(encoding="utf-8")


@pytest.mark.parametrize("harness", HARNESSES)
def test_settings_moved_into_dotfiles_after_the_install_leave_no_backup_at_uninstall(
    tmp_path: Path, harness: str
) -> None:
    """Installed into a plain settings file, which the user then moves into a dotfiles
    checkout and links back (``stow --adopt``): the uninstall writes through the link and
    leaves nothing of the install. The backup the install made beside the plain file stayed
    in the settings folder, since backups were looked for beside the link's target only."""
    home, dotfiles = tmp_path / "home", tmp_path / "dotfiles"
    settings = home / SETTINGS_FILES[harness]
    settings.parent.mkdir(parents=True)
    dotfiles.mkdir()
    before = '{\n  "theme": "dark"\n}\n'
    settings.write_text(before, encoding="utf-8")
    status, said = run(home, memory_root(tmp_path), "install", harness)
    assert status == 0, said
    assert backups_of(settings)  # beside the plain file
    adopted = dotfiles / settings.name
    settings.rename(adopted)
    settings.symlink_to(adopted)

    status, said = run(home, memory_root(tmp_path), "uninstall", harness)

    assert status == 0, said
    assert settings.is_symlink() and adopted.read_text(encoding="utf-8") == before
    assert sorted(path.name for path in settings.parent.iterdir()) == [settings.name]
    assert sorted(path.name for path in dotfiles.iterdir()) == [settings.name]


@pytest.mark.parametrize("harness", HARNESSES)
def test_install_through_symlinked_settings_target_not_writable_changes_nothing(
    tmp_path: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A link whose target's folder cannot be written is an error naming link and target."""
    home = tmp_path / "home"
    link = home / LINKED[harness][0]
    link.parent.mkdir(parents=True)
    unwritable = Path("/proc/sys/harness-memory-settings")  # a folder nobody may write
    assert not os.access(unwritable.parent, os.W_OK)
    link.symlink_to(unwritable)
    status, _ = run(home, memory_root(tmp_path), "install", harness)
    assert status == 1
    assert f"{link} (a symlink to {unwritable})" in caplog.text
    assert "nothing was changed" in caplog.text
    assert link.is_symlink()
    assert sorted(p.name for p in link.parent.iterdir()) == [link.name]


@pytest.mark.parametrize("harness", HARNESSES)
@pytest.mark.parametrize("kind", ["folder", "fifo", "latin-1 text"])
def test_install_through_symlinked_settings_target_not_a_settings_file_names_both(
    tmp_path: Path, harness: str, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A link whose target is no settings file the install can read (a folder, a FIFO, text
    that is not UTF-8) is an error naming the link and its target, the file in fact read:
    the error named only the link, whose own name says nothing of where it leads."""
    home = tmp_path / "home"
    link = home / LINKED[harness][0]
    link.parent.mkdir(parents=True)
    target = home / "dotfiles" / "settings"
    target.parent.mkdir()
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.write_bytes('{"theme": "Café"}\n'.encode("latin-1"))
    link.symlink_to(os.path.relpath(target, link.parent))

    status, _ = run(home, memory_root(tmp_path), "install", harness)

    assert status == 1
    assert f"{link} (a symlink to {target})" in caplog.text
    assert "nothing was changed" in caplog.text
    assert sorted(p.name for p in link.parent.iterdir()) == [link.name]
    assert sorted(p.name for p in target.parent.iterdir()) == ["settings"]


@pytest.mark.parametrize("harness", HARNESSES)
def test_install_through_symlinked_settings_folder_and_a_link_chain(
    tmp_path: Path, harness: str
) -> None:
    """The settings folder itself a symlink (a dotfiles manager's), the file in it a link to a
    link: the final target gets the change, every link stays, and only a file that is a
    symlink is said to be one (not a file that merely lies in a linked folder)."""
    home, dotfiles = tmp_path / "home", tmp_path / "dotfiles"
    name = LINKED[harness][0]
    folder, file_name = name.split("/")
    (dotfiles / "store").mkdir(parents=True)
    (dotfiles / "folder").mkdir()
    home.mkdir()
    (home / folder).symlink_to(dotfiles / "folder")
    final = dotfiles / "store" / file_name
    final.write_text("{}\n" if file_name.endswith(".json") else "", encoding="utf-8")
    (dotfiles / "store" / f"via-{file_name}").symlink_to(file_name)
    (dotfiles / "folder" / file_name).symlink_to(f"../store/via-{file_name}")

    status, said = run(home, memory_root(tmp_path), "install", harness)

    assert status == 0, said
    assert f"{home / name} is a symlink: wrote its target {final}" in said
    assert (dotfiles / "folder" / file_name).is_symlink()
    assert (dotfiles / "store" / f"via-{file_name}").is_symlink()
    assert str(memory_root(tmp_path)) in final.read_text(encoding="utf-8")
    wrote = [line for line in said.splitlines() if "is a symlink" in line]
    assert wrote == [f"{harness}: {home / name} is a symlink: wrote its target {final}"]


@pytest.mark.parametrize("harness", HARNESSES)
def test_install_through_a_symlink_whose_target_is_not_there_yet(
    tmp_path: Path, harness: str
) -> None:
    """A link into a dotfiles checkout that does not hold the file yet: the install creates
    the target (the link stays); uninstall removes that target again with its backups, and
    the link is left as it was, pointing at nothing."""
    home, dotfiles = tmp_path / "home", tmp_path / "dotfiles"
    link = home / LINKED[harness][0]
    link.parent.mkdir(parents=True)
    dotfiles.mkdir()
    target = dotfiles / link.name
    link.symlink_to(target)

    status, said = run(home, memory_root(tmp_path), "install", harness)
    assert status == 0, said
    assert link.is_symlink() and target.is_file()

    status, said = run(home, memory_root(tmp_path), "uninstall", harness)
    assert status == 0, said
    assert link.is_symlink() and link.readlink() == target
    assert list(dotfiles.iterdir()) == []  # neither a "{}" nor a backup of our hooks left


@pytest.mark.parametrize("harness", HARNESSES)
def test_install_through_a_hard_linked_settings_file(tmp_path: Path, harness: str) -> None:
    """A settings file hard-linked to a dotfiles checkout's copy (one inode, two names): the
    install and the uninstall rewrite it in place, so the copy gets each change and the names
    stay one file; the output says so. An atomic replace parted the home's name from the
    copy, which never got the hooks."""
    home, dotfiles = tmp_path / "home", tmp_path / "dotfiles"
    settings = home / SETTINGS_FILES[harness]
    settings.parent.mkdir(parents=True)
    dotfiles.mkdir()
    copy = dotfiles / settings.name
    before = '{\n  "theme": "dark"\n}\n'
    copy.write_text(before, encoding="utf-8")
    os.link(copy, settings)

    status, said = run(home, memory_root(tmp_path), "install", harness)
    assert status == 0, said
    assert settings.samefile(copy) and copy.stat().st_nlink == 2
    assert "harness-memory hook" in copy.read_text(encoding="utf-8")
    assert f"{settings} has 2 hard links: rewritten in place" in said
    [backup] = backups_of(settings)
    assert backup.read_text(encoding="utf-8") == before

    status, said = run(home, memory_root(tmp_path), "uninstall", harness)
    assert status == 0, said
    assert settings.samefile(copy) and copy.read_text(encoding="utf-8") == before


_INSTALL_OVER_A_BIND_MOUNT = """
import subprocess, sys
from harness_memory.cli import main
host, settings, home, root, executable = sys.argv[1:6]
subprocess.run(["mount", "--bind", host, settings], check=True)
for verb, extra in (("install", ["--url", "http://127.0.0.1:9", "--project", "acme",
                                 "--agent", "coder", "--executable", executable]),
                    ("uninstall", [])):
    status = main([verb, sys.argv[6], "--home", home, "--memory-root", root, *extra],
                  environ={"HOME": home})
    print(verb, status, open(host, encoding="utf-8").read().count("harness-memory hook"))
"""


@pytest.mark.parametrize("harness", HARNESSES)
def test_install_through_a_settings_file_mounted_over_its_name(
    tmp_path: Path, harness: str
) -> None:
    """A settings file that is a single-file bind mount of the host's (a container's, a
    devcontainer's ``-v ~/.claude/settings.json:…``): no rename can replace a mount point
    (EBUSY), so the install and the uninstall rewrite the file in place: the host's file gets
    the hooks and loses them again, and the output says why. The install refused it ("Device
    or resource busy"), so no harness run in such a container could get memory. Made for real
    in a user and mount namespace of the test's own."""
    home, host = tmp_path / "home", tmp_path / "host" / "settings.json"
    settings = home / SETTINGS_FILES[harness]
    settings.parent.mkdir(parents=True)
    settings.touch()
    host.parent.mkdir()
    before = '{\n  "theme": "dark"\n}\n'
    host.write_text(before, encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-c", _INSTALL_OVER_A_BIND_MOUNT, str(host), str(settings)]
    command += [str(home), str(memory_root(tmp_path)), str(HARNESS_MEMORY), harness]
    done = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", *command],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    hooks = 2 if harness == "claude-code" else 1  # SessionStart and PreToolUse at least
    said = [
        line.split()
        for line in done.stdout.splitlines()
        if line.startswith(("install ", "uninstall "))
    ]
    assert said[0][:2] == ["install", "0"] and int(said[0][2]) >= hooks, done.stdout
    assert said[1] == ["uninstall", "0", "0"], done.stdout
    assert f"{settings} is a mount point" in done.stdout
    assert "rewritten in place" in done.stdout
    assert host.read_text(encoding="utf-8") == before
    assert settings.read_bytes() == b""  # outside the namespace: the name's own empty file


@pytest.mark.parametrize("harness", HARNESSES)
def test_install_says_when_others_may_write_the_settings_or_their_folder(
    tmp_path: Path, harness: str
) -> None:
    """Whoever can write a harness's settings, or replace them in their folder, chooses the
    commands its hooks run as you: a settings file (or folder) every user may write is named,
    with the ``chmod`` that closes it; its mode stays the user's."""
    home = make_home("token-in-readable-settings", tmp_path)
    settings = home / SETTINGS_FILES[harness]
    settings.chmod(0o666)
    settings.parent.chmod(0o777)

    status, said = run(home, memory_root(tmp_path), "install", harness, "--token", TOKEN)

    assert status == 0, said
    assert f"WARNING: {settings} may be written by every user" in said
    assert f"chmod o-w {settings}" in said
    assert f"WARNING: {settings.parent} may be written by every user" in said
    assert mode(settings) == 0o666 and TOKEN not in settings.read_text(encoding="utf-8")
    settings.chmod(0o644)
    settings.parent.chmod(0o755)
    status, said = run(home, memory_root(tmp_path), "install", harness, "--timeout", "5")
    assert status == 0 and "WARNING" not in said


# --- token-in-readable-settings -----------------------------------------------------------------


@pytest.mark.parametrize("harness", HARNESSES)
def test_token_in_readable_settings(
    tmp_path: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    home = make_home("token-in-readable-settings", tmp_path)
    root = memory_root(tmp_path)
    path = home / TOKEN_FILES[harness]  # each harness's hooks: a token file of their own
    assert mode(home / SETTINGS_FILES[harness]) == 0o644

    status, shown = run(home, root, "install", harness, "--token", TOKEN, "--dry-run")
    assert status == 0
    assert TOKEN not in shown and MASK in shown
    assert "0644 -> 0600" not in shown
    assert mode(home / SETTINGS_FILES[harness]) == 0o644
    assert not path.exists()  # a dry run writes no token file

    status, said = run(home, root, "install", harness, "--token", TOKEN)
    assert status == 0
    assert TOKEN in path.read_text(encoding="utf-8")
    assert mode(path) == 0o600
    # the settings hold no token: their mode stays
    assert TOKEN not in (home / SETTINGS_FILES[harness]).read_text(encoding="utf-8")
    assert mode(home / SETTINGS_FILES[harness]) == 0o644
    assert not backups_of(path)  # the token file is the install's own: no backup

    # A new token: the backup of the file that held the old one is private too.
    status, said = run(home, root, "install", harness, "--token", "n3w-Token-0815-abc")
    assert status == 0
    assert "n3w-Token-0815-abc" in path.read_text(encoding="utf-8") and mode(path) == 0o600
    assert TOKEN not in said and "n3w-Token-0815-abc" not in said + caplog.text

    # Files that hold no token keep their mode.
    for other, name in SETTINGS_FILES.items():
        assert mode(home / name) == 0o644, other


# The token the user already keeps in the very file the install changes, under keys of their own.
USERS_OWN_PLACES = {
    "claude-code": (".claude/settings.json", '{\n  "env": {"MEMORY_API_TOKEN": "%s"}\n}\n'),
    "gemini": (
        ".gemini/settings.json",
        '{"mcpServers": {"memory": {"headers": {"Authorization": "Bearer %s"}}}}\n',
    ),
    "codex": (
        ".codex/config.toml",
        '[shell_environment_policy]\nset = { MEMORY_API_TOKEN = "%s" }\n',
    ),
}


@pytest.mark.parametrize("harness", HARNESSES)
def test_token_in_readable_settings_already_there_under_the_users_own_key(
    tmp_path: Path, harness: str
) -> None:
    """A settings file already holding the token the install is given, under a key of the
    user's (``env.MEMORY_API_TOKEN`` for the CLI, an MCP server's header, Codex's
    ``shell_environment_policy``), holds it after the install: it and its backup are made
    readable by their owner only, the install says so, and the dry run masks it there too, as
    does an uninstall's. The token went unmasked into both diffs and the file stayed 0644."""
    home = tmp_path / "home"
    name, text = USERS_OWN_PLACES[harness]
    settings = home / name
    settings.parent.mkdir(parents=True)
    settings.write_text(text % TOKEN, encoding="utf-8")
    settings.chmod(0o644)
    root = memory_root(tmp_path)

    status, shown = run(home, root, "install", harness, "--token", TOKEN, "--dry-run")
    assert status == 0
    assert TOKEN not in shown
    assert mode(settings) == 0o644

    status, said = run(home, root, "install", harness, "--token", TOKEN)
    assert status == 0
    assert TOKEN in settings.read_text(encoding="utf-8")  # the user's key is theirs: kept
    assert mode(settings) == 0o600
    assert f"{settings} holds the bearer token: made it readable by its owner only" in said
    assert "(mode 0644 -> 0600)" in said
    assert [mode(backup) for backup in backups_of(settings)] == [0o600]
    assert TOKEN not in said

    # The uninstall knows the token by the install's token file: its diff masks it too, and
    # the file it gives back, which still holds it, stays the owner's alone.
    status, shown = run(home, root, "uninstall", harness, "--dry-run")
    assert status == 0 and TOKEN not in shown and MASK in shown
    status, said = run(home, root, "uninstall", harness)
    assert status == 0 and TOKEN not in said
    assert settings.read_text(encoding="utf-8") == text % TOKEN
    assert mode(settings) == 0o600


@pytest.mark.parametrize("harness", ["codex", "gemini"])
@pytest.mark.parametrize(
    "token", ['it\'s-a-"token"-0123', "tab-back\\slash-0123", "semi;colon&amp-0123456"]
)
def test_token_in_readable_settings_masked_however_it_is_quoted(
    tmp_path: Path, harness: str, token: str
) -> None:
    """In the token file and in an earlier install's hook command the token is as written,
    shell-quoted and JSON-escaped: masked in every form."""
    home = make_home("token-in-readable-settings", tmp_path)
    root = memory_root(tmp_path)
    status, _ = run(home, root, "install", harness, "--token", token)
    assert status == 0
    status, shown = run(home, root, "install", harness, "--token", token + "-2", "--dry-run")
    assert status == 0
    for secret in (token, token + "-2"):
        rendered = {secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]}
        assert not any(form in shown for form in rendered), shown
    assert MASK in shown


# A token of an earlier install, one the install is not given, where that harness runs it from.
OLDER_TOKEN = "mem_OLDsecret-0042"
OLDER_TOKEN_PLACES = {
    "codex hooks inline in config.toml": (
        "codex",
        ".codex/config.toml",
        '[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = "command"\n'
        'command = "harness-memory hook codex session-start --token %s"\n',
    ),
    "codex shell_environment_policy": (
        "codex",
        ".codex/config.toml",
        '[shell_environment_policy]\nset = { HARNESS_MEMORY_TOKEN = "%s" }\n',
    ),
    "gemini hook command": (
        "gemini",
        ".gemini/settings.json",
        '{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": '
        '"harness-memory hook gemini session-start --token %s"}]}]}}\n',
    ),
    "claude-code env": (
        "claude-code",
        ".claude/settings.json",
        '{"env": {"HARNESS_MEMORY_TOKEN": "%s"}}\n',
    ),
}


@pytest.mark.parametrize("place", OLDER_TOKEN_PLACES)
@pytest.mark.parametrize("given", [(), ("--token", "n3w-Token-0815-abc")])
def test_token_in_readable_settings_an_older_token_the_install_is_not_given(
    tmp_path: Path, place: str, given: tuple[str, ...]
) -> None:
    """A settings file the install rewrites holding an earlier install's token (or one the user
    wired by hand) is a file holding a token, whichever token the install is given, or none:
    the dry run masks it, the file keeps it only readable by its owner, its backup likewise.
    Codex's ``config.toml`` was left 0644 with a 0644 backup, the token shown in the diff."""
    harness, name, text = OLDER_TOKEN_PLACES[place]
    home = tmp_path / "home"
    settings = home / name
    settings.parent.mkdir(parents=True)
    settings.write_text(text % OLDER_TOKEN, encoding="utf-8")
    settings.chmod(0o644)
    root = memory_root(tmp_path)

    status, shown = run(home, root, "install", harness, *given, "--dry-run")
    assert status == 0 and OLDER_TOKEN not in shown and MASK in shown, shown

    status, said = run(home, root, "install", harness, *given)
    assert status == 0 and OLDER_TOKEN not in said, said
    if OLDER_TOKEN in settings.read_text(encoding="utf-8"):
        assert mode(settings) == 0o600
    assert [mode(backup) for backup in backups_of(settings)] == [0o600]


def test_token_in_readable_settings_old_backups_made_private(tmp_path: Path) -> None:
    """An older install kept Claude Code's token in the settings' ``env``; a backup of those
    settings left readable is made private by the next install, which moves the token into
    its own file (the hooks read no token from ``env``: a repository's settings override it)."""
    home = make_home("token-in-readable-settings", tmp_path)
    root = memory_root(tmp_path)
    settings = home / SETTINGS_FILES["claude-code"]
    # the service it is for recorded beside it: moved into the token file
    older = json.dumps({"env": {"HARNESS_MEMORY_TOKEN": TOKEN, "HARNESS_MEMORY_URL": URL}})
    settings.write_text(older, encoding="utf-8")
    settings.chmod(0o600)
    leaked = settings.with_name(settings.name + BACKUP_SUFFIX + "20240101T000000Z")
    leaked.write_text(json.dumps({"env": {"HARNESS_MEMORY_TOKEN": TOKEN}, "theme": "x"}))
    leaked.chmod(0o644)

    status, said = run(home, root, "install", "claude-code")

    assert status == 0
    assert mode(leaked) == 0o600
    assert f"{leaked} holds the bearer token: made it owner-only (0644 -> 0600)" in said
    assert TOKEN not in settings.read_text(encoding="utf-8")
    token_file = home / TOKEN_FILES["claude-code"]
    assert token_file.read_text(encoding="utf-8") == TOKEN + "\n" and mode(token_file) == 0o600


@pytest.mark.parametrize("harness", HARNESSES)
def test_folders_the_install_and_a_session_make_are_never_open_to_others(
    tmp_path: Path, harness: str, open_umask: None
) -> None:
    """Under ``umask 000`` ``mkdir -p`` makes world-writable folders: another account could
    then drop a Session record the write guard trusts, or swap the settings file. Every folder
    the install or a Session start makes is the owner's: 0700 beside private files, never
    writable by group or others."""
    home = tmp_path / "home"
    status, _ = run(home, memory_root(tmp_path), "install", harness, "--token", TOKEN)
    assert status == 0
    state = home / SETTINGS_FILES[harness].split("/")[0] / "harness-memory"
    write_record(state, "s1", meta("s1"))  # what a Session start writes

    made = [home / SETTINGS_FILES[harness].split("/")[0], state, state / "sessions"]
    assert {str(path): stat.S_IMODE(path.stat().st_mode) for path in made} == {
        str(path): 0o700 for path in made
    }


def test_a_managed_install_folder_stays_readable_by_every_user(
    tmp_path: Path, open_umask: None
) -> None:
    """Managed settings are read by every user's Claude Code: their folder is 0755, not 0777."""
    managed = tmp_path / "etc" / "claude-code"
    status, _ = run(
        tmp_path / "home",
        memory_root(tmp_path),
        "install",
        "claude-code",
        "--managed",
        str(managed),
    )
    assert status == 0
    assert stat.S_IMODE(managed.stat().st_mode) == 0o755
    assert stat.S_IMODE((managed / "managed-settings.json").stat().st_mode) == 0o644


@pytest.fixture
def closed_umask() -> Iterator[None]:
    """``umask 077``, as hardened systems give root: a ``mkdir`` gets the owner's bits only."""
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.parametrize(
    ("harness", "settings"),
    [("claude-code", "managed-settings.json"), ("codex", "requirements.toml")],
)
def test_a_managed_install_is_readable_by_every_user_under_roots_closed_umask(
    tmp_path: Path, closed_umask: None, harness: str, settings: str
) -> None:
    """Every user's harness reads the managed settings: the folders the install makes for them
    are 0755 under ``umask 077`` too (a 0700 ``/etc/codex`` would leave every other user
    without the hooks and the pins, and nobody told); the install record stays private."""
    managed = tmp_path / "etc" / harness
    status, said = run(
        tmp_path / "home", memory_root(tmp_path), "install", harness, "--managed", str(managed)
    )
    assert status == 0, said
    for folder in (tmp_path / "etc", managed):
        assert mode(folder) == 0o755
    assert mode(managed / settings) == 0o644
    assert mode(managed / "harness-memory") == 0o700
    assert mode(managed / "harness-memory" / "install.json") == 0o600


@pytest.mark.parametrize(
    ("harness", "settings"),
    [("claude-code", "managed-settings.json"), ("codex", "requirements.toml")],
)
def test_a_managed_install_says_when_other_users_cannot_read_it(
    tmp_path: Path, harness: str, settings: str
) -> None:
    """An administrator's managed file (or a folder above it) other users cannot read leaves
    their harness without the hooks: the install names it, with the ``chmod`` that opens it;
    the mode stays the administrator's."""
    managed = tmp_path / "etc" / harness
    managed.mkdir(parents=True)
    (managed / settings).write_text("{}\n" if settings.endswith(".json") else "", "utf-8")
    (managed / settings).chmod(0o640)
    (tmp_path / "etc").chmod(0o700)

    status, said = run(
        tmp_path / "home", memory_root(tmp_path), "install", harness, "--managed", str(managed)
    )

    assert status == 0, said
    assert f"WARNING: {managed / settings} cannot be read by other users (mode 0640)" in said
    assert f"WARNING: other users cannot enter {tmp_path / 'etc'}" in said
    assert mode(managed / settings) == 0o640


@pytest.mark.parametrize("harness", HARNESSES)
def test_a_write_failing_midway_leaves_no_folder_the_install_made(
    tmp_path: Path,
    harness: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The settings file refused at its write (an immutable file, ``chattr +i``: EPERM on the
    rename over it) after the state folder was made and filled: the files were taken back but
    the emptied ``harness-memory`` folder stayed, beside "nothing was changed"."""
    home = tmp_path / "home"
    settings = home / SETTINGS_FILES[harness]
    settings.parent.mkdir(parents=True)
    settings.write_text('{"theme": "dark"}\n', encoding="utf-8")
    real = files_module.replace_bytes

    def refusing(target: Path, data: bytes, mode: int, *, keep_links: bool = True) -> str | None:
        if target.name == settings.name and target.parent == settings.parent:
            raise PermissionError(1, "Operation not permitted", str(target))
        return real(target, data, mode, keep_links=keep_links)

    monkeypatch.setattr(files_module, "replace_bytes", refusing)
    status, _ = run(home, memory_root(tmp_path), "install", harness, "--token", TOKEN)

    assert status == 1
    assert f"cannot write {settings}: Operation not permitted" in caplog.text
    assert "nothing was changed" in caplog.text
    assert sorted(p.name for p in settings.parent.iterdir()) == [settings.name]
    assert settings.read_text(encoding="utf-8") == '{"theme": "dark"}\n'


@pytest.mark.parametrize("place", OLDER_TOKEN_PLACES)
def test_token_in_readable_settings_a_backup_left_open_is_narrowed_by_an_install_again(
    tmp_path: Path, place: str
) -> None:
    """A backup holding a token that an older release left readable by others (its mode copied
    from the file), beside settings the install has nothing left to change in: installing
    again said "nothing to change" and left the token readable. It makes the backup owner-only
    and says so; a dry run says it would."""
    harness, name, text = OLDER_TOKEN_PLACES[place]
    home = tmp_path / "home"
    settings = home / name
    settings.parent.mkdir(parents=True)
    settings.write_text(text % OLDER_TOKEN, encoding="utf-8")
    root = memory_root(tmp_path)
    status, said = run(home, root, "install", harness)
    assert status == 0, said
    [backup] = backups_of(settings)
    assert mode(backup) == 0o600  # private from its creation
    backup.chmod(0o644)  # as an older release left it

    status, shown = run(home, root, "install", harness, "--dry-run")
    assert status == 0 and mode(backup) == 0o644
    assert f"would make {backup} owner-only (mode 0644 -> 0600): it holds a bearer token" in shown

    status, said = run(home, root, "install", harness)

    assert status == 0, said
    assert mode(backup) == 0o600
    assert f"{backup} holds the bearer token: made it owner-only (0644 -> 0600)" in said
    assert "nothing to change" not in said and OLDER_TOKEN not in said


def test_token_in_readable_settings_an_uninstall_keeping_backups_narrows_them(
    tmp_path: Path,
) -> None:
    """``uninstall --keep-backups`` keeps the backups that hold a token: one an older release
    left readable by others is made owner-only too, and said."""
    harness, name, text = OLDER_TOKEN_PLACES["codex shell_environment_policy"]
    home = tmp_path / "home"
    settings = home / name
    settings.parent.mkdir(parents=True)
    settings.write_text(text % OLDER_TOKEN, encoding="utf-8")
    root = memory_root(tmp_path)
    assert run(home, root, "install", harness)[0] == 0
    backup = settings.with_name(settings.name + BACKUP_SUFFIX + "20240101T000000Z")
    backup.write_text(text % OLDER_TOKEN + "# an older text\n", encoding="utf-8")
    backup.chmod(0o644)  # as an older release left it

    status, said = run(home, root, "uninstall", harness, "--keep-backups")

    assert status == 0, said
    assert backup.exists() and mode(backup) == 0o600
    assert f"{backup} holds the bearer token: made it owner-only (0644 -> 0600)" in said
