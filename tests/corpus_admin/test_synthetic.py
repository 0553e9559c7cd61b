"""The synthetic corpus generator (load_synthetic and the retrieval benchmark draw from it)."""
from corpus_admin.synthetic import synthetic_corpus


def test_synthetic_corpus_is_deterministic_and_shaped_as_promised():
    first = synthetic_corpus(chunks=50, queries=10, seed=5)
    assert first == synthetic_corpus(chunks=50, queries=10, seed=5)
    assert first != synthetic_corpus(chunks=50, queries=10, seed=6)
    assert all(80 <= len(doc) <= 250 for doc in first.docs)
    assert all(3 <= len(query) <= 8 for query in first.queries)
    assert first.chunk_ids == sorted(first.chunk_ids)
