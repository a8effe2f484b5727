"""The test suite, one package per layer: core, api, plugin, browser, security."""
