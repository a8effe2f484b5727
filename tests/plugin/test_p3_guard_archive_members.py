"""P-3: an archive unpacked by its members' own absolute or ``..`` names, or into the home or a
folder above it that holds the data dir, is refused.

What ``tar -x`` and ``unzip`` write is named in the archive, not in the command. Inside a
literal folder of the Workspace that is bounded (``tar`` drops ``..`` members and leading
``/``, ``unzip`` too), but ``tar -xP`` (``--absolute-names``) and ``unzip -:`` write the names
as they are, and unpacking into ``/`` or the home lets a member named
``<root without its />/<other>/a.md`` reach any scope. An agent could build such an archive in
one call from a file read at run time (here in the same command: ``python3`` and
``tar --transform`` naming nothing) and each form below was let through; bash then wrote into
another Workspace's scope.
"""

from __future__ import annotations

import gzip
import io
import os
import stat
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest
from harness_memory.hooks import archive_members, guarding
from harness_memory.hooks.archive_members import ArchiveLinks, member_places

from tests.plugin.test_p3_guard_bypasses import shell_answers_through_a_bind_mount
from tests.support.guard_cases import (
    SHELL,
    Layout,
    answer,
    assert_refused_and_bash_writes,
    refusal,
    refusals_by_every_harness,
)

ZIP_OF = (
    'python3 -c \'import zipfile; z = zipfile.ZipFile("a.zip", "w");'
    ' z.writestr(open("target").read().strip(){cut} + "/a.md", "x")\'; '
)
TAR_OF = 'tar -c{p}f a.tar --transform "s,^,$({read} target)/," note.md; '

UNPACKED_BY_THE_ARCHIVES_NAMES = [
    ZIP_OF.format(cut="[1:]") + "unzip -q -: a.zip -d /",
    ZIP_OF.format(cut="[1:]") + "unzip -q a.zip -d /",
    ZIP_OF.format(cut="[1:]") + 'cd / && unzip -q "$OLDPWD/a.zip"',
    TAR_OF.format(p="P", read="cat") + "tar -xPf a.tar",
    TAR_OF.format(p="P", read="cat") + "tar xPf a.tar",
    TAR_OF.format(p="P", read="cat") + "tar --extract --absolute-names -f a.tar",
    TAR_OF.format(p="", read="cut -c2-") + "tar -xf a.tar -C /",
]


@pytest.mark.parametrize("command", UNPACKED_BY_THE_ARCHIVES_NAMES)
def test_p3_an_archive_unpacked_by_its_own_names_or_above_the_data_dir_is_refused(
    where: Layout, command: str
) -> None:
    """Each was let through; run by bash, each writes into the other scope."""
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None, (harness, command)
        said = "own absolute or '..' names" in reason or "unpacks an archive into" in reason
        assert said, (harness, reason)
    subprocess.run(["bash", "-c", command], cwd=where.workspace, capture_output=True)
    assert sorted(path.name for path in other.iterdir()) != ["MEMORY.md"], command


@pytest.mark.parametrize(
    "command",
    [
        "tar -xzf dist.tgz -C /tmp/unpack",
        "unzip -o release.zip -d vendor/",
        "tar -xf a.tar && tar -tvf a.tar",
        "tar -cPf /tmp/backup.tar src",
        "mkdir -p build && tar -xf a.tar -C build",
        "unzip -l a.zip && unzip -p a.zip README.md",
    ],
)
def test_p3_an_archive_unpacked_into_a_folder_of_the_workspace_passes(
    where: Layout, command: str
) -> None:
    """Archives the guard lists (their members land clear of memory), and unpacks into
    folders of their own: let through. (An archive it cannot list unpacked beside the
    Workspace's symlink into another scope is refused: below.)"""
    _tar(where.workspace / "a.tar", [("src/a.py", None), ("README.md", None)])
    _zip(where.workspace / "a.zip", [("src/a.py", None), ("README.md", None)])
    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


def _home(where: Layout, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``HOME`` set to the folder holding the data dir (``~/data``), as a home holds
    ``~/.local/share/…``; returned."""
    home = where.data.parent
    monkeypatch.setenv("HOME", str(home))
    return home


def _tar(path: Path, members: list[tuple[str, str | None]]) -> None:
    """A tar archive at ``path`` of ``members``: (name, symlink target) or (name, None) for a
    small file."""
    with tarfile.open(path, "w:gz" if path.suffix == ".tgz" else "w") as archive:
        for name, target in members:
            info = tarfile.TarInfo(name)
            if target is not None:
                info.type, info.linkname = tarfile.SYMTYPE, target
                archive.addfile(info)
                continue
            info.size = 2
            archive.addfile(info, io.BytesIO(b"x\n"))


def _zip(path: Path, members: list[tuple[str, str | None]]) -> None:
    """A zip archive at ``path`` of ``members``, symlinks stored as unzip reads them."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, target in members:
            if target is None:
                archive.writestr(name, "x\n")
                continue
            info = zipfile.ZipInfo(name)
            info.create_system = 3
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)


@pytest.mark.parametrize(
    ("command", "kind"),
    [
        ("tar -xf files.tar", "tar"),
        ("tar xf files.tar -C .", "tar"),
        ("unzip -qo files.zip", "zip"),
        ("tar -xf links.tar && tar -xf files.tar", "tar-links"),
        ("tar -xf links.tar; unzip -qo files.zip -d .", "zip-links"),
    ],
)
def test_p3_an_archive_member_through_a_symlink_into_another_scope_is_refused(
    where: Layout, command: str, kind: str
) -> None:
    """A member ``lnk/a.md`` where ``lnk`` leads into another scope: a symlink left on the
    disk by an earlier call, or a symlink member of an archive unpacked before it in the same
    command. Both passed (the guard did not read archives); run by bash, each writes into the
    other scope (GNU tar and unzip follow a symlink already on the disk)."""
    other = where.root / where.other
    workspace = where.workspace
    if kind in ("tar", "zip"):
        (workspace / "lnk").symlink_to(other)
    _tar(workspace / "links.tar", [("lnk", str(other))])
    _tar(workspace / "files.tar", [("lnk/a.md", None)])
    _zip(workspace / "files.zip", [("lnk/a.md", None)])

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None and "where a member of" in reason, (harness, reason)
        assert where.other in reason, harness
    subprocess.run(["bash", "-c", command], cwd=workspace, capture_output=True)
    assert (other / "a.md").exists(), f"nothing landed: no bypass ({command})"


@pytest.mark.parametrize(
    "command",
    [
        "cd ~ && tar -xzf dl/tool.tgz",
        "tar -xzf ~/dl/tool.tgz -C ~",
        "cd ~ && unzip -qo dl/tool.zip",
        "unzip -q ~/dl/tool.zip -d ~/",
        "tar -xf ~/dl/links.tar -C ~",
    ],
)
def test_p3_an_archive_unpacked_into_the_home_passes_when_its_members_stay_clear(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Unpacking a tool into the home (which holds the data dir) was refused whatever the
    archive held; now its members are listed and judged: none reaches memory, so it passes."""
    downloads = _home(where, monkeypatch) / "dl"
    downloads.mkdir()
    members = [("tool/bin/tool", None), ("tool/README", None), ("tool/lib", "bin")]
    _tar(downloads / "tool.tgz", members)
    _zip(downloads / "tool.zip", members)
    _tar(downloads / "links.tar", [("latest", "tool"), ("latest/NEWS", None)])

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


@pytest.mark.parametrize(
    ("members", "command"),
    [
        ([("data/agents/coder/agent_state/memory/{other}/a.md", None)], "cd ~ && tar -xf dl/a.tar"),
        ([("data/agents/coder/agent_state/memory/{other}/a.md", None)], "unzip -q ~/dl/a.zip -d ~"),
        ([("data/tokens/project.token", None)], "tar -xf ~/dl/a.tar -C ~"),
        (
            [("x", "data/agents/coder/agent_state/memory/{other}"), ("x/a.md", None)],
            "cd ~ && tar -xf dl/a.tar",
        ),
    ],
)
def test_p3_an_archive_whose_members_reach_memory_from_the_home_is_refused(
    where: Layout,
    monkeypatch: pytest.MonkeyPatch,
    members: list[tuple[str, str | None]],
    command: str,
) -> None:
    """Members naming another scope or the service's folders below the home: refused."""
    downloads = _home(where, monkeypatch) / "dl"
    downloads.mkdir()
    named = [
        (name.format(other=where.other), t and t.format(other=where.other)) for name, t in members
    ]
    _tar(downloads / "a.tar", named)
    _zip(downloads / "a.zip", named)

    assert refusal(answer(where, "claude-code", "Bash", {"command": command})) is not None


@pytest.mark.parametrize(
    "command",
    [
        "curl -s file:///dev/null | tar -xz -C ~",
        "cd ~ && tar -xf dl/notes.7z",
        "cd ~ && tar -xf dl/missing.tar",
    ],
)
def test_p3_an_archive_the_guard_cannot_list_unpacked_into_the_home_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Standard input, a format ``tarfile`` does not read, a file not there yet: unknown,
    so refused where its members could reach the data dir (and still passing elsewhere)."""
    home = _home(where, monkeypatch)
    (home / "dl").mkdir()
    (home / "build").mkdir()
    (home / "dl" / "notes.7z").write_bytes(b"7z\xbc\xaf\x27\x1c" + bytes(64))

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "cannot list" in reason
    elsewhere = command.replace("-C ~", "-C ~/build").replace("cd ~ &&", "cd ~/build &&")
    elsewhere = elsewhere.replace("dl/", "../dl/") if "cd ~/build" in elsewhere else elsewhere
    assert answer(where, "claude-code", "Bash", {"command": elsewhere}) is None, elsewhere


@pytest.mark.parametrize(
    ("links", "command"),
    [
        ([("x/lnk3", "{other}")], "tar -xf links.tar --strip-components=1 && tar -xf files.tar"),
        ([("x/lnk3", "{other}")], "tar --strip-components 1 -xf links.tar; tar -xf files.tar"),
        ([("lnk2", "{other}")], "tar -xf links.tar --transform s/lnk2/lnk3/ && tar -xf files.tar"),
        ([("lnk2", "{other}")], "tar --xform=s/lnk2/lnk3/ -xf links.tar && tar -xf files.tar"),
        (
            [("x/lnk3", "{other}")],
            "TAR_OPTIONS=--strip-components=1 tar -xf links.tar && tar -xf files.tar",
        ),
        ([("lnk3", "{other}")], "tar -x < links.tar && tar -xf files.tar"),
        ([("lnk3", "{other}")], "cat links.tar | tar -x; tar -xf files.tar"),
    ],
)
def test_p3_an_archive_renamed_or_unlisted_before_another_unpacked_through_it_is_refused(
    where: Layout, links: list[tuple[str, str]], command: str
) -> None:
    """The first archive's symlink member lands as ``lnk3`` only because of tar's options
    (``--strip-components`` drops ``x/``, ``--transform`` renames ``lnk2``), or is read from
    standard input, which the guard cannot list; the second's member ``lnk3/a.md`` then
    passes through it. Each passed (the options were ignored, the unlisted symlinks
    forgotten); run by bash with the real tar, each writes into the other scope."""
    other = where.root / where.other
    _tar(where.workspace / "links.tar", [(name, t.format(other=other)) for name, t in links])
    _tar(where.workspace / "files.tar", [("lnk3/a.md", None)])

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None, (harness, command)
        assert where.other in reason or "cannot list" in reason, (harness, reason)
    subprocess.run(["bash", "-c", command], cwd=where.workspace, capture_output=True)
    assert (other / "a.md").exists(), f"nothing landed: no bypass ({command})"


@pytest.mark.parametrize(
    "command",
    [
        "tar -xf links.tar --strip-components=1 -C build && tar -xf files.tar -C build",
        "cat links.tar | tar -x -C build; tar -xf files.tar -C dist",
        "tar -x -C build < links.tar && tar -xf files.tar -C dist",
    ],
)
def test_p3_archives_stripped_or_unlisted_beside_each_other_pass(
    where: Layout, command: str
) -> None:
    """A member stripped to a harmless name, and an unlisted archive unpacked into a folder
    the next one does not reach: let through."""
    (where.workspace / "build").mkdir()
    (where.workspace / "dist").mkdir()
    _tar(where.workspace / "links.tar", [("x/lnk3", "../dist"), ("x/lnk3/README", None)])
    _tar(where.workspace / "files.tar", [("lnk3/a.md", None)])

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


def _zeros_after_a_link(path: Path, other: Path, size: int) -> None:
    """A ``.tgz`` at ``path``: a symlink ``lnk`` to ``other``, ``size`` zero bytes as one
    member (compressed to almost nothing), then ``lnk/a.md``."""
    with tarfile.open(path, "w:gz") as archive:
        link = tarfile.TarInfo("lnk")
        link.type, link.linkname = tarfile.SYMTYPE, str(other)
        archive.addfile(link)
        zeros = tarfile.TarInfo("zeros")
        zeros.size = size
        archive.addfile(zeros, io.BytesIO(bytes(size)))
        note = tarfile.TarInfo("lnk/a.md")
        note.size = 2
        archive.addfile(note, io.BytesIO(b"x\n"))


def test_p3_an_archive_is_unpacked_at_most_to_its_cap_while_it_is_listed(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small ``.tar.gz`` of zeros unpacks to any size: listing it read every byte (1 GiB
    took seconds). The bytes the decompressor gives are counted and stop at the cap; past
    it the archive is unknown (refused where an unknown one is). Under the cap it is listed
    and its member through ``lnk`` judged."""
    other = where.root / where.other
    archive = where.workspace / "big.tgz"
    _zeros_after_a_link(archive, other, 4 * 1024 * 1024)
    given: list[int] = []
    read = gzip.GzipFile.read

    def counted(self: gzip.GzipFile, size: int = -1) -> bytes:
        data = read(self, size)
        given.append(len(data))
        return data

    monkeypatch.setattr(gzip.GzipFile, "read", counted)
    listed = member_places("tar", str(archive), str(where.workspace), ArchiveLinks(), ["-xzf"])
    assert listed is not None and f"{other}/a.md" in listed
    monkeypatch.setattr(archive_members, "UNPACKED_BYTES_CAP", 1024 * 1024)
    given.clear()

    assert member_places("tar", str(archive), str(where.workspace), ArchiveLinks()) is None
    assert sum(given) <= 1024 * 1024 + 1
    home = _home(where, monkeypatch)
    archive.rename(home / "big.tgz")
    reason = refusal(answer(where, "claude-code", "Bash", {"command": "tar -xzf ~/big.tgz -C ~"}))
    assert reason is not None and "cannot list" in reason


def test_p3_tar_options_from_the_environment_rename_the_members(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``TAR_OPTIONS`` of the harness's environment comes before tar's own words: its
    ``--transform`` makes ``lnk2`` land as ``lnk3``, so the first archive is unknown and the
    second, unpacked through its folder, is refused."""
    other = where.root / where.other
    _tar(where.workspace / "links.tar", [("lnk2", str(other))])
    _tar(where.workspace / "files.tar", [("lnk3/a.md", None)])
    monkeypatch.setenv("TAR_OPTIONS", "--transform=s/lnk2/lnk3/")
    command = "tar -xf links.tar && tar -xf files.tar"

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "cannot list" in reason, reason
    monkeypatch.delenv("TAR_OPTIONS")
    assert answer(where, "claude-code", "Bash", {"command": command}) is None


UNLISTED = [
    "tar x < files.tar",
    "tar -x < files.tar",
    "cat files.tar | tar x",
    "cat files.tar | tar -xf - -C sub",
    "curl -s file://{workspace}/files.tar | tar -x -C sub",
    "tar -xf big.tar",
    "tar -xf big.tar -C sub",
    "unzip -qo big.zip",
    "tar -xf files.tar --transform s,^,x/, -C sub",
]
"""Archives the guard cannot list (standard input, over its size cap, members renamed),
unpacked into the Workspace (beside its symlink ``notes`` into another scope) or into
``sub``, whose symlink ``x`` leads back to the Workspace."""


def _unlisted_archives(where: Layout, command: str) -> None:
    """``files.tar`` (members ``notes/a.md`` and ``x/notes/a.md``), and ``big.tar`` and
    ``big.zip`` holding the same after more than the listing cap of zeros (stored); ``sub``
    with a symlink ``x`` to the Workspace."""
    members: list[tuple[str, str | None]] = [("notes/a.md", None), ("x/notes/a.md", None)]
    _tar(where.workspace / "files.tar", members)
    (where.workspace / "sub").mkdir()
    (where.workspace / "sub" / "x").symlink_to("..")
    if "big" not in command:
        return
    zeros = bytes(archive_members.ARCHIVE_BYTES_CAP + 1)
    with tarfile.open(where.workspace / "big.tar", "w") as archive:
        padding = tarfile.TarInfo("padding")
        padding.size = len(zeros)
        archive.addfile(padding, io.BytesIO(zeros))
        for name, _ in members:
            info = tarfile.TarInfo(name)
            info.size = 2
            archive.addfile(info, io.BytesIO(b"x\n"))
    with zipfile.ZipFile(where.workspace / "big.zip", "w", zipfile.ZIP_STORED) as packed:
        packed.writestr("padding", zeros)
        for name, _ in members:
            packed.writestr(name, "x\n")


@pytest.mark.parametrize("command", UNLISTED)
def test_p3_an_archive_the_guard_cannot_list_unpacked_where_a_symlink_reaches_memory_is_refused(
    where: Layout, command: str
) -> None:
    """Each passed: an archive the guard could not list was refused only where it was
    unpacked into the home. Its members may take any name, and GNU tar and unzip follow a
    symlink already on the disk: one below the folder (``notes``), or below a folder such a
    symlink leads to (``sub/x`` → the Workspace → ``notes``). Run by bash, each writes
    into the other scope."""
    _unlisted_archives(where, command)
    shell = command.format(workspace=where.workspace)
    other = where.root / where.other

    reasons = refusals_by_every_harness(where, shell)

    for harness, reason in reasons.items():
        assert reason is not None and "cannot list" in reason, (harness, reason)
        assert "notes" in reason or "/x" in reason, (harness, reason)
    subprocess.run(["bash", "-c", shell], cwd=where.workspace, capture_output=True)
    assert (other / "a.md").exists(), f"nothing landed: no bypass ({shell})"


@pytest.mark.parametrize(
    "command",
    [
        "tar x -C build < files.tar",
        "cat files.tar | tar -xz -C build",
        "curl -s file://{workspace}/files.tar | tar -x -C fresh",
        "mkdir -p fresh && tar -xf big.tar -C fresh",
        "unzip -qo big.zip -d build",
        "tar -xf files.tar --transform s,^,v/, -C build",
        "tar -x < files.tar -C build && tar -tf big.tar",
        "tar -xOf big.tar | wc -c",
        "cat files.tar | tar -x --to-stdout > /dev/null",
        "7z e -so a.7z | wc -c",
        "TAR_OPTIONS=--no-same-owner tar -xf files.tar -C build",
    ],
)
def test_p3_an_archive_the_guard_cannot_list_unpacked_where_nothing_reaches_memory_passes(
    where: Layout, command: str
) -> None:
    """Into a folder of its own (not there yet, or holding only a symlink to a folder beside
    it that holds none into memory), every name a member may take stays clear; printed
    (``tar -O``, ``7z e -so``), no member is written: let through."""
    _unlisted_archives(where, "big")
    (where.workspace / "build").mkdir()
    (where.workspace / "dist").mkdir()
    (where.workspace / "build" / "lib").symlink_to("../dist")
    shell = command.format(workspace=where.workspace)

    assert answer(where, "claude-code", "Bash", {"command": shell}) is None, shell


def test_p3_a_folder_too_large_to_search_for_symlinks_is_refused_for_an_unlisted_archive(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a folder holds a symlink into memory is read up to a cap of entries; past it
    the unlisted archive is refused, saying so and saying to unpack into a fresh folder,
    which passes at once (counted, never timed)."""
    build = where.workspace / "build"
    build.mkdir()
    for index in range(5):
        (build / f"f{index}").write_text("x\n", encoding="utf-8")
    monkeypatch.setattr(archive_members, "EXITS_SCAN_CAP", 3)
    monkeypatch.setattr(guarding, "EXITS_SCAN_CAP", 3)

    reason = refusal(answer(where, "claude-code", "Bash", {"command": "tar x -C build < a.tar"}))

    assert reason is not None and "more than 3 entries" in reason, reason
    assert "mkdir x && tar -C x" in reason, reason
    fresh = "mkdir fresh && curl -s file:///a.tgz | tar xz -C fresh"
    assert answer(where, "claude-code", "Bash", {"command": fresh}) is None
    monkeypatch.setattr(archive_members, "EXITS_SCAN_CAP", 6)
    assert answer(where, "claude-code", "Bash", {"command": "tar x -C build < a.tar"}) is None


def test_p3_a_large_folder_is_read_only_up_to_the_cap_nearest_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder of many entries (a repository's ``node_modules``) is read only up to
    :data:`~harness_memory.hooks.archive_members.EXITS_SCAN_CAP` entries, each once, and a
    symlink near the top is found before the deep folders are read (counted, never timed).
    The cap is set to 64 for the test: the same reading past it, with 96 files made instead of
    the 6,144 of the real cap (4,096; 8 s of file creation on a busy disk)."""
    monkeypatch.setattr(archive_members, "EXITS_SCAN_CAP", 64)
    for folder in range(3):
        deep = tmp_path / f"d{folder}" / "sub"
        deep.mkdir(parents=True)
        for index in range(archive_members.EXITS_SCAN_CAP // 2):
            (deep / f"f{index}").touch()
    (tmp_path / "lnk").symlink_to("/")
    asked: list[str] = []

    def reaches(place: str) -> bool:
        asked.append(place)
        return place.endswith("/lnk/")

    assert archive_members.exit_reaching(str(tmp_path), reaches, []) == (True, f"{tmp_path}/lnk")
    assert archive_members.exit_reaching(str(tmp_path), lambda place: False, []) == (True, None)


_BIND_AND_UNPACK = """
mount --bind "$1" "$2/mnt" && cd "$2" && bash -c "$3"
"""


def test_p3_an_unlisted_archive_unpacked_above_a_bind_mount_of_another_scope_is_refused(
    where: Layout,
) -> None:
    """Another scope bind-mounted inside the Workspace (``mnt``, on the same filesystem: no
    ``st_dev`` tells it) passed for an archive the guard cannot list; the mount table names
    it, and the guard refuses. Run by bash with the mount made for real (in a user and mount
    namespace of the test's own), the member ``mnt/a.md`` lands in the other scope."""
    other = where.root / where.other
    mount_point = where.workspace / "mnt"
    mount_point.mkdir()
    (where.workspace / "notes").unlink()
    _tar(where.workspace / "files.tar", [("mnt/a.md", None)])
    commands = ["cat files.tar | tar x", "tar x < files.tar", "tar -x -C mnt < files.tar"]

    answers = shell_answers_through_a_bind_mount(where, other, mount_point, commands)

    assert all(answers.values()), answers
    namespace = ["unshare", "--user", "--map-root-user", "--mount", "bash", "-c"]
    for command in commands[:1]:
        shell = [*namespace, _BIND_AND_UNPACK, "-", str(other), str(where.workspace), command]
        done = subprocess.run(shell, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
    assert (other / "a.md").exists(), "nothing landed: no bypass"


@pytest.mark.parametrize(
    "command",
    [
        "unzip -qj links.zip && tar -xf files.tar",
        "unzip -q -j -o links.zip -d . ; tar -xf files.tar",
        "unzip -qoj links.zip && unzip -qo files.zip",
    ],
)
def test_p3_members_unzip_j_lays_flat_are_judged_where_they_land(
    where: Layout, command: str
) -> None:
    """``unzip -j`` drops every member's folders: the symlink member ``deep/lnk`` lands as
    ``lnk``. The guard placed it at ``deep/lnk``, so the next archive's ``lnk/a.md`` passed
    through it unseen; run by bash, it writes into the other scope."""
    other = where.root / where.other
    _zip(where.workspace / "links.zip", [("deep/lnk", str(other))])
    _tar(where.workspace / "files.tar", [("lnk/a.md", None)])
    _zip(where.workspace / "files.zip", [("lnk/a.md", None)])

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None and "where a member of" in reason, (harness, reason)
    subprocess.run(["bash", "-c", command], cwd=where.workspace, capture_output=True)
    assert (other / "a.md").exists(), f"nothing landed: no bypass ({command})"


@pytest.mark.parametrize(
    "command",
    [
        "unzip -qjo docs.zip",
        "unzip -j -o docs.zip -d .",
        "unzip -q -o -j docs.zip",
    ],
)
def test_p3_members_unzip_j_lays_flat_beside_a_symlink_pass(where: Layout, command: str) -> None:
    """``notes/readme.md`` unpacked with ``-j`` lands as ``readme.md``, beside the
    Workspace's symlink ``notes`` into another scope, not through it: it was refused as if
    it landed below ``notes``."""
    _zip(where.workspace / "docs.zip", [("notes/readme.md", None)])

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command
    subprocess.run(["bash", "-c", command], cwd=where.workspace, check=True)
    assert (where.workspace / "readme.md").exists()


def test_p3_unzip_options_from_the_environment_lay_members_flat(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``UNZIP`` of the harness's environment comes before unzip's own words: its ``-j``
    lays ``deep/lnk`` flat as ``lnk``, so the next archive through ``lnk`` is refused."""
    other = where.root / where.other
    _zip(where.workspace / "links.zip", [("deep/lnk", str(other))])
    _tar(where.workspace / "files.tar", [("lnk/a.md", None)])
    command = "unzip -qo links.zip && tar -xf files.tar"
    monkeypatch.setenv("UNZIP", "-j")

    assert refusal(answer(where, "claude-code", "Bash", {"command": command})) is not None
    monkeypatch.delenv("UNZIP")
    assert answer(where, "claude-code", "Bash", {"command": command}) is None


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize(
    "command",
    [
        "7z e a.7z",
        "7z x a.7z -y",
        "7za e -so a.7z | tar x",
        "7zz x -si -o. < a.7z",
        "7z e a.7z -osub",
        "bsdtar -xf files.tar -s ,^,x/, -C sub",
        "bsdtar -x < files.tar",
        "cpio -idm --no-absolute-filenames < a.cpio",
        "cpio --extract --no-absolute-filenames -D sub -F a.cpio",
        "unrar x -o+ a.rar",
        "unrar x a.rar -opsub",
        "unrar e a.rar sub/",
        "jar xf a.jar",
        "jar -xf a.jar -C build",
    ],
)
def test_p3_archives_other_unpackers_lay_out_are_judged_as_unlisted(
    where: Layout, harness: str, command: str
) -> None:
    """7-Zip's ``x`` and ``e`` (every member flat), ``bsdtar`` (its ``-s`` renames
    members), ``cpio -i`` (here keeping its members below its folder), ``unrar`` (``-opDIR`` its
    folder) and ``jar x`` were programs the guard did not read:
    unpacking beside the Workspace's symlink into another scope, or into ``sub`` whose
    symlink ``x`` leads back to it, passed. Their members are not listed: refused where a
    symlink reaches memory (``jar -C``: its own folder too, as JDKs differ)."""
    _unlisted_archives(where, command)
    (where.workspace / "build").mkdir()
    (where.workspace / "a.7z").write_bytes(b"7z\xbc\xaf\x27\x1c" + bytes(64))

    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": command}))

    assert reason is not None and "cannot list" in reason, reason


@pytest.mark.parametrize(
    "command",
    [
        "7z e a.7z -obuild",
        "7z x a.7z -ofresh -y",
        "7z l a.7z",
        "bsdtar -xf files.tar -C build",
        "cpio -idm --no-absolute-filenames -D build < a.cpio",
        "cpio -it < a.cpio",
        "cpio -o > a.cpio < list.txt",
        "unrar x a.rar build/",
        "unrar x -opbuild a.rar",
        "unrar l a.rar",
        "jar tf a.jar",
        "cd build && jar xf ../a.jar",
    ],
)
def test_p3_archives_other_unpackers_lay_out_in_a_folder_of_their_own_pass(
    where: Layout, command: str
) -> None:
    (where.workspace / "build").mkdir()
    _tar(where.workspace / "files.tar", [("notes/a.md", None)])
    (where.workspace / "a.7z").write_bytes(b"7z\xbc\xaf\x27\x1c" + bytes(64))

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


@pytest.mark.parametrize(("passable", "reached"), [(True, True), (False, False)])
def test_p3_a_folder_this_account_may_not_read_is_judged_by_whether_it_may_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, passable: bool, reached: bool
) -> None:
    """A folder below the one an archive is unpacked into that this account may not list:
    passable (``x`` without ``r``), a member could go through a symlink in it the guard cannot
    see, so it counts as reaching memory; not passable (another account's private folder in
    ``/tmp``), no member can land below it, so it is skipped. (The tests run as root, who
    may read every folder: the kernel's answer is stood in for.)"""
    (tmp_path / "private").mkdir()
    (tmp_path / "open").mkdir()
    scandir, access = os.scandir, os.access

    def listing(path: str) -> object:
        if str(path).endswith("/private"):
            raise PermissionError(13, "Permission denied", path)
        return scandir(path)

    monkeypatch.setattr(os, "scandir", listing)
    monkeypatch.setattr(
        os,
        "access",
        lambda path, mode: passable if str(path).endswith("/private") else access(path, mode),
    )

    assert archive_members.exit_reaching(str(tmp_path), lambda place: False, []) == (
        reached,
        None,
    )


def _cpio(path: Path, name: str) -> None:
    """A cpio archive (``newc``, as GNU cpio writes it) at ``path`` of one small file named
    ``name`` as it is (absolute, or with ``..``)."""

    def padded(data: bytes) -> bytes:
        return data + b"\0" * (-len(data) % 4)

    def entry(entry_name: str, mode: int, body: bytes) -> bytes:
        named = entry_name.encode() + b"\0"
        fields = [0, mode, 0, 0, 1, 0, len(body), 0, 0, 0, 0, len(named), 0]
        header = b"070701" + b"".join(b"%08X" % field for field in fields)
        return padded(header + named) + padded(body)

    path.write_bytes(entry(name, 0o100644, b"x\n") + entry("TRAILER!!!", 0, b""))


def _jar_by_parents(where: Layout) -> None:
    """``evil.jar``, a zip whose one member climbs from the Workspace by ``..`` names into
    the other scope's ``a.md``."""
    other = where.root / where.other / "a.md"
    with zipfile.ZipFile(where.workspace / "evil.jar", "w") as archive:
        archive.writestr(os.path.relpath(other, where.workspace), "x\n")


BY_THEIR_OWN_NAMES = [
    "cpio -idm < evil.cpio",
    "cpio -i -d -F evil.cpio",
    "cat evil.cpio | cpio -idmv",
    "cpio -idm --no-absolute-filenames --absolute-filenames < evil.cpio",
    "jar -xPf evil.jar",
    "jar xPf evil.jar",
]


@pytest.mark.parametrize("command", BY_THEIR_OWN_NAMES)
def test_p3_cpio_and_jar_unpacking_by_the_members_own_names_are_refused(
    where: Layout, command: str
) -> None:
    """GNU cpio's copy-in and ``jar -P`` write each member by its own absolute or ``..``
    name, wherever they are run: only the folder was judged, and each passed. Run by bash,
    each writes into the other scope."""
    (where.workspace / "notes").unlink()  # the folder alone reaches nothing
    other = where.root / where.other
    _cpio(where.workspace / "evil.cpio", str(other / "a.md"))
    _jar_by_parents(where)

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None and "own absolute or '..' names" in reason, (harness, reason)
    subprocess.run(["bash", "-c", command], cwd=where.workspace, capture_output=True)
    assert (other / "a.md").exists(), f"nothing landed: no bypass ({command})"


@pytest.mark.parametrize("command", ["7z x a.7z -spf", "7za x -SPF2 a.7z", "unrar x -ep3 a.rar"])
def test_p3_7z_and_unrar_full_paths_are_refused(where: Layout, command: str) -> None:
    """7-Zip's ``-spf`` (fully qualified paths) and unrar's ``-ep3`` (restored where they
    were, its manual says: any place on the disk) write by the members' own names. (Neither
    program is installed here: the refusal is judged from their manuals.)"""
    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "own absolute or '..' names" in reason, reason


@pytest.mark.parametrize(
    "command",
    [
        "mkdir fresh && cpio -idm --no-absolute-filenames -D fresh < evil.cpio",
        "mkdir fresh && cpio -i --no-abs -F evil.cpio -D fresh",
        "cpio -t < evil.cpio",
        "mkdir fresh && cd fresh && jar xf ../evil.jar",
    ],
)
def test_p3_cpio_and_jar_keeping_members_below_their_folder_pass(
    where: Layout, command: str
) -> None:
    """``cpio --no-absolute-filenames`` and ``jar`` without ``-P`` keep every member below
    the fresh folder they unpack into; ``cpio -t`` only lists: let through."""
    _cpio(where.workspace / "evil.cpio", str(where.root / where.other / "a.md"))
    _jar_by_parents(where)

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


WRITTEN_THROUGH_A_MEMBER_LINK = [
    "tar -xf evil.tar && echo hi > lnk/pwn.md",
    "tar xf evil.tar; cp note.md lnk/",
    "unzip -qo evil.zip && echo hi > lnk/pwn.md",
    "tar -xf evil.tar && echo hi > file.md",
    "tar x < evil.tar && echo hi > lnk/pwn.md",
    "cat evil.tar | tar -x; echo hi > lnk/pwn.md",
    "curl -s file://{workspace}/evil.tar | tar -x && echo hi > lnk/pwn.md",
]
"""A path written after an archive whose symlink member ``lnk`` leads into another scope
(and ``file.md`` to its ``MEMORY.md``) is unpacked: listed, or from standard input."""


@pytest.mark.parametrize("command", WRITTEN_THROUGH_A_MEMBER_LINK)
def test_p3_a_write_through_a_symlink_an_archive_makes_is_refused(
    where: Layout, command: str
) -> None:
    """Each passed: the member ``lnk`` itself lands in the Workspace, and ``lnk/pwn.md``
    was judged as a plain Workspace path before the archive made the link. Run by bash,
    each writes into the other scope."""
    (where.workspace / "notes").unlink()
    other = where.root / where.other
    members: list[tuple[str, str | None]] = [
        ("lnk", str(other)),
        ("file.md", str(other / "MEMORY.md")),
    ]
    _tar(where.workspace / "evil.tar", members)
    _zip(where.workspace / "evil.zip", members)
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    shell = command.format(workspace=where.workspace)

    reasons = refusals_by_every_harness(where, shell)

    for harness, reason in reasons.items():
        assert reason is not None, (harness, shell)
    before = {path.name: path.read_text(encoding="utf-8") for path in other.iterdir()}
    subprocess.run(["bash", "-c", shell], cwd=where.workspace, capture_output=True)
    after = {path.name: path.read_text(encoding="utf-8") for path in other.iterdir()}
    assert after != before, f"nothing landed: no bypass ({shell})"


@pytest.mark.parametrize(
    "command",
    [
        "tar -xf a.tar && echo hi > src/new.py",
        "mkdir fresh && tar -x -C fresh < a.tar && echo done > log.txt",
        "tar -xf a.tar && cat lnk/a.md",
    ],
)
def test_p3_writes_clear_of_what_an_archive_makes_pass(where: Layout, command: str) -> None:
    """A write beside a listed archive's members, none a symlink it passes through, or
    outside the fresh folder an unlisted one fills, or a read: let through."""
    (where.workspace / "notes").unlink()
    _tar(where.workspace / "a.tar", [("src/a.py", None), ("lnk", "src")])

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


@pytest.mark.parametrize(
    "command",
    [
        "cpio -idDnotes --no-absolute-filenames < a.cpio",  # the t of -D's value, no -t
        "tar -xf a.tar -COut",  # the O of -C's value, no -O
        "unzip -o a.zip -dplot",  # the l, p, t of -d's value, no -l/-p/-t
    ],
)
def test_p3_a_letter_inside_an_option_value_is_no_option(where: Layout, command: str) -> None:
    """Whether an unpacker only lists or prints its members was read from every letter of a
    short option's bundle, its glued value's too: ``cpio -idDnotes`` was taken for ``cpio
    -t`` (it lists) and let through while it unpacked into the Workspace's link to another
    scope. Its options are now read as its own parser reads them; refused, and run by bash
    it writes there."""
    other = where.root / where.other
    for link in ("Out", "plot"):
        (where.workspace / link).symlink_to(other)
    (where.workspace / "a.md").write_text("x\n", encoding="utf-8")
    _cpio(where.workspace / "a.cpio", "a.md")
    _tar(where.workspace / "a.tar", [("a.md", None)])
    with zipfile.ZipFile(where.workspace / "a.zip", "w") as archive:
        archive.writestr("a.md", "x\n")
    (where.workspace / "a.md").unlink()

    assert_refused_and_bash_writes(where, "claude-code", command)


@pytest.mark.parametrize(
    ("command", "mode"),
    [("cpio -idm < evil.cpio", "cpio -i "), ("cpio -pd dd < list", "cpio -p ")],
)
def test_p3_a_cpio_refusal_names_the_mode_it_runs_in(
    where: Layout, command: str, mode: str
) -> None:
    """The refusal names the mode cpio runs in (copy-in ``-i``, pass-through ``-p``), not
    copy-in for both."""
    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and f"({mode}without --no-absolute-filenames)" in reason, reason
