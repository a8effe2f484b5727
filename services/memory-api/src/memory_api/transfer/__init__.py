"""Import and export of memory folders (P-5): the logic behind ``memory-api memory import|export``.

- :mod:`~memory_api.transfer.sources` reads what is offered: a folder or an export archive;
- :mod:`~memory_api.transfer.claude_code` finds Claude Code's own memory folder of a Workspace;
- :mod:`~memory_api.transfer.importer` plans and applies an import into one scope;
- :mod:`~memory_api.transfer.exporter` writes an agent's scopes into a ``.tar.gz`` archive;
- :mod:`~memory_api.transfer.console` renders the progress bar and the summary table.
"""
