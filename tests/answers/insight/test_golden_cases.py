"""Golden cases from the log: the expected kind from how the answer ended and was rated, its cited sources' paths,
appended once, in a file answers/evaluation/golden.py loads."""
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from answers.evaluation.golden import load_golden, resolve_sources
from answers.insight.golden_cases import append_golden_cases
from answers.models import QuestionLog, Rating
from corpus_admin.selectors import source_paths

pytestmark = pytest.mark.django_db(transaction=True)

TRASH_Q = "How long are deleted files kept in the trash?"
OFF_TOPIC = "What is the capital of France?"
LIMIT_Q = "What is the upload limit for a single file?"


@pytest.fixture
def corpus(ingest, filler):
    ingest("trash.md", "# Trash\n\nDeleted files are kept in the trash for 30 days.\n", path="help/trash.md")
    ingest("web.md", "# Limits\n\nThe upload limit for a single file is 100 MB.\n", path="limits/web.md")
    ingest("desktop.md", "# Limits\n\nThe upload limit for a single file is 200 MB.\n", path="limits/desktop.md",
           audience="internal")


def asked(question: str, user: User | None = None) -> QuestionLog:
    """Ask over the API (as the user) and return the log row the service wrote."""
    client = Client()
    if user is not None:
        client.force_login(user)
    key = client.post("/api/answer", {"question": question}, content_type="application/json").json()["answer_key"]
    return QuestionLog.objects.get(answer_key=key)


def rated(log: QuestionLog, helpful: bool) -> QuestionLog:
    Rating.objects.create(log=log, session_key="s", helpful=helpful)
    return log


def cases_in(path) -> dict[str, dict]:
    return {case["id"]: case for case in map(json.loads, path.read_text().splitlines())}


def test_each_kind_of_ending_becomes_the_case_it_should(corpus, tmp_path, staff_user):
    path = tmp_path / "golden" / "from-log.jsonl"
    answered, liked = asked(TRASH_Q), rated(asked(TRASH_Q), True)
    refused, conflict = asked(OFF_TOPIC), asked(LIMIT_Q, staff_user)
    assert (refused.refusal_kind, conflict.refusal_kind) == ("no_material", "conflict")

    appended = append_golden_cases(QuestionLog.objects.all(), path=path)

    cases = cases_in(path)
    assert appended.added == tuple(f"log-{log.pk}" for log in (answered, liked, refused, conflict))
    assert {k: (c["expect"], c["sources"], c["audience"]) for k, c in cases.items()} == {
        f"log-{answered.pk}": ("answered", ["help/trash.md"], "public"),
        f"log-{liked.pk}": ("answered", ["help/trash.md"], "public"),
        f"log-{refused.pk}": ("no_material", [], "public"),
        f"log-{conflict.pk}": ("conflict", sorted(cases[f"log-{conflict.pk}"]["sources"]), "internal"),
    }
    assert set(cases[f"log-{conflict.pk}"]["sources"]) == {"limits/web.md", "limits/desktop.md"}
    assert cases[f"log-{answered.pk}"]["question"] == TRASH_Q and cases[f"log-{answered.pk}"]["facts"] == []


def test_the_written_cases_load_with_the_golden_reader_and_their_sources_resolve(corpus, tmp_path):
    path = tmp_path / "from-log.jsonl"
    path.write_text('{"id": "hand-written", "question": "q?", "audience": "public", "expect": "answered", '
                    '"sources": [], "facts": ["x"]}')  # no final newline: the append starts a line of its own
    append_golden_cases([asked(TRASH_Q), asked(OFF_TOPIC)], path=path)

    cases = resolve_sources(load_golden(path), paths=source_paths(), golden=path)

    assert [c.id for c in cases][0] == "hand-written" and len(cases) == 3
    assert cases[1].sources == ("help/trash.md",) and cases[1].expect == "answered"
    assert cases[2].expect == "no_material" and cases[2].audiences == ("public",)


def test_a_row_already_in_the_file_is_not_appended_again(corpus, tmp_path):
    path = tmp_path / "from-log.jsonl"
    log = asked(TRASH_Q)
    append_golden_cases([log], path=path)

    again = append_golden_cases([log], path=path)

    assert again.added == () and again.skipped == ((log.pk, "already in the golden file"),)
    assert len(load_golden(path)) == 1


def test_an_answer_rated_not_helpful_or_cut_off_is_left_for_a_person(corpus, tmp_path):
    path = tmp_path / "from-log.jsonl"
    disliked = rated(asked(TRASH_Q), False)
    cancelled = QuestionLog.objects.create(channel="ws", question=TRASH_Q, status="cancelled", generator="extractive")

    appended = append_golden_cases([disliked, cancelled], path=path)

    assert appended.added == () and not path.exists()
    assert dict(appended.skipped) == {
        disliked.pk: "answered but rated not helpful: write its expected kind by hand",
        cancelled.pk: "its answer is cancelled, not answered or refused",
    }


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_question_holding_a_line_separator_stays_on_its_own_line_of_the_file(corpus, tmp_path, separator):
    # Anyone may ask this question; JSON leaves these characters unescaped unless told, and str.splitlines (the
    # golden reader's, and the append's own check for rows already written) breaks a line at them.
    path = tmp_path / "from-log.jsonl"
    question = f"How long are deleted files kept{separator}in the trash?"
    log = asked(question)
    append_golden_cases([log], path=path)

    again = append_golden_cases([log], path=path)

    assert [case.question for case in load_golden(path)] == [question]
    assert again.added == () and len(path.read_text(encoding="utf-8").splitlines()) == 1
