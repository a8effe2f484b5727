"""R-2, K-7: a name another machine sent that is too long for this machine's disk.

Names may take 255 bytes of UTF-8 (K-7), the limit of ext4, xfs, btrfs and APFS; eCryptfs with
encrypted names (an encrypted home on Ubuntu) takes 143. A laptop writes a note whose name takes
200 bytes; the desktop's copy lives on a disk of 143-byte names (a real FUSE file system,
:mod:`tests.support.short_names_disk`, failing at the system call with ``ENAMETOOLONG``). The
desktop's sync keeps the note under a name its disk takes, cut by the rule a kept copy's name
is cut by at 255 bytes (:func:`memory_core.scope_merge.kept_name`: the head cut at a character
and marked ``~`` with six hex digits of the whole name's hash), points its index line there,
says so, and sends the new name back, so every copy ends alike and nothing is lost; the sync
never fails on it, then or later.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from harness_memory.remote import RemoteCopy
from memory_core import layout

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import machine, served_root, synced
from tests.support.scope_texts import texts
from tests.support.short_names_disk import ECRYPTFS_NAME_MAX, short_names_disk

__all__ = ["served_root"]  # the fixture, used by name

LONG = "deploy-notes-" + "é" * 90 + ".md"  # 196 bytes of UTF-8
TEXT = "---\ndescription: how we ship\n---\nship on Fridays\n"


def test_r2_a_name_too_long_for_this_disk_is_kept_under_a_cut_name_and_said(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    synced(laptop)
    user = laptop.memory_root / "user"
    (user / LONG).write_text(TEXT, encoding="utf-8")
    (user / layout.INDEX_FILE).write_text(f"- [Deploys]({LONG}) how we ship\n", "utf-8")
    synced(laptop)
    assert len(LONG.encode()) > ECRYPTFS_NAME_MAX

    with short_names_disk(tmp_path) as disk:
        desktop = RemoteCopy(
            url=shared_service.url,
            token=shared_service.token,
            project="acme",
            agent=new_agent,
            state_dir=disk / "state",
            timeout=30.0,
        )
        [result] = synced(desktop)
        here = texts(desktop.memory_root / "user")
        [cut] = set(here) - {layout.INDEX_FILE}
        assert len(cut.encode()) <= ECRYPTFS_NAME_MAX and cut.endswith(".md")
        assert cut.startswith("deploy-notes-é") and "~" in cut
        assert here[cut] == TEXT
        assert here[layout.INDEX_FILE] == f"- [Deploys]({cut}) how we ship\n"
        assert any(LONG in line and cut in line for line in result.outcomes), result.outcomes
        assert texts(served_root / "user") == here  # sent back: every copy alike
        [again] = synced(desktop)
        assert again.ok and not again.waiting and again.outcomes == []
    synced(laptop)
    assert texts(laptop.memory_root / "user") == texts(served_root / "user")


def test_r2_an_edit_of_the_long_name_made_meanwhile_lands_in_the_cut_name(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    """The desktop's copy was synced before the long name came (its files are moved, not
    made anew), and the laptop edits the note while the desktop renames it: the edit follows
    the rename (R-2), nothing is kept twice."""
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    with short_names_disk(tmp_path) as disk:
        desktop = RemoteCopy(
            url=shared_service.url,
            token=shared_service.token,
            project="acme",
            agent=new_agent,
            state_dir=disk / "state",
            timeout=30.0,
        )
        synced(desktop)
        synced(laptop)
        user = laptop.memory_root / "user"
        (user / LONG).write_text(TEXT, encoding="utf-8")
        (user / layout.INDEX_FILE).write_text(f"- [Deploys]({LONG}) how we ship\n", "utf-8")
        synced(laptop)
        (user / LONG).write_text(TEXT + "never on holidays\n", encoding="utf-8")  # not sent yet
        [result] = synced(desktop)
        assert result.sent and result.outcomes
        synced(laptop)
        [again] = synced(desktop)
        assert again.outcomes == [] and again.received_files == 1
        held = texts(served_root / "user")
        [cut] = set(held) - {layout.INDEX_FILE}
        assert held[cut] == TEXT + "never on holidays\n"
        assert held == texts(desktop.memory_root / "user") == texts(laptop.memory_root / "user")


def test_r2_a_name_too_long_for_the_service_s_disk_is_kept_under_a_cut_name_and_said(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    """The service's memory root is on a disk of 143-byte names: a machine's push of the
    long name is taken under the cut name, its index line pointed there, said, recorded as the
    push's version; the machine's copy moves to the cut name. Writing it failed the whole push
    (503) before, and every later one: none of that machine's changes was ever taken."""
    served_root.mkdir(parents=True, exist_ok=True)
    with short_names_disk(tmp_path, at=served_root):
        laptop = machine(shared_service, new_agent, tmp_path, "laptop")
        desktop = machine(shared_service, new_agent, tmp_path, "desktop")
        synced(laptop)
        user = laptop.memory_root / "user"
        (user / LONG).write_text(TEXT, encoding="utf-8")
        (user / layout.INDEX_FILE).write_text(f"- [Deploys]({LONG}) how we ship\n", "utf-8")
        (user / "other.md").write_text("sent beside it\n", encoding="utf-8")
        [result] = synced(laptop)
        held = texts(served_root / "user")
        [cut] = set(held) - {layout.INDEX_FILE, "other.md"}
        assert len(cut.encode()) <= ECRYPTFS_NAME_MAX and "~" in cut
        assert held[cut] == TEXT and held["other.md"] == "sent beside it\n"
        assert held[layout.INDEX_FILE] == f"- [Deploys]({cut}) how we ship\n"
        assert any(LONG in line and "the service's disk" in line for line in result.outcomes)
        assert texts(laptop.memory_root / "user") == held
        synced(desktop)
        assert texts(desktop.memory_root / "user") == held
        status, _, body = shared_service.request(
            "GET", f"/api/projects/acme/agents/{new_agent}/memory/scopes/user/changes"
        )
        assert status == 200 and body["versions"][0]["author"]["source"] == "sync"


def _sent_once(laptop: RemoteCopy, served_root: Path) -> str:
    """The laptop, synced before, writes the long name and sends it without fetching (the
    post-write hook's ``send_only``): the service's disk keeps it under its cut, the laptop's
    copy still under the long name. The cut name."""
    user = laptop.memory_root / "user"
    user.mkdir(parents=True)
    (user / "other.md").write_text("synced before\n", encoding="utf-8")
    synced(laptop)
    (user / LONG).write_text(TEXT, encoding="utf-8")
    (user / layout.INDEX_FILE).write_text(f"- [Deploys]({LONG}) how we ship\n", "utf-8")
    [first] = laptop.sync(None, send_only=True)
    assert first.ok and first.sent
    assert LONG in texts(user)  # sent, not fetched
    [cut] = set(texts(served_root / "user")) - {layout.INDEX_FILE, "other.md"}
    return cut


def test_r2_a_second_send_of_a_long_name_edits_the_file_kept_under_the_cut_name(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    """The service's disk takes 143-byte names and the laptop sends twice without fetching
    between: its second send, an edit of the long name measured against its first (which the
    service took under the cut name), is an edit of that cut file. It made ``…~hash-2.md``
    (the edit, linked by no line) beside the old text, and an outcome line falsely saying
    its index lines pointed there."""
    served_root.mkdir(parents=True, exist_ok=True)
    with short_names_disk(tmp_path, at=served_root):
        laptop = machine(shared_service, new_agent, tmp_path, "laptop")
        cut = _sent_once(laptop, served_root)
        user = laptop.memory_root / "user"
        (user / LONG).write_text(TEXT + "never on holidays\n", encoding="utf-8")
        [second] = laptop.sync(None, send_only=True)
        assert second.ok and second.sent
        assert second.outcomes == [], second.outcomes
        held = texts(served_root / "user")
        assert held == {
            "other.md": "synced before\n",
            cut: TEXT + "never on holidays\n",
            layout.INDEX_FILE: f"- [Deploys]({cut}) how we ship\n",
        }
        synced(laptop)
        assert texts(laptop.memory_root / "user") == held == texts(served_root / "user")


def test_r2_a_cut_file_deleted_on_the_service_stays_deleted_when_the_laptop_sends_again(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    """The laptop's second send leaves the long name as it sent it: a delete of the cut file
    on the service stands (it came back under the cut name, as a new note)."""
    served_root.mkdir(parents=True, exist_ok=True)
    with short_names_disk(tmp_path, at=served_root):
        laptop = machine(shared_service, new_agent, tmp_path, "laptop")
        cut = _sent_once(laptop, served_root)
        status, _, body = shared_service.request(
            "DELETE",
            f"/api/projects/acme/agents/{new_agent}/memory/scopes/user/files/{quote(cut)}",
        )
        assert status == 200, body
        user = laptop.memory_root / "user"
        (user / "other.md").write_text("synced before, edited\n", encoding="utf-8")
        [second] = laptop.sync(None, send_only=True)
        assert second.ok and second.sent
        held = texts(served_root / "user")
        assert set(held) == {"other.md", layout.INDEX_FILE}
        assert held["other.md"] == "synced before, edited\n"
        synced(laptop)
        assert texts(laptop.memory_root / "user") == held == texts(served_root / "user")


def test_r2_a_machine_whose_disk_cuts_names_takes_a_second_edit_into_the_cut_file(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    """The desktop's disk takes 143-byte names; the laptop (synced before) sends the long
    name, then an edit of it, each without fetching: the desktop keeps the note under the cut
    name and takes the edit into it, one file, every copy alike in the end."""
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    with short_names_disk(tmp_path) as disk:
        desktop = RemoteCopy(
            url=shared_service.url,
            token=shared_service.token,
            project="acme",
            agent=new_agent,
            state_dir=disk / "state",
            timeout=30.0,
        )
        user = laptop.memory_root / "user"
        user.mkdir(parents=True)
        (user / "other.md").write_text("synced before\n", encoding="utf-8")
        synced(laptop)
        synced(desktop)
        (user / LONG).write_text(TEXT, encoding="utf-8")
        (user / layout.INDEX_FILE).write_text(f"- [Deploys]({LONG}) how we ship\n", "utf-8")
        assert laptop.sync(None, send_only=True)[0].sent
        synced(desktop)
        here = texts(desktop.memory_root / "user")
        [cut] = set(here) - {layout.INDEX_FILE, "other.md"}
        (user / LONG).write_text(TEXT + "never on holidays\n", encoding="utf-8")
        assert laptop.sync(None, send_only=True)[0].sent
        [again] = synced(desktop)
        assert again.outcomes == [], again.outcomes
        held = texts(served_root / "user")
        assert held == {
            "other.md": "synced before\n",
            cut: TEXT + "never on holidays\n",
            layout.INDEX_FILE: f"- [Deploys]({cut}) how we ship\n",
        }
        assert texts(desktop.memory_root / "user") == held
        synced(laptop)
        assert texts(laptop.memory_root / "user") == held
