"""P-3, K-7: a shell or writer run through a multi-call binary is read as itself.

``busybox sh -c '"$@"' _ cp x user/notes.txt`` runs ``sh`` with that code, as ``sh -c`` does
(``busybox ash``, ``toybox sh``, ``/bin/busybox cp`` alike: the word after ``busybox`` or
``toybox`` names the applet it runs, its words are that applet's). The guard read ``busybox``
as one program it does not read and let through what it refused as ``sh -c`` or ``cp``: a name
the service cannot address in the user scope, a positional parameter taking a place built at
run time, a startup file ``ENV`` names. Each form now gets the verdict its applet gets run by
its own name, in every harness; the everyday ones pass. An option of the binary's own
(``busybox --install -s DIR``) makes the binary the command, as it was.
"""

from __future__ import annotations

import pytest

from tests.support.guard_cases import Layout, fill, refusals_by_every_harness

FORMS = [
    ("""{sh} -c '"$@"' _ cp /etc/hostname {root}/user/notes.txt""", True),
    ("""{sh} -c '"$@"' _ cp /etc/hostname "$(cat target)"/a.md""", True),
    ("""{sh} -c 'cp /etc/hostname "$1"' _ {root}/{other}/a.md""", True),
    ("""{sh} -ec 'cd {root}; "$@"' _ cp /etc/hostname {other}/a.md""", True),
    ("ENV=./rc.sh {sh} -i -c true", True),
    ("{sh} -c 'echo hi'", False),
    ("""{sh} -c 'for f in "$@"; do wc -l "$f"; done' _ a b""", False),
    ("{sh} -c 'echo x > {root}/user/notes.md'", False),
]
"""A shell command written with ``{sh}`` for the shell's name, and whether ``sh`` there is
refused."""
MULTI_CALL = [("busybox sh", "sh"), ("/bin/busybox ash", "ash"), ("toybox sh", "sh")]
"""A multi-call binary running a shell, and the shell run by its own name."""
APPLETS = [
    ("{tool} cp /etc/hostname {root}/user/notes.txt", True),
    ("{tool} tee {root}/{own}/.hidden.md < /etc/hostname", True),
    ("{tool} ls -la", False),
    ("{tool} wc -l /etc/hostname", False),
]


@pytest.mark.parametrize(("multi", "alone"), MULTI_CALL)
@pytest.mark.parametrize(("form", "refused"), FORMS)
def test_p3_a_shell_run_by_a_multi_call_binary_is_read_as_that_shell(
    where: Layout, multi: str, alone: str, form: str, refused: bool
) -> None:
    by_name = refusals_by_every_harness(where, fill(form.replace("{sh}", alone), where))
    through = refusals_by_every_harness(where, fill(form.replace("{sh}", multi), where))
    assert through == by_name, (multi, form)
    assert all((reason is not None) is refused for reason in through.values()), through


@pytest.mark.parametrize("tool", ["busybox", "toybox"])
@pytest.mark.parametrize(("form", "refused"), APPLETS)
def test_p3_a_writer_run_by_a_multi_call_binary_is_read_as_that_writer(
    where: Layout, tool: str, form: str, refused: bool
) -> None:
    by_name = refusals_by_every_harness(where, fill(form.replace("{tool} ", ""), where))
    through = refusals_by_every_harness(where, fill(form.replace("{tool}", tool), where))
    assert through == by_name, (tool, form)
    assert all((reason is not None) is refused for reason in through.values()), through


@pytest.mark.parametrize(
    ("command", "refused"),
    [
        ("busybox --install -s {root}/user", True),
        ("busybox --list", False),
        ("toybox --long", False),
    ],
)
def test_p3_a_multi_call_binary_s_own_options_make_it_the_command(
    where: Layout, command: str, refused: bool
) -> None:
    """``busybox --install [-s] DIR`` is no applet named ``--install``: busybox makes a link
    per applet in ``DIR`` (``user/ls``, a name no scope file takes), refused there as ``ln -s``
    of such a name is; listing its applets passes."""
    reasons = refusals_by_every_harness(where, fill(command, where))
    assert all((reason is not None) is refused for reason in reasons.values()), reasons
