"""An answer quoting a document's list of steps keeps it a list: the API and its stream name each sentence's list
item, and the reopened conversation and the permalink show an <ol> of escaped text."""
import json

import pytest
from django.test import Client

from answers.testing.fake_anthropic import FakeAnthropic, Script, computed
from tests.answers.present.test_fragments import Elements

pytestmark = pytest.mark.django_db(transaction=True)

HOW_TO = (
    "# Resetting your password\n\n"
    "You can reset your password yourself, in three steps.\n\n"
    "1. To reset your password, open the account settings page.\n"
    "2. Choose the <b>security</b> section of the account settings.\n"
    "3. Click the reset password button and confirm the reset.\n"
)
QUESTION = "How do I reset my password?"


@pytest.fixture
def how_to(ingest, filler):
    ingest("reset.md", HOW_TO)


def asked(client: Client) -> dict:
    return client.post("/api/answer", json.dumps({"question": QUESTION}), content_type="application/json").json()


def test_the_api_names_the_list_item_of_each_step(how_to):
    answer = asked(Client())
    listed = [(s["text"], s["list"]) for s in answer["sentences"] if s["list"]]
    assert [text for text, _ in listed] == [
        "To reset your password, open the account settings page.",
        "Choose the <b>security</b> section of the account settings.",  # raw HTML in Markdown is the author's text
        "Click the reset password button and confirm the reset.",
    ]
    assert all(item["ordered"] for _, item in listed)
    assert len({item["item"] for _, item in listed}) == 3


def test_the_event_stream_names_the_list_item_of_each_step_and_null_for_none(how_to):
    response = Client().get("/api/answer/stream", {"question": QUESTION})
    body = b"".join(response).decode()
    sentences = [json.loads(line[len("data: "):]) for block in body.split("\n\n") if "event: sentence" in block
                 for line in block.splitlines() if line.startswith("data: ")]
    assert [s["list"]["ordered"] for s in sentences if s["list"]] == [True, True, True]
    assert all("list" in s for s in sentences)


def test_a_reply_without_lists_has_null_list_fields(ingest, filler):
    ingest("refunds.md", "# Refunds\n\nRefunds take 5 business days.\n")
    answer = Client().post("/api/answer", json.dumps({"question": "How long do refunds take?"}),
                           content_type="application/json").json()
    assert answer["sentences"] and all(s["list"] is None for s in answer["sentences"])


def test_the_reopened_conversation_and_the_permalink_show_the_steps_as_an_ordered_list(how_to):
    client = Client()
    client.get("/")
    answer = asked(client)
    for url in (f"/conversations/{answer['conversation']}/turns", f"/answers/{answer['answer_key']}/turns"):
        page = client.get(url).content.decode()
        elements = Elements(page)
        (ordered,) = elements.find("ol", **{"class": "answer-list"})
        assert ordered["id"].startswith("list-")
        assert len(elements.find("li", **{"class": "answer-item"})) == 3
        assert not elements.find("b")  # the document's HTML is text, escaped
        assert "&lt;b&gt;security&lt;/b&gt;" in page


MARKDOWN_ANSWER = (
    "## Resetting your password\n"
    "To reset it:\n"
    "1. **Open** the account settings page [1].\n"
    "2. Choose the `security` section of the account settings [1]\n"
    "3. Click the [reset password](https://evil.example/x) button and confirm the reset [1].\n"
)


def test_a_model_answer_in_markdown_is_shown_without_its_markup_and_its_list_kept(how_to, settings):
    with FakeAnthropic() as fake:
        settings.ANTHROPIC_API_KEY, settings.ANTHROPIC_BASE_URL = "fake-key", fake.url
        settings.RAG_FALLBACK = ""
        fake.default = computed(lambda body: Script((MARKDOWN_ANSWER,)))
        answer = asked(Client())

    assert answer["generator"] == "claude"
    assert [(s["text"], s["list"]["ordered"] if s["list"] else None) for s in answer["sentences"]] == [
        ("Open the account settings page.", True),
        ("Choose the security section of the account settings", True),
        ("Click the reset password button and confirm the reset.", True),
    ]
    assert len({s["list"]["item"] for s in answer["sentences"]}) == 3
    shown = json.dumps(answer["sentences"])
    assert "**" not in shown and "`" not in shown and "evil.example" not in shown and "##" not in shown


def test_an_answer_quoting_one_item_of_the_list_reads_as_prose_on_the_reopened_page(how_to, settings):
    with FakeAnthropic() as fake:
        settings.ANTHROPIC_API_KEY, settings.ANTHROPIC_BASE_URL = "fake-key", fake.url
        settings.RAG_FALLBACK = ""
        fake.default = computed(lambda body: Script(("1. Open the account settings page [1].\n",)))
        client = Client()
        client.get("/")
        answer = asked(client)

    assert [s["list"] is not None for s in answer["sentences"]] == [True]  # the API still names its item
    for url in (f"/conversations/{answer['conversation']}/turns", f"/answers/{answer['answer_key']}/turns"):
        page = client.get(url).content.decode()
        elements = Elements(page)
        assert not any(elements.find(tag, **{"class": "answer-list"}) for tag in ("ol", "ul"))
        assert not elements.find("li", **{"class": "answer-item"})
        assert elements.find("p", **{"class": "sentence"}) and "Open the account settings page" in page
