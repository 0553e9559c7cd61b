"""Hostile text in documents and questions stays text on every page; no template engine ever compiles it."""
import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from corpus_admin.models import Chunk, Source

pytestmark = pytest.mark.django_db(transaction=True)

HOSTILE = [
    "{{ 'rendered'|upper }}",
    "{% now 'Y' %}",
    "<script>alert('doc')</script>",
    '<img src=x onerror="alert(1)">',
    '<div hx-get="/admin/" hx-trigger="load">',
    "[click me](javascript:alert(1))",
    "![tracker](http://evil.example/pixel.png)",
]
DOC = (
    "# Widget notes\n\n"
    + "".join(f"The widget loads in under 300 milliseconds, see {h} for details.\n\n" for h in HOSTILE)
)
QUESTION = "How fast does the widget load?"


@pytest.fixture
def hostile(ingest, filler, admin_user):
    ingest("widget-notes.md", DOC)


def assert_inert(page: str) -> None:
    """None of the hostile markup is live, and no template tag was evaluated."""
    assert "<script>alert" not in page
    assert "<img src=x" not in page and 'onerror="alert' not in page
    assert '<div hx-get="/admin/"' not in page
    assert 'href="javascript:' not in page and 'src="http://evil.example' not in page
    assert "RENDERED" not in page  # "{{ 'rendered'|upper }}" was never compiled


def test_chunk_pages_show_hostile_text_literally(client, hostile):
    for chunk in Chunk.objects.all():
        page = client.get(chunk.get_absolute_url()).content.decode()
        assert_inert(page)
    page = client.get(Chunk.objects.filter(source__original_name="widget-notes.md").first().get_absolute_url())
    text = page.content.decode()
    assert "{{ &#x27;rendered&#x27;|upper }}" in text and "{% now &#x27;Y&#x27; %}" in text and "&lt;script&gt;" in text


def test_chat_fragments_and_api_keep_hostile_text_as_text(client, hostile):
    async def ask() -> str:
        from rag_site.asgi import application

        site = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
        communicator = WebsocketCommunicator(application, "/ws/chat/", headers=site)
        assert (await communicator.connect())[0]
        await communicator.send_to(text_data=json.dumps({"question": QUESTION + " " + " ".join(HOSTILE)}))
        fragments = []
        while not fragments or 'data-event="done"' not in fragments[-1]:
            fragments.append(await communicator.receive_from(timeout=10))
        await communicator.disconnect()
        return "".join(fragments)

    fragments = async_to_sync(ask)()
    data = client.post("/api/answer", {"question": QUESTION}, content_type="application/json").json()

    assert_inert(fragments)
    assert "&lt;script&gt;alert(&#x27;doc&#x27;)&lt;/script&gt;" in fragments  # the question, escaped
    assert any(h in data["answer"] for h in HOSTILE), data["answer"]  # JSON carries the text itself


def test_admin_shows_hostile_text_literally(client, hostile, admin_user):
    client.force_login(admin_user)
    source = Source.objects.get(original_name="widget-notes.md")

    pages = [
        client.get(f"/admin/corpus_admin/source/{source.pk}/change/").content.decode(),
        client.get("/admin/corpus_admin/chunk/?q=widget").content.decode(),
    ]
    pages += [client.get(f"/admin/corpus_admin/chunk/{c.pk}/change/").content.decode() for c in source.chunks.all()]

    for page in pages:
        assert_inert(page)
    assert any("{{ &#x27;rendered&#x27;|upper }}" in page for page in pages)


def test_question_log_in_the_admin_shows_hostile_questions_literally(client, hostile, admin_user):
    from answers.models import QuestionLog

    client.post("/api/answer", {"question": QUESTION + " " + " ".join(HOSTILE)}, content_type="application/json")
    client.force_login(admin_user)
    log = QuestionLog.objects.get()

    pages = [client.get("/admin/answers/questionlog/").content.decode(),
             client.get(f"/admin/answers/questionlog/{log.pk}/change/").content.decode()]

    for page in pages:
        assert_inert(page)
    assert "{{ &#x27;rendered&#x27;|upper }}" in pages[1]
