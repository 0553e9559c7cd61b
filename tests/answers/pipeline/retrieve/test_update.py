"""Incremental BM25 updates: an index with chunks removed and added scores and ranks as one built afresh."""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

from answers.pipeline.retrieve.bm25 import Bm25Index
from answers.pipeline.retrieve.update import merged, updated_index
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


step = st.tuples(
    st.lists(st.booleans(), max_size=25),  # which of the current chunks (in id order) the step removes
    st.lists(st.tuples(st.sampled_from(AUDIENCES), st.lists(words, min_size=0, max_size=10)), max_size=6),
    st.booleans(),  # whether the added chunks take the removed chunks' ids (a source read again) or new ones
)


def _floored(docs: list[list[str]], query: list[str]) -> bool:
    """Whether a query term is in more than half of these documents (rank-bm25's epsilon floor applies)."""
    return any(2 * sum(term in doc for doc in docs) > len(docs) for term in query)


@settings(max_examples=120, deadline=None)
@given(
    before=tiered_docs,
    steps=st.lists(step, min_size=1, max_size=4),
    merge_from=st.sampled_from([1, 6, 4096]),  # merge at every step, now and then, or never
    query=queries,
)
def test_after_a_sequence_of_updates_hits_and_scores_are_a_fresh_builds_and_rank_bm25s(
    before, steps, merge_from, query
):
    current = {f"c{i:03d}": doc for i, doc in enumerate(before)}
    index = Bm25Index.build((c, a, t) for c, (a, t) in current.items())
    for number, (drop, added, reuse) in enumerate(steps):
        removed = [chunk_id for chunk_id, gone in zip(sorted(current), drop, strict=False) if gone]
        ids = removed + [f"s{number}-{j:02d}" for j in range(len(added))] if reuse else None
        new = {(ids[j] if ids else f"s{number}-{j:02d}"): doc for j, doc in enumerate(added)}
        index = updated_index(
            index, removed=removed, added=[(c, a, t) for c, (a, t) in new.items()], merge_from=merge_from
        )
        current = {**{c: d for c, d in current.items() if c not in removed}, **new}
    fresh = Bm25Index.build((c, a, t) for c, (a, t) in current.items())

    assert len(index) == len(current)
    for max_rank in (PUBLIC, PARTNER, INTERNAL):
        seen = sorted((AUDIENCES.index(a), c) for c, (a, _) in current.items() if AUDIENCES.index(a) <= max_rank)
        docs = [current[c][1] for _, c in seen]
        assert index.doc_count(max_rank=max_rank) == fresh.doc_count(max_rank=max_rank) == len(docs)
        ours, theirs = index.scores(query, max_rank=max_rank), fresh.scores(query, max_rank=max_rank)
        if not _floored(docs, query):  # idf and tf parts from the same N, avgdl and df: the same bits
            assert ours == theirs
        assert ours.keys() == theirs.keys() or _floored(docs, query)
        reference = BM25Okapi(docs).get_scores(query) if docs and any(docs) else [0.0] * len(docs)
        for (_, chunk_id), expected in zip(seen, list(reference), strict=True):
            # abs_tol: the epsilon floor's average idf is summed in term-number order, which an update keeps
            assert math.isclose(ours.get(chunk_id, 0.0), expected, rel_tol=1e-9, abs_tol=1e-12)
        for term in query:
            assert index.has_term(term, max_rank=max_rank) == fresh.has_term(term, max_rank=max_rank)
        for prune_from in (0, 20_000):
            hits = index.search(query, max_rank=max_rank, k=5, prune_from=prune_from)
            expected_hits = fresh.search(query, max_rank=max_rank, k=5, prune_from=prune_from)
            if _floored(docs, query):
                hits = [hit for hit in hits if abs(hit.score) > 1e-9]
                expected_hits = [hit for hit in expected_hits if abs(hit.score) > 1e-9]
                assert [h.chunk_id for h in hits] == [h.chunk_id for h in expected_hits]
            else:
                assert hits == expected_hits


def test_an_update_keeps_the_main_segment_and_a_merge_folds_the_delta_in():
    index, chunk_ids = public_index(CORPUS)
    changed = updated_index(index, removed=[chunk_ids[0]], added=[(chunk_ids[0], "public", ["refund", "again"])])
    assert changed.post_docs is index.post_docs  # shared, not copied
    assert changed.removed.tolist() == [0] and [row[0] for row in changed.delta_rows] == [chunk_ids[0]]
    folded = merged(changed)
    assert folded.removed.size == 0 and folded.delta_rows == ()
    assert folded.scores(["refund", "again"], max_rank=PUBLIC) == changed.scores(["refund", "again"], max_rank=PUBLIC)
    again = updated_index(changed, removed=[chunk_ids[1]], added=[("x-c01", "public", ["day"])], merge_from=3)
    assert again.removed.size == 0 and again.delta_rows == () and len(again) == len(CORPUS)


@settings(max_examples=200, deadline=None)
@given(
    runs=st.lists(st.lists(st.integers(min_value=0, max_value=40), max_size=12), min_size=1, max_size=6),
    targets=st.lists(st.integers(min_value=0, max_value=45), min_size=1, max_size=5),
)
def test_binary_search_over_every_run_at_once_equals_searchsorted_per_run(runs, targets):
    import numpy as np

    from answers.pipeline.retrieve.bm25 import _first_at_least

    values = np.array([v for run in runs for v in sorted(run)], dtype=np.int32)
    sizes = np.array([len(run) for run in runs], dtype=np.int64)
    ends = np.cumsum(sizes)
    starts = ends - sizes
    found = _first_at_least(values, starts, ends, np.array(targets, dtype=np.int64))
    for row, target in enumerate(targets):
        for run, (start, end) in enumerate(zip(starts.tolist(), ends.tolist(), strict=True)):
            assert found[row, run] == start + np.searchsorted(values[start:end], target)


@pytest.mark.parametrize("pick", [range(40, 90), range(0, 300, 7)])  # a source's run; scattered: a pass
def test_removed_chunks_df_by_runs_or_by_a_pass_over_postings_agree_with_a_fresh_build(pick):
    import random

    rng = random.Random(7)
    docs = {
        f"d{i:04d}": (
            AUDIENCES[i % 3 if i % 5 == 0 else 0], [f"t{rng.randrange(40)}" for _ in range(rng.randrange(1, 15))]
        )
        for i in range(300)
    }
    index = Bm25Index.build((c, a, t) for c, (a, t) in docs.items())
    removed = [index.chunk_ids[i] for i in pick]
    changed = updated_index(index, removed=removed, added=[])
    fresh = Bm25Index.build((c, a, t) for c, (a, t) in docs.items() if c not in removed)
    for max_rank in (PUBLIC, PARTNER, INTERNAL):
        for query in (["t1", "t2", "t39"], ["t0"], [f"t{i}" for i in range(40)]):
            assert changed.scores(query, max_rank=max_rank) == fresh.scores(query, max_rank=max_rank)


def test_the_best_chunks_removed_no_longer_lift_the_pruning_threshold(monkeypatch):
    import numpy as np

    from answers.pipeline.retrieve import maxscore

    monkeypatch.setattr(maxscore, "_FEW", 0)  # narrow the candidates through every set-aside term
    rng = np.random.default_rng(5)
    vocabulary = [f"w{i}" for i in range(300)]
    pick = 1 / np.arange(1, 301) ** 1.1
    docs = {
        f"d{i:05d}": ("public", [vocabulary[j] for j in rng.choice(300, size=40, p=pick / pick.sum())])
        for i in range(3000)
    }
    index = Bm25Index.build((c, a, t) for c, (a, t) in docs.items())
    for query in (["w120", "w0", "w1", "w3"], ["w250", "w2", "w0"], ["w40", "w41", "w0", "w1", "w5"]):
        best = [hit.chunk_id for hit in index.search(query, max_rank=PUBLIC, k=20)]
        changed = updated_index(index, removed=best, added=[])
        fresh = Bm25Index.build((c, a, t) for c, (a, t) in docs.items() if c not in best)
        for prune_from in (0, 1000):
            ours = changed.search(query, max_rank=PUBLIC, k=10, prune_from=prune_from)
            theirs = fresh.search(query, max_rank=PUBLIC, k=10, prune_from=prune_from)
            assert [hit.chunk_id for hit in ours] == [hit.chunk_id for hit in theirs]
            # w0 is in most chunks: its floor's average idf is summed in another order (the last bit may differ)
            assert all(math.isclose(a.score, b.score, rel_tol=1e-12) for a, b in zip(ours, theirs, strict=True))
