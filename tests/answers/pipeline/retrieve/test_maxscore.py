"""Pruned top k: the same hits and bit-identical scores as scoring every posting, in every audience tier."""
import math

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

from answers.pipeline.retrieve import bm25
from answers.pipeline.retrieve.bm25 import Bm25Index
from answers.pipeline.retrieve.maxscore import (
    _KTH_DIRECT,
    QueryTerm,
    _kth,
    _union,
    at_least_kth,
    candidate_docs,
    lookup_postings,
    reaching_docs,
)
from answers.pipeline.retrieve.persist import read_index, write_index
from answers.pipeline.retrieve.update import updated_index
from tests.answers.pipeline.retrieve.helpers import AUDIENCES, INTERNAL, PUBLIC

EXHAUSTIVE = 10**12  # a prune_from no query reaches
ZERO = 1e-12  # the absolute tolerance the comparisons below allow a score

# A skewed vocabulary, so that some terms are in most documents (set aside by pruning, looked up by column) and
# others in few (the candidates).
skewed_words = st.integers(min_value=0, max_value=40).map(lambda n: f"t{n * n // 40}")
tiered_docs = st.lists(
    st.tuples(st.sampled_from(AUDIENCES), st.lists(skewed_words, min_size=1, max_size=14)), min_size=1, max_size=60
)
skewed_queries = st.lists(st.integers(min_value=0, max_value=45).map(lambda n: f"t{n * n // 40}"), min_size=1,
                          max_size=7)


def brute_force_top(docs: list[list[str]], chunk_ids: list[str], query: list[str], k: int) -> list[tuple[str, float]]:
    """rank-bm25's scores over exactly these documents; non-zero, best first, ties by chunk id. A score within
    ZERO of nought is nought: a tier whose mean idf cancels out sums to +-1e-17 in one term order and 0.0 in another."""
    scores = BM25Okapi(docs).get_scores(query)
    ranked = sorted(
        (-score, chunk_id) for chunk_id, score in zip(chunk_ids, scores.tolist(), strict=True) if abs(score) > ZERO
    )
    return [(chunk_id, -negative) for negative, chunk_id in ranked[:k]]


@settings(max_examples=250, deadline=None)
@given(docs=tiered_docs, query=skewed_queries, k=st.integers(min_value=1, max_value=12))
# The partner tier's mean idf cancels out: rank-bm25 sums it to about -9e-18, the index to 0.0.
@example(
    docs=[("partner", ["t0", "t1", "t5", "t4"]), ("public", ["t0", "t1", "t3", "t5"]), ("public", ["t0", "t1", "t5"]),
          ("public", ["t2"])],
    query=["t0"],
    k=1,
)
# The other way round: every tier's mean idf cancels out, the index sums it to about -9e-18, rank-bm25 to 0.0.
@example(docs=[("public", ["t0", "t1", "t2"]), ("public", ["t4", "t5"]), ("public", ["t0", "t1", "t2"]),
               ("public", ["t0", "t1", "t2", "t3"])], query=["t0"], k=3)
def test_pruned_search_equals_exhaustive_search_and_rank_bm25_in_every_tier(docs, query, k):
    chunk_ids = [f"c{i:03d}" for i in range(len(docs))]
    index = Bm25Index.build((c, audience, tokens) for c, (audience, tokens) in zip(chunk_ids, docs, strict=True))
    for max_rank in range(len(AUDIENCES)):
        pruned = index.search(query, max_rank=max_rank, k=k, prune_from=0)
        assert pruned == index.search(query, max_rank=max_rank, k=k, prune_from=EXHAUSTIVE)  # ids and exact floats
        visible = [i for i, (audience, _) in enumerate(docs) if AUDIENCES.index(audience) <= max_rank]
        if not visible:
            assert pruned == []
            continue
        everyone = brute_force_top([docs[i][1] for i in visible], [chunk_ids[i] for i in visible], query, len(docs))
        expected = everyone[:k]
        pruned = [hit for hit in pruned if abs(hit.score) > ZERO]  # nought, as brute_force_top counts it
        assert len(pruned) == len(expected)
        # rank-bm25's score of each hit, and at each rank the same score: hits tied with rank-bm25 may come in another
        # order when the floor idf of a term in most chunks (a mean summed in another order) differs in its last bit.
        theirs = dict(everyone)
        for hit, (chunk_id, score) in zip(pruned, expected, strict=True):
            assert math.isclose(hit.score, score, rel_tol=1e-9, abs_tol=1e-12)
            assert math.isclose(theirs[hit.chunk_id], score, rel_tol=1e-12, abs_tol=1e-15), (hit.chunk_id, chunk_id)


def test_pruned_search_on_a_zipfian_corpus_equals_exhaustive_search_bit_for_bit():
    rng = np.random.default_rng(11)
    vocabulary = np.array([f"w{i}" for i in range(2000)])
    weights = 1 / np.arange(1, 2001) ** 1.1
    pick = weights / weights.sum()
    audiences = rng.choice(3, size=4000, p=[0.8, 0.15, 0.05])
    docs = [
        (f"d{i:05d}", int(audiences[i]), vocabulary[rng.choice(2000, size=int(rng.integers(20, 60)), p=pick)].tolist())
        for i in range(4000)
    ]
    index = Bm25Index.build(docs)
    for _ in range(40):
        query = vocabulary[rng.choice(2000, size=int(rng.integers(2, 7)), p=pick)].tolist()
        for max_rank in (PUBLIC, INTERNAL):
            exhaustive = index.search(query, max_rank=max_rank, k=10, prune_from=EXHAUSTIVE)
            assert index.search(query, max_rank=max_rank, k=10) == exhaustive
            assert index.search(query, max_rank=max_rank, k=10, prune_from=0) == exhaustive


def test_queries_settled_by_their_seed_and_queries_narrowed_from_its_threshold_equal_exhaustive_search(monkeypatch):
    # Most queries of a Zipfian corpus are settled by their rarest terms' documents alone (scored exactly, the other
    # terms' bounds below their k-th best); for the others, the documents of none of the seed's terms are narrowed
    # from that k-th best (reaching_docs).
    paths = {"settled": 0, "narrowed": 0}
    seeded_top, narrow = Bm25Index._seeded_top, bm25.reaching_docs

    def spy_seeded_top(self, *args, **kwargs):
        found = seeded_top(self, *args, **kwargs)
        paths["settled"] += isinstance(found, list)
        return found

    def spy_narrow(*args, **kwargs):
        paths["narrowed"] += 1
        assert kwargs["threshold"] > 0
        return narrow(*args, **kwargs)

    monkeypatch.setattr(Bm25Index, "_seeded_top", spy_seeded_top)
    monkeypatch.setattr(bm25, "reaching_docs", spy_narrow)
    rng = np.random.default_rng(5)
    vocabulary = np.array([f"w{i}" for i in range(1500)])
    pick = 1 / np.arange(1, 1501) ** 1.1
    pick /= pick.sum()
    docs = [(f"d{i:05d}", 0, vocabulary[rng.choice(1500, size=int(rng.integers(20, 80)), p=pick)].tolist())
            for i in range(3000)]
    index = Bm25Index.build(docs)
    for _ in range(80):
        query = vocabulary[rng.choice(1500, size=int(rng.integers(2, 8)), p=pick)].tolist()
        exhaustive = index.search(query, max_rank=PUBLIC, k=10, prune_from=EXHAUSTIVE)
        assert index.search(query, max_rank=PUBLIC, k=10, prune_from=0) == exhaustive
    assert paths["settled"] > 20 and paths["narrowed"] > 0, paths


def test_a_known_threshold_is_used_without_scoring_a_seed():
    common = QueryTerm(docs=np.arange(100), bound=1.0)
    rare = QueryTerm(docs=np.arange(5), bound=2.0)

    def exact(docs: np.ndarray) -> np.ndarray:
        raise AssertionError("no seed is scored when the k-th best's lower bound is given")

    candidates = candidate_docs([common, rare], k=5, exact_scores=exact, seed_postings=0, lookup_cost=0, threshold=2.4)
    assert candidates is not None and candidates.tolist() == [0, 1, 2, 3, 4]


def test_common_terms_whose_bounds_cannot_reach_the_kth_best_are_set_aside():
    # Documents 0-99 hold the common term once; 0-4 also hold the rare one. The common term alone can add at most
    # 1.0, below the seed's 5th best (2.5): only the rare term's documents remain candidates.
    common = QueryTerm(docs=np.arange(100), bound=1.0)
    rare = QueryTerm(docs=np.arange(5), bound=2.0)

    def exact(docs: np.ndarray) -> np.ndarray:
        return np.where(docs < 5, 2.5, 0.5)

    candidates = candidate_docs([common, rare], k=5, exact_scores=exact, seed_postings=0, lookup_cost=0)
    assert candidates is not None and candidates.tolist() == [0, 1, 2, 3, 4]


def test_a_bound_reaching_the_kth_best_keeps_its_documents_and_pruning_that_cannot_pay_gives_up():
    common = QueryTerm(docs=np.arange(100), bound=3.0)  # could lift any document above the seed's 5th best
    rare = QueryTerm(docs=np.arange(5), bound=2.0)

    def exact(docs: np.ndarray) -> np.ndarray:
        return np.full(docs.size, 2.5)

    kept = candidate_docs([common, rare], k=5, exact_scores=exact, seed_postings=0, lookup_cost=0)
    assert kept is not None and kept.tolist() == list(range(100))
    assert candidate_docs([common, rare], k=5, exact_scores=exact, seed_postings=0) is None  # none set aside


postings_and_weights = st.lists(
    st.dictionaries(st.integers(min_value=0, max_value=80), st.floats(min_value=0.01, max_value=5.0), min_size=1),
    min_size=1,
    max_size=5,
)


@settings(max_examples=200, deadline=None)
@given(terms=postings_and_weights, threshold=st.floats(min_value=0.01, max_value=20.0), slack=st.floats(0.0, 2.0))
def test_reaching_docs_keeps_every_document_whose_sum_of_the_terms_reaches_the_threshold(terms, threshold, slack):
    # Each term's bound is at least what it adds to any of its documents (slack above its largest weight).
    query_terms = []
    for weights in terms:
        docs = np.array(sorted(weights), dtype=np.int64)
        values = np.array([weights[doc] for doc in docs.tolist()])

        def weights_of(wanted: np.ndarray, docs: np.ndarray = docs, values: np.ndarray = values) -> np.ndarray:
            found, at = lookup_postings(docs, wanted)
            out = np.zeros(wanted.size)
            out[found] = values[at]
            return out

        query_terms.append(
            QueryTerm(docs=docs, bound=float(values.max()) + slack, weights=lambda values=values: values,
                      weights_of=weights_of)
        )
    sums: dict[int, float] = {}
    for weights in terms:
        for doc, value in weights.items():
            sums[doc] = sums.get(doc, 0.0) + value
    reaching = {doc for doc, total in sums.items() if total >= threshold}
    found = reaching_docs(query_terms, threshold=threshold, doc_count=81 if slack > 1 else 0)
    assert found is not None and reaching <= set(found.tolist())
    assert found.tolist() == sorted(set(found.tolist()))
    assert reaching_docs(query_terms, threshold=threshold, max_postings=-1) is None or not reaching


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.sampled_from([0.0, 0.5, 1.25, 2.0, 7.5]) | st.floats(0, 20), min_size=0, max_size=3000),
    k=st.integers(min_value=1, max_value=40),
)
def test_kth_is_the_kth_largest_with_ties_and_zeros_at_any_size(values, k):
    array = np.array(values, dtype=np.float64)
    expected = float(np.sort(array)[::-1][k - 1]) if array.size >= k else 0.0
    assert _kth(array, k) == expected


@settings(max_examples=60, deadline=None)
@given(
    size=st.sampled_from([_KTH_DIRECT - 1, _KTH_DIRECT, _KTH_DIRECT + 1, 2 * _KTH_DIRECT + 7]),
    distinct=st.sampled_from([3, 50, 10**6]),
    k=st.integers(min_value=1, max_value=40),
    seed=st.integers(0, 2**32 - 1),
)
def test_at_least_kth_gives_the_kth_largest_and_every_place_at_or_above_it_on_both_sides_of_the_direct_size(
    size, distinct, k, seed
):
    # one np.partition up to _KTH_DIRECT values, narrowing by column maxima past it: the same answer either way
    values = np.random.default_rng(seed).integers(0, distinct, size=size).astype(np.float64) / 4
    kth, places = at_least_kth(values, k)
    expected = float(np.sort(values)[::-1][k - 1])
    assert kth == expected
    assert places.tolist() == np.flatnonzero(values >= expected).tolist()


@settings(max_examples=100, deadline=None)
@given(postings=st.lists(st.sets(st.integers(0, 5000), min_size=1, max_size=400).map(sorted), min_size=1, max_size=5))
def test_union_gives_the_documents_of_every_postings_list_ascending_once_each(postings):
    arrays = [np.array(docs, dtype=np.int32) for docs in postings]
    assert _union(arrays).tolist() == sorted({doc for docs in postings for doc in docs})


def test_lookup_postings_finds_exactly_the_wanted_documents_present():
    found, at = lookup_postings(np.array([2, 5, 9, 14]), np.array([1, 5, 9, 20]))
    assert found.tolist() == [1, 2] and at.tolist() == [1, 2]


@settings(max_examples=120, deadline=None)
@given(before=tiered_docs, added=tiered_docs, drop=st.lists(st.booleans(), max_size=60), query=skewed_queries)
def test_an_updated_index_prunes_to_the_same_hits_as_scoring_everything(before, added, drop, query):
    # Removing chunks leaves each term's bound looser, never too low; added chunks raise it where they must.
    old = {f"c{i:03d}": doc for i, doc in enumerate(before)}
    removed = [chunk_id for chunk_id, gone in zip(old, drop, strict=False) if gone]
    index = updated_index(
        Bm25Index.build((c, a, t) for c, (a, t) in old.items()),
        removed=removed,
        added=[(f"n{i:03d}", a, t) for i, (a, t) in enumerate(added)],
    )
    for max_rank in range(len(AUDIENCES)):
        exhaustive = index.search(query, max_rank=max_rank, k=5, prune_from=EXHAUSTIVE)
        assert index.search(query, max_rank=max_rank, k=5, prune_from=0) == exhaustive


def test_a_saved_index_keeps_its_bounds_and_prunes_alike(tmp_path):
    docs = [(f"d{i:03d}", i % 3, ["common"] * (1 + i % 4) + (["rare"] if i % 17 == 0 else [])) for i in range(200)]
    index = Bm25Index.build(docs)
    write_index(index, tmp_path / "index.npz")
    loaded = read_index(tmp_path / "index.npz")
    assert loaded.term_max_tf.tolist() == index.term_max_tf.tolist()
    assert loaded.term_min_length.tolist() == index.term_min_length.tolist()
    for max_rank in range(len(AUDIENCES)):
        query = ["rare", "common"]
        assert loaded.search(query, max_rank=max_rank, k=3, prune_from=0) == index.search(
            query, max_rank=max_rank, k=3, prune_from=EXHAUSTIVE
        )
