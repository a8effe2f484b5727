"""R-1, Q-2b: a client that hangs up in the middle of a git answer is no error of the data dir.

After a failed push the plugin asks the service once for its reason
(:meth:`~harness_memory.remote.RemoteCopy.service_says`): it reads the status of the ref list
and hangs up when it is 200. The service's next write of that streamed answer then failed with
``ConnectionResetError``, an ``OSError``, and its problem layer logged it as a "data dir error"
with an incident id (half the time, by when the client's close arrived): an ERROR for an
operator to chase where nothing was wrong. The answer now stops quietly.
"""

from __future__ import annotations

import time
from pathlib import Path

from harness_memory.remote import RemoteCopy

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import machine

ASKED = 10
"""Questions asked: a hang-up raced the service's writes about one time in two."""
LOG_WAIT_S = 60.0
"""How long the access log lines are waited for (a hang guard, not a speed claim)."""


def test_r1_a_client_hanging_up_mid_answer_logs_no_data_dir_error(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    copy: RemoteCopy = machine(shared_service, new_agent, tmp_path, "laptop")
    route = f"/agents/{new_agent}/memory/git/user.git/info/refs "
    before = shared_service.served.log_text()
    for _ in range(ASKED):
        assert copy.service_says("user", "git-receive-pack") is None  # 200: no reason to give
    deadline = time.monotonic() + LOG_WAIT_S
    logged = ""
    while time.monotonic() < deadline:  # each answer is logged once its handler has ended
        logged = shared_service.served.log_text()[len(before) :]
        if logged.count(route) >= ASKED:
            break
        time.sleep(0.05)
    assert logged.count(route) >= ASKED, logged
    assert "data dir error" not in logged and " ERROR " not in logged, logged
