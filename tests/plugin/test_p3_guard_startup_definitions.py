"""P-3: what a shell's startup files define counts as defined in the command (round 57).

The guard reads ``$(nproc)`` as one fresh name only while nothing may make ``nproc`` another
program. A shell runs its startup files first: a ``nproc`` function in ``~/.bashrc`` (written
in an earlier call) made ``bash -ic 'cp note.md "$MEM/own/$(nproc).md"'`` write where the function
says, ``../<other scope>/n``, while the guard read a file in the Session's own scope. The
harnesses run the agent's command through such a shell themselves: Codex CLI as ``bash -lc``
(the login profiles), Claude Code after a snapshot of what a login shell's profiles and
``~/.bashrc`` define, Gemini CLI as ``bash -c`` (no startup file but ``BASH_ENV``). Each form below
was let through before; each harness whose shell runs the file now refuses it (the others still
allow it: their shell never reads that file), and one bash run proves the refused form writes into
the other scope. Everyday writes with ``$(date +%F)`` under real homes:
``test_p3_guard_real_startup_files``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.support.guard_cases import Layout, fill, refusals_by_every_harness

WRITE = 'cp note.md "{root}/{own}/$(nproc).md"'
"""A copy into the Session's own scope, named by what ``nproc`` prints."""
NPROC = "nproc() {{ cat ~/target; }}\n"
"""A ``nproc`` printing the path ``~/target`` holds: into the other scope (:func:`_write`),
its text naming no memory."""
EVERY = {"claude-code", "codex", "gemini"}


def _write(where: Layout, name: str, text: str) -> Path:
    """Write ``text`` (filled with the layout) to ``name`` in the home (the data dir), and
    ``~/target``: the path into the other scope :data:`NPROC` prints."""
    (where.data / "target").write_text(f"../{where.other}/n\n", encoding="utf-8")
    path = where.data / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(fill(text, where), encoding="utf-8")
    return path


def _copied_by_bash(where: Layout, flag: str, command: str) -> str | None:
    """Run ``command`` (filled) by ``bash FLAG`` (``-ic``, ``-lc``: the startup files it
    runs) in the Workspace, the home the data dir, after writing ``note.md`` (``n``) there;
    the text of ``n.md`` in the other scope after it (None: none written)."""
    (where.workspace / "note.md").write_text("n\n", encoding="utf-8")
    environment = {"HOME": str(where.data), "PATH": os.environ["PATH"]}
    subprocess.run(
        ["bash", flag, fill(command, where)],
        cwd=where.workspace,
        env=environment,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=True,
    )
    copied = where.root / where.other / "n.md"
    return copied.read_text(encoding="utf-8") if copied.exists() else None


def _refusing(where: Layout, command: str) -> set[str]:
    """The harnesses refusing ``command`` (filled)."""
    answers = refusals_by_every_harness(where, fill(command, where))
    return {harness for harness, reason in answers.items() if reason is not None}


@pytest.mark.parametrize(
    ("files", "command", "refusing"),
    [
        ({".bashrc": NPROC}, f"bash -ic '{WRITE}'", EVERY),
        ({".bash_profile": NPROC}, f"bash -lc '{WRITE}'", EVERY),
        ({".profile": NPROC}, f"sh -lc '{WRITE}'", EVERY),
        ({".bashrc": "alias true=':'\n. ~/defs.sh\n", "defs.sh": NPROC}, WRITE, {"claude-code"}),
        ({".bashrc": "alias nproc='cat ~/target'\n"}, WRITE, {"claude-code"}),
        ({".profile": NPROC}, WRITE, {"codex", "claude-code"}),
        (
            {".profile": 'PATH="$HOME/bin:$PATH"\n', "bin/nproc": "#!/bin/sh\n"},
            WRITE,
            {"codex", "claude-code"},
        ),
        ({".bashrc": "enable -f ~/lib/nproc.so nproc\n"}, WRITE, {"claude-code"}),
        (
            {".profile": 'PATH="$HOME/bin${{PATH:+:${{PATH}}}}"\n', "bin/nproc": "#!/bin/sh\n"},
            WRITE,
            {"codex", "claude-code"},
        ),
        (
            {".profile": "PS1='$ '\n. ~/.bashrc\n", ".bashrc": '[ -z "$PS1" ] && return\n' + NPROC},
            WRITE,
            {"codex", "claude-code"},
        ),
        (
            {
                ".profile": "shopt -s expand_aliases\nalias return=:\n. ~/.bashrc\n",
                ".bashrc": "case $- in *i*) ;; *) return;; esac\n" + NPROC,
            },
            WRITE,
            {"codex", "claude-code"},
        ),
        (
            {".bash_profile": "cd ~ && . .defs; cd - >/dev/null\n", ".defs": NPROC},
            WRITE,
            {"codex", "claude-code"},
        ),
        (
            {".profile": 'PATH="$HOME/bin:$PATH"\nln -sf ~/nproc.x ~/bin/nproc\n', "bin/.keep": ""},
            WRITE,
            {"codex", "claude-code"},
        ),
    ],
    ids=[
        "bash-ic-bashrc",
        "bash-lc-bash_profile",
        "sh-lc-profile",
        "claude-snapshot-sourced",
        "claude-snapshot-alias",
        "login-profile",
        "login-profile-path",
        "claude-snapshot-enable",
        "login-profile-path-alternative",
        "ps1-set-before-the-cut",
        "return-aliased-before-the-cut",
        "sourced-after-cd-home",
        "path-folder-filled-by-the-profile",
    ],
)
def test_p3_a_startup_file_s_definition_makes_a_printed_name_untrusted(
    where: Layout, files: dict[str, str], command: str, refusing: set[str]
) -> None:
    for name, text in files.items():
        _write(where, name, text)

    assert _refusing(where, command) == refusing


def test_p3_the_environment_s_env_file_counts_for_an_interactive_sh(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ENV`` names the file an interactive ``sh`` runs first (``sh -ic``)."""
    monkeypatch.setenv("ENV", str(_write(where, "shrc", NPROC)))

    assert _refusing(where, f"sh -ic '{WRITE}'") == EVERY


@pytest.mark.parametrize(
    "make",
    [
        lambda path: path.write_bytes(b"x" * (1_048_576 + 1)),
        lambda path: os.mkfifo(path),
    ],
    ids=["longer-than-read", "a-fifo"],
)
def test_p3_a_startup_file_the_guard_cannot_read_defines_any_name(
    where: Layout, make: object
) -> None:
    """A ``~/.bashrc`` past the bound (1 MiB) or no regular file: it may define ``nproc``."""
    assert callable(make)
    make(where.data / ".bashrc")

    assert _refusing(where, WRITE) == {"claude-code"}


def test_p3_a_startup_file_the_same_command_writes_counts(where: Layout) -> None:
    """``cp defs ~/.bashrc`` then a shell that runs it, in one command: the name ``nproc``
    prints is no longer trusted (the run-time name refused), not only the write of a file a
    shell then runs."""
    _write(where, "defs", NPROC)

    answers = refusals_by_every_harness(
        where, fill(f"cp ~/defs ~/.bashrc; bash -ic '{WRITE}'", where)
    )

    assert {
        harness: "a path built at run time" in (reason or "") for harness, reason in answers.items()
    } == dict.fromkeys(EVERY, True)


@pytest.mark.parametrize(
    "command",
    [
        'aws --profile prod s3 ls > "{root}/{own}/s3-$(date +%F).md"',
        'cargo build --profile release > "{root}/{own}/b-$(date +%F).md"',
        'echo "see ~/.bashrc" > "{root}/{own}/n-$(date +%F).md"',
    ],
    ids=["aws-profile", "cargo-profile", "echo-bashrc"],
)
def test_p3_a_startup_file_s_name_in_a_command_starting_no_shell_keeps_the_name_trusted(
    where: Layout, command: str
) -> None:
    """``profile``/``bashrc`` in a command that starts no shell: no shell of this call runs a
    startup file after it (the harness's ran before), the dated name is still trusted."""
    _write(where, ".profile", 'PATH="$HOME/.local/bin:$PATH"\n')

    assert _refusing(where, command) == set()


def test_p3_a_system_s_startup_file_and_a_plain_home_keep_the_name_trusted(
    where: Layout,
) -> None:
    """A ``~/.bashrc`` defining other functions and aliases (``ll``), a ``PATH`` folder with no
    such program: ``$(nproc)`` is still the system's, the copy into the own scope allowed."""
    _write(where, ".bashrc", 'alias ll=\'ls -alF\'\nmkcd() {{ mkdir -p "$1" && cd "$1"; }}\n')
    _write(where, ".profile", 'PATH="$HOME/.local/bin:$PATH"\n. ~/.bashrc\n')
    (where.data / ".local" / "bin").mkdir(parents=True)

    assert _refusing(where, f"bash -ilc '{WRITE}'") == set()


def test_p3_bash_runs_the_startup_file_s_function_and_writes_into_the_other_scope(
    where: Layout,
) -> None:
    """The refused form is a real bypass: ``bash -ic`` runs ``~/.bashrc``'s ``nproc``."""
    _write(where, ".bashrc", NPROC)

    assert _copied_by_bash(where, "-ic", WRITE) == "n\n"


CP = 'cp() {{ command cp "$1" "$(dirname "$2")/$(cat ~/target).md"; }}\n'
"""A ``cp`` putting the copy where ``~/target`` says: into the other scope."""
CD = 'cd() {{ builtin cd "$@" && builtin cd "$(dirname "$(cat ~/target)")"; }}\n'
"""A ``cd`` going on into the folder ``~/target`` names: the other scope."""
COPY = 'cp note.md "{root}/{own}/a.md"'
"""A copy into the Session's own scope by its literal path."""


@pytest.mark.parametrize(
    ("files", "command", "refusing"),
    [
        ({".bashrc": CP, ".profile": CP}, COPY, {"codex", "claude-code"}),
        ({".bashrc": "alias cp='cp -t {root}/{other}'\n"}, COPY, {"claude-code"}),
        (
            {".profile": CD},
            'cd "{root}/{own}" && cp {workspace}/note.md a.md',
            {"codex", "claude-code"},
        ),
        (
            {
                ".profile": 'PATH="$HOME/bin:$PATH"\n',
                "bin/cp": "#!/bin/sh\ncp \"$1\" '$(cat ~/target)'\n",
            },
            COPY,
            {"codex", "claude-code"},
        ),
        ({".bashrc": "echo() {{ :; }}\n. ~/defs.sh\n", "defs.sh": CP}, COPY, {"claude-code"}),
    ],
    ids=["cp-function", "cp-alias", "cd-function", "path-folder-cp", "sourced-cp-function"],
)
def test_p3_a_startup_file_s_definition_of_a_name_the_command_runs_is_judged_as_written_in_it(
    where: Layout, files: dict[str, str], command: str, refusing: set[str]
) -> None:
    """A function or alias of ``cp``/``cd`` a startup file defines (or a ``cp`` in a ``PATH``
    folder it adds), judged as the same definition written in the command: refused by each
    harness whose shell runs that file (review57a A1-A4)."""
    for name, text in files.items():
        _write(where, name, text)
    (where.data / "bin").mkdir(exist_ok=True)
    for program in (where.data / "bin").iterdir():
        program.chmod(0o755)

    assert _refusing(where, command) == refusing


HELD_CP = '#!/bin/sh\nexec /bin/cp "$1" "$(dirname "$2")/$(cat ~/target).md"\n'
"""A ``cp`` in ``~/bin`` putting the copy where ``~/target`` says: into the other scope."""


def _hold_cp(where: Layout) -> None:
    """``~/.profile`` puts ``~/bin`` first on ``PATH``; ``~/bin/cp`` is :data:`HELD_CP`."""
    _write(where, ".profile", 'PATH="$HOME/bin:$PATH"\n')
    _write(where, "bin/cp", HELD_CP).chmod(0o755)


@pytest.mark.parametrize(
    "command",
    [
        f"env {COPY}",
        f"nice -n 5 {COPY}",
        'echo note.md | xargs -I{{}} cp {{}} "{root}/{own}/a.md"',
        'find . -name note.md -exec cp {{}} "{root}/{own}/a.md" \\;',
        f"shopt -s expand_aliases\nalias c=cp\n{COPY.replace('cp ', 'c ', 1)}",
    ],
    ids=["env", "nice", "xargs", "find-exec", "alias"],
)
def test_p3_a_path_folder_s_program_run_through_a_wrapper_or_alias_is_judged(
    where: Layout, command: str
) -> None:
    """``~/bin/cp`` (a ``PATH`` folder the profile adds) run through a wrapper, ``xargs``,
    ``find -exec`` or an alias the command defines: each runs it as bash looks it up, so each
    is refused by the harnesses whose shell runs the profile (quality58: a set of names
    narrowed to those the reader takes as a command's name let the last three through)."""
    _hold_cp(where)

    assert _refusing(where, command) == {"codex", "claude-code"}


def test_p3_bash_lc_runs_a_path_folder_s_cp_through_xargs_into_the_other_scope(
    where: Layout,
) -> None:
    """The refused form is a real bypass: Codex's ``bash -lc`` puts ``~/bin`` first, and the
    ``cp`` that ``xargs`` runs is ``~/bin/cp``."""
    _hold_cp(where)
    _write(where, "target", f"../{where.other}/n\n")
    command = 'echo note.md | xargs -I{{}} cp {{}} "{root}/{own}/a.md"'

    assert _copied_by_bash(where, "-lc", command) == "n\n"
    assert not (where.root / where.own / "a.md").exists()


UBUNTU_PROFILE = (
    'if [ -d "$HOME/bin" ] ; then\n    PATH="$HOME/bin:$PATH"\nfi\n'
    'if [ -d "$HOME/.local/bin" ] ; then\n    PATH="$HOME/.local/bin:$PATH"\nfi\n'
)
"""Ubuntu's ``~/.profile`` (its ``PATH`` part): ``~/bin`` and ``~/.local/bin`` put first."""
PIP_SCRIPT = (
    "#!/usr/bin/python3\nimport re\nimport sys\nfrom {module} import main\n"
    "if __name__ == '__main__':\n    sys.exit(main())\n"
)
"""A console script as ``pip install --user`` writes it into ``~/.local/bin``."""


def _user_tools(where: Layout) -> None:
    """A home after ``pip install --user pytest pip black ruff`` (their scripts in
    ``~/.local/bin``) with ``~/bin/cp`` (:data:`HELD_CP`), under :data:`UBUNTU_PROFILE`."""
    _write(where, ".profile", UBUNTU_PROFILE)
    for name in ("pytest", "pip", "black", "ruff"):
        _write(where, f".local/bin/{name}", PIP_SCRIPT.replace("{module}", name)).chmod(0o755)
    _write(where, "bin/cp", HELD_CP).chmod(0o755)


@pytest.mark.parametrize(
    "command",
    [
        "python3 -m pytest -q tests/unit",
        'python3 -m pip install --user black ruff && echo ok >> "{root}/{own}/a.md"',
        'echo cp > "{root}/{own}/a.md"',
        'git commit -m "fix cp" && echo done >> "{root}/{own}/a.md"',
        "printf '%s\\n' pytest black ruff >> \"{root}/{own}/tools.md\"",
        "find ./src -name '*.py' | xargs grep -l pytest > \"{root}/{own}/hits.md\"",
        "git commit -m \"$(cat <<'EOF'\nfix: don't cp the file\nEOF\n)\" && echo ok >> a.md",
        'git commit -m "$(cat <<EOF\nfix: don\'t cp $(date +%F)\nEOF\n)"',
        "cat >> \"{root}/{own}/notes.md\" <<'EOF'\nit's the cp tool, don't pytest\nEOF",
        "sed -i 's/cp/mv/' Makefile",
        "sed -i -e 's/cp -r/cp -a/g' -e 's/pytest/pytest -q/' Makefile",
        "sed -i 's/cp/mv/g;s/black/ruff/' Makefile && git diff --stat",
    ],
    ids=[
        "python-m-pytest",
        "python-m-pip",
        "echo-cp",
        "git-commit-message",
        "printf-names",
        "find-folder-dot",
        "git-commit-here-document",
        "git-commit-unquoted-here-document",
        "here-document-with-apostrophes",
        "sed-script",
        "sed-scripts",
        "sed-scripts-joined",
    ],
)
def test_p3_a_data_word_naming_a_path_folder_s_program_is_no_reason_to_refuse(
    where: Layout, command: str
) -> None:
    """A word that only names data (a module, a printed word, a commit message) runs no
    program of its name: ``~/.local/bin/pytest`` or ``~/bin/cp`` is not judged for it, and
    every harness allows the command (overref58: Codex and Claude Code refused each, the
    module saying the script ``~/.local/bin/pytest`` was written by the same command; nor is
    the folder ``.`` ``find`` searches the builtin ``.``: review58f). Round 59: nor does the
    body of a here-document a program reads as data (``git commit -m "$(cat <<'EOF' …)"``,
    ``cat >> notes.md <<'EOF'``; an apostrophe in it made the command unreadable, every word
    run), nor a ``sed`` script that only substitutes (``s/cp/mv/``): Codex and Claude Code
    refused each."""
    _user_tools(where)

    assert _refusing(where, command) == set()


@pytest.mark.parametrize(
    "command",
    [
        'echo cp note.md "{root}/{own}/a.md" | bash',
        '$(echo cp) note.md "{root}/{own}/a.md"',
        'echo start\ncp note.md "{root}/{own}/a.md"',
        'echo start; time cp note.md "{root}/{own}/a.md"',
        'printf x | xargs -I{{}} cp note.md "{root}/{own}/a.md"',
        "python3 -c \"import os; os.system('cp note.md {root}/{own}/a.md')\"",
        'printf -v c cp; $c note.md "{root}/{own}/a.md"',
        'echo x; command cp note.md "{root}/{own}/a.md"',
        'echo x # \\\ncp note.md "{root}/{own}/a.md"',
        'echo cp note.md "{root}/{own}/a.md" > f; xargs env < f',
        'echo cp > f; xargs -a f -I{{}} env {{}} note.md "{root}/{own}/a.md"',
        'echo cp > f; read -r c < f; $c note.md "{root}/{own}/a.md"',
        "python3 -m pylint --init-hook=\"import os; os.system('cp note.md {root}/{own}/a.md')\" x",
        'shopt -s expand_aliases\nalias echo=""\necho cp note.md "{root}/{own}/a.md"',
        'shopt -s expand_aliases\nalias grep="env"\ngrep cp note.md "{root}/{own}/a.md"',
        'echo() {{ "$@"; }}; echo cp note.md "{root}/{own}/a.md"',
        'grep() {{ env "$@"; }}; grep cp note.md "{root}/{own}/a.md"',
        "bash <<'EOF'\ncp note.md \"{root}/{own}/a.md\"\nEOF",
        "cat <<'EOF' | sh\ncp note.md \"{root}/{own}/a.md\"\nEOF",
        "sed -i 's|^|cp note.md {root}/{own}/a.md|e' note.md",
        "sed -n '1e cp note.md {root}/{own}/a.md' note.md",
    ],
    ids=[
        "echo-piped",
        "echo-substituted",
        "next-line",
        "keyword",
        "xargs",
        "code",
        "printf-v",
        "command",
        "after-a-comment-ending-in-a-backslash",
        "xargs-reading-a-file",
        "xargs-a-file",
        "read-from-a-file",
        "pylint-init-hook",
        "echo-aliased-away",
        "grep-aliased-to-env",
        "echo-a-function-running-its-words",
        "grep-a-function-running-env",
        "here-document-a-shell-runs",
        "here-document-piped-into-a-shell",
        "sed-substitution-run",
        "sed-e-command",
    ],
)
def test_p3_a_path_folder_s_program_named_beside_data_words_is_still_judged(
    where: Layout, command: str
) -> None:
    """Where a data word's program may run after all (its text piped into a shell, or a
    command's name made of it or of the variable ``printf -v`` sets; on the next line; through
    a keyword, ``command``, ``xargs``, Python's ``os.system``; after a comment ending in a
    backslash, which continues no line; printed into a file ``xargs`` or ``read`` reads back;
    in ``pylint``'s ``--init-hook`` code; the words of an ``echo`` or ``grep`` the command makes
    an alias or a function running them: review58f), ``~/bin/cp`` is judged and refused as
    before."""
    _user_tools(where)
    starts_a_shell = command.endswith("| bash")  # its startup files read for every harness

    refusing = _refusing(where, command)
    # a command name made at run time (``$(echo cp)``, ``printf -v c``, ``read c``) is refused
    # by Gemini too, for being split at run time (subst58)
    assert refusing == EVERY if starts_a_shell else refusing >= {"codex", "claude-code"}


def test_p3_a_path_folder_s_reader_named_only_in_data_leaves_the_data_words_data(
    where: Layout,
) -> None:
    """``~/bin/ls`` or ``~/bin/grep`` (a reader whose words are data while it is the system's)
    named only inside a ``sed`` script or a commit message is not run: the other words stay
    data, so ``~/bin/cp`` is not judged for ``s/cp/mv/`` (round 59: a held reader anywhere in
    the command's text made every word count). One the command runs still makes them count."""
    _user_tools(where)
    for name in ("ls", "grep"):
        _write(where, f"bin/{name}", f'#!/bin/sh\nexec /bin/{name} "$@"\n').chmod(0o755)

    assert _refusing(where, "sed -i 's/cp/mv/g;s/ls/ls -l/' Makefile") == set()
    assert _refusing(where, 'git commit -m "use grep, not cp"') == set()
    assert _refusing(where, "ls cp") >= {"codex", "claude-code"}


def test_p3_a_path_folder_s_program_a_program_the_guard_cannot_read_is_given_is_said_so(
    where: Layout,
) -> None:
    """``pytest -q && python3 tools/fmt.py pytest`` runs ``~/.local/bin/pytest``, and Python,
    which the guard does not read, is given its name: refused, saying that it may write it,
    not that the command writes it (overref58: the detail said it was written), in one
    clause after "cannot judge:" (round 59: "it may be written by the same command: a
    program …" put a second colon in the sentence)."""
    _user_tools(where)

    answers = refusals_by_every_harness(where, "pytest -q && python3 tools/fmt.py pytest")

    for harness in ("codex", "claude-code"):
        reason = answers[harness] or ""
        assert "may be written by the same command, as a program the guard does not read" in (
            reason
        )
        assert "it is written by the same command" not in reason
        assert reason.partition("cannot judge: ")[2].split(". ")[0].count(":") == 0, reason


def test_p3_a_home_s_everyday_aliases_keep_a_plain_write_allowed(where: Layout) -> None:
    """Debian's ``ls``/``grep`` colour aliases and a ``ll``: the write with ``ls``, ``grep``
    into the own scope is still allowed by every harness."""
    _write(
        where,
        ".bashrc",
        "alias ls='ls --color=auto'\nalias grep='grep --color=auto'\nalias ll='ls -alF'\n",
    )
    _write(where, ".profile", ". ~/.bashrc\n")

    command = 'ls -la | grep md > "{root}/{own}/files-$(date +%F).md"'
    assert _refusing(where, command) == set()


def test_p3_bash_lc_runs_the_profile_s_cp_function_into_the_other_scope(where: Layout) -> None:
    """The refused form is a real bypass: Codex's ``bash -lc`` runs ``~/.profile``'s ``cp``."""
    _write(where, ".profile", CP)

    assert _copied_by_bash(where, "-lc", COPY) == "n\n"


@pytest.mark.parametrize(
    ("files", "command"),
    [
        ({".zshenv": NPROC}, f"zsh -c '{WRITE}'"),
        ({".zshrc": NPROC}, f"zsh -ic '{WRITE}'"),
        ({".kshrc": NPROC}, f"ksh -ic '{WRITE}'"),
    ],
    ids=["zsh-zshenv", "zsh-zshrc", "ksh-kshrc"],
)
def test_p3_a_zsh_or_ksh_the_command_starts_has_its_startup_files_read(
    where: Layout, files: dict[str, str], command: str
) -> None:
    """zsh runs ``~/.zshenv`` for every shell (``~/.zshrc`` interactive), ksh ``~/.kshrc``
    (review57a, 7): their definitions count as bash's do."""
    for name, text in files.items():
        _write(where, name, text)

    assert _refusing(where, command) == EVERY


def test_p3_claude_code_with_zsh_as_its_shell_reads_zsh_s_files(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claude Code's snapshot is taken by the user's ``SHELL``: zsh reads ``~/.zshenv``."""
    monkeypatch.setenv("SHELL", "/bin/zsh")
    _write(where, ".zshenv", NPROC)

    assert _refusing(where, WRITE) == {"claude-code"}


def test_p3_a_shell_started_through_a_link_has_its_startup_files_read(where: Layout) -> None:
    """``~/b2`` a link to ``/bin/bash`` (made in an earlier call): ``~/b2 -ic`` is bash -ic
    (review57a B)."""
    _write(where, ".bashrc", NPROC)
    (where.data / "b2").symlink_to("/bin/bash")

    assert _refusing(where, f"~/b2 -ic '{WRITE}'") == EVERY


PROFILE = ". ~/.bashrc\n"
"""A ``~/.profile`` running ``~/.bashrc`` (Codex's login shell reads it too)."""
GIT_CLONE = (
    'git() {{ if [ "$1" = clone ]; then command git clone --recursive "${{@:2}}"; '
    'else command git "$@"; fi; }}\n'
)
"""A ``git`` cloning with its submodules, passing every other call through."""


@pytest.mark.parametrize(
    ("bashrc", "command"),
    [
        ('cp() {{ command cp -i "$@"; }}\n', "mkdir -p build && cp note.md build/"),
        ('mv() {{ command mv -i "$@"; }}\n', "mv note.md b.md"),
        ('rm() {{ /bin/rm -i "$@"; }}\n', "rm -f x.txt"),
        ('touch() {{ command touch "$@"; }}\nln() {{ command ln -i "$@"; }}\n', "touch a.txt"),
        (GIT_CLONE, "git status"),
        (GIT_CLONE, "git log > log.txt"),
        ('tee() {{ command tee "$@"; }}\n', "pytest -q | tee log.txt"),
        ("alias pytest='python -m pytest'\n", "pytest -q | tee log.txt"),
        ('cd() {{ builtin cd "$@" && ls -F; }}\n', "cd src && make > build.log"),
        ('cd() {{ builtin cd "$@" || return; }}\n', 'cp note.md "{root}/{own}/a.md"'),
    ],
    ids=[
        "cp-i",
        "mv-i",
        "rm-i-by-path",
        "touch-ln",
        "git-status",
        "git-log",
        "tee",
        "pytest-alias",
        "cd-ls",
        "cd",
    ],
)
def test_p3_a_startup_file_s_pass_through_wrapper_keeps_everyday_commands_allowed(
    where: Layout, bashrc: str, command: str
) -> None:
    """A ``~/.bashrc`` wrapping a program in a function that runs the program itself with
    literal options and all its arguments (``cp() { command cp -i "$@"; }``) is read as the
    alias it amounts to: the everyday commands it wraps stay allowed by every harness
    (review57g, 1: refused before, its ``"$@"`` read as a program named at run time)."""
    _write(where, ".bashrc", bashrc)
    _write(where, ".profile", PROFILE)
    (where.workspace / "note.md").write_text("n\n", encoding="utf-8")

    assert _refusing(where, command) == set()


PAD = ": " + "x" * 70_000 + "\n"
"""A line making a startup file longer than the bound past which its scripts were not followed."""


@pytest.mark.parametrize(
    ("files", "command", "refusing"),
    [
        ({".bashrc": 'cp() {{ command cp -t "{root}/{other}" "$@"; }}\n'}, COPY, {"claude-code"}),
        ({".bashrc": "c\\\n" + CP[1:], ".profile": PROFILE}, COPY, {"codex", "claude-code"}),
        ({".bashrc": "alias c\\\np='cp -t {root}/{other}'\n"}, COPY, {"claude-code"}),
        ({".bashrc": PAD + ". ~/defs\n", "defs": NPROC}, WRITE, {"claude-code"}),
        ({".bashrc": PAD + ". ~/defs\n", "defs": CP}, COPY, {"claude-code"}),
        ({".profile": 'PATH=":$PATH"\n'}, WRITE, {"codex", "claude-code"}),
        (
            {".profile": 'PATH="bin:$PATH"\n', "../src/my-app/bin/cp": "#!/bin/sh\n"},
            COPY,
            {"codex", "claude-code"},
        ),
        (
            {".bashrc": 'cp() {{ command cp -t ../{other} "$@"; }}\n', ".profile": PROFILE},
            'cd "{root}/{own}" && cp "{workspace}/note.md" a.md',
            {"codex", "claude-code"},
        ),
        (
            {
                ".bashrc": 'cp() {{ command cp\nsh "$@"; }}\n',
                ".profile": PROFILE,
                "../src/my-app/s.sh": "cp note.md {root}/{other}/s2.md\n",
            },
            "cp s.sh a.md",
            {"codex", "claude-code"},
        ),
        (
            {
                ".bashrc": GIT_CLONE.replace("--recursive", "--separate-git-dir={root}/{other}/g"),
                ".profile": PROFILE,
            },
            "git c{{l,}}one cone dst",
            {"codex", "claude-code"},
        ),
    ],
    ids=[
        "wrapper-with-a-target-folder",
        "function-name-split-by-a-continuation",
        "alias-name-split-by-a-continuation",
        "long-file-sourcing-nproc",
        "long-file-sourcing-cp",
        "empty-path-folder",
        "relative-path-folder",
        "wrapper-with-a-relative-target-folder",
        "wrapper-body-over-two-lines",
        "git-wrapper-clone-by-brace-expansion",
    ],
)
def test_p3_a_startup_file_s_hidden_definition_is_still_judged(
    where: Layout, files: dict[str, str], command: str, refusing: set[str]
) -> None:
    """A wrapper naming its own destination (``cp -t DIR "$@"``), a name split by a line
    continuation (``c\\`` then ``p() {…}``), a definition in a file a startup file past 64 KiB
    sources, and a relative or empty ``PATH`` folder (found from the Workspace the shell
    starts in): each refused by the harnesses whose shell runs the file (review57g 4/5/7)."""
    for name, text in files.items():
        _write(where, name, text).chmod(0o755)

    assert _refusing(where, command) == refusing
