"""BM25 scoring: rank-bm25's BM25Okapi scores exactly, statistics per audience tier, ties by chunk id."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

from answers.pipeline.retrieve.bm25 import Bm25Index, Hit
from tests.answers.pipeline.retrieve.helpers import (
    AUDIENCES,
    CORPUS,
    INTERNAL,
    PARTNER,
    PUBLIC,
    public_index,
    queries,
    words,
)


def reference_scores(docs: list[list[str]], query: list[str], **params) -> np.ndarray:
    return BM25Okapi(docs, **params).get_scores(query)


def our_scores(index: Bm25Index, chunk_ids: list[str], query: list[str], max_rank: int) -> np.ndarray:
    scores = index.scores(query, max_rank=max_rank)
    return np.array([scores.get(chunk_id, 0.0) for chunk_id in chunk_ids])


def assert_same(ours: np.ndarray, expected: np.ndarray) -> None:
    assert ours.shape == expected.shape
    for a, b in zip(ours.tolist(), expected.tolist(), strict=True):
        # abs_tol only absorbs float cancellation: an average idf that is 0 in exact arithmetic comes out as
        # ~1e-17 in rank-bm25's summation order and as 0.0 in ours.
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), (ours, expected)


@pytest.mark.parametrize(
    "query",
    [
        ["refund"],
        ["refund", "refund"],  # a repeated term counts twice
        ["day"],  # in more than half of the documents: negative idf replaced by epsilon * average idf
        ["nowher"],  # absent from the corpus
        ["refund", "day", "nowher", "30"],
        [],
    ],
)
def test_scores_match_rank_bm25_table(query):
    index, chunk_ids = public_index(CORPUS)
    assert_same(our_scores(index, chunk_ids, query, PUBLIC), reference_scores(CORPUS, query))


def test_negative_idf_term_gets_the_epsilon_floor():
    index, _ = public_index(CORPUS)
    reference = BM25Okapi(CORPUS)
    assert reference.idf["day"] == pytest.approx(0.25 * reference.average_idf)
    assert index.scores(["day"], max_rank=PUBLIC)  # the floor is positive here, so "day" still scores


def test_single_document_corpus_matches_rank_bm25_including_negative_scores():
    docs = [["alpha", "beta", "alpha"]]
    index, chunk_ids = public_index(docs)
    expected = reference_scores(docs, ["alpha", "beta"])
    assert expected[0] < 0  # every idf is negative, and so is their average
    assert_same(our_scores(index, chunk_ids, ["alpha", "beta"], PUBLIC), expected)
    alpha = reference_scores(docs, ["alpha"])[0]
    assert alpha < 0
    assert index.search(["alpha"], max_rank=PUBLIC, k=3) == [Hit("doc-c00000", pytest.approx(alpha, rel=1e-9))]


def test_parameters_are_honoured():
    params = {"k1": 1.2, "b": 0.4, "epsilon": 0.5}
    index, chunk_ids = public_index(CORPUS, **params)
    expected = reference_scores(CORPUS, ["refund", "day"], **params)
    assert_same(our_scores(index, chunk_ids, ["refund", "day"], PUBLIC), expected)


documents = st.lists(st.lists(words, min_size=1, max_size=12), min_size=1, max_size=25)


@settings(max_examples=200, deadline=None)
@given(docs=documents, query=queries)
def test_scores_match_rank_bm25_on_random_corpora(docs, query):
    index, chunk_ids = public_index(docs)
    assert_same(our_scores(index, chunk_ids, query, PUBLIC), reference_scores(docs, query))


@settings(max_examples=150, deadline=None)
@given(
    docs=st.lists(
        st.tuples(st.sampled_from(AUDIENCES), st.lists(words, min_size=1, max_size=10)), min_size=1, max_size=25
    ),
    query=queries,
)
def test_each_tier_scores_exactly_as_rank_bm25_over_only_its_documents(docs, query):
    chunk_ids = [f"c{i:03d}" for i in range(len(docs))]
    index = Bm25Index.build((c, audience, tokens) for c, (audience, tokens) in zip(chunk_ids, docs, strict=True))
    for max_rank in (PUBLIC, PARTNER, INTERNAL):
        visible = [i for i, (audience, _) in enumerate(docs) if AUDIENCES.index(audience) <= max_rank]
        assert index.doc_count(max_rank=max_rank) == len(visible)
        scores = index.scores(query, max_rank=max_rank)
        assert set(scores) <= {chunk_ids[i] for i in visible}
        if visible:
            expected = reference_scores([docs[i][1] for i in visible], query)
            assert_same(np.array([scores.get(chunk_ids[i], 0.0) for i in visible]), expected)


def test_public_scores_do_not_change_when_partner_and_internal_documents_exist():
    public = [("p1", "public", ["refund", "day"]), ("p2", "public", ["upload", "limit"]), ("p3", "public", ["day"])]
    hidden = [("x1", "partner", ["refund", "refund", "floor"]), ("x2", "internal", ["refund", "price", "day"])]
    alone = Bm25Index.build(public)
    mixed = Bm25Index.build(public + hidden)
    for query in (["refund"], ["day", "refund"], ["floor"], ["price"]):
        assert mixed.scores(query, max_rank=PUBLIC) == alone.scores(query, max_rank=PUBLIC)
        assert mixed.search(query, max_rank=PUBLIC, k=5) == alone.search(query, max_rank=PUBLIC, k=5)
    assert not mixed.has_term("floor", max_rank=PUBLIC)
    assert mixed.has_term("floor", max_rank=PARTNER)
    assert not mixed.has_term("price", max_rank=PARTNER)
    assert mixed.has_term("price", max_rank=INTERNAL)


def test_document_frequency_counts_only_the_tiers_documents():
    docs = [("p1", "public", ["refund", "day"]), ("p2", "public", ["refund"]), ("x1", "partner", ["refund", "floor"])]
    index = Bm25Index.build(docs)

    assert index.document_frequency("refund", max_rank=PUBLIC) == 2
    assert index.document_frequency("refund", max_rank=PARTNER) == 3
    assert index.document_frequency("floor", max_rank=PUBLIC) == 0
    assert index.document_frequency("absent", max_rank=INTERNAL) == 0


def test_partner_tier_sees_partner_documents_with_statistics_over_public_and_partner():
    docs = [("p1", "public", ["refund", "day"]), ("p2", "public", ["upload"]), ("x1", "partner", ["refund", "floor"]),
            ("i1", "internal", ["refund", "refund"])]
    index = Bm25Index.build(docs)
    expected = reference_scores([d[2] for d in docs[:3]], ["refund", "floor"])
    scores = index.scores(["refund", "floor"], max_rank=PARTNER)
    assert set(scores) == {"p1", "x1"}
    assert_same(np.array([scores.get(c, 0.0) for c in ("p1", "p2", "x1")]), expected)
    assert index.search(["floor"], max_rank=PARTNER, k=3)[0].chunk_id == "x1"
    assert index.search(["floor"], max_rank=PUBLIC, k=3) == []


def test_ties_are_broken_by_chunk_id_whatever_the_input_order():
    docs = [(f"tie-c{i}", "public", ["same", "words"]) for i in (3, 1, 4, 0, 2)] + [("zz", "public", ["other"] * 3)]
    index = Bm25Index.build(docs)
    hits = index.search(["same"], max_rank=PUBLIC, k=3)
    assert [hit.chunk_id for hit in hits] == ["tie-c0", "tie-c1", "tie-c2"]
    assert len({hit.score for hit in hits}) == 1


def test_ties_across_audiences_still_break_by_chunk_id():
    docs = [
        ("b", "public", ["x", "y"]), ("a", "internal", ["x", "y"]), ("c", "partner", ["x", "y"]), ("d", "public", ["z"])
    ]
    hits = Bm25Index.build(docs).search(["x"], max_rank=INTERNAL, k=10)
    assert [hit.chunk_id for hit in hits] == ["a", "b", "c"]


@settings(max_examples=60, deadline=None)
@given(
    picks=st.lists(st.integers(0, 59), min_size=1, max_size=40, unique=True),
    one_rank=st.booleans(),
    distinct=st.integers(1, 4),
    k=st.integers(1, 12),
    seed=st.integers(0, 2**32 - 1),
)
def test_ordering_few_ascending_candidates_by_a_python_sort_equals_the_lexsort_with_ties(
    picks, one_rank, distinct, k, seed
):
    # chunk ids in an order of their own within each audience, so document numbers and chunk ids differ in order
    rng = np.random.default_rng(seed)
    names = rng.permutation(60).tolist()
    docs = [(f"c{names[i]:02d}", AUDIENCES[i % 3], ["w"]) for i in range(60)]
    index = Bm25Index.build(docs)
    if one_rank:  # all among the partner documents (numbers 20-39), the Python sort's case; else any rank
        picks = sorted({20 + pick % 20 for pick in picks})
    candidates = np.array(sorted(picks), dtype=np.int64)
    values = rng.integers(1, distinct + 1, size=candidates.size).astype(np.float64) / 2  # many ties
    by_lexsort = index._ordered(candidates, values, k)
    assert index._ordered(candidates, values, k, ascending=True) == by_lexsort
    order = sorted(range(candidates.size), key=lambda j: (-values[j], index.chunk_ids[candidates[j]]))[:k]
    assert [hit.chunk_id for hit in by_lexsort] == [index.chunk_ids[candidates[j]] for j in order]


def test_zero_scores_are_never_returned_and_k_is_respected():
    docs = [(f"d{i:02d}", "public", ["common"] + (["rare"] if i % 3 == 0 else [])) for i in range(30)]
    index = Bm25Index.build(docs)
    hits = index.search(["rare"], max_rank=PUBLIC, k=50)
    assert [hit.chunk_id for hit in hits] == [f"d{i:02d}" for i in range(0, 30, 3)]
    assert all(hit.score != 0 for hit in hits)
    assert len(index.search(["rare", "common"], max_rank=PUBLIC, k=4)) == 4
    assert index.search(["rare"], max_rank=PUBLIC, k=0) == []
    assert index.search(["absent"], max_rank=PUBLIC, k=5) == []


def test_top_k_on_a_large_corpus_equals_a_full_sort():
    rng = np.random.default_rng(7)
    docs = [[f"w{int(w)}" for w in rng.zipf(1.3, size=int(rng.integers(5, 40))) % 300] for _ in range(3000)]
    index, chunk_ids = public_index(docs)
    for _ in range(20):
        query = [f"w{int(w) % 300}" for w in rng.zipf(1.3, size=4)]
        full = our_scores(index, chunk_ids, query, PUBLIC)
        order = [i for i in np.lexsort((np.arange(full.size), -full)) if full[i] != 0][:10]
        assert [hit.chunk_id for hit in index.search(query, max_rank=PUBLIC, k=10)] == [chunk_ids[i] for i in order]


def test_empty_index_and_empty_tiers_return_nothing():
    empty = Bm25Index.build([])
    assert empty.search(["x"], max_rank=INTERNAL, k=5) == [] and empty.doc_count(max_rank=INTERNAL) == 0
    internal_only = Bm25Index.build([("i1", "internal", ["x"])])
    assert internal_only.search(["x"], max_rank=PUBLIC, k=5) == []
    assert internal_only.doc_count(max_rank=PUBLIC) == 0


def test_duplicate_chunk_ids_and_bad_ranks_are_rejected():
    with pytest.raises(ValueError):
        Bm25Index.build([("a", "public", ["x"]), ("a", "public", ["y"])])
    with pytest.raises(ValueError):
        Bm25Index.build([("a", "public", ["x"])]).search(["x"], max_rank=3, k=1)


def test_memory_bytes_grows_with_the_corpus():
    small, _ = public_index([["a", "b"]] * 10)
    large, _ = public_index([["a", "b", "c"]] * 1000)
    assert 0 < small.memory_bytes() < large.memory_bytes()


def test_hits_equal_hash_and_print_as_hits_made_by_the_constructor():
    index, chunk_ids = public_index(CORPUS)
    hits = index.search(["refund", "day"], max_rank=PUBLIC, k=3)
    remade = [Hit(hit.chunk_id, hit.score) for hit in hits]
    assert hits == remade and [hash(hit) for hit in hits] == [hash(hit) for hit in remade]
    assert [repr(hit) for hit in hits] == [repr(hit) for hit in remade]
    with pytest.raises(AttributeError):  # still frozen
        hits[0].score = 0.0  # type: ignore[misc]


def zipf_corpus(seed: int) -> tuple[np.random.Generator, list[str], np.ndarray, list[list[str]]]:
    """2,000 documents over 400 words drawn Zipf-like, with the generator left to draw queries from the same words."""
    rng = np.random.default_rng(seed)
    vocabulary = [f"w{i}" for i in range(400)]
    pick = 1 / np.arange(1, 401) ** 1.1
    pick /= pick.sum()
    docs = [[vocabulary[j] for j in rng.choice(400, size=int(rng.integers(20, 60)), p=pick)] for _ in range(2000)]
    return rng, vocabulary, pick, docs


def test_pruned_search_over_columns_and_runs_of_terms_gives_rank_bm25s_exact_top_10():
    rng, vocabulary, pick, docs = zipf_corpus(3)
    index, chunk_ids = public_index(docs)
    assert index._columns  # the commonest words have a code per document
    reference = BM25Okapi(docs)
    for _ in range(60):
        query = [vocabulary[j] for j in rng.choice(400, size=int(rng.integers(2, 9)), p=pick)]
        query += query[:1]  # a repeated term, and terms of every kind in query order around the columns
        scores = reference.get_scores(query)
        order = np.lexsort((np.arange(len(docs)), -scores))[:10]
        expected = [Hit(chunk_ids[i], float(scores[i])) for i in order.tolist() if scores[i] != 0]
        assert index.search(query, max_rank=PUBLIC, k=10, prune_from=0) == expected  # ids and exact floats


def test_a_column_term_repeated_around_other_terms_adds_its_products_once_per_repeat():
    rng, vocabulary, pick, docs = zipf_corpus(7)
    index, chunk_ids = public_index(docs)
    reference = BM25Okapi(docs)
    common = [term for term in vocabulary[:10] if index.term_ids[term] in index._columns]
    assert len(common) >= 2
    for _ in range(30):
        rare = [vocabulary[j] for j in rng.choice(400, size=3, p=pick)]
        # the same column term three times, apart and side by side, among other terms
        query = [common[0], rare[0], common[1], common[0], rare[1], common[0], rare[2]]
        scores = reference.get_scores(query)
        order = np.lexsort((np.arange(len(docs)), -scores))[:10]
        expected = [Hit(chunk_ids[i], float(scores[i])) for i in order.tolist() if scores[i] != 0]
        for prune_from in (0, 10**9):
            assert index.search(query, max_rank=PUBLIC, k=10, prune_from=prune_from) == expected


def test_column_terms_with_one_idf_share_one_products_table_counted_once_in_memory():
    _, vocabulary, _, docs = zipf_corpus(9)
    index, _ = public_index(docs)
    tier = index._tiers[PUBLIC]
    floored = [term for term in vocabulary[:20] if index.term_ids[term] in index._columns
               and tier.idf[index.term_ids[term]] == tier.idf[index.term_ids[vocabulary[0]]]]
    assert len(floored) >= 2  # the commonest terms (in over half the documents) all have the floor idf
    before = index.memory_bytes()
    index.search(floored, max_rank=PUBLIC, k=10)
    terms = [tier.scoring[term] for term in floored]
    assert all(term is not None and term.scaled is not None for term in terms)
    tables = {id(term.scaled.base) for term in terms if term is not None and term.scaled is not None}
    assert len(tables) == 1 and len(tier.scaled) == 1
    table = next(iter(tier.scaled.values()))
    assert index.memory_bytes() - before == table.nbytes
    for term in terms:  # each view is its own idf times the tier's tf parts up to its largest tf
        assert term is not None and term.scaled is not None
        np.testing.assert_array_equal(term.scaled, term.idf * tier.tf_part[: term.scaled.size])


def test_every_search_path_adds_query_terms_in_query_order_bit_for_bit():
    rng, vocabulary, pick, docs = zipf_corpus(5)
    index, chunk_ids = public_index(docs)
    reference = BM25Okapi(docs)
    order_sensitive = 0
    for _ in range(40):
        query = [vocabulary[j] for j in rng.choice(400, size=int(rng.integers(3, 9)), p=pick)]
        scores = reference.get_scores(query)
        backwards = np.zeros(len(docs))
        for term in reversed(query):  # the same products, added last term first
            backwards = backwards + reference.get_scores([term])
        order = np.lexsort((np.arange(len(docs)), -scores))[:10]
        expected = [Hit(chunk_ids[i], float(scores[i])) for i in order.tolist() if scores[i] != 0]
        order_sensitive += any(backwards[i] != scores[i] for i in order.tolist())
        for prune_from in (0, 10**9):  # pruned wherever sound, and never: the exhaustive and sparse paths
            assert index.search(query, max_rank=PUBLIC, k=10, prune_from=prune_from) == expected
    assert order_sensitive >= 10  # a top 10 summed in another order would differ in its last bits
