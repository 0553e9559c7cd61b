"""The compiled seed kernel: the numpy path's hits and bit-identical scores, and the numpy path without numba."""
import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from answers.pipeline.retrieve import kernel
from answers.pipeline.retrieve.bm25 import Hit
from tests.answers.pipeline.retrieve.helpers import PUBLIC, public_index
from tests.answers.pipeline.retrieve.test_bm25 import zipf_corpus


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_top_is_lexsort_of_the_non_zero_values_cut_to_k(seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 6, size=300).astype(np.float64)  # many ties and zeros
    docs = np.sort(rng.choice(5000, size=300, replace=False)).astype(np.int32)
    order = rng.permutation(5000).astype(np.int32)
    scored = np.flatnonzero(values)
    expected = scored[np.lexsort((order[docs[scored]], -values[scored]))]
    for k in (1, 10, 400):
        assert kernel.top(values, docs, order, k).tolist() == expected[:k].tolist()


def test_top_of_fewer_non_zero_values_than_k_returns_them_all():
    values = np.array([0.0, 2.0, 0.0, 1.0])
    docs = np.arange(4, dtype=np.int32)
    assert kernel.top(values, docs, docs, 10).tolist() == [1, 3]


def test_union_merges_runs_of_postings_once_each():
    rng = np.random.default_rng(4)
    runs = [np.sort(rng.choice(500, size=size, replace=False)).astype(np.int32) for size in (40, 1, 120, 0)]
    post_docs = np.concatenate(runs)
    sizes = np.array([run.size for run in runs], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    assert kernel.union(post_docs, starts, sizes).tolist() == np.union1d(runs[0], np.union1d(runs[1], runs[2])).tolist()


@pytest.mark.parametrize("compiled", [True, False], ids=["kernel", "numpy"])
def test_both_paths_give_rank_bm25s_top_10_adding_terms_in_query_order(compiled, monkeypatch):
    if compiled and not kernel.AVAILABLE:
        pytest.skip("numba is not installed")
    monkeypatch.setattr(kernel, "AVAILABLE", compiled)
    rng, vocabulary, pick, docs = zipf_corpus(7)
    index, chunk_ids = public_index(docs)
    assert index._columns  # column terms and posting terms both take part
    reference = BM25Okapi(docs)
    order_sensitive = 0
    for _ in range(40):
        query = [vocabulary[j] for j in rng.choice(400, size=int(rng.integers(3, 9)), p=pick)]
        query += query[:1]  # a repeated term counts twice
        scores = reference.get_scores(query)
        backwards = np.zeros(len(docs))
        for term in reversed(query):
            backwards = backwards + reference.get_scores([term])
        order = np.lexsort((np.arange(len(docs)), -scores))[:10]
        order_sensitive += any(backwards[i] != scores[i] for i in order.tolist())
        expected = [Hit(chunk_ids[i], float(scores[i])) for i in order.tolist() if scores[i] != 0]
        for prune_from in (0, 10**9):
            assert index.search(query, max_rank=PUBLIC, k=10, prune_from=prune_from) == expected
    assert order_sensitive >= 10  # another order of the sums would show in the last bits


def test_kernel_scores_equal_the_numpy_paths_bit_for_bit(monkeypatch):
    if not kernel.AVAILABLE:
        pytest.skip("numba is not installed")
    rng, vocabulary, pick, docs = zipf_corpus(8)
    index, _ = public_index(docs)
    tier = index._tiers[PUBLIC]
    for _ in range(30):
        query = [vocabulary[j] for j in rng.choice(400, size=int(rng.integers(2, 9)), p=pick)]
        scoring = index._scoring_terms(query, PUBLIC, tier)
        candidates = np.sort(rng.choice(len(docs), size=300, replace=False)).astype(np.int32)
        compiled = index._exact_scores(scoring, tier, candidates)
        monkeypatch.setattr(kernel, "AVAILABLE", False)
        assert compiled.tobytes() == index._exact_scores(scoring, tier, candidates).tobytes()
        monkeypatch.setattr(kernel, "AVAILABLE", True)
