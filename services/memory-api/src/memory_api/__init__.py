"""memory_api."""
