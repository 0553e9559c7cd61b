"""HTTP views of the answers app: they parse input, call the answer service and render its events.

The API views take `make_generator`, the factory of each answer's generator, as a keyword: the URLconf passes the
site's (`answers.urls`), a test may call them with another.
"""
import json
import uuid
from collections.abc import AsyncIterator

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from redis.exceptions import RedisError

from answers.conversations import (
    ConversationIdRejected,
    ConversationNotFound,
    caller_conversations,
    can_keep,
    cited_ids,
    conversation_get,
    conversation_turns,
    parse_conversation_key,
    resolution_ids,
    shown_ids,
    visible_chunks,
)
from answers.limits.rates import session_mint_allowed
from answers.limits.slots import QuestionRefused
from answers.models import Conversation, QuestionLog
from answers.outages import RETRY_AFTER_S, ServiceUnavailable, database_available
from answers.present.links import render_answer_links, render_hidden
from answers.present.rating import render_rating
from answers.present.sse import sse_frame
from answers.present.stored import all_visible, render_stored
from answers.ratings import (
    AnswerNotFound,
    RatingRejected,
    can_rate,
    parse_rating,
    rate_answer,
    rating_json,
    rating_limit_hit,
)
from answers.retrieval.caller import caller_audiences
from answers.services import (
    AnswerStream,
    Caller,
    GeneratorFactory,
    QuestionRejected,
    ask,
    clean_history,
    history_from_questions,
    pipeline_config,
)
from corpus_admin.models import chunk_url

HIDDEN_ANSWER = "This answer cites passages you may no longer see, so it is not shown."
# Fetch Metadata (`Sec-Fetch-Site`, sent by browsers): a request a page of another site made the browser send.
OTHER_SITES = frozenset({"cross-site", "same-site"})
FROM_ANOTHER_SITE = ("A page of another site sent this question with your cookies; ask it on this site's own page, "
                     "or from a program without them.")
LISTED_CONVERSATIONS = 50


def _caller(request: HttpRequest) -> Caller:
    return Caller(request.user, request.session.session_key or "", request.META.get("REMOTE_ADDR"))


@require_GET
def chat(request: HttpRequest) -> HttpResponse:
    """The chat page, with the caller's conversations; `?c=<key>` reopens one of them (any other key: the 404
    page). Answers arrive over the websocket.

    An anonymous visitor is given a session, which their conversations and ratings belong to. Minting one per
    request escapes no limit: an anonymous caller's questions also count against their address; and an address is
    given at most RAG_SESSION_MINT_LIMIT a minute (past that the page is served without one: its questions are
    answered, but kept in no conversation).
    """
    try:
        with database_available():  # the page reads who is signed in as it renders
            minted = not request.user.is_authenticated and request.session.session_key is None
            if minted and _may_mint_session(request):
                request.session.save()
            caller = _caller(request)
            current = _reopened(caller, request.GET.get("c"))
            # A session minted just now owns no conversation yet: nothing to look up.
            listed = [] if minted else list(caller_conversations(caller=caller)[:LISTED_CONVERSATIONS])
            response = render(request, "answers/chat.html", {
                "max_chars": settings.RAG_MAX_QUESTION_CHARS,
                "conversations": listed,
                "current": current,
                "anon_days": settings.RAG_ANON_CONVERSATION_DAYS,
            })
    except ServiceUnavailable as busy:
        response = render(request, "answers/busy.html", {"message": busy.message}, status=503)
        response["Retry-After"] = str(RETRY_AFTER_S)
    add_never_cache_headers(response)
    return response


def _may_mint_session(request: HttpRequest) -> bool:
    """Whether the request's address may be given a new session now; yes when the counters cannot be reached (the
    page matters more than the bound)."""
    try:
        return async_to_sync(session_mint_allowed)(request.META.get("REMOTE_ADDR"))
    except (RedisError, OSError, ServiceUnavailable):
        return True


def _reopened(caller: Caller, raw: str | None) -> Conversation | None:
    """The conversation `?c=` names, the caller's; Http404 for any other value (missing, expired, someone else's)."""
    if raw is None:
        return None
    try:
        key = parse_conversation_key(raw)
        return None if key is None else conversation_get(caller=caller, key=key)
    except (ConversationIdRejected, ConversationNotFound):
        raise Http404("No such conversation.") from None


def _fragments(fragments: str) -> HttpResponse:
    response = HttpResponse(fragments)
    add_never_cache_headers(response)
    return response


@require_GET
def conversation_fragments(request: HttpRequest, key: uuid.UUID) -> HttpResponse:
    """A reopened conversation's turns as the fragments the chat swaps in: each answer as it was shown, an answer
    citing a passage the caller may no longer see as a note saying so. Not the caller's: the 404 page."""
    with database_available():
        caller = _caller(request)
        try:
            conversation = conversation_get(caller=caller, key=key)
        except ConversationNotFound:
            raise Http404("No such conversation.") from None
        rows = list(conversation_turns(conversation))
        ids = [cid for row in rows for cid in shown_ids(row)]
        chunks = visible_chunks(ids, audiences=caller_audiences(caller.user))
        parts = []
        earlier: list[str] = []  # what every earlier turn cites: a standalone form may stand on it (resolution_ids)
        for number, row in enumerate(rows, start=1):
            turn = f"c{number}"
            resolution = all_visible(earlier, chunks)
            earlier += cited_ids(row)
            if not all_visible(cited_ids(row), chunks):
                parts.append(render_hidden(turn, row.question, HIDDEN_ANSWER))
                continue
            parts.append(render_stored(turn, row, chunks, resolution=resolution))
            if row.status != "failed":
                parts.append(render_answer_links(turn, row.answer_key))
                if can_rate(caller):
                    parts.append(render_rating(turn, row.answer_key))
    return _fragments("".join(parts))


def _permalinked(request: HttpRequest, answer_key: uuid.UUID) -> tuple[QuestionLog, dict, bool]:
    """The answer with that key, the chunks it names that the opener may see, and whether its standalone form (a
    follow-up's) may be shown to them: only when they may see every passage of the turns it was made from. Http404,
    the same as for a key that names no answer, unless it cites only passages they may see now (§3)."""
    row = QuestionLog.objects.filter(answer_key=answer_key).exclude(status="cancelled").first()
    if row is None:
        raise Http404("No such answer.")
    audiences = caller_audiences(request.user)
    chunks = visible_chunks(shown_ids(row), audiences=audiences)
    if not all_visible(cited_ids(row), chunks):
        raise Http404("No such answer.")
    resolved_from = resolution_ids(row) if (row.diagnostics or {}).get("resolved_question") else []
    resolution = resolved_from is not None and all_visible(resolved_from, visible_chunks(resolved_from,
                                                                                          audiences=audiences))
    return row, chunks, resolution


@require_GET
def answer_permalink(request: HttpRequest, answer_key: uuid.UUID) -> HttpResponse:
    """An answer's permanent page: anyone with the link sees it, if they may see every passage it cites now."""
    with database_available():
        row, _chunks, _resolution = _permalinked(request, answer_key)
        response = render(request, "answers/permalink.html", {"row": row})
    add_never_cache_headers(response)
    return response


@require_GET
def answer_permalink_fragments(request: HttpRequest, answer_key: uuid.UUID) -> HttpResponse:
    """The permalinked answer as the chat's fragments (re-checked as the page is)."""
    with database_available():
        row, chunks, resolution = _permalinked(request, answer_key)
        return _fragments(render_stored("p1", row, chunks, resolution=resolution)
                          + render_answer_links("p1", row.answer_key))


def _no_view(request: HttpRequest) -> HttpResponse:
    """The view CsrfViewMiddleware is handed: never called (process_view only checks the token), and not csrf_exempt."""
    raise AssertionError("not a view")


def _csrf_failure(request: HttpRequest) -> JsonResponse | None:
    """Signed-in (session) callers must send the CSRF token; anonymous programs need none."""
    rejected = CsrfViewMiddleware(_no_view).process_view(request, _no_view, (), {})
    if rejected is None:
        return None
    return JsonResponse({"error": "CSRF check failed: send the csrftoken cookie's value in X-CSRFToken."}, status=403)


def _from_another_site(request: HttpRequest) -> bool:
    """Whether a browser sent the request, with this site's session cookie, for a page of another site (a link's
    `GET /api/answer/stream?question=...` carries a SameSite=Lax cookie): it would ask as the visitor, in their
    conversations and allowance. Programs send no Sec-Fetch-Site; the site's own pages send `same-origin`."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return False
    if (site := request.headers.get("Sec-Fetch-Site")) is not None:
        return site in OTHER_SITES
    return _sent_from_another_host(request)


def _sent_from_another_host(request: HttpRequest) -> bool:
    """For browsers without Fetch Metadata (Safari before 16.4): an Origin or Referer naming another host, or an
    opaque Origin ("null"). Neither header (a program, a typed address, a page that withholds its referrer) is not
    a sign of another site."""
    origin = request.headers.get("Origin")
    if origin == "null":
        return True
    page = origin or request.headers.get("Referer")
    return bool(page) and not url_has_allowed_host_and_scheme(page, allowed_hosts={request.get_host()})


def _bad_request(message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=400)


def parse_body(request: HttpRequest) -> dict:
    """A JSON body {"question": ..., "history": [...], "conversation": "<id>"} (cleaned by the answer service and
    answers.conversations; "history" and "conversation" optional); raises QuestionRejected naming what was wrong."""
    try:
        body = json.loads(request.body or b"")
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise QuestionRejected(f"The body is not valid JSON ({error}).") from None
    except RecursionError:  # the C decoder recurses once per level: 100,000 "[" exhaust the stack
        raise QuestionRejected('The body is nested too deeply; send a JSON object like {"question": "..."}.') from None
    if not isinstance(body, dict):
        raise QuestionRejected('The body must be a JSON object like {"question": "..."}.')
    if "question" not in body:
        raise QuestionRejected('The field "question" is missing.')
    return body


def _too_many(message: str, retry_after_s: int = 60) -> JsonResponse:
    response = JsonResponse({"error": message}, status=429)
    response["Retry-After"] = str(retry_after_s)
    return response


def _unavailable(message: str) -> JsonResponse:
    response = JsonResponse({"error": message}, status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response


async def _open(
    request: HttpRequest, *, channel: str, make_generator: GeneratorFactory, from_query: bool = False
) -> AnswerStream | JsonResponse:
    """The answer stream of the request's question, or the JSON error response that refuses it (400, 403, 429, 503)."""
    if _from_another_site(request):
        return JsonResponse({"error": FROM_ANOTHER_SITE}, status=403)
    try:
        with database_available():
            user = await request.auser()
        if request.method == "POST" and user.is_authenticated and (failure := _csrf_failure(request)):
            return failure
        body = (
            {"question": request.GET.get("question"), "conversation": request.GET.get("conversation")}
            if from_query else parse_body(request)
        )
        history = history_from_questions(clean_history(body.get("history")), config=pipeline_config())
        key = parse_conversation_key(body.get("conversation"))
        caller = Caller(user, request.session.session_key or "", request.META.get("REMOTE_ADDR"))
        conversation = None
        if key is not None:
            with database_available():
                conversation = await sync_to_async(conversation_get)(caller=caller, key=key)
        return await ask(caller=caller, question=body["question"], channel=channel, make_generator=make_generator,
                         history=history, conversation=conversation, keep=can_keep(caller))
    except (QuestionRejected, ConversationIdRejected) as error:
        return _bad_request(str(error))
    except ConversationNotFound as missing:
        return JsonResponse({"error": str(missing)}, status=404)
    except QuestionRefused as refused:
        return _too_many(refused.message, refused.retry_after_s or 60)
    except ServiceUnavailable as busy:
        return _unavailable(busy.message)


@csrf_exempt
@require_POST
async def api_answer(request: HttpRequest, *, make_generator: GeneratorFactory) -> JsonResponse:
    """POST {"question": ..., "history": [earlier questions], "conversation": id}: the verified answer as one JSON
    object (§6), with its `answer_key` and the `conversation` it was asked in (null when none is kept)."""
    opened = await _open(request, channel=QuestionLog.Channel.API, make_generator=make_generator)
    if isinstance(opened, JsonResponse):
        return opened
    async for _event in opened:
        pass
    conversation = str(opened.conversation.key) if opened.conversation is not None else None
    response = JsonResponse({**opened.summary.to_json(chunk_url), "answer_key": str(opened.answer_key),
                             "conversation": conversation})
    response["Cache-Control"] = "no-store"
    return response


@csrf_exempt
@require_http_methods(["GET", "POST"])
async def api_answer_stream(request: HttpRequest, *, make_generator: GeneratorFactory) -> HttpResponseBase:
    """The same events as Server-Sent Events: GET ?question=... or POST {"question": ...}."""
    opened = await _open(
        request, channel=QuestionLog.Channel.SSE, make_generator=make_generator, from_query=request.method == "GET"
    )
    if isinstance(opened, JsonResponse):
        return opened

    async def stream() -> AsyncIterator[str]:
        async for event in opened:
            if frame := sse_frame(event):
                yield frame

    response = StreamingHttpResponse(stream(), content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each event on as it is written
    response["X-Answer-Key"] = str(opened.answer_key)  # what a rating names, once the stream has ended
    if opened.conversation is not None:
        response["X-Conversation"] = str(opened.conversation.key)
    return response


@csrf_exempt  # checked below for every caller, with a JSON answer: a rating's caller is always a cookie's
@require_POST
async def api_answer_rating(request: HttpRequest, answer_key: uuid.UUID) -> JsonResponse:
    """POST {"helpful": true|false, "comment": "..."}: the caller's rating of their own answer (one, changeable)."""
    try:
        with database_available():
            user = await request.auser()  # loads the session too: its key is then one the store holds
        if failure := _csrf_failure(request):
            return failure
        caller = Caller(user, request.session.session_key or "", request.META.get("REMOTE_ADDR"))
        decision = await rating_limit_hit(caller.key)
        if not decision.allowed:
            return _too_many(decision.message, decision.retry_after_s)
        rating = parse_rating(request.body)
        with database_available():
            saved = await sync_to_async(rate_answer)(caller=caller, answer_key=answer_key, rating=rating)
            body = await sync_to_async(rating_json)(saved)
    except RatingRejected as error:
        return _bad_request(str(error))
    except AnswerNotFound as missing:
        return JsonResponse({"error": str(missing)}, status=404)
    except ServiceUnavailable as busy:
        return _unavailable(busy.message)
    response = JsonResponse(body)
    response["Cache-Control"] = "no-store"
    return response
