"""What an ``unreadable`` finding says (Q-2b): what cannot be read, what that costs, and what a
user can do about it.

One entry is there but the service cannot read it; ``why`` is the service's reason, e.g.
``"cannot read it (Permission denied)"`` (:func:`memory_core.caps.folder_unreadable`,
:func:`memory_core.caps.folder_unlisted` for a scope folder). Each kind of entry loses
something else, and the finding says exactly that, never more:

- a scope folder that may be entered but not listed (mode ``0711``, another account's): its
  files still open by name, so its index is read and injected; only which topic files it holds
  is unknown (not listed, counted or searched);
- a scope folder that may not be entered (``0700``, ``r--``) or an I/O error: nothing in it;
- a name in such a folder: whether it is there cannot be told;
- the index: none of its lines reaches the model;
- a topic file: its name is listed, its fields and body are neither shown nor searched.

The remedy follows the reason: no permission is a matter of the account the service runs as
(owner, group, mode), an I/O error of the disk; any other reason is named with no remedy
guessed (a reason that is no error of the file system, such as an encoding not decoded,
carries its own remedy).
"""

from __future__ import annotations

from memory_core.caps import is_folder_unlisted, is_folder_unread
from memory_core.layout import INDEX_FILE

__all__ = ["unreadable_message"]

_DENIED = ("(Permission denied)", "(Operation not permitted)")


def unreadable_message(name: str, why: str) -> str:
    """The ``unreadable`` finding's message for entry ``name`` of a scope (``""``: the scope
    folder itself; ``MEMORY.md``; a topic file name), ``why`` the service's reason."""
    if not name:
        if is_folder_unlisted(why):
            return (
                f"this scope folder is there but the service {why}: its index is still read "
                "and injected, but its topic files are not listed, counted or searched until "
                "that is fixed" + _fix(why, "read access to the folder", _FOLDER_FIX)
            )
        return (
            f"this scope folder is there but the service {why}: it is not missing, yet nothing "
            "in it is listed, searched or injected until that is fixed"
            + _fix(why, "read and search access to the folder", _FOLDER_FIX)
        )
    if is_folder_unread(why):
        return (
            f"the service {why}, so whether {name} is there cannot be told: nothing in the "
            "folder is listed, searched or injected until that is fixed"
            + _fix(why, "read and search access to the folder", _FOLDER_FIX)
        )
    if name == INDEX_FILE:
        lost = "none of its lines is injected or shown until that is fixed"
    else:
        lost = "it is listed by its name only (its fields and body are not shown or searched)"
    return f"{name} is there but the service {why}: it is not missing, yet {lost}" + _fix(
        why, "read access to the file", _FILE_FIX, " (FOLDER: its scope folder)"
    )


_FOLDER_FIX = "chgrp SERVICE-GROUP FOLDER && chmod g+rx,g+s FOLDER"
"""The group remedy of a scope folder: the service's group may list and enter it, and the files
made in it take that group (setgid), not their maker's own."""
_FILE_FIX = "chgrp SERVICE-GROUP FOLDER FILE && chmod g+r FILE && chmod g+rx,g+s FOLDER"
"""The group remedy of a memory file: the file, and its folder setgid, so the files the agent
makes there next, or replaces by a rename as editors do, are the service's group's too; a
file's own ``chgrp`` alone lasted until its next rewrite."""


def _fix(why: str, access: str, commands: str, named: str = "") -> str:
    """What a user can do about ``why``, as ``"; to fix it, …"``: for no permission, give the
    service's account ``access`` and no other account: through the service's group
    (``commands``: ``chgrp`` then ``chmod g+…``, the folder setgid, ``g+s``, so the files made
    in it take its group, not the agent's own; ``named`` says what a placeholder names), run
    as the owner, who must be in that group (``chgrp`` to another is refused), or as root;
    the agent writing with ``umask 027`` (its group may read, other accounts nothing); never
    world-readable (``a+r``, ``umask 022``: memory would be every local account's to read).
    For an I/O error, repair the disk; ``""`` for any other reason (named in ``why`` already,
    no remedy guessed). Checked by doing it as two accounts
    (``tests/core/test_q2b_group_advice_works_for_two_accounts.py``)."""
    if why.endswith(_DENIED):
        return (
            f"; to fix it, give the account the service runs as {access}, and no other "
            f"account: through a group it is in (`{commands}`{named}, as the owner, who must "
            "be in that group too, or as root; the setgid folder keeps the files made in it "
            "in that group), with the agent writing under `umask 027` so its new memory files "
            "are that group's to read and no one else's"
        )
    if why.endswith("(Input/output error)"):
        return "; to fix it, repair the disk that holds it (an I/O error), then look again"
    return ""
