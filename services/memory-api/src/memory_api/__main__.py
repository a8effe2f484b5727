"""``python -m memory_api``: the same as the ``memory-api`` command."""

from memory_api.cli import main

raise SystemExit(main())
