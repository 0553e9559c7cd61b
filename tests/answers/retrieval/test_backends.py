"""RAG_RETRIEVER picks the retriever backend; `memory` serves each caller's tier from the in-process index."""
import pytest
from django.core.exceptions import ImproperlyConfigured

from answers.pipeline.config import PipelineConfig
from answers.pipeline.text.questions import question_terms
from answers.retrieval.backends import BACKENDS, MemoryBackend, retriever_backend, retriever_for
from answers.retrieval.caller import CallerRetriever
from corpus_admin.visibility import EVERYONE, PUBLIC_ONLY


def test_memory_is_the_default_backend(settings):
    assert settings.RAG_RETRIEVER == "memory"
    assert isinstance(retriever_backend(), MemoryBackend)


def test_an_unknown_backend_fails_by_name():
    with pytest.raises(ImproperlyConfigured, match="RAG_RETRIEVER must be one of memory, not 'elastic'"):
        retriever_backend("elastic")


def test_the_setting_selects_a_registered_backend(settings, monkeypatch):
    class Recording:
        def retriever_for(self, audiences):
            return ("recorded", audiences)

    monkeypatch.setitem(BACKENDS, "recording", Recording)
    settings.RAG_RETRIEVER = "recording"
    assert retriever_for(PUBLIC_ONLY) == ("recorded", PUBLIC_ONLY)


@pytest.mark.django_db
def test_memory_backend_serves_the_callers_tier_of_the_current_index(ingest):
    ingest("refunds.md", "# Refunds\n\nRefunds are issued within 30 days of purchase.\n")
    ingest("floor.md", "# Floor\n\nNever discount below the pricing floor.\n", audience="internal")
    ingest("hours.md", "# Support hours\n\nSupport answers on weekdays from nine to five.\n")  # so that a term in
    ingest("mobile.md", "# Mobile apps\n\nThe phone app works offline after the first sync.\n")  # one chunk scores
    public, staff = retriever_for(PUBLIC_ONLY), retriever_for(EVERYONE)
    assert isinstance(public, CallerRetriever)
    assert (public.max_rank, staff.max_rank) == (0, 2)
    assert not public.has_term("floor") and staff.has_term("floor")
    assert [hit.record.source_title for hit in staff.search(["floor"], k=3)] == ["Floor"]


@pytest.mark.django_db
def test_a_callers_document_frequencies_count_only_the_chunks_it_may_see(ingest):
    ingest("refunds.md", "# Refunds\n\nRefunds are issued within 30 days of purchase.\n")
    ingest("floor.md", "# Floor\n\nNever discount below the pricing floor.\n", audience="internal")
    ingest("hours.md", "# Support hours\n\nSupport answers on weekdays from nine to five.\n")

    public, staff = retriever_for(PUBLIC_ONLY), retriever_for(EVERYONE)

    assert public.document_frequencies(["refund", "floor"]) == ({"refund": 1, "floor": 0}, 2)
    assert staff.document_frequencies(["refund", "floor"]) == ({"refund": 1, "floor": 1}, 3)


@pytest.mark.django_db
def test_a_staff_chunk_saying_refunds_counts_for_the_question_term_refund(ingest):
    ingest("refunds.md", "# Refunds\n\nRefunds are issued within 30 days of purchase.\n")
    ingest("approvals.md", "# Approvals\n\nStaff refunds above $500 need a manager.\n", audience="internal")
    ingest("hours.md", "# Support hours\n\nSupport answers on weekdays from nine to five.\n")
    terms = question_terms("How are refunds approved?", config=PipelineConfig())

    public, staff = retriever_for(PUBLIC_ONLY), retriever_for(EVERYONE)

    assert "refund" in terms  # the question's word, stemmed as the index stems the chunks' words
    assert public.document_frequencies(terms)[0]["refund"] == 1
    assert staff.document_frequencies(terms)[0]["refund"] == 2
