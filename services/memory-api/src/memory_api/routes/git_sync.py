"""Git's smart HTTP for the machines that keep local copies of memory (R-1), and their list.

=====  ================================================  =====================================
GET    ``…/memory/git/{key}.git/info/refs?service=…``    ref advertisement for a fetch or push
POST   ``…/memory/git/{key}.git/git-upload-pack``        a fetch's pack
POST   ``…/memory/git/{key}.git/git-receive-pack``       a push, merged into the scope (R-2)
GET    ``…/memory/git/{key}.git/git-upload-pack``        why this machine's last fetch's pack
                                                         failed (the problem answered again)
GET    ``…/memory/git/{key}.git/git-receive-pack``       why this machine's last push failed
GET    ``…/memory/machines``                             per scope, the machines and their syncs
=====  ================================================  =====================================

``…`` is ``/api/projects/{project}/agents/{agent}``, so the bearer token and the project check
of every other route apply (A-10; another project's agent is 404). A machine names itself with
``X-Memory-Machine: <id>`` (R-1 id rule; needed to push) and ``X-Memory-Machine-Name:``
(percent-encoded UTF-8, shown on the page). One repository per scope: a fetch of a scope gets
that scope's files and nothing else, and the refs it sees are ``main`` alone (see
:mod:`memory_api.store.sync.backend`).

Bodies are read in chunks up to a cap (``MEMORY_API_SYNC_MAX_PUSH`` for a push, 16 MiB for a
fetch's wants and haves; more is 413) before git runs, in a ``Content-Encoding`` a JSON body
may have (git gzips a fetch's: any other is 415, data that does not decode in it 400), and one
not framed as git's pkt-lines is 400 (:mod:`memory_api.store.sync.pkt_line`); a fetch's
answer is streamed from git. The
probe git sends before a push larger than its ``http.postBuffer`` (a flush packet alone) is
answered 200 with nothing, as ``git http-backend`` answers it, without taking the scope's lock.
Git's answers other than 200 become problem details like every error of the service. git shows
the machine only the status of a failed POST ("error: RPC failed; HTTP 503"), never its body
(it shows a ``text/plain`` body of a failed ref list alone, ``gitprotocol-http``): so the
problem a POST of a machine (``X-Memory-Machine``) was answered with, 5xx (or a 409 refusing
a push whole, A-6), is remembered
(:meth:`~memory_api.store.sync.service.SyncStore.note_answer`), and a ``GET`` of the same URL by
that machine answers it again, status, ``detail``, ``type`` and ``Retry-After`` (404 once its
last POST there did not fail): what its sync shows as the service's reason (R-1). These
routes are git's protocol (documented by git, ``gitprotocol-http``) and its follow-up, not
JSON: they are left out of ``/openapi.json``, whose schemas cannot state pkt-lines; the
machines list is in it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from urllib.parse import unquote

from aiohttp import hdrs, web
from aiohttp.web_protocol import RequestPayloadError

from memory_api.appkeys import PRINCIPAL_KEY, get_sync_store
from memory_api.errors import BadRequest, BodyTimedOut, BodyTooLarge, NotFound
from memory_api.http.browser_guard import changes_on_read
from memory_api.http.expect import expect_handler
from memory_api.http.jsonio import check_body_encoding, json_response, unreadable_body
from memory_api.http.problems import (
    PROBLEM_KEY,
    body_too_large,
    problem_middleware,
    problem_response,
)
from memory_api.http.query_names import repeated_refusal
from memory_api.store.history.git import HistoryUnavailable
from memory_api.store.sync.backend import GitService, Head, StreamedAnswer
from memory_api.store.sync.machines import check_machine
from memory_api.store.sync.pkt_line import PUSH_PROBE, check_request
from memory_api.store.sync.service import FailedAnswer, GitRequest

__all__ = ["GIT_BASE", "MACHINE_HEADER", "MACHINE_NAME_HEADER", "routes"]

BASE = "/api/projects/{project}/agents/{agent}/memory"
GIT_BASE = BASE + "/git/{key}.git"
MACHINE_HEADER = "X-Memory-Machine"
MACHINE_NAME_HEADER = "X-Memory-Machine-Name"
_SERVICES: tuple[GitService, ...] = ("git-upload-pack", "git-receive-pack")
_CHUNK = 64 * 1024

routes = web.RouteTableDef()


def _one_header(request: web.Request, header: str) -> str | None:
    """The one ``header`` line of the request (None without one); a :class:`BadRequest` for
    several, which git's ``http.extraHeader`` sends when configured twice: the first was taken,
    so a push went to one machine's ref while a proxy or log in front saw the other."""
    lines = request.headers.getall(header, ())
    if len(lines) > 1:
        raise BadRequest(
            f"the request carries {len(lines)} {header} headers; send exactly one (a machine "
            "names itself once: check git's http.extraHeader settings)"
        )
    return lines[0] if lines else None


def _machine_name(request: web.Request) -> str | None:
    """The ``X-Memory-Machine-Name`` header percent-decoded as UTF-8 (None without one); a
    :class:`BadRequest` when its bytes are no UTF-8 or it is sent twice. ``%FF`` was noted as
    the name U+FFFD (the replacement character), a name no machine sent."""
    name = _one_header(request, MACHINE_NAME_HEADER)
    if name is None:
        return None
    try:
        return unquote(name, errors="strict")
    except UnicodeDecodeError:
        raise BadRequest(
            f"{MACHINE_NAME_HEADER} must be percent-encoded UTF-8: {name[:100]!r} is not"
        ) from None


def _request(request: web.Request, content_type: str | None = None) -> GitRequest:
    info = request.match_info
    machine = check_machine(_one_header(request, MACHINE_HEADER), _machine_name(request))
    return GitRequest(
        project=info["project"],
        agent_id=info["agent"],
        key=info["key"],
        principal=request[PRINCIPAL_KEY].name,
        machine=machine,
        content_type=content_type,
    )


def _check_answer(head: Head) -> None:
    """Turn a git answer other than 200 into the service's problem."""
    if head.status == 200:
        return
    if head.status in (403, 404):
        raise NotFound("git does not serve this scope's history")
    if 400 <= head.status < 500:
        raise BadRequest(f"git refused the request ({head.status})")
    raise HistoryUnavailable(f"git could not answer ({head.status})")


async def _stream(request: web.Request, answer: StreamedAnswer) -> web.StreamResponse:
    """Pass git's streamed answer on (a problem instead when git did not answer 200). A client
    that hangs up before the end (the plugin's question after a failed push reads the status
    alone) stops the answer quietly: the write's ``ConnectionResetError`` was logged as a
    "data dir error" with an incident id, an ERROR for an operator to chase. A ``HEAD`` is
    answered its head alone (RFC 9110 9.3.2): aiohttp writes what a stream is given, and bytes
    after a head that frames none were read as the next answer on the connection."""
    try:
        _check_answer(answer.head)
        response = web.StreamResponse(status=200)
        response.content_type = answer.head.headers.get("content-type", "application/octet-stream")
        response.headers["Cache-Control"] = "no-cache, max-age=0, must-revalidate"
        await response.prepare(request)
        try:
            if request.method != hdrs.METH_HEAD:
                async for chunk in answer.chunks():
                    await response.write(chunk)
            await response.write_eof()
        except ConnectionResetError:  # the client hung up mid-answer: nothing is wrong here
            pass
    finally:
        await answer.close()
    return response


async def _read_body(request: web.Request, service: GitService, cap: int, seconds: float) -> bytes:
    """The request body, read in chunks up to ``cap`` bytes (413 beyond) within ``seconds``
    (408 beyond); its type must be git's for ``service`` and its ``Content-Encoding`` one the
    service decodes (415 otherwise, :func:`check_body_encoding`); data that does not decode in
    it is a 400 (:func:`unreadable_body`), and the body must be framed as git frames a request
    of ``service`` (400 otherwise: git would answer it 200 and nothing).
    """
    expected = f"application/x-{service}-request"
    if request.content_type != expected:
        raise web.HTTPUnsupportedMediaType(text=f"the body of {service} must be {expected}")
    check_body_encoding(request)
    length = request.content_length
    if length is not None and length > cap:
        raise BodyTooLarge(body_too_large(cap))
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(seconds):
            while chunk := await request.content.read(_CHUNK):
                size += len(chunk)
                if size > cap:
                    raise BodyTooLarge(body_too_large(cap))
                chunks.append(chunk)
    except TimeoutError:
        raise BodyTimedOut(f"the request body did not arrive within {seconds:g} s") from None
    except RequestPayloadError as error:
        raise unreadable_body(request, error) from None
    except ConnectionError:
        raise BadRequest("the request body was cut off: the connection was lost") from None
    body = b"".join(chunks)
    check_request(service, body)
    return body


def _fetch_body_limit(request: web.Request) -> int:
    """The largest fetch request body in bytes (R-1), for ``Expect: 100-continue``."""
    return get_sync_store(request.app).limits.fetch_body


def _push_body_limit(request: web.Request) -> int:
    """The largest push body in bytes (R-1), for ``Expect: 100-continue``."""
    return get_sync_store(request.app).limits.push_body


@routes.get(GIT_BASE + "/info/refs")
@changes_on_read("a fetch's ref advertisement records what is on disk as a version")
async def get_info_refs(request: web.Request) -> web.StreamResponse:
    """R-1: git's ref advertisement for ``service=git-upload-pack`` (a fetch: ``main`` only,
    what is on disk recorded first) or ``service=git-receive-pack`` (a push: the machine's own
    ref only). ``service`` given twice is a 400 (A-11): the first was taken, a fetch's
    advertisement for ``?service=git-upload-pack&service=git-receive-pack``. As it records,
    the browser rules judge it as a change (A-10a): a page of another site, or of another
    origin on a token-less service, is 403; git sends neither header."""
    services = request.query.getall("service", ())
    if len(services) > 1:
        raise BadRequest(repeated_refusal("service", len(services)))
    service = services[0] if services else None
    if service not in _SERVICES:
        raise NotFound("this service speaks git's smart HTTP only: ask for ?service=git-…-pack")
    store = get_sync_store(request.app)
    return await _stream(request, await store.advertise(_request(request), service))


def _asker(request: web.Request) -> str | None:
    """The id of the machine a request names, when it names one well (else None): the checks
    of :func:`_request`, whose :class:`BadRequest` means no machine here."""
    try:
        machine = check_machine(_one_header(request, MACHINE_HEADER), _machine_name(request))
    except BadRequest:
        return None
    return None if machine is None else machine.machine_id


async def _noted(
    request: web.Request,
    service: GitService,
    handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
) -> web.StreamResponse:
    """``handler``'s answer to a POST of ``service``, an error as the problem the service's
    middleware makes of it (run here, so the answer is seen); a 5xx problem (or a 409 refusing
    a push) is remembered for the machine that asked as it was answered (status, ``detail``,
    ``type``, ``Retry-After``),
    any other answer forgets its last one (see the module)."""
    response = await problem_middleware(request, handler)
    machine_id = _asker(request)
    if machine_id is None:
        return response
    problem = response.get(PROBLEM_KEY)
    answer = (
        None
        if problem is None
        else FailedAnswer(
            status=problem.status,
            detail=problem.detail,
            problem_type=problem.type,
            retry_after=response.headers.get("Retry-After"),
        )
    )
    info = request.match_info
    asked = (info["project"], info["agent"], info["key"], service, machine_id)
    get_sync_store(request.app).note_answer(asked, answer)
    return response


async def get_failed_answer(request: web.Request) -> web.Response:
    """R-1: the problem the asking machine's last POST to this URL was answered with, 5xx or a
    409 refusing a push, answered again (its status, ``detail`` and ``type``, and its
    ``Retry-After`` when it had one): git showed the machine only the status. 404 when its
    last one did not fail, 400 for a request naming no machine. Registered right after each
    POST of its URL, so both methods share one resource (one match a request)."""
    service: GitService = (
        "git-receive-pack" if request.path.endswith("/git-receive-pack") else "git-upload-pack"
    )
    failed = await get_sync_store(request.app).failed_answer(_request(request), service)
    retry = {} if failed.retry_after is None else {"Retry-After": failed.retry_after}
    return problem_response(
        failed.status,
        failed.detail,
        instance=request.rel_url.raw_path,
        headers=retry,
        problem_type=failed.problem_type,
    )


@routes.post(GIT_BASE + "/git-upload-pack", expect_handler=expect_handler(_fetch_body_limit))
async def post_upload_pack(request: web.Request) -> web.StreamResponse:
    """R-1: a fetch: git's pack of what the machine wants, streamed."""
    return await _noted(request, "git-upload-pack", _upload_pack)


routes.get(GIT_BASE + "/git-upload-pack")(get_failed_answer)


async def _upload_pack(request: web.Request) -> web.StreamResponse:
    store = get_sync_store(request.app)
    limits = store.limits
    body = await _read_body(request, "git-upload-pack", limits.fetch_body, limits.timeout)
    git_request = _request(request, request.headers.get("Content-Type"))
    return await _stream(request, await store.upload_pack(git_request, body))


@routes.post(GIT_BASE + "/git-receive-pack", expect_handler=expect_handler(_push_body_limit))
async def post_receive_pack(request: web.Request) -> web.StreamResponse:
    """R-1, R-2: a push to the machine's own ref, merged into the scope folder and recorded
    before git's report is answered."""
    return await _noted(request, "git-receive-pack", _receive_pack)


routes.get(GIT_BASE + "/git-receive-pack")(get_failed_answer)


async def _receive_pack(request: web.Request) -> web.StreamResponse:
    store = get_sync_store(request.app)
    limits = store.limits
    body = await _read_body(request, "git-receive-pack", limits.push_body, limits.timeout)
    git_request = _request(request, request.headers.get("Content-Type"))
    if body == PUSH_PROBE:  # git asks before it sends a large push: answered as git would
        head, answer = Head(200), b""
    else:
        head, answer = await store.receive_pack(git_request, body)
    _check_answer(head)
    content_type = head.headers.get("content-type", "application/x-git-receive-pack-result")
    return web.Response(
        body=answer,
        headers={"Content-Type": content_type, "Cache-Control": "no-cache, max-age=0"},
    )


@routes.get(BASE + "/machines")
async def get_machines(request: web.Request) -> web.Response:
    """R-1: ``MachineList`` — per scope, the machines keeping a local copy of it: name, token,
    last sync, last push and what merging their last changes did (R-2)."""
    info = request.match_info
    store = get_sync_store(request.app)
    return json_response(await store.machine_list(info["project"], info["agent"]))
