"""Defaults of the plugin that several modules share, kept free of imports (H-5)."""

from __future__ import annotations

__all__ = ["DEFAULT_TEMPLATE", "DEFAULT_TIMEOUT_S"]

DEFAULT_TIMEOUT_S = 2.0
"""Whole-request budget in seconds: a Session start must not wait long for memory (P-2)."""

DEFAULT_TEMPLATE = """\
{{MEMORY}}

# Environment
- App data dir: {{APP_DATA_DIR}}
- Agent id: {{AGENT_ID}}
- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}
"""
"""The template when the harness configures none: the injection, then the values that the
prompts' ``<app_data_dir>/agents/<agent_id>/…`` Directory lines refer to (I-2, I-6)."""
