"""The answers admin for staff: ratings with their answers, the gaps page, the activity plot, the golden action,
and logged citations linking to the sentences they stood on."""
import datetime as dt
import html
import json

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from answers.admin import logged_citation_url
from answers.evaluation.golden import load_golden
from answers.models import Conversation, QuestionLog, Rating

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("x")</script>'


@pytest.fixture
def reader(db) -> User:
    """Support staff who may read the conversation log (and so its ratings, gaps and activity)."""
    user = User.objects.create_user("support", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=["view_questionlog", "view_rating"]))
    return user


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def logged(question: str, *, status: str = "refused", kind: str = "no_material", days_ago: float = 0,
           sentences: list | None = None, timings: dict | None = None) -> QuestionLog:
    log = QuestionLog.objects.create(channel="ws", question=question, status=status, refusal_kind=kind,
                                     generator="extractive", sentences=sentences or [], timings=timings or {})
    QuestionLog.objects.filter(pk=log.pk).update(created_at=timezone.now() - dt.timedelta(days=days_ago))
    return log


def rating(log: QuestionLog, helpful: bool, comment: str = "", user: User | None = None) -> Rating:
    return Rating.objects.create(log=log, helpful=helpful, comment=comment, user=user,
                                 session_key="" if user else "anon-session-key-1")


def test_ratings_are_listed_with_their_answers_and_filter_by_helpful(reader, plain_user):
    answered = logged("How long are files kept?", status="answered", kind="")
    rating(answered, True, "Clear.", user=plain_user)
    rating(logged("Is there a student discount?", kind="unsupported"), False, HOSTILE)

    page = client_for(reader).get("/admin/answers/rating/").content.decode()
    unhelpful = client_for(reader).get("/admin/answers/rating/", {"helpful__exact": "0"}).content.decode()

    assert "How long are files kept?" in page and "Clear." in page and plain_user.username in page
    assert "anonymous session anon-ses…" in page and "anon-session-key-1" not in page
    assert html.escape(HOSTILE) in page and HOSTILE not in page
    assert "Is there a student discount?" in unhelpful and "How long are files kept?" not in unhelpful


def test_a_rating_page_shows_the_answer_it_rates(reader):
    sentences = [{"text": "Files are kept for 30 days.", "citations": [{"n": 1, "chunk_id": "trash-v1-c01"}]}]
    log = logged("How long are files kept?", status="answered", kind="", sentences=sentences)
    saved = rating(log, False, "It was about the trash.")

    page = client_for(reader).get(f"/admin/answers/rating/{saved.pk}/change/").content.decode()
    log_page = client_for(reader).get(f"/admin/answers/questionlog/{log.pk}/change/").content.decode()

    assert "Files are kept for 30 days." in page and 'href="/chunks/trash-v1-c01/"' in page
    assert "Not helpful" in page and "It was about the trash." in page
    assert "It was about the trash." in log_page  # the log row lists its ratings


def test_the_gaps_page_groups_refused_and_unhelpful_questions_with_weekly_counts(reader):
    for days_ago in (0, 1, 8):
        logged("What is the office wifi password?", days_ago=days_ago)
    logged("office wifi password", kind="unsupported", days_ago=2)
    rating(logged("How do I export invoices?", status="answered", kind=""), False)
    rating(logged("How long are files kept?", status="answered", kind=""), True)  # not a gap
    logged("old question nobody asks now", days_ago=100)

    response = client_for(reader).get("/admin/answers/gaps/")

    page = response.content.decode()
    rows = page.split('<tbody>')[1].split("</tbody>")[0].split("<tr>")[1:]
    assert response.status_code == 200 and len(rows) == 2
    wifi, invoices = rows
    assert "What is the office wifi password?" in wifi and ">4<" in wifi and "no_material 3, unsupported 1" in wifi
    assert "How do I export invoices?" in invoices and "How long are files kept?" not in page
    assert "old question nobody asks now" not in page
    this_week = timezone.localdate().isocalendar()
    assert f"{this_week[0]}-W{this_week[1]:02d}" in page.split("<tbody>")[0]


def test_the_gaps_page_links_each_group_to_its_rows_and_escapes_questions(reader):
    first, second = logged(HOSTILE), logged(HOSTILE)

    page = client_for(reader).get("/admin/answers/gaps/", {"days": "7"}).content.decode()

    assert html.escape(HOSTILE) in page and HOSTILE not in page
    assert f"/admin/answers/questionlog/?id__in={second.pk},{first.pk}" in page


def test_the_activity_page_plots_answers_refusals_and_time_to_first_sentence(reader):
    logged("a", status="answered", kind="", timings={"first_sentence_ms": 80.0})
    logged("b", status="answered", kind="", timings={"first_sentence_ms": 120.0}, days_ago=1)
    logged("c", kind="conflict")

    page = client_for(reader).get("/admin/answers/activity/", {"days": "7"}).content.decode()

    assert '<svg class="activity-plot" role="img" aria-label="Questions per day, last 7 days"' in page
    today = timezone.localdate()
    assert f"<title>{today:%Y-%m-%d}: 1 answered</title>" in page
    assert f"<title>{today:%Y-%m-%d}: 1 refused: conflict</title>" in page
    assert f"<title>{today:%Y-%m-%d}: 80 ms median time to first sentence</title>" in page
    table = page.split('id="activity"')[1]
    assert f"<td>{today:%Y-%m-%d}</td>" in table


@pytest.mark.parametrize("path", ["/admin/answers/gaps/", "/admin/answers/activity/"])
def test_insight_pages_are_for_staff_who_may_read_the_log(path, staff_user, plain_user):
    logged("What is the office wifi password?")

    anonymous = client_for(None).get(path)
    signed_in = client_for(plain_user).get(path)
    staff_without_the_log = client_for(staff_user).get(path)

    assert anonymous.status_code == signed_in.status_code == 302
    assert anonymous["Location"].startswith("/admin/login/")
    assert staff_without_the_log.status_code == 403
    assert "wifi" not in staff_without_the_log.content.decode()


def test_add_to_golden_set_appends_cases_that_load(reader, settings, tmp_path):
    settings.RAG_GOLDEN_APPEND_PATH = tmp_path / "golden" / "from-log.jsonl"
    refused = logged("What is the office wifi password?")
    disliked = logged("How do I export invoices?", status="answered", kind="")
    rating(disliked, False)

    response = client_for(reader).post(
        "/admin/answers/questionlog/",
        {"action": "add_to_golden_set", "_selected_action": [refused.pk, disliked.pk]},
        follow=True,
    )

    page = response.content.decode()
    assert f"Added 1 golden case (log-{refused.pk}) to {settings.RAG_GOLDEN_APPEND_PATH}" in page
    assert f"Row {disliked.pk} was not added: answered but rated not helpful" in page
    (case,) = load_golden(settings.RAG_GOLDEN_APPEND_PATH)
    assert (case.question, case.expect, case.sources, case.audience) == (
        "What is the office wifi password?", "no_material", (), "public"
    )
    assert json.loads(settings.RAG_GOLDEN_APPEND_PATH.read_text())["note"].startswith("from the conversation log")


def test_a_logged_citation_links_to_its_highlighted_span():
    cited = {"n": 1, "chunk_id": "trash-v1-c02", "span": {"start": 0, "end": 48, "sentences": [2, 3]}, "quote": "…"}

    assert logged_citation_url(cited) == "/chunks/trash-v1-c02/?s=2-3#s-2"


def test_a_row_logged_before_spans_links_to_the_whole_passage():
    assert logged_citation_url({"n": 1, "chunk_id": "trash-v1-c02"}) == "/chunks/trash-v1-c02/"
    assert logged_citation_url({"statement": "x", "chunk_id": "trash-v1-c02", "span": None}) == "/chunks/trash-v1-c02/"


@pytest.fixture
def conversation_reader(db) -> User:
    """Support staff who may read conversations and the log."""
    user = User.objects.create_user("conversation-support", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=["view_conversation", "view_questionlog"]))
    return user


def conversation_with(owner: User | None, *questions: str) -> Conversation:
    conversation = Conversation.objects.create(user=owner, session_key="" if owner else "anon-session-key-2",
                                               title=questions[0])
    for number, question in enumerate(questions):
        log = logged(question, status="answered", kind="", sentences=[{"text": f"Answer {number}.", "citations": []}])
        QuestionLog.objects.filter(pk=log.pk).update(conversation=conversation,
                                                     created_at=timezone.now() + dt.timedelta(minutes=number))
    return conversation


def test_conversations_are_listed_with_owner_start_last_question_and_answer_count(conversation_reader, plain_user):
    conversation_with(plain_user, "How long do refunds take?", f"and for {HOSTILE}?")
    conversation_with(None, "What is the upload limit?")
    page = client_for(conversation_reader).get("/admin/answers/conversation/").content.decode()
    rows = page.split('id="result_list"')[1].split("</table>")[0].split("<tr")[2:]
    users = next(row for row in rows if plain_user.username in row)
    assert escape(f"and for {HOSTILE}?") in users and HOSTILE not in page
    assert '<td class="field-answer_count">2</td>' in users
    anonymous = next(row for row in rows if "anonymous session anon-ses" in row)
    assert "What is the upload limit?" in anonymous and '<td class="field-answer_count">1</td>' in anonymous


def test_a_conversation_page_shows_its_answers_and_edits_nothing(conversation_reader, plain_user):
    conversation = conversation_with(plain_user, "How long do refunds take?", "and for digital goods?")
    client = client_for(conversation_reader)
    page = client.get(f"/admin/answers/conversation/{conversation.pk}/change/").content.decode()
    assert page.index("How long do refunds take?") < page.index("and for digital goods?")
    assert "Answer 0." in page and "Answer 1." in page
    assert 'name="_save"' not in page and "deletelink" not in page
    before = list(Conversation.objects.values_list("title", flat=True))
    assert client.post(f"/admin/answers/conversation/{conversation.pk}/change/", {"title": "edited"}).status_code == 403
    assert client.post(f"/admin/answers/conversation/{conversation.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.get("/admin/answers/conversation/add/").status_code == 403
    assert list(Conversation.objects.values_list("title", flat=True)) == before


def test_conversations_are_for_staff_who_may_read_them(plain_user, reader):
    conversation_with(plain_user, "How long do refunds take?")
    assert client_for(plain_user).get("/admin/answers/conversation/").status_code == 302  # to the admin's sign-in
    assert client_for(reader).get("/admin/answers/conversation/").status_code == 403  # staff without the permission
