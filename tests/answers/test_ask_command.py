"""manage.py ask: the human answer with sources, the refusal, and the JSON object."""
import io
import json

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def small_corpus(ingest, filler):
    ingest("trash.md", "# Trash\n\nDeleted files are kept in the trash for 30 days.\n", title="Trash and recovery")
    ingest(
        "floor.md", "# Floor\n\nThe internal price floor for Business is $19. CANARY-INTERNAL-1.\n", audience="internal"
    )


def ask(*args: str) -> str:
    out = io.StringIO()
    call_command("ask", *args, stdout=out)
    return out.getvalue()


def test_ask_prints_sentences_with_markers_and_numbered_sources(small_corpus):
    out = ask("How long are deleted files kept in the trash?")

    assert "Deleted files are kept in the trash for 30 days. [1]" in out
    assert "[1] Trash and recovery - /chunks/trash-v1-c01/" in out
    assert "status: answered" in out


def test_ask_prints_the_refusal(small_corpus):
    assert "Refused (no_material)" in ask("What is the capital of France?")


def test_ask_json_prints_the_api_object(small_corpus):
    data = json.loads(ask("How long are deleted files kept in the trash?", "--json"))

    assert data["status"] == "answered" and data["citations"] == ["trash-v1-c01"]


def test_ask_as_staff_sees_internal_and_as_anonymous_does_not(small_corpus, staff_user):
    question = "What is the internal price floor for Business?"

    assert "CANARY" not in ask(question)
    assert "$19" in ask(question, "--user", staff_user.username)


def test_ask_unknown_user_is_an_error(small_corpus):
    with pytest.raises(CommandError, match="No user named 'nobody'"):
        ask("anything", "--user", "nobody")
