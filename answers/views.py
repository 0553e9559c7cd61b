"""HTTP views of the answers app: they parse input, call the answer service and render its events."""
import contextlib
import json
from collections.abc import AsyncIterator

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from answers.limits.rates import caller_key, rate_limit_hit
from answers.limits.slots import QuestionRefused, answering
from answers.models import QuestionLog
from answers.outages import RETRY_AFTER_S, ServiceUnavailable, database_available
from answers.present.api import AnswerSummary
from answers.present.sse import sse_frame
from answers.services import QuestionRejected, answer_question, clean_question, prepare_caller
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


def parse_question(request: HttpRequest) -> str:
    """The question of a JSON body {"question": ...}; raises QuestionRejected naming what was wrong."""
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
    return clean_question(body["question"])


def _too_many(message: str, retry_after_s: int = 60) -> JsonResponse:
    response = JsonResponse({"error": message}, status=429)
    response["Retry-After"] = str(retry_after_s)
    return response


def _unavailable(message: str) -> JsonResponse:
    response = JsonResponse({"error": message}, status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response


async def _admit(request: HttpRequest, *, from_query: bool = False) -> tuple[object, str, str] | JsonResponse:
    """The caller, their question and their limit key, or the JSON error response that refuses them.

    Raises ServiceUnavailable when the database (the session, the user) or the shared counters cannot be used now.
    """
    with database_available():
        user = await request.auser()
    if request.method == "POST" and user.is_authenticated and (failure := _csrf_failure(request)):
        return failure
    try:
        question = clean_question(request.GET.get("question")) if from_query else parse_question(request)
    except QuestionRejected as error:
        return _bad_request(str(error))
    key = caller_key(
        user_id=user.pk if user.is_authenticated else None,
        session_key=request.session.session_key,
        client=request.META.get("REMOTE_ADDR"),
    )
    decision = await rate_limit_hit(key)
    if not decision.allowed:
        return _too_many(decision.message, decision.retry_after_s)
    return user, question, key


@csrf_exempt
@require_POST
async def api_answer(request: HttpRequest) -> JsonResponse:
    """POST {"question": ...}: the verified answer as one JSON object (§6)."""
    try:
        admitted = await _admit(request)
        if isinstance(admitted, JsonResponse):
            return admitted
        user, question, key = admitted
        summary = AnswerSummary(question)
        async with answering(key):
            async for event in answer_question(
                question=question, user=user, channel=QuestionLog.Channel.API,
                session_key=request.session.session_key or "",
            ):
                summary.add(event)
    except QuestionRefused as refused:
        return _too_many(refused.message)
    except ServiceUnavailable as busy:
        return _unavailable(busy.message)
    response = JsonResponse(summary.to_json(chunk_url))
    response["Cache-Control"] = "no-store"
    return response


@csrf_exempt
@require_http_methods(["GET", "POST"])
async def api_answer_stream(request: HttpRequest) -> HttpResponseBase:
    """The same events as Server-Sent Events: GET ?question=... or POST {"question": ...}."""
    slot = contextlib.AsyncExitStack()
    try:
        admitted = await _admit(request, from_query=request.method == "GET")
        if isinstance(admitted, JsonResponse):
            return admitted
        user, question, key = admitted
        await slot.enter_async_context(answering(key))
        prepared = await prepare_caller(user)  # before the response starts, while a 503 can still be sent
    except QuestionRefused as refused:
        await slot.aclose()
        return _too_many(refused.message)
    except ServiceUnavailable as busy:
        await slot.aclose()
        return _unavailable(busy.message)

    async def stream() -> AsyncIterator[str]:
        async with slot:  # released when the stream ends, however it ends
            async for event in answer_question(
                question=question, user=user, channel=QuestionLog.Channel.SSE,
                session_key=request.session.session_key or "", prepared=prepared,
            ):
                if frame := sse_frame(event):
                    yield frame

    response = StreamingHttpResponse(stream(), content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each event on as it is written
    return response

