import numpy as np
import pytest

from answers.pipeline.retrieve.dense import DenseIndex


def unit(*values: float) -> np.ndarray:
    vector = np.array(values, dtype=np.float32)
    return vector / np.linalg.norm(vector)


CHUNKS = [
    ("pub-a", "public", unit(1, 0, 0)),
    ("pub-b", "public", np.stack([unit(0, 1, 0), unit(0.9, 0.1, 0)])),  # its second row (a sentence) is close to x
    ("part-a", "partner", unit(1, 0.05, 0)),
    ("int-a", "internal", unit(1, 0, 0)),
]


def test_a_tier_scores_only_its_own_chunks():
    index = DenseIndex.build(CHUNKS, dimensions=3)
    assert [hit.chunk_id for hit in index.search(unit(1, 0, 0), max_rank=0, k=10)] == ["pub-a", "pub-b"]
    assert {hit.chunk_id for hit in index.search(unit(1, 0, 0), max_rank=2, k=10)} == {
        "pub-a", "pub-b", "part-a", "int-a"
    }


def test_a_chunk_scores_its_best_row():
    index = DenseIndex.build(CHUNKS, dimensions=3)
    [hit] = [hit for hit in index.search(unit(1, 0, 0), max_rank=0, k=10) if hit.chunk_id == "pub-b"]
    assert hit.score == pytest.approx(float(unit(0.9, 0.1, 0)[0]), abs=1e-6)


def test_public_scores_are_the_same_whatever_other_tiers_hold():
    with_others = DenseIndex.build(CHUNKS, dimensions=3)
    public_only = DenseIndex.build([chunk for chunk in CHUNKS if chunk[1] == "public"], dimensions=3)
    query = unit(0.3, 0.7, 0.1)
    assert with_others.search(query, max_rank=0, k=5) == public_only.search(query, max_rank=0, k=5)


def test_ties_break_by_chunk_id_and_k_cuts():
    index = DenseIndex.build([("b", "public", unit(1, 0)), ("a", "public", unit(1, 0)), ("c", "public", unit(0, 1))],
                             dimensions=2)
    assert [hit.chunk_id for hit in index.search(unit(1, 0), max_rank=0, k=1)] == ["a"]
    assert [hit.chunk_id for hit in index.search(unit(1, 0), max_rank=0, k=3)] == ["a", "b", "c"]


def test_updated_drops_removed_chunks_and_adds_new_ones():
    added = [("pub-c", "public", unit(0, 0, 1))]
    index = DenseIndex.build(CHUNKS, dimensions=3).updated(removed=["pub-a"], added=added)
    assert [hit.chunk_id for hit in index.search(unit(0, 0, 1), max_rank=0, k=1)] == ["pub-c"]
    assert "pub-a" not in index.chunk_ids
    assert len(index) == 4


def test_an_empty_tier_finds_nothing():
    index = DenseIndex.build([("int-a", "internal", unit(1, 0))], dimensions=2)
    assert index.search(unit(1, 0), max_rank=0, k=5) == []
    assert DenseIndex.build([], dimensions=2).search(unit(1, 0), max_rank=2, k=5) == []
