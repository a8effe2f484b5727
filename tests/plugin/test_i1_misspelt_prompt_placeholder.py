"""I-1: a memory prompt edited by hand in ``agent.json`` whose placeholder is misspelt
(``{{MEMROY}}``, ``{{ MEMORY_USER_INDEX }}``, ``{{memory}}``) reaches the model as written, and
its index goes after it; the API refuses such a prompt (422), but one already on disk showed
only as the manifest's ``placement: after-prompt``. The Session-start hook's ``systemMessage``
names it to the user."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from harness_memory.hooks.session_start import prompt_message
from harness_memory.offline import session_start_from_files
from harness_memory.records import SessionMeta
from harness_memory.sections import render_sections
from harness_memory.session import SessionStart


def _started(tmp_path: Path, prompt: str | None) -> SessionStart:
    """A Session start from the files (H-4) of an agent whose ``agent.json`` holds ``prompt``
    (None: the default), as the hook sees it."""
    app = tmp_path / "app"
    root = app / "agents" / "coder" / "agent_state" / "memory"
    (root / "user").mkdir(parents=True)
    (root / "user" / "MEMORY.md").write_text("- [A](a.md) a note\n", encoding="utf-8")
    memory = {} if prompt is None else {"prompt": prompt}
    document = {"project": "acme", "memory": memory}
    (app / "agents" / "coder" / "agent.json").write_text(json.dumps(document), encoding="utf-8")
    answer = session_start_from_files(root, project="acme", agent="coder", workspace=str(tmp_path))
    sections = render_sections("{{MEMORY}}\n", answer.sections, answer.workspace_memory_key)
    meta = SessionMeta(
        project="acme",
        agent="coder",
        workspace=str(tmp_path),
        session_id="s1",
        service_url="http://127.0.0.1:1",
        started_at="2026-12-03T10:00:00Z",
        duration_ms=1.0,
        status="offline",
        error=None,
        error_kind=None,
        enabled=True,
        injected=True,
        template_has_memory=True,
        workspace_kind=answer.workspace_kind,
        key=answer.key,
        workspace_memory_key=answer.workspace_memory_key,
        directories=None,
        manifests=answer.manifests,
        truncated=[],
        system_prompt="".join(section.text for section in sections),
    )
    return SessionStart(
        system_prompt=meta.system_prompt, key=None, session_meta=meta, sections=sections
    )


@pytest.mark.parametrize(
    "misspelt", ["{{MEMROY}}", "{{ MEMORY_USER_INDEX }}", "{{memory}}", "{MEMORY_USER_INDEX}"]
)
def test_i1_a_misspelt_placeholder_on_disk_is_named_to_the_user(
    tmp_path: Path, misspelt: str
) -> None:
    started = _started(tmp_path, f"# Memory\nSave here.\n{misspelt}\n")
    assert misspelt in started.system_prompt  # it reached the model as written

    said = prompt_message(started)

    assert said is not None
    assert said.startswith(f"Agent Memory: the agent's memory prompts hold {misspelt!r}")
    assert "Fix memory.prompt ({{MEMORY_USER_INDEX}})" in said


def test_i1_an_index_placed_after_its_prompt_is_said_even_with_nothing_misspelt(
    tmp_path: Path,
) -> None:
    started = _started(tmp_path, None)
    manifests = [
        msgspec.structs.replace(m, placement="after-prompt") if m.scope == "user" else m
        for m in started.session_meta.manifests
    ]
    meta = msgspec.structs.replace(started.session_meta, manifests=manifests)
    said = prompt_message(msgspec.structs.replace(started, session_meta=meta))
    assert said is not None
    assert "hold no index placeholder; the user index went after its prompt" in said


def test_i1_the_default_prompts_say_nothing(tmp_path: Path) -> None:
    assert prompt_message(_started(tmp_path, None)) is None


def test_h4_i1_the_files_say_where_each_index_went_as_the_service_does(tmp_path: Path) -> None:
    """Offline (H-4), a prompt without its placeholder also gets its index after it, and the
    manifest says so (``placement: after-prompt``), as the service's answer does; the hook
    then names it."""
    started = _started(tmp_path, "# Memory\n{{MEMROY}}\n")
    placements = {m.scope: m.placement for m in started.session_meta.manifests}
    assert placements["user"] == "after-prompt"
    assert started.system_prompt.startswith("# Memory\n{{MEMROY}}\n\n- [A](a.md) a note")
    said = prompt_message(started)
    assert said is not None
    assert "the user index went after its prompt" in said
    assert [where for scope, where in placements.items() if scope != "user"] == ["placeholder"]
    default = _started(tmp_path / "default", None).session_meta.manifests
    assert [m.placement for m in default] == ["placeholder", "placeholder"]
