import pytest

from answers.pipeline.retrieve.bm25 import Hit
from answers.pipeline.retrieve.hybrid import FusionConfig, fuse_rankings


def hits(*pairs) -> list[Hit]:
    return [Hit(chunk_id, score) for chunk_id, score in pairs]


def test_a_chunk_both_rankings_place_high_comes_first():
    fused = fuse_rankings(hits(("a", 9.0), ("b", 5.0), ("c", 4.0)), hits(("b", 0.9), ("d", 0.8), ("a", 0.1)), k=4)
    assert [hit.chunk_id for hit in fused][:2] == ["b", "a"]


def test_a_chunk_only_dense_finds_is_still_retrieved():
    fused = fuse_rankings(hits(("a", 9.0), ("b", 5.0)), hits(("backups", 0.7)), k=3)
    assert "backups" in [hit.chunk_id for hit in fused]


def test_scores_keep_the_bm25_scale_for_the_gate():
    fused = fuse_rankings(hits(("a", 9.0), ("b", 5.0)), hits(("a", 0.9), ("b", 0.8)), k=2)
    assert fused[0] == Hit("a", pytest.approx(9.0))
    assert 0 < fused[1].score < 9.0


def test_nothing_lexical_gives_no_positive_score():
    fused = fuse_rankings([], hits(("x", 0.9), ("y", 0.5)), k=2)
    assert [hit.chunk_id for hit in fused] == ["x", "y"]
    assert all(hit.score <= 0 for hit in fused)
    assert fused[0].score > fused[1].score


def test_weight_one_is_bm25_order_and_ties_break_by_chunk_id():
    config = FusionConfig(bm25_weight=1.0)
    assert [h.chunk_id for h in fuse_rankings(hits(("b", 2.0), ("a", 1.0)), hits(("z", 1.0)), k=3, config=config)][:2] \
        == ["b", "a"]
    tied = fuse_rankings(hits(("b", 2.0)), hits(("a", 1.0)), k=2)  # rank 1 on one side each, equal weights
    assert [hit.chunk_id for hit in tied] == ["a", "b"]


def test_depth_limits_each_side():
    deep = hits(*((f"c{i:02d}", 10.0 - i / 10) for i in range(20)))
    fused = fuse_rankings(deep, [], k=20, config=FusionConfig(depth=5))
    assert len(fused) == 5
    assert fuse_rankings(deep, [], k=0) == []


def test_kept_bm25_hits_come_first_with_their_bm25_scores():
    lexical = hits(("a", 9.0), ("b", 5.0), ("c", 4.0))
    dense = hits(("x", 0.9), ("y", 0.8), ("c", 0.7))
    fused = fuse_rankings(lexical, dense, k=5, config=FusionConfig(keep_bm25=2))
    assert fused[:2] == [Hit("a", 9.0), Hit("b", 5.0)]
    assert [hit.chunk_id for hit in fused[2:]] == ["c", "x", "y"]  # c is on both sides
    scores = [hit.score for hit in fused]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == len(scores)  # assembly keeps this order
    assert fused[2].score < 5.0


def test_without_keep_a_strong_dense_side_displaces_bm25s_first_hit():
    lexical = hits(("a", 9.0), ("b", 5.0), ("c", 4.0))
    dense = hits(("b", 0.9), ("c", 0.8), ("x", 0.7))
    assert fuse_rankings(lexical, dense, k=3)[0].chunk_id == "b"
    assert fuse_rankings(lexical, dense, k=3, config=FusionConfig(keep_bm25=1))[0].chunk_id == "a"


def test_a_dense_hit_under_the_floor_adds_nothing():
    lexical = hits(("a", 9.0), ("b", 5.0))
    dense = hits(("strong", 0.62), ("weak", 0.41))
    found = [hit.chunk_id for hit in fuse_rankings(lexical, dense, k=4, config=FusionConfig(dense_floor=0.5))]
    assert "strong" in found and "weak" not in found
    assert "weak" in [hit.chunk_id for hit in fuse_rankings(lexical, dense, k=4)]


def test_a_kept_hit_needs_a_positive_bm25_score():
    fused = fuse_rankings(hits(("a", 0.0)), hits(("x", 0.9)), k=2, config=FusionConfig(keep_bm25=1))
    assert all(hit.score <= 0 for hit in fused)
