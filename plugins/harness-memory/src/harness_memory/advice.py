"""The commands a message tells its user to run, built for whom it is said to (A-10, H-7).

A message is built once, by code that knows who reads it: :class:`Hooks` names the harness
whose hooks meet the failure and whether they are the managed ones (``install HARNESS
--managed``; no token of their own, each user's from ``harness-memory token set --managed``).
Each sentence then names the exact command to type (`` `harness-memory install codex --managed`
again``), and a message said outside any hook (a command run by hand, :data:`ANY_HOOKS`) names
the install of each harness. Nothing rewrites a finished message; only the program's name is
put as the user typed it, by :func:`~harness_memory.as_typed.as_typed`.

No regex, no import beyond the standard library: hooks import this module (H-5).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["ANY_HOOKS", "HARNESSES", "MANAGED_TOKEN_SET", "Hooks"]

HARNESSES = ("claude-code", "codex", "gemini")
"""The harnesses ``harness-memory install`` installs hooks into."""

MANAGED_TOKEN_SET = "`harness-memory token set --managed`"  # noqa: S105 (a command, no token)
"""The command that gives the managed hooks this account's token, as every hint names it (H-7):
``--managed`` writes the file they read in the account's home from the password database; the
bare ``token set`` writes ``$HOME``'s when ``$HOME`` names another folder, which they never read."""

_ANY = "HARNESS"


class Hooks(NamedTuple):
    """Whose hooks a message speaks of: ``harness`` (one of :data:`HARNESSES`; None: a command
    run by hand, for any harness's) and ``managed`` (installed with ``--managed``). A tuple, so
    that a hook process imports no ``dataclasses`` for it (H-5)."""

    harness: str | None = None
    managed: bool = False

    def install(self) -> str:
        """The install to run again, in backticks: `` `harness-memory install codex --managed`
        again``; for no harness, each's (``HARNESS: claude-code, codex or gemini``)."""
        flag = " --managed" if self.managed else ""
        said = f"`harness-memory install {self.harness or _ANY}{flag}` again"
        every = f"{', '.join(HARNESSES[:-1])} or {HARNESSES[-1]}"
        return said if self.harness else f"{said} (HARNESS: {every})"

    def install_with(
        self,
        url: str | None,
        project: str | None,
        agent: str | None,
        memory_root: str | None,
        *,
        remote: bool = False,
        managed_dir: str | None = None,
        extra: tuple[str, ...] = (),
    ) -> str:
        """The install that writes these hooks with these settings, in backticks, every flag it
        needs named (an install given any of them takes none from installed hooks, and with
        none installed it has nothing to take: H-3): `` `harness-memory install claude-code
        --url U --project P --agent A --memory-root ROOT` ``; ``remote``: ``--remote U`` and no
        root; managed hooks: ``--managed`` and their ``managed_dir`` when given. A value not
        known is its placeholder (``URL``, ``P``, ``A``, ``ROOT``); a known one is quoted for
        the shell. ``url`` as the caller may show it (``shown_url``). ``extra``: the further
        flags the hooks were installed with, each word as it is to be shown (``--timeout 7``,
        ``--url-id-not-secret``)."""
        import shlex  # only where this is said: a hook process never loads it otherwise (H-5)

        def said(value: str | None, placeholder: str) -> str:
            return placeholder if not value else shlex.quote(value)

        where = f"--remote {said(url, 'URL')}" if remote else f"--url {said(url, 'URL')}"
        words = [f"harness-memory install {self.harness or _ANY}"]
        words += ["--managed"] if self.managed else []
        words += [shlex.quote(managed_dir)] if self.managed and managed_dir else []
        words += [where, f"--project {said(project, 'P')}", f"--agent {said(agent, 'A')}"]
        words += [] if remote else [f"--memory-root {said(memory_root, 'ROOT')}"]
        words += extra
        return f"`{' '.join(words)}`"

    def give_token(self) -> str:
        """How these hooks get a token the service takes: the managed hooks' file
        (:data:`MANAGED_TOKEN_SET`), else the install again given it in ``HARNESS_MEMORY_TOKEN``
        (it writes the token file where the hooks read it, in or out of a work tree)."""
        if self.managed:
            return f"run {MANAGED_TOKEN_SET} to give them a token it takes"
        return f"give a token it takes in HARNESS_MEMORY_TOKEN and run {self.install()}"

    def token_again(self) -> str:
        """What a 401 says to do for installed hooks (A-10)."""
        whose = "managed hooks" if self.managed else "installed hooks"
        return f"{whose}: {self.give_token()}"

    def no_agent(self) -> str:
        """What a 404 for the agent says to do for installed hooks: install them again with
        the right project and agent, naming every flag that install needs (one given any of
        its settings takes none from the installed hooks: H-3)."""
        whose = "managed hooks" if self.managed else "installed hooks"
        flag = " --managed" if self.managed else ""
        command = (
            f"`harness-memory install {self.harness or _ANY}{flag} --project P --agent A "
            "--url URL --memory-root ROOT`"
        )
        every = "" if self.harness else f"; HARNESS: {', '.join(HARNESSES[:-1])} or {HARNESSES[-1]}"
        return (
            f"{whose}: run {command} with the right ones (an install given any of its settings "
            "takes none from the installed hooks: `harness-memory status` shows theirs; remote "
            f"mode: --remote URL for --url and --memory-root){every}"
        )

    def no_token_give(self) -> str:
        """Where a 401 to a request that sent no token says to give one, for a command run by
        hand; nothing for a harness's hooks, which run with ``--flags-only`` (no variable is
        read) and get their token file from their own install (:meth:`token_again` names it),
        nor for the managed hooks, whose one way is :data:`MANAGED_TOKEN_SET`."""
        if self.managed or self.harness:
            return ""
        return (
            "give this service's token in a --token-file (`harness-memory install` keeps yours "
            "in harness-memory/token beside the harness's settings, ~/.claude/harness-memory/"
            "token for Claude Code) or, without --flags-only, in HARNESS_MEMORY_TOKEN; "
        )

    def new_token(self, url: str, install: str | None = None) -> str:
        """The command that gives the service at ``url`` its token, for an install that
        dropped another's (A-10): the install again, given it in ``HARNESS_MEMORY_TOKEN``;
        for the managed hooks :data:`MANAGED_TOKEN_SET`. ``install``: the whole install asked
        for, in backticks (:meth:`install_with`), for one refused before it wrote the hooks
        (which still name the earlier service): that install given the token."""
        if self.managed:
            return f"{MANAGED_TOKEN_SET} (reads it from stdin)"
        if install:
            return f"`HARNESS_MEMORY_TOKEN=… {install.strip('`')}`"
        return f"`HARNESS_MEMORY_TOKEN=… harness-memory install {self.harness or _ANY}` again"

    def another_service(
        self, before: str, url: str, *, dry_run: bool = False, install: str | None = None
    ) -> str:
        """Why an install dropped (``dry_run``: would drop; the hooks no longer get it, its
        file removed unless other hooks read it) the token of the hooks installed before: it
        was given for the service at ``before``, not ``url`` (A-10), and how to give ``url``'s.
        Both URLs as the caller shows them (``shown_url``: never a password or an id);
        ``install`` as :meth:`new_token` takes it."""
        verb = "would drop" if dry_run else "dropped"
        return (
            f"{verb} the earlier hooks' bearer token: it was given for the "
            f"service at {before}, not {url} (A-10: a token is never sent to another service); "
            f"give {url}'s token: {self.new_token(url, install)}"
        )

    def unknown_service(
        self, url: str, *, dry_run: bool = False, install: str | None = None
    ) -> str:
        """Why an install dropped (``dry_run``: would drop) the token of hooks installed
        before that name no one service URL: it is not known to be ``url``'s (A-10);
        ``install`` as :meth:`new_token` takes it."""
        verb = "would drop" if dry_run else "dropped"
        return (
            f"{verb} the earlier hooks' bearer token: they name no one service "
            f"URL, so it is not known to be {url}'s (A-10); give {url}'s token: "
            f"{self.new_token(url, install)}"
        )


ANY_HOOKS = Hooks()
"""A message said outside any hook: it names the install of each harness."""
