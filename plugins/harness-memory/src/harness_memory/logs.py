"""Logging that costs a hook process nothing until something is logged (H-5).

``import logging`` brings ``traceback``, ``string``, ``threading`` and ``weakref``: about a third
of what starting Python itself costs, paid by every hook process that logs nothing. The plugin's
modules therefore log through :func:`logger`, which imports ``logging`` on first use. The command
line asks for its stderr format with :func:`log_to_stderr`; the root logger is set up with it when
the first message is logged, and only if the process has set up no logging of its own.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    import logging

__all__ = ["log_to_stderr", "logger"]

_stderr_format: str | None = None


def log_to_stderr(format_: str) -> None:
    """Send warnings and errors to stderr in ``format_`` (a ``logging`` format), once logged."""
    global _stderr_format
    _stderr_format = format_


def logger(name: str) -> logging.Logger:
    """The logger ``name``, importing and (for the command line) setting up ``logging`` first."""
    import logging

    if _stderr_format is not None and not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format=_stderr_format)
    return logging.getLogger(name)
