"""The route tables, one module per resource: agents, config, memory, drafts, projects, ops."""
