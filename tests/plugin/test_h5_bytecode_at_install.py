"""H-5: ``install`` byte-compiles what the hooks import, where the hooks' own Python finds it.

A hook process whose modules have no up-to-date bytecode compiles their sources at every start
when it cannot write its cache (``PYTHONDONTWRITEBYTECODE``, a read-only environment): about
twice its instructions (``make bench-hooks`` and docs/performance.md). ``uv tool install`` and
editable installs leave the bytecode to the first start, so ``install`` writes it.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.executable import HOOK_PACKAGES, compile_bytecode


def a_script(folder: Path, python: Path | str = sys.executable) -> Path:
    """A ``harness-memory`` console script run by ``python``, as pip writes one."""
    script = folder / "bin" / "harness-memory"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(f"#!{python}\nfrom harness_memory.cli import run\nrun()\n")
    script.chmod(0o755)
    return script


def a_package(folder: Path, name: str, source: str = "VALUE = 1\n") -> Path:
    """A package ``name`` without bytecode under ``folder`` (put on the hooks' import path)."""
    package = folder / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(source)
    (package / "module.py").write_text("def answer() -> int:\n    return 42\n")
    return package


def a_virtualenv(folder: Path) -> tuple[Path, Path]:
    """``(python, site-packages)`` of a new virtualenv in ``folder``, without pip."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    site = subprocess.run(
        [python, "-I", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout.strip()
    return python, Path(site)


def test_h5_compiles_the_packages_the_hooks_isolated_python_imports_whatever_the_env_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    python, site = a_virtualenv(tmp_path / "venv")
    package = a_package(site, "hook_pkg")
    elsewhere = a_package(tmp_path / "elsewhere", "other_pkg")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "elsewhere"))  # the hooks never read it
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")  # the hook could not write it itself
    script = a_script(tmp_path, python)
    said = compile_bytecode(str(script), ("hook_pkg", "other_pkg", "not_installed_here"))
    tag = sys.implementation.cache_tag
    assert (package / "__pycache__" / f"__init__.{tag}.pyc").is_file()
    assert (package / "__pycache__" / f"module.{tag}.pyc").is_file()
    assert not (elsewhere / "__pycache__").exists()
    packages = "hook_pkg, other_pkg, not_installed_here"
    assert said == f"bytecode of {packages} compiled for {python} (H-5)"


def test_h5_a_module_that_cannot_be_compiled_is_said_not_raised(tmp_path: Path) -> None:
    python, site = a_virtualenv(tmp_path / "venv")
    a_package(site, "broken_pkg", source="def (:\n")
    said = compile_bytecode(str(a_script(tmp_path, python)), ("broken_pkg",))
    assert said.startswith("bytecode of broken_pkg could not all be written")
    assert "compiles those sources at every start" in said


def test_h5_a_script_that_python_does_not_run_is_said(tmp_path: Path) -> None:
    script = tmp_path / "harness-memory"
    script.write_text('#!/bin/sh\nexec /opt/am/bin/harness-memory "$@"\n')
    assert compile_bytecode(str(script)) == (
        f"bytecode not compiled: cannot tell which Python runs {script}"
    )
    script.write_text("#!/opt/am/bin/python\nfrom harness_memory.cli import run\nrun()\n")
    said = compile_bytecode(str(script))
    assert said.startswith("bytecode not compiled: /opt/am/bin/python: ")


@pytest.mark.parametrize("command", ["harness-memory", "/opt/am/bin/harness-memory"])
def test_h5_a_script_whose_python_is_unknown_is_said(command: str) -> None:
    said = compile_bytecode(command)
    assert said == f"bytecode not compiled: cannot tell which Python runs {command}"


def test_h5_install_reports_the_bytecode_of_the_hook_packages(tmp_path: Path) -> None:
    out = io.StringIO()
    words = ["install", "claude-code", "--home", str(tmp_path), "--memory-root", str(tmp_path)]
    words += ["--url", "http://127.0.0.1:8765", "--project", "acme", "--agent", "coder"]
    words += ["--executable", str(a_script(tmp_path)), "--no-check", "--verbose"]
    assert main(words, environ={"HOME": str(tmp_path)}, stdout=out) == 0
    packages = ", ".join(HOOK_PACKAGES)
    assert f"claude-code: bytecode of {packages} compiled for {sys.executable}" in out.getvalue()
