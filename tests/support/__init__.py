"""Helpers shared by several test layers (not tests themselves).

:mod:`tests.support.serve` runs the real ``memory-api serve`` as a subprocess on a free loopback
port, for the browser, plugin and multi-process tests; :mod:`tests.support.refused_account` runs
it (and the harness) as an account the kernel refuses like any other. :mod:`tests.support.
guard_cases` drives the write guard's hook for the P-3 tests, :mod:`tests.support.codex_turns`
scripts and reads back the Codex CLI's model requests for its e2e tests.
"""
