"""P-3, K-7: a variable assigned a value the shell picks from a default, then used in a path.

``out=${OUT:-dist}; mkdir -p "$out"; cp build/app.js "$out/"`` was refused: the assignment's
value holds an operator, so the guard took ``$out`` for a place built at run time. Bash picks
the value from the variable the default tests: its value when the environment (or the command
before it) sets it, the default's word when not. The guard now picks it the same way (the
harness's environment is the one the shell starts with), for ``NAME=${X:-word}`` and its kin
``-``, ``=``, ``:=``, ``+``, ``:+``, for ``: "${X:=word}"`` (which assigns ``X``), and for a
default holding plain variables (``${PREFIX:-$PWD/out}``); the place it gives is then judged
as any literal path is. A value that could still name the memory root stays refused: a default
naming another scope, an environment that sets the variable to one, a default built by a
command substitution (known only at run time), or a name the service cannot address (K-7).
``ROOT=$(git rev-parse --show-toplevel)`` is read as the folder git prints, as ``cd "$(git
rev-parse --show-toplevel)"`` is.
"""

from __future__ import annotations

import subprocess

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusals_by_every_harness,
)

PICKED = [
    ('out=${{UNSET_VARIABLE:-dist}}; mkdir -p "$out"; cp a.txt "$out/"', "dist/a.txt"),
    ('OUT="${{UNSET_VARIABLE:-build}}"; mkdir -p "$OUT" && cp -r a.txt "$OUT/"', "build/a.txt"),
    ('log=${{UNSET_VARIABLE-build.log}}; echo done > "$log"', "build.log"),
    ("out=${{UNSET_VARIABLE:-dist}}/js; mkdir -p $out && cp a.txt $out/", "dist/js/a.txt"),
    ('export DIST=${{UNSET_VARIABLE:-dist}}; mkdir -p $DIST; cp a.txt "$DIST/"', "dist/a.txt"),
    ('tag=${{UNSET_VARIABLE:+-v2}}; echo x > "build$tag.log"', "build.log"),
    (
        ': "${{UNSET_VARIABLE:=dist}}"; mkdir -p "$UNSET_VARIABLE"; cp a.txt "$UNSET_VARIABLE/"',
        "dist/a.txt",
    ),
    ('base=${{UNSET_VARIABLE:-$PWD/out}}; mkdir -p "$base" && cp a.txt "$base/"', "out/a.txt"),
    ('out=${{SET_VARIABLE:-dist}}; mkdir -p "$out"; cp a.txt "$out/"', "set/a.txt"),
    ('out=${{UNSET_VARIABLE:-{root}/{own}}}; cp a.txt "$out/note.md"', "{root}/{own}/note.md"),
    (
        'ROOT=$(git rev-parse --show-toplevel); mkdir -p "$ROOT/dist" && cp a.txt "$ROOT/dist/"',
        "dist/a.txt",
    ),
    ('ROOT="$(git rev-parse --show-toplevel)"; cd "$ROOT" && mkdir -p d && cp a.txt d/', "d/a.txt"),
]
"""A command writing through a variable assigned from a default (``UNSET_VARIABLE`` unset,
``SET_VARIABLE`` set to ``set``) or from git's top folder, and where bash writes."""

STILL_REFUSED = [
    'out=${{UNSET_VARIABLE:-{root}/{other}}}; echo x > "$out/a.md"',
    'out=${{OTHER_SCOPE:-dist}}; echo x > "$out/a.md"',
    ': "${{UNSET_VARIABLE:={root}/{other}}}"; echo x > "$UNSET_VARIABLE/a.md"',
    'out=${{UNSET_VARIABLE:-$(echo {root}/{other})}}; echo x > "$out/a.md"',
    'out=${{UNSET_VARIABLE:-{root}}}/{other}; cp /etc/hostname "$out/a.md"',
    'd=${{UNSET_VARIABLE:-{root}/{other}}}; x=${{d:-dist}}; echo x > "$x/a.md"',
]
"""A command whose picked value names another scope (the default's word, the environment's
``OTHER_SCOPE``, a value carried through a second default) or is built by a command
substitution: each refused, and bash really writes there."""


@pytest.fixture
def picking(where: Layout, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """The layout with ``a.txt`` in a Workspace that is a git repository, ``SET_VARIABLE`` set
    to ``set`` and ``OTHER_SCOPE`` to the other Workspace's scope, in the environment the hooks
    and bash both run with."""
    (where.workspace / "a.txt").write_text("a\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(where.workspace)], check=True)
    monkeypatch.setenv("SET_VARIABLE", "set")
    monkeypatch.setenv("OTHER_SCOPE", str(where.root / where.other))
    return where


@pytest.mark.parametrize(("command", "place"), PICKED)
def test_p3_a_value_picked_from_a_default_is_judged_where_bash_writes(
    picking: Layout, command: str, place: str
) -> None:
    assert_allowed_by_every_harness_and_bash_writes_there(picking, command, place)


@pytest.mark.parametrize("command", STILL_REFUSED)
def test_p3_a_picked_value_that_names_another_scope_stays_refused(
    picking: Layout, command: str
) -> None:
    assert_refused_by_every_harness_and_bash_writes(picking, command)


@pytest.mark.parametrize(
    "command",
    [
        'out=${{UNSET_VARIABLE:-{root}/{own}}}; echo x > "$out/.hidden.md"',
        'out=${{UNSET_VARIABLE:-{root}/{own}}}; cp a.txt "$out/notes.txt"',
    ],
)
def test_p3_a_picked_value_naming_an_unaddressable_file_stays_refused(
    picking: Layout, command: str
) -> None:
    """K-7: the default's place in the Session's own scope is held to the service's names."""
    reasons = refusals_by_every_harness(picking, fill(command, picking))

    assert all(reason is not None and "cannot address" in reason for reason in reasons.values()), (
        reasons
    )


UNSURE_ASSIGNMENTS = [
    'if false; then OTHER_SCOPE=dist; fi; out=${{OTHER_SCOPE:-dist}}; cp a.txt "$out/n1.md"',
    '(OTHER_SCOPE=dist); out=${{OTHER_SCOPE:-dist}}; cp a.txt "$out/n2.md"',
    'OTHER_SCOPE=dist true; out=${{OTHER_SCOPE:-dist}}; cp a.txt "$out/n3.md"',
    'true || OTHER_SCOPE=dist; out=${{OTHER_SCOPE:-dist}}; cp a.txt "$out/n4.md"',
    'OTHER_SCOPE=dist | true; out=${{OTHER_SCOPE:-dist}}; cp a.txt "$out/n5.md"',
    'OTHER_SCOPE=dist & wait; out=${{OTHER_SCOPE:-dist}}; cp a.txt "$out/n6.md"',
    'echo $(OTHER_SCOPE=dist); out=${{OTHER_SCOPE:-dist}}; cp a.txt "$out/n7.md"',
    'f() {{ OTHER_SCOPE=dist; }}; out=${{OTHER_SCOPE:-dist}}; cp a.txt "$out/n8.md"',
    'f() {{ local OTHER_SCOPE=dist; }}; f; out=${{OTHER_SCOPE:-dist}}; cp a.txt "$out/n9.md"',
    'case x in y) OTHER_SCOPE=dist;; esac; out=${{OTHER_SCOPE:-dist}}; cp a.txt "$out/n10.md"',
    'while false; do OTHER_SCOPE=dist; done; out=${{OTHER_SCOPE:-dist}}; cp a.txt "$out/n11.md"',
    'case x in x) true;; y) OTHER_SCOPE=dist;; esac; cp a.txt "$OTHER_SCOPE/n12.md"',
    'if true; then :; else OTHER_SCOPE=dist; fi; cp a.txt "${{OTHER_SCOPE:-dist}}/n13.md"',
    ': | OTHER_SCOPE=dist; out=${{OTHER_SCOPE:-dist}}; cp a.txt "$out/n14.md"',
    'readonly OTHER_SCOPE; export OTHER_SCOPE=dist; cp a.txt "${{OTHER_SCOPE:-dist}}/n15.md"',
    'unset -v NOPE; true && : "${{OTHER_SCOPE:=dist}}"; cp a.txt "$OTHER_SCOPE/n16.md"',
    'OTHER_SCOPE=$(git rev-parse --show-toplevel) cp a.txt "$OTHER_SCOPE/g1.md"',
    'OTHER_SCOPE="$(git rev-parse --show-toplevel)" cp a.txt "$OTHER_SCOPE/g2.md"',
    'f() {{ OTHER_SCOPE=$S; }}; S=$OTHER_SCOPE; OTHER_SCOPE=d; f; cp a.txt "$OTHER_SCOPE/n17.md"',
    'd=dist; f() {{ d=$OTHER_SCOPE; }}; f; cp a.txt "$d/n18.md"',
    'if false; then OTHER_SCOPE=dist; fi; cp a.txt "$OTHER_SCOPE/n19.md"',
    'if false; then UNSET_VARIABLE=/tmp; fi; cp a.txt "$UNSET_VARIABLE{root}/{other}/n20.md"',
    '[ -d nope ] && OTHER_SCOPE=dist; echo x > "$OTHER_SCOPE/n21.md"',
]
"""An assignment that may not run, or does not reach the words after it (a branch, a
subshell, a pipeline, the background, a command's prefix, a function's body or its ``local``,
a name made ``readonly``; a later one to a name a function's body sets, which a call may
change), to a variable the environment sets to another scope: bash writes there, and the
guard, reading it as the variable's value, let each through."""


@pytest.mark.parametrize("command", UNSURE_ASSIGNMENTS)
def test_p3_an_assignment_that_may_not_reach_a_word_does_not_decide_its_variable(
    picking: Layout, command: str
) -> None:
    assert_refused_by_every_harness_and_bash_writes(picking, command)


SURE_ASSIGNMENTS = [
    ('out=dist; mkdir -p "$out"; cp a.txt "$out/"', "dist/a.txt"),
    ('OTHER_SCOPE=dist; mkdir -p "$OTHER_SCOPE" && cp a.txt "$OTHER_SCOPE/"', "dist/a.txt"),
    ('export OUT=dist && mkdir -p "$OUT" && cp a.txt "$OUT/"', "dist/a.txt"),
    ('out=build\nmkdir -p "$out"\ncp a.txt "$out/"', "build/a.txt"),
    ('if [ -f a.txt ]; then d=dist; mkdir -p "$d"; cp a.txt "$d/"; fi', "dist/a.txt"),
    ('for f in a.txt; do dest=docs; mkdir -p "$dest"; cp "$f" "$dest/"; done', "docs/a.txt"),
    ('f() {{ local d=out; mkdir -p "$d"; cp a.txt "$d/"; }}; f', "out/a.txt"),
    ('(d=sub; mkdir -p "$d" && cp a.txt "$d/")', "sub/a.txt"),
    ('case "$0" in *) d=lib; mkdir -p $d; cp a.txt $d/;; esac', "lib/a.txt"),
    ('ROOT=$(git rev-parse --show-toplevel) && cp a.txt "$ROOT/top.txt"', "top.txt"),
    ("true && out=dist; out=build; mkdir -p $out; cp a.txt $out/", "build/a.txt"),
    ('out=${{UNSET_VARIABLE:-dist}}; CC=gcc mkdir -p "$out"; cp a.txt "$out/"', "dist/a.txt"),
    ("if [ -f a.txt ]; then d=dist; else d=dist; fi; mkdir -p $d; cp a.txt $d/", "dist/a.txt"),
    ('[ -d "$HOME/bin" ] && PATH="$HOME/bin:$PATH"; mkdir -p d; cp a.txt d/', "d/a.txt"),
    ("if [ -d /opt/x ]; then PATH=/opt/x:$PATH; fi; mkdir -p d && cp a.txt d/", "d/a.txt"),
    (
        'if [ -z "$UNSET_VARIABLE" ]; then UNSET_VARIABLE=dist; fi; mkdir -p "$UNSET_VARIABLE";'
        ' cp a.txt "$UNSET_VARIABLE/"',
        "dist/a.txt",
    ),
    ('[ -n "$UNSET_VARIABLE" ] || UNSET_VARIABLE=out; mkdir -p $UNSET_VARIABLE', "out"),
    ('if [ -f nope ]; then o=ci; else o=dist; fi; mkdir -p "$o"; cp a.txt "$o/"', "dist/a.txt"),
    ('case x in y) env=prod;; *) env=dev;; esac; cp a.txt "config.$env.txt"', "config.dev.txt"),
]
"""Everyday forms: a statement's assignment, at the top or used in the group it stands in
(a branch, a loop, a function's ``local``, a subshell, a case), one after a prefix, and a
variable a branch leaves holding one of a few known values (each judged: the value before
it, unset included, and each branch's), a ``PATH`` one of a few lists of folders."""


@pytest.mark.parametrize(("command", "place"), SURE_ASSIGNMENTS)
def test_p3_an_assignment_that_surely_reaches_a_word_decides_its_variable(
    picking: Layout, command: str, place: str
) -> None:
    assert_allowed_by_every_harness_and_bash_writes_there(picking, command, place)


NESTED_OR_LOOPED_CHOICES = [
    (
        'for f in *.txt; do case "$f" in a.*) dest=A;; *) dest=B;; esac; mkdir -p $dest;'
        ' cp "$f" $dest/; done',
        "A/a.txt",
    ),
    ('for f in a b; do ext=txt; [ "$f" = b ] && ext=md; touch "$f.$ext"; done', "b.md"),
    (
        'if [ -n "$UNSET_VARIABLE" ]; then if [ -n "$SET_VARIABLE" ]; then mode=release;'
        ' else mode=ci; fi; else mode=dev; fi; cp a.txt "out-$mode.txt"',
        "out-dev.txt",
    ),
    ("{{ " * 100 + "d=dist; " + "}}; " * 100 + "mkdir -p $d; cp a.txt $d/", "dist/a.txt"),
    (
        "{{ d=dist; }}; find . -maxdepth 0 -exec true {{}} \\; ; mkdir -p $d; cp a.txt $d/",
        "dist/a.txt",
    ),
    (
        'if [ -n "$SET_VARIABLE" ]; then os=linux; else os=mac; fi;'
        ' if [ -z "$UNSET_VARIABLE" ]; then arch=x64; else arch=arm64; fi;'
        ' mkdir -p "dist/$os-$arch"; cp a.txt "dist/$os-$arch/"',
        "dist/linux-x64/a.txt",
    ),
    (
        "for f in a b; do for g in x y; do mkdir -p $f; cp a.txt $f/$g.txt; done; done",
        "b/y.txt",
    ),
]
"""Everyday forms (review51 items 10-12): a variable a branch sets, used in a loop whose body
is read again; a branch inside a branch, or inside many braces; two such variables in one word
(each pair of values judged)."""


@pytest.mark.parametrize(("command", "place"), NESTED_OR_LOOPED_CHOICES)
def test_p3_a_variable_a_nested_or_looped_branch_leaves_is_judged_with_each_value(
    picking: Layout, command: str, place: str
) -> None:
    assert_allowed_by_every_harness_and_bash_writes_there(picking, command, place)


NESTED_OR_LOOPED_BYPASSES = [
    'for f in a; do case "$f" in b) d=dist;; *) d=$OTHER_SCOPE;; esac; cp a.txt "$d/m1.md"; done',
    'if true; then if false; then d=dist; else d=$OTHER_SCOPE; fi; fi; cp a.txt "$d/m2.md"',
    'case y in x) s=dist;; *) s=$OTHER_SCOPE;; esac; case x in x) t=m3;; esac; cp a.txt "$s/$t.md"',
    '{{ {{ d=$OTHER_SCOPE; }}; }}; cp a.txt "$d/m4.md"',
    'd=$OTHER_SCOPE; false && {{ d=dist; }}; cp a.txt "$d/m5.md"',
    'd=$OTHER_SCOPE; {{ d=dist; }} | cat; cp a.txt "$d/m6.md"',
    'd=$OTHER_SCOPE; if true; then d=dist; else d=dist; fi & wait; cp a.txt "$d/m7.md"',
    'd=$OTHER_SCOPE; : | if true; then d=dist; else d=dist; fi; cp a.txt "$d/m8.md"',
    'd=$OTHER_SCOPE; true || if true; then d=dist; else d=dist; fi; cp a.txt "$d/m9.md"',
    'if false; then {{ d=dist; }}; fi; cp a.txt "${{d:-$OTHER_SCOPE}}/m10.md"',
    "d=$OTHER_SCOPE; if false; then d=dist; 'else' d=dist; fi; cp a.txt \"$d/m11.md\"",
    "d=$OTHER_SCOPE; false && {{ d=1; '}}'; {{ d=dist; }}; }}; cp a.txt \"$d/m12.md\"",
    'd=$OTHER_SCOPE; false && {{ d=1; \\}}; {{ d=dist; }}; }}; cp a.txt "$d/m13.md"',
]
"""A variable one of whose possible values is another scope: refused, and bash writes there."""


@pytest.mark.parametrize("command", NESTED_OR_LOOPED_BYPASSES)
def test_p3_a_nested_or_looped_choice_naming_another_scope_is_refused(
    picking: Layout, command: str
) -> None:
    assert_refused_by_every_harness_and_bash_writes(picking, command)


CONTINUED_LINES = [
    'false &&\nOTHER_SCOPE=dist\ncp a.txt "$OTHER_SCOPE/z1.md"',
    'true ||\n\nOTHER_SCOPE=dist\ncp a.txt "$OTHER_SCOPE/z2.md"',
    'echo x |\nOTHER_SCOPE=dist\ncp a.txt "$OTHER_SCOPE/z3.md"',
    'false && # only on success\nOTHER_SCOPE=dist\ncp a.txt "$OTHER_SCOPE/z4.md"',
]
"""A line ending in ``&&``, ``||`` or ``|``: bash reads the list on at the next line (blank
lines and comments between), so the assignment there may not run, or runs in a pipeline's
subshell; bash writes into the other scope."""


@pytest.mark.parametrize("command", CONTINUED_LINES)
def test_p3_an_assignment_on_a_continued_line_does_not_decide_its_variable(
    picking: Layout, command: str
) -> None:
    assert_refused_by_every_harness_and_bash_writes(picking, command)


@pytest.mark.parametrize(
    ("command", "place"),
    [
        ("mkdir -p out &&\n  cp a.txt out/", "out/a.txt"),
        ('out=dist\nmkdir -p "$out" &&\n  cp a.txt "$out/"', "dist/a.txt"),
        ("cat a.txt |\n  wc -l > count.txt", "count.txt"),
        ("true ||\n  exit 1\nd=dist; mkdir -p $d; cp a.txt $d/", "dist/a.txt"),
    ],
)
def test_p3_a_list_continued_on_the_next_line_is_allowed(
    picking: Layout, command: str, place: str
) -> None:
    assert_allowed_by_every_harness_and_bash_writes_there(picking, command, place)


QUOTED_RESERVED_WORDS = [
    "( echo ')'; OTHER_SCOPE=dist ); cp a.txt \"$OTHER_SCOPE/y1.md\"",
    "if false; then 'fi'; OTHER_SCOPE=dist; fi; cp a.txt \"$OTHER_SCOPE/y2.md\"",
    'while false; do "done"; OTHER_SCOPE=dist; done; cp a.txt "$OTHER_SCOPE/y3.md"',
    '( echo \\); OTHER_SCOPE=dist ); cp a.txt "$OTHER_SCOPE/y4.md"',
    "echo ';' OTHER_SCOPE=dist; cp a.txt \"$OTHER_SCOPE/y5.md\"",
    "{{ echo '}}'; OTHER_SCOPE=dist; }} | cat; cp a.txt \"$OTHER_SCOPE/y6.md\"",
]
"""A reserved word or an operator spelt quoted or escaped is a plain word to bash: the group
or list goes on past it, so the assignment after it may not run or reach; bash writes into the
other scope."""


@pytest.mark.parametrize("command", QUOTED_RESERVED_WORDS)
def test_p3_a_quoted_reserved_word_ends_no_group(picking: Layout, command: str) -> None:
    assert_refused_by_every_harness_and_bash_writes(picking, command)


@pytest.mark.parametrize(
    ("command", "place"),
    [
        ('echo "done"; d=dist; mkdir -p $d; cp a.txt $d/', "dist/a.txt"),
        ("tr '|' ',' < a.txt > b.csv; out=build; mkdir -p $out; cp b.csv $out/", "build/b.csv"),
        ("find . -name '*.pyc' -exec rm {{}} \\; ; d=lib; mkdir -p $d; cp a.txt $d/", "lib/a.txt"),
        ("echo '{{ \"a\": 1 }}' > w.json; d=out; mkdir -p $d; cp w.json $d/", "out/w.json"),
    ],
)
def test_p3_a_quoted_reserved_word_leaves_everyday_assignments_judged(
    picking: Layout, command: str, place: str
) -> None:
    assert_allowed_by_every_harness_and_bash_writes_there(picking, command, place)


DECLARATIONS_THAT_DO_NOT_ASSIGN = [
    'local OTHER_SCOPE=dist; cp a.txt "$OTHER_SCOPE/l1.md"',
    'declare -p OTHER_SCOPE=dist; cp a.txt "$OTHER_SCOPE/l2.md"',
    'declare -f OTHER_SCOPE=dist; cp a.txt "$OTHER_SCOPE/l3.md"',
    'export -f OTHER_SCOPE=dist; cp a.txt "$OTHER_SCOPE/l4.md"',
    'enable -n export; export OTHER_SCOPE=dist; cp a.txt "$OTHER_SCOPE/l5.md"',
    'export() {{ :; }}; export OTHER_SCOPE=dist; cp a.txt "$OTHER_SCOPE/l6.md"',
    'declare -n d=OTHER_SCOPE; cp a.txt "$d/l7.md"',
    ': "${{SET_VARIABLE:-${{OTHER_SCOPE:=dist}}}}"; cp a.txt "$OTHER_SCOPE/l8.md"',
]
"""A declaring builtin that does not assign its ``X=word`` as written (``local`` outside a
function, ``-p``, ``-f``, a function or ``enable -n`` in its stead), a name reference, and a
``${X:=word}`` inside a default bash never expands: the variable keeps another scope, where
bash writes."""


@pytest.mark.parametrize("command", DECLARATIONS_THAT_DO_NOT_ASSIGN)
def test_p3_a_declaration_that_may_not_assign_does_not_decide_its_variable(
    picking: Layout, command: str
) -> None:
    assert_refused_by_every_harness_and_bash_writes(picking, command)


@pytest.mark.parametrize(
    ("command", "place"),
    [
        ("declare d=dist; mkdir -p $d; cp a.txt $d/", "dist/a.txt"),
        ("export CC=gcc; declare -x D=out; mkdir -p $D; cp a.txt $D/", "out/a.txt"),
        ("readonly R=lib; mkdir -p $R; cp a.txt $R/", "lib/a.txt"),
        ('f() {{ local d=out; mkdir -p "$d"; cp a.txt "$d/"; }}; f', "out/a.txt"),
        (': "${{UNSET_VARIABLE:=dist}}"; mkdir -p $UNSET_VARIABLE; cp a.txt dist/', "dist/a.txt"),
    ],
)
def test_p3_a_plain_declaration_still_decides_its_variable(
    picking: Layout, command: str, place: str
) -> None:
    assert_allowed_by_every_harness_and_bash_writes_there(picking, command, place)


def test_p3_a_declaration_that_changes_its_value_does_not_decide_its_variable(
    picking: Layout,
) -> None:
    """``declare -l d=/TMP/…`` sets ``d`` to the word lowercased (``-u`` upper, ``-i`` its
    arithmetic): not the text written, so undecided; the other scope's path (lowercase here),
    written in capitals, is where bash writes."""
    other = str(picking.root / picking.other)
    assert other == other.lower()

    assert_refused_by_every_harness_and_bash_writes(
        picking, f'declare -l d={other.upper()}; cp a.txt "$d/u1.md"'
    )


@pytest.mark.parametrize(
    "command",
    [
        'IFS=:; d="a.txt:$OTHER_SCOPE/i1.md"; cp $d',
        "IFS=:; cp $SPLIT",
        "export IFS=:; cp $SPLIT",
    ],
)
def test_p3_a_value_split_at_a_set_ifs_is_built_at_run_time(
    picking: Layout, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``IFS`` holding other than white space, an unquoted value splits there: ``cp $d``
    copies ``a.txt`` into another scope. A word with a variable is then undecided."""
    monkeypatch.setenv("SPLIT", f"a.txt:{picking.root / picking.other}/i3.md")
    assert_refused_by_every_harness_and_bash_writes(picking, command)


@pytest.mark.parametrize(
    ("command", "place"),
    [
        ("IFS=$'\\n'; d=out; mkdir -p $d; cp a.txt $d/", "out/a.txt"),
        ("IFS=; d=lib; mkdir -p $d; cp a.txt $d/", "lib/a.txt"),
    ],
)
def test_p3_an_ifs_of_white_space_or_empty_leaves_values_judged(
    picking: Layout, command: str, place: str
) -> None:
    assert_allowed_by_every_harness_and_bash_writes_there(picking, command, place)
