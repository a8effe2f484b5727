"""Service errors, free of HTTP; the problem middleware maps each to a status once.

Every exception class of the service, where it lives, and what it answers::

    ServiceError                 base; never raised itself                       errors.py
    ├── BadRequest          400  a request that cannot be understood (bad JSON, bad header)
    │   └── UnreadableBody       a body that does not decode; closes the connection  errors.py
    ├── BodyTimedOut        408  a body that did not all arrive in time; closes it   errors.py
    ├── BodyTooLarge        413  a body over a route's own limit (git's, R-1)  routes/git_sync.py
    ├── Unauthorized        401  no or unknown bearer token (A-10)
    │   ├── TokenMissing         no bearer token sent          (type …/bearer-token-missing)
    │   ├── TokenUnknown         a token the service does not know  (…/bearer-token-unknown)
    │   └── NoTokenConfigured    none configured beyond loopback  (…/no-token-configured)
    ├── Forbidden           403  a browser rule refused it: a Host or Origin not the service's
    │                            own, a cross-site unsafe request (A-10a)      http/browser_guard.py
    ├── NotFound            404  unknown project/agent/scope/file/draft, or out of the token's reach
    │   └── OutsideMemoryRoot    a path resolving out of the memory root (A-7)  store/containment.py
    │                            (type …/outside-memory-root: no "no such scope", R-1)
    ├── Conflict            409  the resource exists already (agent id taken); a delete whose
    │                            index line cannot be pruned, nothing deleted (A-6); a delete
    │                            or restore of a file the history can never keep as it is
    │                            (over its read cap, hard-linked: V-1), nothing changed
    │   └── ProjectFull          a project holding its cap of agents     (type …/cap-reached)
    ├── PreconditionFailed  412  a failed ``If-Match`` / ``If-None-Match`` (A-2, A-6, V-2)
    ├── TooMany             429  a cap of one agent reached: its live drafts (A-12), with
    │                            Retry-After                    (type …/cap-reached)
    ├── Unprocessable       422  a well-formed value a rule refuses (a prompt without its
    │                            index placeholder, I-1)
    ├── UnreadableAgent     503  ``agent.json`` exists but cannot be read or is not valid,
    │                            named                                         store/agents.py
    ├── CannotRead          503  a memory file or scope folder that is there but the service
    │                            may not read or list (Q-2b): named with what an operator must
    │                            do, never a 404 (absent) nor a 500
    ├── Unavailable         503  the service cannot judge or do it now: its bearer tokens cannot
    │                            be read (A-10a), an index the disk will not take (A-6)
    └── LockTimeoutError    503  a lock held by another too long; retry later   store/locks.py

``memory_core.errors.InvalidId`` (an id failing K-7) maps to 400 and ``msgspec.ValidationError``
(a body of the wrong shape) to 422, both in the same middleware; aiohttp's own 404, 405 and 413
(``client_max_size``) become the same problem shape there. Outside the HTTP path:
``store.containment.NotRegularFileError`` (an ``OSError``: a FIFO, folder or device where a file
should be), ``settings.SettingsError`` (a malformed environment variable, named) and
``http.auth.BindRefused`` (a non-loopback bind without tokens) stop the CLI with a message.
"""

from __future__ import annotations

import errno

from memory_core.wire import PROBLEM_TYPE_BASE


class ServiceError(Exception):
    """Base of the service's errors; ``detail`` becomes the problem+json ``detail``,
    ``problem_type`` its ``type`` (``about:blank``: the status says all a client needs)."""

    status: int = 500
    problem_type: str = "about:blank"
    closes_connection: bool = False
    """Whether the connection is closed after the answer (what else came on it is unusable)."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class BadRequest(ServiceError):
    """The request cannot be understood (400)."""

    status = 400


class UnreadableBody(BadRequest):
    """The request body cannot be read: it does not decode in its ``Content-Encoding``, or its
    chunks are malformed (400). The connection is closed after the answer, since the rest of
    what the client sent on it cannot be parsed."""

    closes_connection = True


class BodyTimedOut(ServiceError):
    """The request body did not all arrive within the time the service waits for it (408, RFC
    9110 15.5.9): a client that announced more than it sends cannot hold a request open. The
    connection is closed after the answer."""

    status = 408
    closes_connection = True


class BodyTooLarge(ServiceError):
    """A request body over the route's own limit (413), where that is not the application's
    ``client_max_size`` (git's pushes and fetches, R-1); the ``detail`` names the limit."""

    status = 413


class Unauthorized(ServiceError):
    """No bearer token, or one the service does not know (401); the subclasses name which in
    their problem ``type``."""

    status = 401


class TokenMissing(Unauthorized):
    """The request carries no bearer token, and this service needs one (401, A-10)."""

    problem_type = PROBLEM_TYPE_BASE + "bearer-token-missing"


class TokenUnknown(Unauthorized):
    """The request's bearer token is not one this service knows: revoked or mistyped (401)."""

    problem_type = PROBLEM_TYPE_BASE + "bearer-token-unknown"


class NoTokenConfigured(Unauthorized):
    """The service listens beyond loopback and knows no token (every one revoked): it fails
    closed, answering no API request until a token is created (401, A-10)."""

    problem_type = PROBLEM_TYPE_BASE + "no-token-configured"


class NotFound(ServiceError):
    """The addressed thing does not exist or lies outside the token's projects (404, A-10)."""

    status = 404


class Conflict(ServiceError):
    """The thing to create exists already (409)."""

    status = 409


class ProjectFull(Conflict):
    """A project holds as many agents as ``MEMORY_API_MAX_AGENTS_PER_PROJECT`` allows (409):
    nothing expires to make room, so no ``Retry-After``; the ``detail`` names the cap."""

    problem_type = PROBLEM_TYPE_BASE + "cap-reached"


class PreconditionFailed(ServiceError):
    """A precondition failed: ``If-Match`` naming no current ETag (or any but ``*`` of a file,
    which has none), ``If-None-Match`` naming the current one or ``*`` (412; A-2, A-6, V-2)."""

    status = 412


class Forbidden(ServiceError):
    """A rule about where a request comes from refused it (403, A-10a): a ``Host`` or ``Origin``
    that is not the service's own, or an unsafe method sent by a page of another site."""

    status = 403


class TooMany(ServiceError):
    """A cap on what one agent may keep is reached (429): e.g. its live drafts (A-12). The
    ``detail`` names the cap and when room is made; ``retry_after`` (seconds, at least 1) is
    sent as ``Retry-After``."""

    status = 429
    problem_type = PROBLEM_TYPE_BASE + "cap-reached"

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = max(1, retry_after)


class Unprocessable(ServiceError):
    """A well-formed value that a rule refuses (422): e.g. a memory prompt without its index
    placeholder (I-1)."""

    status = 422


class Unavailable(ServiceError):
    """The service cannot judge or carry out the request now (503), e.g. its bearer tokens
    cannot be read (A-10a); the ``detail`` says what an operator must fix."""

    status = 503


class NotAFolder(Unavailable):
    """A scope made on demand (the user scope, K-6) cannot be made because something that is
    not a folder is in its folder's place (a file): 503, never a 404 "no
    scope", for there is one; an operator must move that thing away (Q-2b)."""


READ_ACCESS_FIX = (
    "an operator must give the account the service runs as read access to it (its owner and "
    "mode; for an I/O error, repair the disk), then try again"
)
"""What an operator does about a file or folder the service cannot read (Q-2b), said after it."""

READ_ACCESS_FIX_FIRST = (
    "an operator must give the account the service runs as read access to the files named "
    "after this (their owner and mode; for an I/O error, repair the disk), then try again"
)
""":data:`READ_ACCESS_FIX` said before the files it is about (``CannotRead(fix_first=True)``)."""


def write_fix(error: OSError, access: str) -> str:
    """What an operator does about ``error``, met writing a file of the data dir, for a
    ``detail``: each cause its own remedy. No permission (EACCES, EPERM) is a matter of the
    account's ``access`` (e.g. ``"write access to it (its owner and mode)"``); a file system
    mounted read-only (EROFS) is mounted read-write (no owner or mode would help: the detail
    must not send anyone to ``chmod``), a full disk or quota (ENOSPC, EDQUOT) is freed, an I/O
    error (EIO) repaired, the process's or the system's open-file limit (EMFILE, ENFILE)
    raised; any other error is named (``ENAMETOOLONG``) with no remedy guessed."""
    match error.errno:
        case errno.EACCES | errno.EPERM:
            return f"an operator must give the account the service runs as {access}"
        case errno.EROFS:
            return "an operator must mount the file system holding it read-write"
        case errno.ENOSPC | errno.EDQUOT:
            return "an operator must free space on its disk"
        case errno.EIO:
            return "an operator must repair its disk"
        case errno.EMFILE:
            return "an operator must raise the service's open-file limit (ulimit -n, LimitNOFILE)"
        case errno.ENFILE:
            return "an operator must raise the system's open-file limit (fs.file-max)"
        case code:
            name = errno.errorcode.get(code, f"errno {code}") if code else type(error).__name__
            return f"an operator must look into the error {name}"


class CannotRead(ServiceError):
    """A memory file or scope folder is there but the service cannot read or list it (503,
    Q-2b): no permission, an I/O error. One status on every route, whatever it reads: the
    service cannot serve the request until an operator fixes the file, and the request may
    succeed when repeated then. Never a 404, which would say it is absent, nor a 500.

    ``what`` names the file (never its path) and why it cannot be read; the ``detail`` adds
    :data:`READ_ACCESS_FIX`: ``"topic file 'a.md' in scope 'user' is there, but the service
    cannot read it (Permission denied): an operator must …"``; with ``fix_first`` (a long list
    of files) :data:`READ_ACCESS_FIX_FIRST` comes first, so a client keeping the detail's start
    keeps what to do."""

    status = 503

    def __init__(self, what: str, *, fix_first: bool = False) -> None:
        # fix_first: the fix, then what (a long list of files), so a client that keeps the
        # detail's start (the plugin: 500 characters) keeps what to do
        super().__init__(
            f"{READ_ACCESS_FIX_FIRST}: {what}" if fix_first else f"{what}: {READ_ACCESS_FIX}"
        )
        self.what = what
        """What cannot be read and why, without what an operator must do."""
