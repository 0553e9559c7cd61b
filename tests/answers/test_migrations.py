"""Migrations of the answers app that change data: log rows written before answer keys get one each."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE_ANSWER_KEYS = [("answers", "0002_question_log_diagnostics")]


@pytest.mark.django_db(transaction=True)
def test_log_rows_written_before_answer_keys_each_get_a_key_of_their_own():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_ANSWER_KEYS)
    old = executor.loader.project_state(BEFORE_ANSWER_KEYS).apps.get_model("answers", "QuestionLog")
    for n in range(3):
        old.objects.create(channel="api", question=f"question {n}", status="answered", generator="extractive")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    from answers.models import QuestionLog

    keys = list(QuestionLog.objects.values_list("answer_key", flat=True))
    assert len(keys) == 3 and None not in keys and len(set(keys)) == 3
