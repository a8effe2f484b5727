"""Which machines keep a local copy of a scope, and when each last synced (R-1, the page).

One small JSON file per scope, ``agents/<agent>/agent_state/machines/<key>.json``, beside the
memory root and never in it, written only under the scope's lock (each fetch and push of a
machine already holds it), atomically but not fsynced: it is a log for people, not state the
sync relies on: a machine's copy works the same with the file gone. It holds for each machine
its name, the token name it synced with, the times of its last fetch or push and of its last
push, and what merging its last changes did (R-2). At most :data:`MACHINES_KEPT` machines per
scope are kept (the ones seen last).

Blocking: run it in a worker thread.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path

from memory_core import json_text
from memory_core.atomic import atomic_write_bytes, data_folder_mode, make_dirs
from memory_core.keys import SCOPE_KEY_RULE, check_scope_key
from memory_core.rules import MACHINE_ID_RULE, MACHINE_NAME_RULE
from memory_core.wire import MachineSync, ScopeMachines, utc_timestamp

from memory_api.errors import BadRequest, CannotRead
from memory_api.store.containment import NotRegularFileError, read_regular
from memory_api.store.history.git import HistoryUnavailable
from memory_api.store.history.recorder import checked_history_root

__all__ = ["MACHINES_DIR", "MACHINES_KEPT", "Machine", "MachineLog", "check_machine"]

logger = logging.getLogger(__name__)

MACHINES_DIR = "machines"
MACHINES_KEPT = 100
"""Machines remembered per scope at most (the ones seen last)."""
_FILE_CAP = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Machine:
    """A machine as it names itself in a request (``X-Memory-Machine``, ``…-Name``)."""

    machine_id: str
    name: str


def check_machine(machine_id: str | None, name: str | None) -> Machine | None:
    """The machine a request names, checked (:data:`~memory_core.rules.MACHINE_ID_RULE`,
    :data:`~memory_core.rules.MACHINE_NAME_RULE`; a missing name is the id); None without an
    id. Raises :class:`BadRequest` (400) for a value that breaks its rule."""
    if machine_id is None:
        return None
    reason = MACHINE_ID_RULE.problem(machine_id)
    if reason is not None:
        raise BadRequest(f"X-Memory-Machine {reason}")
    if name is None:
        return Machine(machine_id, machine_id)
    reason = MACHINE_NAME_RULE.problem(name)
    if reason is not None:
        raise BadRequest(f"X-Memory-Machine-Name {reason}")
    return Machine(machine_id, name)


class MachineLog:
    """The machines files of every agent under one data dir (blocking methods)."""

    def __init__(self, app_data_dir: Path) -> None:
        self.app_data_dir = app_data_dir

    def _folder(self, agent_id: str) -> Path:
        """``agent_state/machines`` of the agent; raises ``OSError`` when a symlink or a
        non-folder stands on the way (it could lead anywhere)."""
        try:
            folder = checked_history_root(self.app_data_dir, agent_id).parent / MACHINES_DIR
        except HistoryUnavailable as error:
            raise OSError(error.detail) from None
        if folder.is_symlink():
            raise OSError(f"{folder} is a symlink")
        return folder

    def _read(self, path: Path) -> dict[str, dict[str, object]]:
        """The machines the file ``path`` notes (none when it does not exist, or holds no JSON,
        or JSON nested too deep to read: started afresh, logged). Raises ``OSError`` when it is
        there but cannot be read: no permission, or no regular file (a FIFO is never opened
        so that it blocks: its open waited for ever, holding the scope's lock, so every sync
        and record of the scope waited behind it until a restart)."""
        try:
            raw, _ = read_regular(path, _FILE_CAP + 1)
        except FileNotFoundError:
            return {}
        except NotRegularFileError as error:
            raise OSError(f"{path.name} is not a regular file") from error
        try:
            document = json_text.loads(raw)
        except ValueError as error:  # broken, or nested deeper than it reads (JsonTooDeep)
            logger.warning("machines file %s cannot be read (%s); started afresh", path, error)
            return {}
        machines = document.get("machines") if isinstance(document, dict) else None
        if not isinstance(machines, dict):
            return {}
        return {str(key): value for key, value in machines.items() if isinstance(value, dict)}

    def seen(
        self,
        agent_id: str,
        key: str,
        machine: Machine,
        principal: str,
        *,
        pushed: bool = False,
        outcomes: list[str] | None = None,
    ) -> None:
        """Note that ``machine`` synced scope ``key`` now (``pushed``: it sent changes, whose
        merge did ``outcomes``). The caller holds the scope's lock. A file that cannot be
        written is logged, never raised: syncing does not depend on it."""
        try:
            folder = self._folder(agent_id)
        except OSError as error:
            logger.warning("machines of agent %s are not noted: %s", agent_id, error)
            return
        path = folder / f"{check_scope_key(key)}.json"
        try:
            machines = self._read(path)
        except OSError as error:  # kept as it is: replaced, every other machine's note is lost
            logger.warning("machines file %s cannot be read, so it is not noted: %s", path, error)
            return
        now = utc_timestamp(time.time())
        entry = dict(machines.pop(machine.machine_id, {}))
        entry.update(name=machine.name, principal=principal, lastSync=now)
        if pushed:
            entry.update(lastPush=now, outcomes=list(outcomes or []))
        machines[machine.machine_id] = entry
        kept = dict(list(machines.items())[-MACHINES_KEPT:])
        try:
            make_dirs(folder, data_folder_mode())
            data = json.dumps({"machines": kept}, ensure_ascii=False, indent=1).encode()
            atomic_write_bytes(path, data, durable=False)
        except OSError as error:
            logger.warning("machines file %s cannot be written: %s", path, error)

    def scopes(self, agent_id: str) -> list[ScopeMachines]:
        """Every scope of ``agent_id`` some machine synced, with its machines, most recent
        first; scopes in key order (user first). Raises :class:`CannotRead` (503, Q-2b) when
        the machines folder or a file of it is there but cannot be read: "no machine" would
        tell the page's reader that no machine keeps a copy."""
        try:
            folder = self._folder(agent_id)
            names = sorted(path.name for path in folder.iterdir())
        except FileNotFoundError:
            return []
        except OSError as error:
            raise CannotRead(
                f"the machines folder of agent {agent_id!r} cannot be listed: the service "
                f"cannot read it ({error.strerror or error})"
            ) from None
        found: list[ScopeMachines] = []
        for file_name in names:
            key = file_name.removesuffix(".json")
            if not file_name.endswith(".json") or not SCOPE_KEY_RULE.accepts(key):
                continue
            try:
                noted = self._read(folder / file_name)
            except OSError as error:
                raise CannotRead(
                    f"the machines file of scope {key!r} is there, but the service cannot "
                    f"read it ({error.strerror or error})"
                ) from None
            rows = [
                row
                for machine_id, entry in noted.items()
                if (row := _row(machine_id, entry)) is not None
            ]
            if rows:
                rows.sort(key=lambda row: row.last_sync, reverse=True)
                found.append(ScopeMachines(scope=key, machines=rows))
        found.sort(key=lambda item: (item.scope != "user", item.scope))
        return found


def _row(machine_id: str, entry: dict[str, object]) -> MachineSync | None:
    name, principal, last_sync = entry.get("name"), entry.get("principal"), entry.get("lastSync")
    last_push, outcomes = entry.get("lastPush"), entry.get("outcomes", [])
    if not (isinstance(name, str) and isinstance(principal, str) and isinstance(last_sync, str)):
        return None
    if not MACHINE_ID_RULE.accepts(machine_id) or not isinstance(outcomes, list):
        return None
    return MachineSync(
        id=machine_id,
        name=name if MACHINE_NAME_RULE.accepts(name) else machine_id,  # one noted before a rule
        principal=principal,
        last_sync=last_sync,
        last_push=last_push if isinstance(last_push, str) else None,
        outcomes=[str(line) for line in outcomes],
    )
