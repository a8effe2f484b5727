"""A-10, H-7: ``uninstall`` judges a token's service by the service's one spelling
(``service_key``), also against an install record an earlier release wrote with the digest of
the URL as the install was given it (a last ``/``, an upper-case host, the scheme's own port).

A reviewer installed with such a URL under the previous release, then gave the hooks a token
with ``token set --url`` written the normal way: ``uninstall`` kept the hooks' token and called it
another service's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness_memory.installers.record import text_digest

from tests.plugin.test_a10_a_token_keeps_its_recorded_service import installed, token_set
from tests.plugin.test_a10_an_uninstall_removes_the_hooks_own_token import uninstall

NORMAL = {
    "HTTP://LocalHost:9/": "http://localhost:9",
    "http://127.0.0.1:9/": "http://127.0.0.1:9",
    "http://localhost:80": "http://localhost",
    "https://h:443/api/": "https://h/api",
}
CASES = [(harness, "HTTP://LocalHost:9/") for harness in ("claude-code", "codex", "gemini")]
CASES += [("codex", url) for url in list(NORMAL)[1:]]


def as_an_earlier_release_recorded(token_file: Path, url: str) -> None:
    """The install record's service as the previous release wrote it: the given URL's digest."""
    record_file = token_file.parent / "install.json"
    document = json.loads(record_file.read_text("utf-8"))
    document["serviceUrl"] = text_digest(url.encode())
    record_file.write_text(json.dumps(document), "utf-8")


@pytest.mark.parametrize(("harness", "url"), CASES)
def test_a10_uninstall_removes_a_token_set_in_normal_form_for_an_older_records_service(
    tmp_path: Path, harness: str, url: str
) -> None:
    home, token_file = installed(tmp_path, harness, url)
    as_an_earlier_release_recorded(token_file, url)
    status, said = token_set(home, "--file", str(token_file), "--url", NORMAL[url])
    assert status == 0, said

    said = uninstall(home, harness)

    assert not token_file.exists(), said
    assert "this uninstall keeps it" not in said, said


def test_a10_uninstall_keeps_a_token_set_for_another_service_under_an_older_record(
    tmp_path: Path,
) -> None:
    """The older record's service, found in the hooks, is still not any service."""
    home, token_file = installed(tmp_path, "codex", "http://LocalHost:9/")
    as_an_earlier_release_recorded(token_file, "http://LocalHost:9/")
    status, said = token_set(home, "--file", str(token_file), "--url", "http://127.0.0.2:9")
    assert status == 0, said

    said = uninstall(home, "codex")

    assert token_file.is_file(), said
    assert "this uninstall keeps it" in said, said
