"""A-10a: no answer of the service is handed to a page of another site, even one it cannot read.

Open on loopback (no token), any page the user opens may embed an answer without asking
(``<script src="http://127.0.0.1:8765/api/…/files/notes.md">``, an ``<img>``): no CORS check
runs for such a "no-cors" load, the browser fetches the memory and puts the bytes in the
attacker's page process, where only the browser's own blocking of JSON (not every browser's)
keeps them from a side channel (Spectre). ``Cross-Origin-Resource-Policy: same-origin`` tells
every browser to refuse the answer to any other origin; the service's own page, the CLI and the
harness (no browser) are unaffected.
"""

from __future__ import annotations

import pytest

from tests.api.conftest import AGENT, PROJECT, Client, file_url


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/static/icon.svg",
        "/api/me",
        f"/api/projects/{PROJECT}/agents/{AGENT}/memory",
        file_url("user", "time-zone.md"),
        "/nowhere",
    ],
)
async def test_a10a_every_answer_is_for_the_services_own_origin_only(
    client: Client, path: str
) -> None:
    response = await client.get(path)

    assert response.headers["Cross-Origin-Resource-Policy"] == "same-origin"
