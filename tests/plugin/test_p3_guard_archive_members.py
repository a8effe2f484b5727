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

import subprocess

import pytest

from tests.support.guard_cases import SHELL, Layout, answer, refusal

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


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize("command", UNPACKED_BY_THE_ARCHIVES_NAMES)
def test_p3_an_archive_unpacked_by_its_own_names_or_above_the_data_dir_is_refused(
    where: Layout, harness: str, command: str
) -> None:
    """Each was let through; run by bash, each writes into the other scope."""
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")

    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": command}))

    assert reason is not None, command
    assert "own absolute or '..' names" in reason or "unpacks an archive into" in reason
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
    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command
