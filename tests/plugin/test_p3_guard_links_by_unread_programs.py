"""P-3: a link a program whose code the guard reads makes is no way around it.

``python3 -c "…os.symlink(open('target').read().strip(), 'lnk')" && echo x > lnk/a.md``: the
program builds the link from data, and the shell then writes through it. When the guard
answers, ``lnk`` is not there, so ``lnk/a.md`` was judged a plain Workspace path and let
through, and bash wrote into another scope. After a program whose code the guard reads
(``python3 -c``, ``node -e``, ``perl -e``, ``ruby -e``, a here-document, a script file it or a
shell runs, ``./mk.sh``) and finds making a link (``hooks/link_texts.py``'s one table), or
one making links from its arguments (``xargs ln -s``), a write into a folder not there yet is
refused, as a link made from data (``ln -s "$(cat f)" lnk``) is judged. Each refused form is
then run by bash (and the interpreter), which changes the other scope: the gap was real.

A program whose code the guard does not read (``npm``, ``cargo``, ``make``, ``git``, ``go``,
``npx``, a compiled binary), or reads and finds making no link, is fenced by the harness's
sandbox for the links it makes as for every other place it writes (``docs/security.md``):
writes after it into folders it or ``mkdir`` makes pass (all were refused).
"""

from __future__ import annotations

import shutil
import tarfile

import pytest
from harness_memory.hooks.link_texts import link_text

from tests.support.guard_cases import (
    SHELL,
    Layout,
    answer,
    answers_of_every_harness,
    assert_refused_and_bash_writes,
    assert_refused_by_every_harness_and_bash_writes,
    refusal,
)

MAKES_LINK = "import os; os.symlink(open('target').read().strip(), 'lnk')"
"""A program's text making ``lnk`` lead where the file ``target`` says (no memory named)."""
THROUGH_LINKS = [
    f'python3 -c "{MAKES_LINK}" && echo x > lnk/a.md',
    "python3 mk.py && cp note.md lnk/",
    "python3 mk.py; tee lnk/a.md < note.md",
    "python3 mk.py && mkdir -p lnk && echo x >> lnk/a.md",
    "./mk.sh && echo x > lnk/a.md",
    "bash mk.sh; cp note.md lnk/b.md",
    "python3 mk.py && bash -c 'echo x > lnk/a.md'",
    "for i in 1 2; do echo x > lnk/a.md; python3 mk.py 2>/dev/null || true; done",
    # each interpreter's own link call, inline or in a script file
    "node -e \"const fs = require('fs'); "
    "fs.symlinkSync(fs.readFileSync('target', 'utf8').trim(), 'lnk')\" && echo x > lnk/a.md",
    'perl -e \'open(my $f, "<", "target"); chomp(my $t = <$f>); symlink($t, "lnk")\' '
    "&& cp note.md lnk/",
    'perl -e \'open(F, "target"); chomp($t = <F>); symlink $t, "lnk"\' && echo x > lnk/a.md',
    "python3 mk_path.py && echo x > lnk/a.md",
    "python3 - <<'PY'\n" + MAKES_LINK + "\nPY\necho x > lnk/a.md",
    # run inside another shell or a command substitution, by a runner, written by the command
    "bash -c 'python3 mk.py' && echo x > lnk/a.md",
    'echo "$(python3 mk.py)" > lnk/a.md',
    'python3 mk.py; echo "$(tee lnk/a.md < note.md)"',
    "xargs ln -s < pair && echo x > lnk/a.md",
    "cp mk.py w.py && python3 w.py && echo x > lnk/a.md",
    # a word another program only reads is data (``echo "$USER did it"``), but one eval, a
    # shell or a runner runs is code; awk's and perl's code is read as such (``-lne``)
    "x='python3 mk.py'; eval \"$x\" && echo x > lnk/a.md",
    'echo "python3 mk.py" | bash && echo x > lnk/a.md',
    "perl -lne 'symlink $_, \"lnk\"' target && echo x > lnk/a.md",
    'awk \'{{ system("ln -s " $0 " lnk") }}\' target && echo x > lnk/a.md',
]
"""Each was let through; ``target`` holds the other scope's folder, ``mk.py``, ``mk_path.py``
(``Path.symlink_to``) and ``mk.sh`` make ``lnk`` lead there, ``pair`` holds the two words
``ln -s`` takes."""
MAKES_LINK_RUBY = 'ruby -e \'File.symlink(File.read("target").strip, "lnk")\' && echo x > lnk/a.md'
"""Ruby's ``File.symlink``, in a form of its own: run by bash only where ``ruby`` is."""


def _prepared(where: Layout) -> None:
    work = where.workspace
    (work / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (work / "mk.py").write_text(MAKES_LINK + "\n", encoding="utf-8")
    (work / "mk.sh").write_text('#!/bin/sh\nln -s "$(cat target)" lnk\n', encoding="utf-8")
    (work / "mk.sh").chmod(0o755)
    (work / "mk_path.py").write_text(
        "from pathlib import Path\nPath('lnk').symlink_to(Path('target').read_text().strip())\n",
        encoding="utf-8",
    )
    (work / "pair").write_text(f"{where.root / where.other} lnk\n", encoding="utf-8")
    (work / "gen.py").write_text("print('report')\n", encoding="utf-8")
    (work / "build.sh").write_text("#!/bin/sh\nmkdir -p dist\n", encoding="utf-8")
    (work / "build.sh").chmod(0o755)
    (work / "script.py").write_text("import json\nprint(json.dumps({'a': 1}))\n", "utf-8")
    (work / "gradlew").write_text('#!/bin/sh\nexec java -jar gradle.jar "$@"\n', "utf-8")
    (work / "gradlew").chmod(0o755)
    (work / "build.js").write_text(
        "const fs = require('fs');\nconsole.log(fs.readlinkSync('x'));\n", "utf-8"
    )
    (work / "tidy.py").write_text(
        "import os\nif os.path.islink('x'):\n    print(os.readlink('x'))\n    os.unlink('x')\n",
        "utf-8",
    )
    shutil.copy(shutil.which("true") or "/bin/true", work / "app")  # a compiled program
    (work / "build").mkdir()


MORE_LINK_CODE = {
    "alias.py": "from os import symlink as s; s(open('target').read().strip(), 'lnk')\n",
    "bound.py": "import os\nf = os.symlink\nf(open('target').read().strip(), 'lnk')\n",
    "binln.py": "import subprocess\n"
    "subprocess.run(['/bin/ln', '-s', open('target').read().strip(), 'lnk'], check=True)\n",
    "keep.py": "import shutil\nshutil.copy2('away', 'lnk', follow_symlinks=False)\n",
    "tree.py": "import shutil\nshutil.copytree('tree', 'lnk', True)\n",
    "cpa.sh": "cp -a away lnk\n",
    "mv.sh": "mv away lnk\n",
    "var.sh": 'L=ln; $L -s "$(cat target)" lnk\n',
}
"""Scripts making ``lnk`` lead to the other scope in ways the table once missed: a link
function named without its call, ``'/bin/ln'`` in a list, a copy or move keeping the link
``away`` (already in the Workspace) as a link, a program named by a variable."""
THROUGH_MORE_LINKS = [
    *(f"python3 {name} && echo x > lnk/a.md" for name in MORE_LINK_CODE if name.endswith(".py")),
    *(f"bash {name} && echo x > lnk/a.md" for name in MORE_LINK_CODE if name.endswith(".sh")),
    "python3 -c \"from os import symlink as s; s(open('target').read().strip(), 'lnk')\" "
    "&& echo x > lnk/a.md",
]


def _prepared_more(where: Layout) -> None:
    _prepared(where)
    work = where.workspace
    for name, code in MORE_LINK_CODE.items():
        (work / name).write_text(code, encoding="utf-8")
    (work / "away").symlink_to(where.root / where.other)
    (work / "tree").mkdir()
    (work / "tree" / "lnk").symlink_to(where.root / where.other)


@pytest.mark.parametrize("command", THROUGH_MORE_LINKS)
def test_p3_link_code_the_table_once_missed_is_refused(where: Layout, command: str) -> None:
    _prepared_more(where)
    if "tree.py" in command:  # copytree keeps tree/lnk as a link: write through lnk/lnk
        command = command.replace("lnk/a.md", "lnk/lnk/a.md")
    assert_refused_and_bash_writes(where, "claude-code", command)


LOCAL_CODE = {
    "helper.py": MAKES_LINK + "\n",
    "uses.py": "import helper\n",
    "x.js": "const fs = require('fs');\n"
    "fs.symlinkSync(fs.readFileSync('target', 'utf8').trim(), 'lnk');\n",
    "uses.js": "require('./x');\n",
    "nm": "mk.py\n",
}
"""Local code the guard cannot read in the command's words: a module ``python3 -m`` runs
(``helper.py``), modules a script loads from beside it (``uses.py``, ``uses.js``), and
``nm`` naming the script to run."""
THROUGH_LOCAL_CODE = [
    "python3 -m helper && echo x > lnk/a.md",
    "python3 < mk.py && echo x > lnk/a.md",
    "cat mk.py | python3 && echo x > lnk/a.md",
    "cat mk.py | python3 - && echo x > lnk/a.md",
    'python3 "$(cat nm)" && echo x > lnk/a.md',
    "python3 uses.py && echo x > lnk/a.md",
    *(["node uses.js && echo x > lnk/a.md"] if shutil.which("node") else []),
    "python3 -c 'import mk' && echo x > lnk/a.md",
    "python3 -c 'from helper import os' && echo x > lnk/a.md",
    *(["node -e \"require('./x')\" && echo x > lnk/a.md"] if shutil.which("node") else []),
]
"""Each was let through: the code making ``lnk`` is a local module, comes on standard input,
is named at run time, or is loaded by the script run or by the code given inline."""


@pytest.mark.parametrize("command", THROUGH_LOCAL_CODE)
def test_p3_local_code_not_in_the_words_counts_as_making_links(where: Layout, command: str) -> None:
    _prepared(where)
    for name, code in LOCAL_CODE.items():
        (where.workspace / name).write_text(code, encoding="utf-8")
    assert_refused_and_bash_writes(where, "claude-code", command)


THE_LINK_ITSELF = [
    "python3 mk.py && cp note.md lnk",
    "python3 mk.py && mv note.md lnk",
    "python3 mk.py && cp -t lnk note.md",
    "python3 mk.py && tar -xf a.tar -C lnk",
]
"""Writes naming the link ``mk.py`` makes as the place written, not a folder on the way:
each was let through (only the folder a place lands in was looked at)."""


@pytest.mark.parametrize("command", THE_LINK_ITSELF)
def test_p3_a_write_naming_the_link_itself_is_refused(where: Layout, command: str) -> None:
    _prepared(where)
    with tarfile.open(where.workspace / "a.tar", "w") as archive:
        archive.add(where.workspace / "note.md", arcname="from_tar.md")
    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))
    assert reason is not None, command
    assert "which is not there yet: python3 may make it a link" in reason
    assert_refused_and_bash_writes(where, "claude-code", command)


@pytest.mark.parametrize("command", THROUGH_LINKS)
def test_p3_a_write_through_a_link_an_unread_program_may_make_is_refused(
    where: Layout, command: str
) -> None:
    _prepared(where)
    assert_refused_by_every_harness_and_bash_writes(where, command)


def test_p3_ruby_file_symlink_is_refused(where: Layout) -> None:
    """``ruby -e 'File.symlink(…)'`` is refused as the forms above are; run by bash (and
    ``ruby``) where this machine has ``ruby``, else judged by the guard alone."""
    _prepared(where)
    reason = refusal(answer(where, "claude-code", "Bash", {"command": MAKES_LINK_RUBY}))
    assert reason is not None
    assert "runs ruby, which may make a link (symlink(…))" in reason
    if shutil.which("ruby"):
        assert_refused_and_bash_writes(where, "claude-code", MAKES_LINK_RUBY)


def test_p3_the_refusal_names_the_program_and_its_link_call(where: Layout) -> None:
    _prepared(where)
    command = "python3 mk_path.py && echo x > lnk/a.md"
    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))
    assert reason is not None
    assert "runs python3, which may make a link (symlink(…) in mk_path.py)" in reason
    assert "then writes lnk/a.md, whose folder is not there yet" in reason


EVERYDAY_AFTER_PROGRAMS = [
    "git clone https://x/y.git repo && echo hi > repo/NOTES.md",
    "npm run build && mkdir -p dist && echo ok > dist/stamp",
    "npm install && mkdir -p out && cp note.md out/",
    "cargo build && mkdir -p release && cp target/release/app release/",
    "python3 gen.py && mkdir -p reports && echo x > reports/sum.txt",
    "pip install -r req.txt && mkdir -p logs && echo started > logs/run.log",
    "./configure && make && mkdir -p /tmp/out && cp app /tmp/out/",
    "go build ./... && mkdir -p bin && echo x > bin/VERSION",
    "python3 run.py; mkdir newdir; echo x > newdir/a.txt",
    "npx create-react-app web && echo '# web' > web/README.md",
    "node -e \"console.log(require('fs').readdirSync('.'))\" && mkdir -p out && echo x > out/a",
    "perl -e 'print \"hi\\n\"' && mkdir -p out && echo x > out/a",
    "./build.sh && cp note.md dist/",
    "./app && mkdir -p out && echo x > out/a",
    "python3 -m pytest -q && mkdir -p reports && echo ok > reports/done",
    "python3 script.py && mkdir -p out && cp note.md out/",
    "./gradlew build && mkdir -p dist && cp note.md dist/",
    "node build.js && mkdir -p out && cp note.md out/",
    "python3 tidy.py && mkdir -p out && cp note.md out/",
    "python3 gen.py; python3 gen.py && echo ok > build/stamp",
    "python3 gen.py; python3 gen.py && mkdir -p o6 && echo ok > o6/stamp",
    "bash build.sh; bash build.sh && mkdir -p o5 && cp note.md o5/",
]
"""Programs whose code the guard does not read (a package manager, a build tool, git, a
compiled ``./app``), reads and finds making no link (``gen.py``, ``build.sh``, ``node -e``
listing a folder), or that are not there (``run.py``: runs nothing), then a write into a
folder they or ``mkdir`` make: each was refused."""


@pytest.mark.parametrize("command", EVERYDAY_AFTER_PROGRAMS)
def test_p3_writes_into_new_folders_after_programs_making_no_link_pass(
    where: Layout, command: str
) -> None:
    """Each harness's hook lets the command through (asked in turn on the same files: a hook
    only reads)."""
    _prepared(where)

    answers = answers_of_every_harness(where, command)

    assert answers == dict.fromkeys(SHELL), (command, answers)


@pytest.mark.parametrize(
    "command",
    [
        "python3 build.py && echo done >> build.log",
        "python script.py && echo x >> notes.md",
        "make && cp out.bin build/",
        "npm test && echo ok >> build/test.log",
        "python3 gen.py > build/out.txt",
        "echo x > fresh/a.md; python3 mk.py",
        "pytest -q 2>&1 | tee build/pytest.log",
    ],
)
def test_p3_writes_into_folders_already_there_pass(where: Layout, command: str) -> None:
    """A folder there already is judged as it is; a write before the program runs meets
    nothing it made."""
    _prepared(where)
    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


@pytest.mark.parametrize(
    ("code", "shown"),
    [
        ("import os; os.symlink(a, 'lnk')", "symlink(…)"),
        ("Path('lnk').symlink_to(t)", "symlink(…)"),
        ("os.link(a, b)", "link(…)"),
        ("Path(b).hardlink_to(a)", "link(…)"),
        ("require('fs').symlinkSync(t, 'lnk')", "symlink(…)"),
        ("await fs.promises.symlink(t, 'lnk')", "symlink(…)"),
        ("fs.linkSync(a, b)", "link(…)"),
        ('File.symlink(t, "lnk")', "symlink(…)"),
        ('symlink $t, "lnk";', "symlink(…)"),
        ('link $t, "lnk";', "symlink / link list operator"),
        ("symlink($t, 'lnk')", "symlink(…)"),
        ('ln -s "$(cat target)" lnk', "ln"),
        ("/bin/ln -sf a b", "ln"),
        ("subprocess.run(['ln', '-s', t, 'lnk'])", "ln"),
        ("os.system('ln -s ' + t + ' lnk')", "ln"),
        ("FileUtils.ln_s(t, 'lnk')", "ln"),
        ('BEGIN { system("ln -s " t " lnk") }', "ln"),
        ("cp -rs src/ lnk", "cp -s/-l"),
        ("cp --link a b", "cp -s/-l"),
        ("stow -t ~ dotfiles", "stow/lndir"),
        ("shutil.copytree(a, b, symlinks=True)", "symlinks=True"),
        ("from os import symlink as s; s(t, 'lnk')", "symlink(…)"),
        ("f = os.symlink; f(t, 'lnk')", "symlink(…)"),
        ("Path(b).hardlink_to", "link(…)"),
        ("subprocess.run(['/bin/ln', '-s', t, 'lnk'])", "ln"),
        ("shutil.copy2('notes', 'lnk', follow_symlinks=False)", "cp -a / rsync -a / mv"),
        ("shutil.copytree(a, b, True)", "cp -a / rsync -a / mv"),
        ("cp -a notes lnk", "cp -a / rsync -a / mv"),
        ("cp --preserve=links a b", "cp -a / rsync -a / mv"),
        ("rsync -a src/ lnk", "cp -a / rsync -a / mv"),
        ("mv notes lnk", "cp -a / rsync -a / mv"),
        ('L=ln; $L -s "$(cat t)" lnk', "a program named by a variable"),
        ("import os as o; o.rename('sub/rel', 'rel')", "rename / move"),
        ("p = Path('sub/rel'); p.rename('rel')", "rename / move"),
        ("p.replace(target)", "rename / move"),
        ("require('fs/promises').rename('sub/rel', 'rel')", "rename / move"),
        ("const fsp = require('fs/promises'); await fsp.rename(a, b)", "rename / move"),
        ("-MFile::Copy -e move('sub/rel', 'rel')", "rename / move"),
        ("FileUtils.move('sub/rel', 'rel')", "rename / move"),
    ],
)
def test_p3_one_table_reads_each_languages_link_calls(code: str, shown: str) -> None:
    assert link_text(code) == shown, code


@pytest.mark.parametrize(
    "code",
    [
        "os.unlink(p); os.path.islink(p); os.readlink(p); Path(p).is_symlink()",
        "fs.unlinkSync(p); fs.readlinkSync(p); fs.lstatSync(p)",
        "os.stat(p, follow_symlinks=False); os.walk(d, followlinks=False)",
        "ln = len(xs); print(ln == 3, ln + 1)",
        "ls -ln; echo $ln; gcc -lnuma x.c",
        "cat a b > c && cp src/x dist/",
        "x = $a - $b; print(y)",
        "open('out/a.txt', 'w').write('see the link below')",
        "s = name.replace(' ', '_'); t = text.replace(old, new).strip()",
        "df = df.rename(columns={'a': 'b'}); df.rename({'a': 'b'}, axis=1)",
    ],
)
def test_p3_one_table_finds_no_link_in_code_making_none(code: str) -> None:
    assert link_text(code) is None, code
