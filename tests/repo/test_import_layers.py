"""The import-linter layers contracts place every module of the service and the plugin.

Each package's layers contract is exhaustive over its own modules (``lint-imports`` names any
module no layer lists). A subpackage whose modules sit in different layers (``http/``,
``hooks/``) is left out of that check and named module by module instead; a second, exhaustive
contract over the subpackage then names a new module of it. These tests hold the two together:
what the subpackage's contract names is exactly what the package's layers place.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

REPO = Path(__file__).parents[2]
LAYER_SEPARATOR = re.compile(r"[|:]")


def _contracts() -> list[dict[str, Any]]:
    with (REPO / "pyproject.toml").open("rb") as file:
        contracts: list[dict[str, Any]] = tomllib.load(file)["tool"]["importlinter"]["contracts"]
    return contracts


def _layered(contract: dict[str, Any]) -> set[str]:
    """The module names (relative to the container) a layers contract lists."""
    return {
        name.strip().strip("()")
        for layer in contract["layers"]
        for name in LAYER_SEPARATOR.split(layer)
    }


def _package_contract(package: str) -> dict[str, Any]:
    (contract,) = (c for c in _contracts() if c.get("containers") == [package])
    return contract


def test_each_package_layers_contract_places_every_module() -> None:
    for package in ("memory_api", "harness_memory"):
        contract = _package_contract(package)
        assert contract["type"] == "layers"
        assert contract["exhaustive"] is True, package


def test_a_subpackage_left_to_its_own_contract_is_placed_module_by_module() -> None:
    for package in ("memory_api", "harness_memory"):
        placed = _layered(_package_contract(package))
        for subpackage in _package_contract(package)["exhaustive_ignores"]:
            own = _package_contract(f"{package}.{subpackage}")
            assert own["exhaustive"] is True, subpackage
            in_package_layers = {
                name.removeprefix(f"{subpackage}.")
                for name in placed
                if name.startswith(f"{subpackage}.")
            }
            named = _layered(own)
            assert named == in_package_layers, (
                f"{package}.{subpackage}: named by its own contract only: "
                f"{sorted(named - in_package_layers)}; placed in {package}'s layers only: "
                f"{sorted(in_package_layers - named)}"
            )
