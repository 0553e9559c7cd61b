"""HTTP views of the answers app: they parse input, call the answer service and render its events."""
import json

from django.http import HttpRequest, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from answers.models import QuestionLog
from answers.services import QuestionRejected, answer_question, chunk_url, clean_question
from answers.summary import AnswerSummary


def _csrf_failure(request: HttpRequest) -> JsonResponse | None:
    """Signed-in (session) callers must send the CSRF token; anonymous programs need none."""
    rejected = CsrfViewMiddleware(lambda r: None).process_view(request, None, (), {})
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
    if not isinstance(body, dict):
        raise QuestionRejected('The body must be a JSON object like {"question": "..."}.')
    if "question" not in body:
        raise QuestionRejected('The field "question" is missing.')
    return clean_question(body["question"])


@csrf_exempt
@require_POST
async def api_answer(request: HttpRequest) -> JsonResponse:
    """POST {"question": ...}: the verified answer as one JSON object (§6)."""
    user = await request.auser()
    if user.is_authenticated and (failure := _csrf_failure(request)):
        return failure
    try:
        question = parse_question(request)
    except QuestionRejected as error:
        return _bad_request(str(error))
    summary = AnswerSummary(question)
    async for event in answer_question(
        question=question, user=user, channel=QuestionLog.Channel.API, session_key=request.session.session_key or ""
    ):
        summary.add(event)
    response = JsonResponse(summary.to_json(chunk_url))
    response["Cache-Control"] = "no-store"
    return response
