"""Service errors, free of HTTP; the problem middleware maps each to a status once.

    ServiceError                 base; never raised itself
    ├── BadRequest          400  a request that cannot be understood (bad JSON, bad header)
    ├── Unauthorized        401  no or unknown bearer token (A-10)
    ├── NotFound            404  unknown project/agent/scope/file/draft, or out of the token's reach
    ├── Conflict            409  the resource exists already (agent id taken)
    ├── PreconditionFailed  412  a stale ``If-Match`` (A-2)
    └── PayloadTooLarge     413  a body over the limit

``memory_core.errors.InvalidId`` (an id failing K-7) maps to 400 and ``msgspec.ValidationError``
(a body of the wrong shape) to 422, both in the same middleware.
"""

from __future__ import annotations


class ServiceError(Exception):
    """Base of the service's errors; ``detail`` becomes the problem+json ``detail``."""

    status: int = 500
    title: str = "Internal Server Error"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class BadRequest(ServiceError):
    """The request cannot be understood (400)."""

    status = 400
    title = "Bad Request"


class Unauthorized(ServiceError):
    """No bearer token, or one the service does not know (401)."""

    status = 401
    title = "Unauthorized"


class NotFound(ServiceError):
    """The addressed thing does not exist or lies outside the token's projects (404, A-10)."""

    status = 404
    title = "Not Found"


class Conflict(ServiceError):
    """The thing to create exists already (409)."""

    status = 409
    title = "Conflict"


class PreconditionFailed(ServiceError):
    """``If-Match`` names an ETag that is no longer current (412, A-2)."""

    status = 412
    title = "Precondition Failed"


class PayloadTooLarge(ServiceError):
    """The request body is larger than the service accepts (413)."""

    status = 413
    title = "Payload Too Large"
