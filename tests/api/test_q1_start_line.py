"""Q-1: ``memory-api serve`` says where its web page is in an address a user can paste.

It said ``web page: http://127.0.0.1:0/`` when ``MEMORY_API_PORT=0`` let the system choose the
port (the line was written before the bind), and aiohttp's banner of a wildcard bind,
``Running on http://0.0.0.0:8765``, named no address a browser opens. The page's line now
comes once the service listens, with the port it listens on and the host as a browser writes
it (``127.1`` → ``127.0.0.1``, a wildcard → loopback); a wildcard URL is marked as such.
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
import urllib.request
from pathlib import Path

import pytest
from memory_api.serve_banner import banner_logger

from tests.support.serve import code_under_test, venv_bin

PAGE_LINE = re.compile(r"web page: (http://127\.0\.0\.1:(\d+)/)$")


def test_q1_serve_on_a_port_the_system_chooses_names_the_page_where_it_listens(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **code_under_test(),
           "MEMORY_API_DATA_DIR": str(data_dir), "MEMORY_API_HOST": "127.1",
           "MEMORY_API_PORT": "0", "MEMORY_API_LOG_FORMAT": "text"}  # fmt: skip
    lines: list[str] = []
    with subprocess.Popen(
        [venv_bin("memory-api"), "serve"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    ) as process:  # fmt: skip
        try:
            assert process.stdout is not None
            for line in process.stdout:  # the service's own signal: the banner's closing line
                lines.append(line.rstrip("\n"))
                if "Press CTRL+C" in line:
                    break
            said = "\n".join(lines)
            pages = [found for line in lines if (found := PAGE_LINE.search(line))]
            assert len(pages) == 1, said
            url, port = pages[0][1], int(pages[0][2])
            assert port != 0, said
            assert f"Running on http://127.0.0.1:{port} " in said
            with urllib.request.urlopen(url, timeout=10) as answer:  # noqa: S310 - loopback
                assert answer.status == 200
                assert answer.headers.get_content_type() == "text/html"
        finally:
            process.terminate()
            process.wait(timeout=30)


@pytest.mark.parametrize(
    ("host", "aiohttp_url"),
    [("0.0.0.0", "http://0.0.0.0:8765"), ("::", "http://[::]:8765")],  # noqa: S104
)
def test_q1_a_wildcard_bind_is_marked_and_its_page_is_named_on_loopback(
    host: str, aiohttp_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    log_banner = banner_logger(host, 8765, logging.getLogger("memory_api"))

    with caplog.at_level(logging.INFO, logger="memory_api"):
        log_banner(f"======== Running on {aiohttp_url} ========\n(Press CTRL+C to quit)\n")

    assert caplog.messages == [
        f"======== Running on {aiohttp_url} (every address of this machine) ========",
        "web page: http://127.0.0.1:8765/",
        "(Press CTRL+C to quit)",
    ]


def test_q1_a_banner_of_another_form_still_names_the_page_at_the_port_asked_for(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Should aiohttp word its banner otherwise, the page's line is not lost."""
    log_banner = banner_logger("127.1", 8765, logging.getLogger("memory_api"))

    with caplog.at_level(logging.INFO, logger="memory_api"):
        log_banner("Serving on 127.0.0.1:8765\n")

    assert caplog.messages == ["web page: http://127.0.0.1:8765/", "Serving on 127.0.0.1:8765"]
