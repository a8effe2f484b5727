"""Q-2b: an ``unreadable`` finding says what cannot be read, what that costs and what a user
can do about it (case ``unreadable-memory-files``): each kind of entry loses something else,
and the remedy follows the reason (no permission: the service's account; an I/O error: the
disk), never a remedy guessed for any other reason."""

from __future__ import annotations

from memory_core.caps import folder_unlisted, folder_unreadable
from memory_core.lint import lint_scope

DENIED = "cannot read it (Permission denied)"
ACCOUNT_FIX = "to fix it, give the account the service runs as"


def assert_narrowest_fix(message: str, chmod: str) -> None:
    """The remedy opens the entry to the service's group alone (``chgrp`` then ``chmod g+…``,
    its folder setgid, new files written with ``umask 027``), never to every local account
    (``a+r``, ``o+r``, ``umask 022``): memory is private to the agent and the service."""
    assert f"`chgrp SERVICE-GROUP {chmod}`" in message, message
    assert "umask 027" in message, message
    for wide in ("a+r", "o+r", "022", "chmod 644", "chmod 755"):
        assert wide not in message, message


def _message(name: str, why: str) -> str:
    [finding] = [f for f in lint_scope(None, [], [], unreadable=[(name, why)]) if f.file == name]
    assert finding.code == "unreadable" and finding.severity == "error"
    return finding.message


def test_q2b_a_topic_file_it_may_not_read_is_listed_by_name_and_says_what_to_do() -> None:
    message = _message("private-topic.md", DENIED)
    assert message.startswith(f"private-topic.md is there but the service {DENIED}")
    assert "listed by its name only" in message
    assert "nothing in it is listed" not in message  # a file holds no entries to list
    assert f"{ACCOUNT_FIX} read access to the file" in message
    assert_narrowest_fix(message, "FOLDER FILE && chmod g+r FILE && chmod g+rx,g+s FOLDER")


def test_q2b_an_index_it_may_not_read_says_none_of_its_lines_is_injected() -> None:
    message = _message("MEMORY.md", DENIED)
    assert "none of its lines is injected" in message
    assert f"{ACCOUNT_FIX} read access to the file" in message


def test_q2b_a_folder_it_may_enter_but_not_list_still_injects_its_index() -> None:
    message = _message("", folder_unlisted("Permission denied"))
    assert "its index is still read and injected" in message
    assert "its topic files are not listed, counted or searched" in message
    assert f"{ACCOUNT_FIX} read access to the folder" in message
    assert_narrowest_fix(message, "FOLDER && chmod g+rx,g+s FOLDER")


def test_q2b_a_folder_it_may_not_enter_loses_everything_in_it() -> None:
    message = _message("", DENIED)
    assert "nothing in it is listed, searched or injected" in message
    assert f"{ACCOUNT_FIX} read and search access to the folder" in message
    assert_narrowest_fix(message, "FOLDER && chmod g+rx,g+s FOLDER")
    inside = _message("MEMORY.md", folder_unreadable("Permission denied"))
    assert "whether MEMORY.md is there cannot be told" in inside
    assert f"{ACCOUNT_FIX} read and search access to the folder" in inside


def test_q2b_the_remedy_follows_the_reason() -> None:
    broken = _message("a.md", "cannot read it (Input/output error)")
    assert "repair the disk" in broken and "chmod" not in broken
    stale = _message("a.md", "cannot read it (Stale file handle)")
    assert "to fix it" not in stale  # named, no remedy guessed
