"""RAG_RETRIEVAL=hybrid: BM25 fused with dense retrieval over the caller's tier only (§3), no side channel."""
import pytest

from answers.pipeline.embed.model import embeddings_available
from answers.pipeline.text.tokens import tokenize
from answers.retrieval.caller import CallerRetriever, bound_to_question, max_rank_for
from answers.retrieval.holder import IndexHolder
from corpus_admin.ingestion import update_source_details
from corpus_admin.models import Source, TextVector
from corpus_admin.visibility import EVERYONE, PUBLIC_ONLY

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.embeddings,
    pytest.mark.skipif(not embeddings_available(), reason="the embedding model is not installed"),
]

BACKUPS = "# Security\n\nFiles are encrypted at rest. Backups are taken every 6 hours and kept for 35 days.\n"
DOCS = {
    "centres.md": "# Data centres\n\nLumora data is stored in two data centres in the chosen region.\n",
    "trash.md": "# Trash\n\nDeleted files stay in the trash for 30 days.\n",
    "plans.md": "# Plans\n\nThe Team plan costs 10 dollars per member per month.\n",
}
QUESTION = "How frequently does Lumora back up data?"


def search(snapshot, question: str, audiences=PUBLIC_ONLY, *, hybrid: bool = True, k: int = 5) -> list:
    retriever = CallerRetriever(snapshot, max_rank_for(audiences), hybrid=hybrid).for_question(question)
    return retriever.search(tokenize(question), k=k)


def ingest_docs(ingest) -> None:
    for name, text in DOCS.items():
        ingest(name, text)


def test_dense_finds_what_bm25_misses(ingest):
    ingest_docs(ingest)
    ingest("security.md", BACKUPS)
    snapshot = IndexHolder(store_dir=None).current()
    assert snapshot.dense is not None and len(snapshot.dense) == 4
    lexical = [hit.record.source_title for hit in search(snapshot, QUESTION, hybrid=False, k=1)]
    fused = [hit.record.source_title for hit in search(snapshot, QUESTION, k=2)]
    assert lexical == ["Data centres"]  # "back up" is not "backups" to a stemmer
    assert "Security" in fused


def test_a_chunk_the_caller_may_not_see_is_never_a_dense_candidate_and_changes_no_score(ingest):
    ingest_docs(ingest)
    ingest("security.md", BACKUPS)
    public_only = IndexHolder(store_dir=None).current()
    before = [(hit.record.chunk_id, hit.score) for hit in search(public_only, QUESTION)]
    # An internal document that states the question itself: the nearest vector there could be.
    ingest("vault.md", f"# Vault\n\n{QUESTION} CANARY-INTERNAL-C3.\n", audience="internal")
    both = IndexHolder(store_dir=None).current()
    assert [(hit.record.chunk_id, hit.score) for hit in search(both, QUESTION)] == before
    assert "Vault" in [hit.record.source_title for hit in search(both, QUESTION, EVERYONE)]


def test_tightening_a_documents_audience_takes_it_off_the_public_dense_side(ingest):
    ingest_docs(ingest)
    ingest("security.md", BACKUPS)
    holder = IndexHolder(store_dir=None, read_sources=_served, read_source_records=_records, max_update_share=1.0)
    assert "Security" in [hit.record.source_title for hit in search(holder.current(), QUESTION)]
    update_source_details(Source.objects.get(original_name="security.md"), audience="internal")
    updated = holder.current()
    assert holder.updates == 1
    assert "Security" not in [hit.record.source_title for hit in search(updated, QUESTION)]
    assert "Security" in [hit.record.source_title for hit in search(updated, QUESTION, EVERYONE)]


def test_vectors_are_stored_once_per_text(ingest):
    ingest("security.md", BACKUPS, title="Security")
    stored = TextVector.objects.count()
    assert stored == 3  # the chunk and its two sentences
    ingest("copy.md", BACKUPS, title="Security")  # the same title and text: nothing new to embed
    assert TextVector.objects.count() == stored
    ingest("other.md", BACKUPS, title="Backups")  # another title: the chunk's text is new, its sentences are not
    assert TextVector.objects.count() == stored + 1


def test_bm25_setting_or_no_vectors_is_bm25_alone(ingest, settings):
    ingest_docs(ingest)
    ingest("security.md", BACKUPS)
    snapshot = IndexHolder(store_dir=None).current()
    retriever = CallerRetriever(snapshot, 0, hybrid=False)
    assert bound_to_question(retriever, QUESTION) is retriever
    settings.RAG_EMBEDDINGS = False
    lexical = IndexHolder(store_dir=None).current()
    assert lexical.dense is None
    assert [h.record.chunk_id for h in search(lexical, QUESTION)] == [
        h.record.chunk_id for h in search(snapshot, QUESTION, hybrid=False)
    ]


def _served():
    from corpus_admin.selectors import served_sources

    return served_sources()


def _records(ids):
    from corpus_admin.selectors import chunk_records

    return chunk_records(source_ids=ids)


def test_the_setting_makes_the_callers_retriever_hybrid(ingest, settings):
    from answers.retrieval.backends import retriever_for

    ingest_docs(ingest)
    ingest("security.md", BACKUPS)
    settings.RAG_RETRIEVAL = "bm25"
    assert not retriever_for(PUBLIC_ONLY).hybrid
    settings.RAG_RETRIEVAL = "hybrid"
    bound = bound_to_question(retriever_for(PUBLIC_ONLY), QUESTION)
    assert bound.query_vector is not None
    assert "Security" in [hit.record.source_title for hit in bound.search(tokenize(QUESTION), k=2)]


def test_the_fusion_settings_reach_the_callers_retriever(settings):
    from answers.retrieval.backends import retriever_for

    settings.RAG_RETRIEVAL = "hybrid"
    settings.RAG_HYBRID_KEEP_BM25, settings.RAG_HYBRID_DENSE_FLOOR = 3, 0.5
    fusion = retriever_for(PUBLIC_ONLY).fusion
    assert (fusion.keep_bm25, fusion.dense_floor) == (3, 0.5)
