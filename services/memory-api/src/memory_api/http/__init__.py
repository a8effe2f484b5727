"""The HTTP plumbing of the service: bearer-token auth (A-10), problem details (RFC 9457), JSON
bodies, the OpenAPI document, structured and access logs, and Prometheus metrics (A-11).

The routes and the stores sit above or beside this package; nothing here reads or writes memory
files.
"""
