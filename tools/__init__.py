"""Maintenance scripts of the repository (run through the Makefile), not shipped."""
