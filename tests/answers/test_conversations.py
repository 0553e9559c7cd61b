"""Conversations: kept for their owner (user, or session, expiring), named by an id the API and the socket take,
follow-ups resolved against the stored turns as the caller may see them now; reopened and permalinked answers."""
import datetime as dt
import html
import json
import random
import uuid
from dataclasses import replace

import pytest
from django.test import Client
from django.utils import timezone

from answers.conversations import (
    ConversationIdRejected,
    KeptTurn,
    conversation_title,
    history_of,
    history_seen_now,
    parse_conversation_key,
    purge_expired,
    visible_chunk_ids,
    visible_chunks,
    visible_to,
)
from answers.models import Conversation, QuestionLog
from answers.retrieval.backends import retriever_for
from corpus_admin.models import Chunk

pytestmark = pytest.mark.django_db(transaction=True)

REFUNDS_Q = "How long do refunds take?"
FOLLOW_UP = "and for digital goods?"
NOT_FOUND = {"error": "No such conversation."}


@pytest.fixture
def refund_corpus(ingest, filler):
    ingest("refunds.md", "# Refunds\n\nRefunds take 5 business days.\n\nRefunds for digital goods take 10 days.\n")
    ingest("vault.md", "# Vault\n\nThe vault door code is 4711.\n", audience="internal")


def visitor(user=None) -> Client:
    """A browser that has loaded the chat page (signed in, or anonymous with the session the page starts)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    client.get("/")
    return client


def api(client: Client, question: str, **fields):
    return client.post("/api/answer", json.dumps({"question": question, **fields}), content_type="application/json")


@pytest.mark.parametrize("raw", [None, ""])
def test_no_conversation_id_means_a_new_conversation(raw):
    assert parse_conversation_key(raw) is None


@pytest.mark.parametrize(
    "raw",
    [7, True, ["x"], {"a": 1}, "not-a-uuid", "12345678123456781234567812345678",
     "{12345678-1234-5678-1234-5678123456}", "12345678-1234-5678-1234-56781234567g"],
)
def test_a_conversation_id_that_is_not_one_is_rejected(raw):
    with pytest.raises(ConversationIdRejected, match='"conversation" must be a conversation id'):
        parse_conversation_key(raw)


def test_a_canonical_conversation_id_is_read():
    key = uuid.uuid4()
    assert parse_conversation_key(str(key)) == key


def test_a_title_is_the_first_question_on_one_line_cut_at_a_word():
    assert conversation_title("  How long\n do refunds take? ") == "How long do refunds take?"
    long = "word " * 40
    title = conversation_title(long)
    assert title.endswith("…") and len(title) <= 81 and "wor…" not in title


def test_the_first_question_starts_a_conversation_and_its_id_comes_back(refund_corpus, plain_user):
    client = visitor(plain_user)

    body = api(client, REFUNDS_Q).json()

    conversation = Conversation.objects.get()
    assert body["conversation"] == str(conversation.key)
    assert (conversation.user, conversation.title) == (plain_user, REFUNDS_Q)
    assert QuestionLog.objects.get().conversation == conversation


def test_a_follow_up_in_a_stored_conversation_is_resolved_from_its_turns(refund_corpus, plain_user):
    client = visitor(plain_user)
    key = api(client, REFUNDS_Q).json()["conversation"]

    body = api(client, FOLLOW_UP, conversation=key).json()

    assert body["conversation"] == key
    assert body["resolved_question"] == "How long do refunds take for digital goods?"
    assert "Refunds for digital goods take 10 days." in body["answer"]
    assert QuestionLog.objects.filter(conversation__key=key).count() == 2


def test_a_follow_up_in_a_new_conversation_is_asked_as_it_is(refund_corpus, plain_user):
    client = visitor(plain_user)
    api(client, REFUNDS_Q)

    body = api(client, FOLLOW_UP).json()

    assert body["resolved_question"] is None and Conversation.objects.count() == 2


def test_someone_elses_conversation_is_the_same_404_as_a_missing_one(refund_corpus, plain_user, partner_user):
    key = api(visitor(plain_user), REFUNDS_Q).json()["conversation"]
    other = visitor(partner_user)

    theirs = api(other, FOLLOW_UP, conversation=key)
    missing = api(other, FOLLOW_UP, conversation=str(uuid.uuid4()))

    assert (theirs.status_code, theirs.json()) == (404, NOT_FOUND)
    assert (missing.status_code, missing.content) == (theirs.status_code, theirs.content)
    assert QuestionLog.objects.count() == 1


def test_a_malformed_conversation_id_is_400_naming_the_field(refund_corpus, plain_user):
    response = api(visitor(plain_user), REFUNDS_Q, conversation=12)

    assert response.status_code == 400 and '"conversation"' in response.json()["error"]


def test_a_program_without_a_session_keeps_no_conversation(refund_corpus):
    body = api(Client(), REFUNDS_Q).json()

    assert body["conversation"] is None and not Conversation.objects.exists()


def test_an_anonymous_conversation_expires_after_the_configured_days(refund_corpus, settings):
    settings.RAG_ANON_CONVERSATION_DAYS = 7
    client = visitor()
    key = api(client, REFUNDS_Q).json()["conversation"]
    assert key in client.get("/").content.decode()
    Conversation.objects.update(updated_at=timezone.now() - dt.timedelta(days=8))

    assert key not in client.get("/").content.decode()
    assert api(client, FOLLOW_UP, conversation=key).status_code == 404
    assert purge_expired() == 1 and QuestionLog.objects.get().conversation is None


def test_a_users_conversation_does_not_expire(refund_corpus, plain_user):
    client = visitor(plain_user)
    key = api(client, REFUNDS_Q).json()["conversation"]
    Conversation.objects.update(updated_at=timezone.now() - dt.timedelta(days=400))

    assert api(client, FOLLOW_UP, conversation=key).status_code == 200
    assert purge_expired() == 0


def test_the_stored_history_leaves_out_what_the_caller_may_no_longer_see(refund_corpus, staff_user):
    client = visitor(staff_user)
    key = api(client, "What is the vault door code?").json()["conversation"]
    conversation = Conversation.objects.get(key=key)

    as_staff = history_of(conversation, audiences=("public", "partner", "internal"), limit=5)
    as_public = history_of(conversation, audiences=("public",), limit=5)

    assert "The vault door code is 4711." in as_staff[0].answer_sentences
    assert any("4711" in text for text in as_staff[0].cited_texts)
    assert as_public[0].answer_sentences == () and as_public[0].cited_texts == ()


def test_an_anonymous_visitor_of_the_chat_page_gets_a_session():
    client = Client()

    client.get("/")

    assert "sessionid" in client.cookies


def test_the_side_panel_lists_the_callers_conversations_newest_first_escaped(refund_corpus, plain_user, staff_user):
    client = visitor(plain_user)
    api(client, "<b>How long</b> do refunds take?")
    api(client, "How long do refunds for digital goods take?")
    api(visitor(staff_user), "What is the vault door code?")

    page = client.get("/").content.decode()

    panel = page[page.index('id="conversation-list"'):page.index("</ol>", page.index('id="conversation-list"'))]
    assert panel.index("digital goods") < panel.index("&lt;b&gt;How long&lt;/b&gt;")
    assert "<b>How long" not in page and "vault" not in panel
    assert "New conversation" in page


def test_reopening_a_conversation_shows_its_answers_with_their_citations(refund_corpus, plain_user):
    client = visitor(plain_user)
    key = api(client, REFUNDS_Q).json()["conversation"]
    api(client, FOLLOW_UP, conversation=key)

    page = client.get(f"/?c={key}").content.decode()
    turns = client.get(f"/conversations/{key}/turns").content.decode()

    assert f'value="{key}"' in page and f'hx-get="/conversations/{key}/turns"' in page
    assert turns.index(REFUNDS_Q) < turns.index(FOLLOW_UP)
    assert "Refunds take 5 business days." in html.unescape(turns)
    assert "Answering: <q>How long do refunds take for digital goods?</q>" in turns
    assert 'class="cite" href="/chunks/refunds-v1-c01/?s=' in turns
    assert turns.count('class="permalink"') == 2 and turns.count('class="rating"') == 2


def test_reopening_someone_elses_conversation_is_the_404_page(refund_corpus, plain_user, partner_user):
    key = api(visitor(plain_user), REFUNDS_Q).json()["conversation"]
    other = visitor(partner_user)

    assert other.get(f"/?c={key}").status_code == 404
    assert other.get(f"/conversations/{key}/turns").status_code == 404
    assert other.get("/?c=nonsense").status_code == 404


def test_a_reopened_answer_the_caller_may_no_longer_see_is_not_shown(refund_corpus, staff_user):
    client = visitor(staff_user)
    key = api(client, "What is the vault door code?").json()["conversation"]
    staff_user.is_staff = False
    staff_user.save()

    turns = client.get(f"/conversations/{key}/turns").content.decode()

    assert "What is the vault door code?" in turns
    assert "4711" not in turns and "cites passages you may no longer see" in turns


def test_a_permalink_shows_a_public_answer_to_anyone(refund_corpus, plain_user):
    answer_key = api(visitor(plain_user), REFUNDS_Q).json()["answer_key"]

    page = Client().get(f"/answers/{answer_key}/")
    turns = Client().get(f"/answers/{answer_key}/turns").content.decode()

    assert page.status_code == 200 and REFUNDS_Q in page.content.decode()
    assert "Refunds take 5 business days." in html.unescape(turns)


def test_a_permalink_citing_a_passage_the_opener_may_not_see_is_the_404_of_a_missing_one(refund_corpus, staff_user):
    answer_key = api(visitor(staff_user), "What is the vault door code?").json()["answer_key"]

    hidden = Client().get(f"/answers/{answer_key}/")
    missing = Client().get(f"/answers/{uuid.uuid4()}/")

    assert hidden.status_code == 404 and hidden.content == missing.content
    assert Client().get(f"/answers/{answer_key}/turns").status_code == 404
    assert visitor(staff_user).get(f"/answers/{answer_key}/").status_code == 200


@pytest.fixture
def partner_corpus(refund_corpus, ingest):
    ingest("resellers.md", "# Resellers\n\nResellers receive a 20% discount, code CANARY-PARTNER-5.\n",
           audience="partner")


def test_a_partner_who_leaves_the_group_no_longer_sees_the_partner_answer_reopened_or_permalinked(
    partner_corpus, partner_user
):
    client = visitor(partner_user)
    asked = api(client, "What discount do resellers receive?").json()
    key, answer_key = asked["conversation"], asked["answer_key"]
    assert "CANARY-PARTNER-5" in client.get(f"/conversations/{key}/turns").content.decode()
    partner_user.groups.clear()

    turns = client.get(f"/conversations/{key}/turns").content.decode()

    assert "What discount do resellers receive?" in turns
    assert "CANARY-PARTNER-5" not in turns and "20%" not in turns and "cites passages you may no longer see" in turns
    assert client.get(f"/answers/{answer_key}/").status_code == 404
    conversation = Conversation.objects.get(key=key)
    (turn,) = history_of(conversation, audiences=("public",), limit=5)
    assert turn.answer_sentences == () and turn.cited_texts == ()


def test_a_sockets_kept_turns_are_read_with_the_audiences_now():
    kept = KeptTurn(
        "What discount do resellers receive?", "What discount do resellers receive?",
        (("Resellers receive a 20% discount.", ("resellers-v1-c01",)), ("Refunds take 5 days.", ("refunds-v1-c01",))),
        (("resellers-v1-c01", "Resellers: 20% discount"), ("refunds-v1-c01", "Refunds: 5 days")),
        ("resellers-v1-c01", "refunds-v1-c01"), (),
    )

    def visible(ids, *, audiences):
        return {cid: object() for cid in ids if "partner" in audiences or not cid.startswith("resellers")}

    (as_partner,) = history_seen_now([kept], audiences=("public", "partner"), visible=visible)
    (as_public,) = history_seen_now([kept], audiences=("public",), visible=visible)

    assert as_partner.answer_sentences == ("Resellers receive a 20% discount.", "Refunds take 5 days.")
    assert as_public.question == kept.question
    assert as_public.answer_sentences == ("Refunds take 5 days.",) and as_public.cited_texts == ("Refunds: 5 days",)


def test_a_sockets_kept_standalone_form_is_read_only_by_those_who_see_every_passage_the_turns_before_it_cite():
    first = KeptTurn("Who prepares Enterprise quotes?", "Who prepares Enterprise quotes?",
                     (("The deal desk prepares them.", ("quotes-v1-c01",)),), (("quotes-v1-c01", "Quotes: deal desk"),),
                     ("quotes-v1-c01",), ())
    second = KeptTurn("How long are the deal desk valid?", "how long are they valid?", (), (), (),
                      ("quotes-v1-c01", "refunds-v1-c01"))

    def visible(ids, *, audiences):
        return {cid for cid in ids if "partner" in audiences or not cid.startswith("quotes")}

    as_partner = history_seen_now([first, second], audiences=("public", "partner"), visible=visible)
    as_public = history_seen_now([second], audiences=("public",), visible=visible)  # the first out of the window

    assert [turn.question for turn in as_partner] == ["Who prepares Enterprise quotes?",
                                                      "How long are the deal desk valid?"]
    assert [turn.question for turn in as_public] == ["how long are they valid?"]


@pytest.mark.parametrize("audiences", [("public",), ("public", "internal"), ("internal",), ()])
def test_the_ids_a_socket_re_reads_its_turns_with_are_the_chunks_those_audiences_may_see(refund_corpus, audiences):
    every = list(Chunk.objects.values_list("chunk_id", flat=True)) + ["no-such-chunk"]

    seen = visible_chunk_ids(every, audiences=audiences)

    assert seen == set(visible_chunks(every, audiences=audiences))
    assert any("vault" in cid for cid in seen) == ("internal" in audiences)
    assert any("refunds" in cid for cid in seen) == ("public" in audiences)


@pytest.mark.parametrize("audiences", [("public",), ("public", "partner", "internal")])
def test_a_question_whose_snapshot_is_the_served_corpus_re_reads_its_kept_turns_without_a_query(
    refund_corpus, ingest, audiences, django_assert_num_queries
):
    ingest("refunds.md", "# Refunds\n\nRefunds take 3 business days.\n")  # the first version's chunks are past now
    every = list(Chunk.objects.values_list("chunk_id", flat=True)) + ["no-such-chunk"]
    served = set(Chunk.objects.current().values_list("chunk_id", flat=True))
    retriever = retriever_for(audiences)
    assert retriever.served

    with django_assert_num_queries(0):
        seen_served = visible_to(retriever)(sorted(served), audiences=audiences)
    with django_assert_num_queries(1):  # a past version's or an unknown id: asked of the database
        seen = visible_to(retriever)(every, audiences=audiences)

    assert seen == visible_chunk_ids(every, audiences=audiences)
    assert seen_served == visible_chunk_ids(sorted(served), audiences=audiences)
    assert set(visible_to(replace(retriever, served=False))(every, audiences=audiences)) == seen


def test_a_permalinked_follow_up_shows_what_it_was_resolved_to_only_to_those_who_see_the_turns_it_stands_on(
    refund_corpus, ingest, staff_user
):
    # The follow-up's standalone form is made from the earlier turns' answers and cited passages: here it names the
    # internal deal desk, which no question did. Its answer cites nothing, so anyone with the link opens it.
    ingest("quotes.md", "# Quotes\n\nEnterprise quotes are prepared by the deal desk.\n", audience="internal")
    staff = visitor(staff_user)
    key = api(staff, "Who prepares Enterprise quotes?").json()["conversation"]
    follow_up = api(staff, "how long are they valid?", conversation=key).json()
    resolved = follow_up["resolved_question"]
    assert "deal desk" in resolved and follow_up["citations"] == []

    public = Client().get(f"/answers/{follow_up['answer_key']}/turns").content.decode()
    own = staff.get(f"/answers/{follow_up['answer_key']}/turns").content.decode()

    assert "how long are they valid?" in public and "deal desk" not in public and "Answering:" not in public
    assert html.escape(resolved) in own
    staff_user.is_staff = False
    staff_user.save()
    reopened = staff.get(f"/conversations/{key}/turns").content.decode()
    assert "how long are they valid?" in reopened and "deal desk" not in reopened and "Answering:" not in reopened


def test_a_stored_turns_standalone_form_is_read_as_history_only_by_those_who_see_the_turns_it_stands_on(
    refund_corpus, ingest, staff_user
):
    ingest("quotes.md", "# Quotes\n\nEnterprise quotes are prepared by the deal desk.\n", audience="internal")
    staff = visitor(staff_user)
    key = api(staff, "Who prepares Enterprise quotes?").json()["conversation"]
    assert "deal desk" in api(staff, "how long are they valid?", conversation=key).json()["resolved_question"]
    conversation = Conversation.objects.get(key=key)

    as_staff = history_of(conversation, audiences=("public", "partner", "internal"), limit=5)
    as_public = history_of(conversation, audiences=("public",), limit=1)  # the first turn outside the window too

    assert "deal desk" in as_staff[1].question
    assert [turn.question for turn in as_public] == ["how long are they valid?"]
    staff_user.is_staff = False
    staff_user.save()
    later = api(staff, "and who signs them?", conversation=key).json()
    assert "deal desk" not in json.dumps(later)


def test_one_address_is_given_at_most_the_configured_new_sessions_a_minute(settings, monkeypatch):
    # Before, every cookieless GET / wrote a session row: one client minted 82 a second on the running site.
    from django.contrib.sessions.models import Session

    settings.RAG_SESSION_MINT_LIMIT = 2
    now = 60.0 * random.randrange(10**6, 10**9) + 30.0  # a window of the counters no other run used
    monkeypatch.setattr("answers.limits.rates.wall_clock", lambda: now)
    address = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(256)}"

    visits = [Client(REMOTE_ADDR=address) for _ in range(3)]
    pages = [client.get("/") for client in visits]
    elsewhere = Client(REMOTE_ADDR=f"2001:db8::{random.randrange(1, 2**16):x}")
    elsewhere.get("/")

    assert [page.status_code for page in pages] == [200] * 3  # the page is served all the same
    assert ["sessionid" in client.cookies for client in visits] == [True, True, False]
    assert "sessionid" in elsewhere.cookies and Session.objects.count() == 3
