"""A-10: the documented way to put the real token into ``deploy/k8s/secret.yaml`` leaves the
secret readable by no other local user.

docs/deploy.md (Kubernetes, step 1) and the file's own comment gave ``kubectl create secret …
--from-literal=tokens="admin=$(python3 …)" … > deploy/k8s/secret.yaml``: the file is tracked,
so a clone has it ``0644`` and the redirection keeps that mode (the live admin secret readable
by every account of the machine), and the secret was a word of ``kubectl``'s command line
(``ps`` shows it to every account while it runs). Each documented form is run here as written,
by ``sh``, in a copy whose ``secret.yaml`` is ``0644`` as a clone's is, with a ``kubectl``
stand-in on ``PATH`` that records its words and answers what ``kubectl create secret
--dry-run=client -o yaml`` prints (the ``--from-file`` key's bytes, base64).
"""

from __future__ import annotations

import base64
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SECRET = "deploy/k8s/secret.yaml"
KUBECTL = """import base64, json, sys
from pathlib import Path
Path(sys.argv[1]).write_text(json.dumps(sys.argv[2:]), encoding="utf-8")
files = [w.split("=", 2)[2] for w in sys.argv[2:] if w.startswith("--from-file=")]
literal = [w.split("=", 2)[2] for w in sys.argv[2:] if w.startswith("--from-literal=")]
given = Path(files[0]).read_bytes() if files else literal[0].encode()
data = base64.b64encode(given).decode()
print(f"apiVersion: v1\\ndata:\\n  tokens: {data}\\nkind: Secret")
"""
"""The ``kubectl`` stand-in (run by this Python): its words into the file named first, and the
Secret ``--dry-run=client -o yaml`` would print (the key from ``--from-file`` or, as the old
step gave it, ``--from-literal``)."""


def documented_steps(text: str, prefix: str) -> str:
    """The shell lines of the step that writes ``secret.yaml``: the lines after the comment
    above the one redirecting into the file, through that one, each with ``prefix`` (a
    comment's ``#   ``) taken off."""
    lines = [line.removeprefix(prefix) for line in text.splitlines()]
    end = next(i for i, line in enumerate(lines) if line.endswith(f"> {SECRET}"))
    start = max(i for i in range(end) if lines[i].startswith("#")) + 1
    return "\n".join(lines[start : end + 1]) + "\n"


def _doc() -> str:
    return (REPO / "docs" / "deploy.md").read_text(encoding="utf-8")


def _comment() -> str:
    return (REPO / SECRET).read_text(encoding="utf-8")


@pytest.mark.parametrize(("source", "prefix"), [(_doc, ""), (_comment, "#   ")])
def test_a10_the_documented_secret_step_leaves_it_owner_only_and_off_the_command_line(
    tmp_path: Path, source: Callable[[], str], prefix: str
) -> None:
    steps = documented_steps(source(), prefix)
    checkout = tmp_path / "checkout"
    target = checkout / SECRET
    target.parent.mkdir(parents=True)
    target.write_text((REPO / SECRET).read_text(encoding="utf-8"), encoding="utf-8")
    target.chmod(0o644)  # as a clone has it
    tools = tmp_path / "bin"
    tools.mkdir()
    words = tmp_path / "kubectl-words.json"
    stand_in = tools / "kubectl"
    stand_in.write_text(
        f"#!/bin/sh\nexec {sys.executable} -c '{KUBECTL}' {words} \"$@\"\n", encoding="utf-8"
    )
    stand_in.chmod(0o755)
    environ = {**os.environ, "PATH": f"{tools}:{os.environ.get('PATH', '')}"}

    subprocess.run(["sh", "-e", "-c", steps], cwd=checkout, env=environ, check=True, timeout=60)

    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    written = target.read_text(encoding="utf-8")
    line = base64.b64decode(written.split("tokens: ", 1)[1].split()[0]).decode().strip()
    name, secret = line.split("=", 1)
    assert name == "admin" and len(secret) >= 32
    assert secret not in words.read_text(encoding="utf-8")  # never one of kubectl's words


EXAMPLE = "deploy/k8s/examples/harness-session-start.yaml"
HARNESS_KUBECTL = """import json, sys
from pathlib import Path
words, stored = Path(sys.argv[1]), Path(sys.argv[2])
args = sys.argv[3:]
if args[0] == "exec":
    if "FAIL_TOKEN_CREATE" in __import__("os").environ:
        sys.exit("memory-api: a token named 'harness' exists already")
    print("hArNeSs-secret-of-32-characters-x")
    sys.exit(0)
words.write_text(json.dumps(args), encoding="utf-8")
[source] = [w.split("=", 2)[2] for w in args if w.startswith("--from-file=token=")]
stored.write_bytes(Path(source).read_bytes())
"""
"""The ``kubectl`` stand-in of the harness token step: ``exec … memory-api token create``
prints a secret as that command does (alone on stdout, with its newline); ``create secret``
records its words and stores the bytes of the ``token`` key's file, the Secret's value."""


def _harness_token_step() -> str:
    """The harness example's token step, as its comment gives it."""
    lines = [line.removeprefix("#   ") for line in (REPO / EXAMPLE).read_text().splitlines()]
    start = next(i for i, line in enumerate(lines) if "kubectl exec" in line)
    end = next(i for i in range(start, len(lines)) if "kubectl create secret" in lines[i])
    return "\n".join(lines[start : end + 1]) + "\n"


def _stand_in_kubectl(tmp_path: Path) -> tuple[dict[str, str], Path, Path]:
    """The environment whose ``kubectl`` is :data:`HARNESS_KUBECTL`, the file of the words
    ``create secret`` was given and the file of the Secret's value."""
    tools = tmp_path / "bin"
    tools.mkdir()
    words, stored = tmp_path / "words.json", tmp_path / "stored"
    stand_in = tools / "kubectl"
    stand_in.write_text(
        f"#!/bin/sh\nexec {sys.executable} -c '{HARNESS_KUBECTL}' {words} {stored} \"$@\"\n",
        encoding="utf-8",
    )
    stand_in.chmod(0o755)
    environ = {**os.environ, "PATH": f"{tools}:{os.environ.get('PATH', '')}"}
    return environ, words, stored


def test_a10_the_harness_examples_token_step_keeps_the_secret_off_the_command_line(
    tmp_path: Path,
) -> None:
    """The harness example's comment gave ``kubectl create secret … --from-literal=token=
    <printed secret>``: the secret typed as a word of a command line (``ps``). Its step, run
    as written, passes the secret on stdin and stores it without the printed newline (the
    Secret is ``HARNESS_MEMORY_TOKEN``, sent as it is)."""
    environ, words, stored = _stand_in_kubectl(tmp_path)
    steps = _harness_token_step()

    subprocess.run(["sh", "-e", "-c", steps], cwd=tmp_path, env=environ, check=True, timeout=60)

    assert stored.read_bytes() == b"hArNeSs-secret-of-32-characters-x"
    assert "hArNeSs-secret" not in words.read_text(encoding="utf-8")
    assert "agent-memory-harness-token" in words.read_text(encoding="utf-8")


def test_a10_the_harness_examples_token_step_makes_no_secret_when_no_token_was_made(
    tmp_path: Path,
) -> None:
    """``token create`` refused (a token of that name exists): the step fails and makes no
    Secret (piped, it had stored an empty token and succeeded)."""
    environ, words, stored = _stand_in_kubectl(tmp_path)
    environ["FAIL_TOKEN_CREATE"] = "1"

    done = subprocess.run(
        ["sh", "-e", "-c", _harness_token_step()],
        cwd=tmp_path,
        env=environ,
        check=False,
        timeout=60,
        capture_output=True,
    )

    assert done.returncode != 0
    assert not stored.exists()
    assert not words.exists()
