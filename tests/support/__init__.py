"""Helpers shared by several test layers (not tests themselves).

:mod:`tests.support.serve` runs the real ``memory-api serve`` as a subprocess on a free loopback
port, for the browser, plugin and multi-process tests.
"""
