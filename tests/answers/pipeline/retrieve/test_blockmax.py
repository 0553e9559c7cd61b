"""Block-max pruning: per-block bounds that skip blocks and tighten bounds, and the same top k as scoring everything."""
from contextlib import contextmanager
from unittest.mock import patch

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from answers.pipeline.retrieve import blockmax, bm25
from answers.pipeline.retrieve.bm25 import Bm25Index
from answers.pipeline.retrieve.update import updated_index
from tests.answers.pipeline.retrieve.helpers import AUDIENCES, PUBLIC

EXHAUSTIVE = 10**12  # a prune_from no query reaches

# Few distinct words: many documents tie, and common words sit in most blocks while rare ones sit in few.
tied_words = st.integers(min_value=0, max_value=30).map(lambda n: f"t{n * n // 60}")
tiered_docs = st.lists(
    st.tuples(st.sampled_from(AUDIENCES), st.lists(tied_words, min_size=1, max_size=10)), min_size=1, max_size=80
)
queries = st.lists(st.integers(min_value=0, max_value=34).map(lambda n: f"t{n * n // 60}"), min_size=1, max_size=6)


@contextmanager
def small_blocks(shift: int = 1):
    """Blocks of 2**shift documents and a table for every term, so that small corpora take the block-max path."""
    with (
        patch.object(blockmax, "BLOCK_SHIFT", shift),
        patch.object(bm25, "BLOCK_SHIFT", shift),
        patch.object(blockmax, "MIN_SHARE", 10**9),
    ):
        yield


def test_each_block_bounds_its_terms_largest_tf_and_shortest_document():
    docs = [["a"] * 3 + ["b"], ["a"], ["b"] * 2 + ["c"] * 5, ["a", "c"], ["c"]]
    with small_blocks(shift=1):
        index = Bm25Index.build((f"d{i}", "public", tokens) for i, tokens in enumerate(docs))
    stride = int(index.pair_length[-1]) + 1
    found = {index.terms[t]: [(c // stride, c % stride) for c in table.tolist()] for t, table in index._blocks.items()}
    # blocks of two documents: (0, 1), (2, 3), (4,); a code of 0 (tf 0) where the term is absent
    assert found["a"] == [(3, 1), (1, 2), (0, 0)]
    assert found["b"] == [(1, 4), (2, 7), (0, 0)]
    assert found["c"] == [(0, 0), (5, 2), (1, 1)]


@settings(max_examples=200, deadline=None)
@given(docs=tiered_docs, query=queries, k=st.integers(min_value=1, max_value=10), shift=st.integers(0, 3))
def test_block_max_search_equals_exhaustive_scoring_in_every_tier(docs, query, k, shift):
    chunk_ids = [f"c{i:03d}" for i in range(len(docs))]
    with small_blocks(shift):
        index = Bm25Index.build((c, audience, tokens) for c, (audience, tokens) in zip(chunk_ids, docs, strict=True))
        for max_rank in range(len(AUDIENCES)):
            exhaustive = index.search(query, max_rank=max_rank, k=k, prune_from=EXHAUSTIVE)
            assert index.search(query, max_rank=max_rank, k=k, prune_from=0) == exhaustive  # ids and exact floats


@settings(max_examples=80, deadline=None)
@given(docs=tiered_docs, query=queries, drop=st.integers(min_value=0, max_value=79))
def test_block_max_search_of_an_updated_index_equals_exhaustive_scoring(docs, query, drop):
    chunk_ids = [f"c{i:03d}" for i in range(len(docs))]
    with small_blocks():
        index = Bm25Index.build((c, audience, tokens) for c, (audience, tokens) in zip(chunk_ids, docs, strict=True))
        changed = updated_index(
            index, removed=chunk_ids[drop % len(docs) :: 3], added=[("z-new", "public", query + ["t0"])]
        )
        for max_rank in range(len(AUDIENCES)):
            exhaustive = changed.search(query, max_rank=max_rank, k=5, prune_from=EXHAUSTIVE)
            assert changed.search(query, max_rank=max_rank, k=5, prune_from=0) == exhaustive


def test_zipfian_queries_skip_blocks_and_some_need_no_document_outside_their_seed(monkeypatch):
    outcomes = {"no live block": 0, "some blocks skipped": 0}
    in_live_blocks = Bm25Index._in_live_blocks

    def spy(self, scoring, tier, seeded):
        found = in_live_blocks(self, scoring, tier, seeded)
        if found is None:
            outcomes["no live block"] += 1
        elif found[1] is not None and not found[1].all():
            outcomes["some blocks skipped"] += 1
        return found

    monkeypatch.setattr(Bm25Index, "_in_live_blocks", spy)
    rng = np.random.default_rng(7)
    vocabulary = np.array([f"w{i}" for i in range(1500)])
    pick = 1 / np.arange(1, 1501) ** 1.1
    pick /= pick.sum()
    audiences = rng.choice(3, size=3000, p=[0.8, 0.15, 0.05])
    docs = [(f"d{i:05d}", int(audiences[i]), vocabulary[rng.choice(1500, size=int(rng.integers(20, 80)), p=pick)]
             .tolist()) for i in range(3000)]
    with small_blocks(shift=4):
        index = Bm25Index.build(docs)
        for _ in range(120):
            query = vocabulary[rng.choice(1500, size=int(rng.integers(2, 8)), p=pick)].tolist()
            for max_rank in (PUBLIC, 2):
                exhaustive = index.search(query, max_rank=max_rank, k=10, prune_from=EXHAUSTIVE)
                assert index.search(query, max_rank=max_rank, k=10, prune_from=0) == exhaustive
    assert outcomes["no live block"] > 0 and outcomes["some blocks skipped"] > 0, outcomes
