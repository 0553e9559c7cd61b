"""HTTP views of the answers app: they parse input, call the answer service and render its events.

The API views take `make_generator`, the factory of each answer's generator, as a keyword: the URLconf passes the
site's (`answers.urls`), a test may call them with another.
"""
import json
import uuid
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from answers.limits.slots import QuestionRefused
from answers.models import QuestionLog
from answers.outages import RETRY_AFTER_S, ServiceUnavailable, database_available
from answers.present.sse import sse_frame
from answers.ratings import AnswerNotFound, RatingRejected, parse_rating, rate_answer, rating_json, rating_limit_hit
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


@require_GET
def chat(request: HttpRequest) -> HttpResponse:
    """The chat page; answers arrive over the websocket.

    A bare view saves no session: a client could mint one per request and so escape the limits (an anonymous
    socket is limited by its address; the CSRF token lives in its own cookie).
    """
    try:
        with database_available():  # the page reads who is signed in as it renders
            response = render(request, "answers/chat.html", {"max_chars": settings.RAG_MAX_QUESTION_CHARS})
    except ServiceUnavailable as busy:
        response = render(request, "answers/busy.html", {"message": busy.message}, status=503)
        response["Retry-After"] = str(RETRY_AFTER_S)
    add_never_cache_headers(response)
    return response


def _no_view(request: HttpRequest) -> HttpResponse:
    """The view CsrfViewMiddleware is handed: never called (process_view only checks the token), and not csrf_exempt."""
    raise AssertionError("not a view")


def _csrf_failure(request: HttpRequest) -> JsonResponse | None:
    """Signed-in (session) callers must send the CSRF token; anonymous programs need none."""
    rejected = CsrfViewMiddleware(_no_view).process_view(request, _no_view, (), {})
    if rejected is None:
        return None
    return JsonResponse({"error": "CSRF check failed: send the csrftoken cookie's value in X-CSRFToken."}, status=403)


def _bad_request(message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=400)


def parse_body(request: HttpRequest) -> dict:
    """A JSON body {"question": ..., "history": [...]} (both cleaned by the answer service; "history" optional);
    raises QuestionRejected naming what was wrong."""
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
    try:
        with database_available():
            user = await request.auser()
        if request.method == "POST" and user.is_authenticated and (failure := _csrf_failure(request)):
            return failure
        body = {"question": request.GET.get("question")} if from_query else parse_body(request)
        history = history_from_questions(clean_history(body.get("history")), config=pipeline_config())
        caller = Caller(user, request.session.session_key or "", request.META.get("REMOTE_ADDR"))
        return await ask(caller=caller, question=body["question"], channel=channel, make_generator=make_generator,
                         history=history)
    except QuestionRejected as error:
        return _bad_request(str(error))
    except QuestionRefused as refused:
        return _too_many(refused.message, refused.retry_after_s or 60)
    except ServiceUnavailable as busy:
        return _unavailable(busy.message)


@csrf_exempt
@require_POST
async def api_answer(request: HttpRequest, *, make_generator: GeneratorFactory) -> JsonResponse:
    """POST {"question": ..., "history": [earlier questions]}: the verified answer as one JSON object (§6)."""
    opened = await _open(request, channel=QuestionLog.Channel.API, make_generator=make_generator)
    if isinstance(opened, JsonResponse):
        return opened
    async for _event in opened:
        pass
    response = JsonResponse({**opened.summary.to_json(chunk_url), "answer_key": str(opened.answer_key)})
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
