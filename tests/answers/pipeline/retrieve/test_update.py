"""Incremental BM25 updates: an index with chunks removed and added scores and ranks as one built afresh."""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answers.pipeline.retrieve.bm25 import Bm25Index
from answers.pipeline.retrieve.update import updated_index
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

tiered_docs = st.lists(
    st.tuples(st.sampled_from(AUDIENCES), st.lists(words, min_size=0, max_size=10)), min_size=0, max_size=20
)


@settings(max_examples=150, deadline=None)
@given(before=tiered_docs, added=tiered_docs, drop=st.lists(st.booleans(), max_size=20), query=queries)
def test_an_index_with_changes_scores_and_ranks_as_one_built_afresh(before, added, drop, query):
    old = {f"c{i:03d}": doc for i, doc in enumerate(before)}
    removed = [chunk_id for chunk_id, gone in zip(old, drop, strict=False) if gone]  # drop may be shorter
    new = {f"n{i:03d}": doc for i, doc in enumerate(added)}
    after = {**{c: d for c, d in old.items() if c not in removed}, **new}

    changed = updated_index(
        Bm25Index.build((c, a, t) for c, (a, t) in old.items()),
        removed=removed, added=[(c, a, t) for c, (a, t) in new.items()],
    )
    fresh = Bm25Index.build((c, a, t) for c, (a, t) in after.items())

    assert len(changed) == len(after)
    for max_rank in (PUBLIC, PARTNER, INTERNAL):
        assert changed.doc_count(max_rank=max_rank) == fresh.doc_count(max_rank=max_rank)
        ours, theirs = changed.scores(query, max_rank=max_rank), fresh.scores(query, max_rank=max_rank)
        # abs_tol: an average idf that is 0 in exact arithmetic may come out as 0.0 in one summation order and
        # ~1e-17 in the other, and a zero score is not returned.
        for chunk_id in ours.keys() | theirs.keys():
            assert math.isclose(ours.get(chunk_id, 0.0), theirs.get(chunk_id, 0.0), rel_tol=1e-9, abs_tol=1e-12)
        for term in query:
            assert changed.has_term(term, max_rank=max_rank) == fresh.has_term(term, max_rank=max_rank)
        top = [hit.chunk_id for hit in changed.search(query, max_rank=max_rank, k=5) if abs(hit.score) > 1e-9]
        assert top == [hit.chunk_id for hit in fresh.search(query, max_rank=max_rank, k=5) if abs(hit.score) > 1e-9]


@pytest.mark.parametrize(
    "added",
    [
        [("new-c01", "public", ["refund"] * 3 + ["day"] * 40)],  # longer than any chunk so far: every pair recoded
        [("new-c01", "public", ["refund", "day"])],  # fits the (tf, length) table: only the new pairs are coded
    ],
)
@pytest.mark.parametrize("long_document", [False, True])  # True: a (tf, length) grid too big to keep dense
def test_changes_code_new_postings_as_a_fresh_build_would(added, long_document):
    docs = {f"doc-c{i:05d}": ("public", tokens) for i, tokens in enumerate(CORPUS)}
    if long_document:
        docs["long-c01"] = ("partner", ["refund"] * 1100 + ["filler"] * 1000)
    index = Bm25Index.build((c, a, t) for c, (a, t) in docs.items())

    changed = updated_index(index, removed=["doc-c00001"], added=added)
    fresh = Bm25Index.build(
        [(c, a, t) for c, (a, t) in docs.items() if c != "doc-c00001"] + list(added)
    )

    for max_rank in (PUBLIC, PARTNER):
        for query in (["refund"], ["day", "refund"], ["filler"]):
            ours, theirs = changed.scores(query, max_rank=max_rank), fresh.scores(query, max_rank=max_rank)
            assert ours.keys() == theirs.keys()
            assert all(math.isclose(ours[c], theirs[c], rel_tol=1e-9) for c in ours)


def test_an_added_chunk_id_already_held_is_refused():
    index, chunk_ids = public_index(CORPUS)
    with pytest.raises(ValueError, match="unique"):
        updated_index(index, removed=[], added=[(chunk_ids[0], "public", ["again"])])


def test_removing_a_chunk_the_index_does_not_hold_is_refused():
    index, _ = public_index(CORPUS)
    with pytest.raises(ValueError, match="does not hold"):
        updated_index(index, removed=["nowhere-c01"], added=[])


@settings(max_examples=200, deadline=None)
@given(
    array=st.lists(st.integers(min_value=0, max_value=1000), max_size=30),
    inserts=st.lists(st.tuples(st.integers(min_value=0, max_value=30), st.integers(min_value=0, max_value=9)),
                     max_size=12),
)
def test_insert_sorted_equals_numpy_insert(array, inserts):
    import numpy as np

    from answers.pipeline.retrieve.update import _insert_sorted

    values = np.array(array, dtype=np.int32)
    inserts = sorted((min(position, len(array)), value) for position, value in inserts)
    positions = np.array([position for position, _ in inserts], dtype=np.int64)
    new = np.array([value for _, value in inserts], dtype=np.int32)
    assert _insert_sorted(values, positions, new).tolist() == np.insert(values, positions, new).tolist()
