"""The corpus version's stamp: read on its own, or in another statement and handed on for the rest of a call."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from corpus_admin.corpus_state import corpus_stamp, stamp_columns, stamp_from, stamp_read_already

pytestmark = pytest.mark.django_db


def test_the_stamp_read_in_another_statement_is_the_stamp(ingest):
    assert corpus_stamp() == (0, "")  # no row yet
    ingest("refunds.md", "# Refunds\n\nRefunds take 5 days.\n")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1, {', '.join(stamp_columns())}")
        _, *values = cursor.fetchone()

    assert stamp_from(*values) == corpus_stamp() and corpus_stamp()[0] > 0


def test_a_stamp_read_already_is_not_read_again_and_only_within():
    with CaptureQueriesContext(connection) as within, stamp_read_already((7, "then")):
        assert corpus_stamp() == (7, "then")

    assert within.captured_queries == [] and corpus_stamp() != (7, "then")
