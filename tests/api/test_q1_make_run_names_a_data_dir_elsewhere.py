"""Q-1: ``make run`` says where its data dir is, and why, when it is not the checkout's own.

The README has the user ``export MEMORY_API_DATA_DIR=$PWD/.data``; after the checkout moved,
``make run`` in that shell took the exported old path (the Makefile's ``?=``), made a new,
empty data dir there (no token: the service open again, none of the user's agents) and said
nothing but the path in passing (round 56's new-user run). ``make run`` passes the checkout's
``.data`` as ``--checkout-data``; the seed names the data dir in use, that
``MEMORY_API_DATA_DIR`` chose it, what the checkout's own holds and how to serve it.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from memory_api.checkout_data import elsewhere_note
from memory_api.cli import main

from tests.api.test_q1_demo_seed_after_the_checkout_moved import small_corpus


def seed(
    data_dir: Path, checkout_data: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    argv = ["demo", "seed", "--corpus", str(corpus), "--checkout-data", str(checkout_data)]
    assert main(argv) == 0


def test_q1_a_vanished_data_dir_named_elsewhere_stops_make_run_and_makes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The export from before the checkout moved names a folder that is gone, while the
    checkout's own ``.data`` holds the user's agents: the seed made that folder again and
    seeded a fresh data dir with the demo agent alone, and ``make run`` served it. It stops
    (exit 2, so ``make run`` starts no ``serve``) before making anything, saying what to do."""
    corpus = small_corpus(tmp_path / "corpus")
    moved = tmp_path / "src" / "agent-memory" / ".data"
    seed(moved, moved, corpus, monkeypatch)  # the checkout's own, as moved with it
    capsys.readouterr()
    gone = tmp_path / "agent-memory" / ".data"  # the export from before the move
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(gone))

    argv = ["demo", "seed", "--corpus", str(corpus), "--checkout-data", str(moved)]
    assert main(argv) == 2

    said = capsys.readouterr()
    assert not gone.parent.exists()
    assert said.out == ""
    assert f"data dir: {gone}, named by MEMORY_API_DATA_DIR" in said.err, said.err
    assert f"not this checkout's {moved} (agents: demo)" in said.err
    assert "it does not exist: nothing made" in said.err
    assert "unset MEMORY_API_DATA_DIR" in said.err
    assert f"mkdir -p {shlex.quote(str(gone))}" in said.err


def test_q1_a_data_dir_named_elsewhere_made_by_hand_is_seeded_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Made by hand (the way on the refusal names), or with the checkout's ``.data`` holding
    no agent, the named data dir is seeded as before, said first with why and the way back."""
    corpus = small_corpus(tmp_path / "corpus")
    moved = tmp_path / "src" / "agent-memory" / ".data"
    seed(moved, moved, corpus, monkeypatch)
    capsys.readouterr()
    chosen = tmp_path / "agent-memory" / ".data"
    chosen.mkdir(parents=True)

    seed(chosen, moved, corpus, monkeypatch)

    said = capsys.readouterr().out
    assert f"data dir: {chosen}, named by MEMORY_API_DATA_DIR" in said, said
    assert f"not this checkout's {moved}" in said
    assert "unset MEMORY_API_DATA_DIR" in said
    assert said.index("data dir:") < said.index("agent 'demo'")  # said first, not scrolled past
    fresh = tmp_path / "new" / ".data"  # the checkout's .data not made yet: nothing to lose
    seed(fresh, tmp_path / "clone" / ".data", corpus, monkeypatch)
    assert "it did not exist: made now, with the demo agent alone" in capsys.readouterr().out


def test_q1_the_checkouts_own_data_dir_adds_no_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = small_corpus(tmp_path / "corpus")
    own = tmp_path / "agent-memory" / ".data"

    seed(own, own, corpus, monkeypatch)

    assert "named by MEMORY_API_DATA_DIR" not in capsys.readouterr().out


def test_q1_the_make_run_it_suggests_is_quoted_for_the_shell(tmp_path: Path) -> None:
    """A checkout under ``old dir/``: the suggested ``make run MEMORY_API_DATA_DIR=…`` was
    printed bare, which the shell splits at the space; it is quoted as the shell reads it."""
    own = tmp_path / "old dir" / ".data"
    own.mkdir(parents=True)

    said = elsewhere_note(tmp_path / "elsewhere", own)

    assert f"make run MEMORY_API_DATA_DIR={shlex.quote(str(own))}\n" in said
    assert shlex.split(said.rsplit("or ", 1)[1]) == ["make", "run", f"MEMORY_API_DATA_DIR={own}"]
