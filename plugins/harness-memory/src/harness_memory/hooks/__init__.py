"""Adapters that let a coding agent's hooks call the plugin, one module per coding agent."""
