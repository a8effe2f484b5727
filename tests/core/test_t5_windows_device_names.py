"""K-7, R-1, T-5: a topic file named as a Windows device (``CON``, ``PRN``, ``AUX``, ``NUL``,
``COM1``…``COM9``, ``LPT1``…``LPT9``, any case, whatever follows its first dot) is a valid
name by K-7 (what agents write is kept and served), but a Windows machine's copy of the scope
cannot hold it (Git for Windows refuses to check such a path out, so that machine's sync of
the scope stops). The lint says so (``windows-name``, a warning naming the device and the fix)
instead of leaving the first Windows machine to find out; a name that only starts like one
(``console.md``, ``aux-notes.md``, ``com0.md``) is no device.

Before, nothing said it: ``lint_topic`` gave ``[]`` for ``aux.md``.
"""

from __future__ import annotations

import pytest
from memory_core.keys import check_topic_file_name
from memory_core.lint import SEVERITIES, lint_topic, windows_device
from memory_core.topics import parse_topic

BODY = b"---\nname: x\ndescription: a note\n---\nbody\n"


@pytest.mark.parametrize(
    ("file", "device"),
    [
        ("aux.md", "AUX"),
        ("CON.md", "CON"),
        ("Nul.md", "NUL"),
        ("prn.notes.md", "PRN"),
        ("com1.md", "COM1"),
        ("LPT9.md", "LPT9"),
        ("con .md", "CON"),
        ("com\u00b9.md", "COM\u00b9"),
    ],
)
def test_t5_a_windows_device_name_is_a_warning_naming_the_device(file: str, device: str) -> None:
    assert check_topic_file_name(file) == file  # K-7 keeps it: agents wrote it, it is served
    assert windows_device(file) == device
    findings = [f for f in lint_topic(parse_topic(BODY, file)) if f.code == "windows-name"]
    assert len(findings) == 1
    assert SEVERITIES["windows-name"] == "warning"
    assert f"'{file}'" in findings[0].message
    assert device in findings[0].message and "Windows" in findings[0].message
    assert "rename" in findings[0].message


@pytest.mark.parametrize("file", ["console.md", "aux-notes.md", "com0.md", "nul2.md", "my-con.md"])
def test_t5_a_name_only_starting_like_a_device_is_none(file: str) -> None:
    assert windows_device(file) is None
    assert not [f for f in lint_topic(parse_topic(BODY, file)) if f.code == "windows-name"]
