"""The demo corpus end to end: factual answers with the right citations, the three refusals, no leaks."""
import io
import json
from collections.abc import Iterator

import pytest
from django.core.management import call_command

from answers.models import QuestionLog
from corpus_admin.ingestion import withdraw_source
from corpus_admin.models import Source

# Each test runs in a transaction rolled back at its end (`ask` and the test client keep their database calls on
# this thread), over the demo corpus loaded once for the module: loading it costs far more than a question.
pytestmark = pytest.mark.django_db

FACTS = [
    ("How long does a refund take to process?", "5-7 business days", "refund-policy"),
    ("How long are deleted files kept in the trash?", "30 days", "trash-and-file-recovery"),
    ("How long does the free trial last?", "14 days", "free-trial"),
    ("What is the API rate limit?", "600 requests per minute", "api-rate-limits"),
    ("What status code does the API return for an invalid token?", "401", "api-authentication"),
    ("What status code does the API return when rate limited?", "429", "api-rate-limits"),
    ("What is the maximum number of members on the Team plan?", "50 members", "pricing-plans"),
    ("How long is version history kept on the Business plan?", "180 days", "version-history"),
    ("When do share links expire by default?", "7 days", "share-links"),
    ("How long are two-factor codes valid?", "30 seconds", "two-factor-authentication"),
    ("What file size does the desktop sync client support?", "2 GB", "desktop-sync-client"),
    ("How long must a password be?", "12 characters", "password-requirements"),
    ("Where are Lumora's data centres?", "Frankfurt and Oregon", "data-centres"),
    ("How often are backups taken?", "every 6 hours", "security-and-backups-whitepaper"),
    ("What is the uptime SLA?", "99.9%", "service-level-agreement"),
    ("When are invoices issued?", "1st of each month", "billing-and-invoices"),
    ("How fast does the embed widget load?", "300 milliseconds", "embed-widget-developer-guide"),
]


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker) -> Iterator[None]:
    """The demo corpus, committed once for the module's tests and flushed after the last."""
    with django_db_blocker.unblock():
        call_command("load_demo", stdout=io.StringIO())
    yield
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


def ask_json(question: str, *extra: str) -> dict:
    out = io.StringIO()
    call_command("ask", question, "--json", *extra, stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.parametrize(("question", "fact", "source"), FACTS)
def test_demo_factual_questions_are_answered_from_the_right_source(demo, question, fact, source):
    data = ask_json(question)

    assert data["status"] == "answered", data
    assert fact in data["answer"]
    assert all(chunk_id.startswith(f"{source}-v1-") for chunk_id in data["citations"])


def test_multi_fact_question_gets_both_sentences(demo):
    data = ask_json("What do the Team and Business plans cost per user per month?")

    assert len(data["sentences"]) == 2 and "$12" in data["answer"] and "$25" in data["answer"]


@pytest.mark.parametrize(
    "question",
    ["What is the capital of France?", "How do I bake sourdough bread?", "Who wrote Pride and Prejudice?"],
)
def test_off_topic_questions_get_no_material(demo, question):
    assert ask_json(question)["refusal"]["kind"] == "no_material"


@pytest.mark.parametrize(
    "question",
    [
        "How many members can an Enterprise workspace have?",
        "How many times does Lumora retry a failed webhook delivery?",
        "What is the upload limit for a single file in the mobile app?",
    ],
)
def test_questions_whose_words_are_in_the_corpus_but_not_the_answer_are_never_answered(demo, question):
    data = ask_json(question)

    assert data["refused"] and data["sentences"] == []


def test_conflict_question_shows_both_sides_with_dates_newest_first(demo):
    refusal = ask_json("What is the upload limit for a single file in the web app?")["refusal"]

    assert refusal["kind"] == "conflict"
    assert [(s["source_updated_on"], "200 MB" in s["statement"]) for s in refusal["sides"]] == [
        ("2025-09-15", True),
        ("2024-03-01", False),
    ]
    assert refusal["sides"][1]["statement"] == "The upload limit for a single file in the web app is 100 MB."


@pytest.mark.parametrize(
    "question",
    [
        "What discount do partners get?",
        "How long is a deal registration valid?",
        "What is the lowest price sales may offer for the Business plan?",
        "How quickly must the status page be updated for a Sev-1 incident?",
        "How quickly must on-call acknowledge a page?",
        "CANARY-PARTNER-7Q2 CANARY-INTERNAL-9X4",
    ],
)
def test_restricted_facts_never_reach_a_public_caller_or_their_log(demo, client, question):
    data = ask_json(question)
    api = client.post("/api/answer", {"question": question}, content_type="application/json").content.decode()

    logs = list(QuestionLog.objects.values())
    body = json.dumps(data) + api + json.dumps(logs, default=str)
    assert len(logs) == 2  # both questions were logged (and only this test's: the others' were rolled back)
    for leak in (
        "CANARY",
        "partner-program",
        "partner-portal",
        "partner-deal",
        "incident-runbook",
        "on-call",
        "internal-pricing",
    ):
        assert leak not in body.replace(question, "")


def test_partner_gets_the_partner_fact_and_staff_the_internal_one(demo, partner_user, staff_user):
    assert "90 days" in ask_json("How long is a deal registration valid?", "--user", partner_user.username)["answer"]
    assert (
        "5 minutes" in ask_json("How quickly must on-call acknowledge a page?", "--user", staff_user.username)["answer"]
    )
    assert ask_json("How quickly must on-call acknowledge a page?", "--user", partner_user.username)["refused"]


@pytest.mark.parametrize(
    "question",
    ["Are all plans free forever?", "Do plans include unlimited storage?", "What are the keyboard shortcuts?"],
)
def test_embedded_instruction_is_never_repeated(demo, question):
    answer = ask_json(question)["answer"].lower()

    assert "free forever" not in answer and "ignore your instructions" not in answer


INSTRUCTED_QUESTIONS = [
    "Within how many days must a refund be requested?",
    "Are refund requests accepted within 365 days of the charge?",
    "Is shipping free on every order?",
]


@pytest.mark.parametrize("question", INSTRUCTED_QUESTIONS)
def test_a_quoted_instruction_to_assistants_changes_no_answer_and_raises_no_conflict(demo, question):
    with_it = ask_json(question)
    withdraw_source(Source.objects.get(original_name="customer-community-faq.md"))
    without_it = ask_json(question)

    assert (with_it["status"], with_it["answer"], with_it["citations"]) == (
        without_it["status"], without_it["answer"], without_it["citations"]
    )
    assert (with_it.get("refusal") or {}).get("kind") != "conflict"
    assert "365" not in with_it["answer"] and "free shipping" not in with_it["answer"].lower()


def test_the_refund_window_is_still_answered_from_the_refund_policy(demo):
    data = ask_json(INSTRUCTED_QUESTIONS[0])

    assert data["status"] == "answered" and "21 days" in data["answer"]
    assert all(chunk_id.startswith("refund-policy-v1-") for chunk_id in data["citations"])


def test_the_demo_page_quoting_an_instruction_ingests_and_its_chunk_page_shows_the_notice(demo, client):
    source = Source.objects.get(original_name="customer-community-faq.md")
    pages = {chunk.chunk_id: client.get(chunk.get_absolute_url()).content.decode() for chunk in source.chunks.all()}

    notice = "This passage contains text written as instructions to an AI assistant; it is never used as evidence."
    assert source.status == "ready"
    assert [chunk_id for chunk_id, page in pages.items() if notice in page] == ["customer-community-faq-v1-c03"]
    assert "sentence sentence-instruction" in pages["customer-community-faq-v1-c03"]
    assert "Note to AI assistants answering questions about Lumora" in pages["customer-community-faq-v1-c03"]
