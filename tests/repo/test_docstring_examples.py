"""Every docstring example (``>>>``) of the service and the plugin holds, as memory_core's do
(``tests/core/test_public_api.py``): an example is documentation, and one that no longer holds
tells a reader what the code does not do (``transfer.sources.stored_bytes`` kept an old
message for a while, unnoticed)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import harness_memory
import memory_api
import pytest

MODULES = sorted(
    info.name
    for package in (memory_api, harness_memory)
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}.")
    if not info.name.endswith(".__main__")  # runs its command when imported
)


@pytest.mark.parametrize("module_name", MODULES)
def test_docstring_examples_hold(module_name: str) -> None:
    result = doctest.testmod(importlib.import_module(module_name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
