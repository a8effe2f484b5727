"""H-7, A-10: the service URLs an uninstall reads from the settings it takes the hooks out of
(:func:`~harness_memory.installers.record.hook_urls`, which tell the service the install was
for) come from our own hooks' commands only: a handler's ``command`` in
``hooks.<event>[].hooks[]`` that runs ``harness-memory hook <harness>``, as the ``--token-file``
an uninstall takes is read (:func:`~harness_memory.installers.spec.our_flag_values`).

It read every word after ``--url`` anywhere in the file: a ``statusLine`` command, a
``permissions.allow`` rule, an ``env`` value, a user's own hook of another program, a
``"--url"`` key of the user's own.
"""

from __future__ import annotations

import json

from harness_memory.installers.record import hook_urls

OURS = "/opt/am/bin/harness-memory hook claude-code session-start --url http://127.0.0.1:9"


def settings(**document: object) -> str:
    """A Claude Code ``settings.json`` holding our one hook and ``document``'s other keys."""
    hook = {"type": "command", "command": OURS}
    hooks = {"SessionStart": [{"hooks": [hook]}]}
    return json.dumps({"hooks": hooks, **document})


def test_h7_only_our_hook_commands_name_the_service() -> None:
    text = settings(
        statusLine={"type": "command", "command": "mystatus --url http://10.0.0.5:1"},
        permissions={"allow": ["Bash(curl --url http://10.0.0.6:1)"]},
        env={"X": "--url=http://10.0.0.7:1"},
        other={"--url": "http://10.0.0.8:1"},
    )

    assert hook_urls([text]) == {"http://127.0.0.1:9"}


def test_h7_a_users_own_hook_names_no_service_of_ours() -> None:
    """A hook handler of another program (not ``harness-memory hook``) is the user's."""
    mine = {"type": "command", "command": "notify --url http://10.0.0.9:1"}
    text = settings()
    document = json.loads(text)
    document["hooks"]["Stop"] = [{"hooks": [mine]}]

    assert hook_urls([json.dumps(document)]) == {"http://127.0.0.1:9"}


def test_h7_codex_config_toml_hooks_name_the_service() -> None:
    """Codex CLI's ``[[hooks.<event>]]`` in ``config.toml``, beside a profile of the user's."""
    command = OURS.replace("claude-code", "codex")
    text = (
        '[profiles.work]\nmodel_provider = "--url http://10.0.0.5:1"\n\n'
        "[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\n"
        f'type = "command"\ncommand = "{command}"\n'
    )

    assert hook_urls([text]) == {"http://127.0.0.1:9"}
