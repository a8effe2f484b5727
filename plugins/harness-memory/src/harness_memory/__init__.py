"""harness_memory."""
