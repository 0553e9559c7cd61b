import dataclasses
import itertools

import pytest

from answers.pipeline.assemble import assemble_blocks
from answers.pipeline.config import PipelineConfig
from answers.pipeline.types import Retrieved

_sources = itertools.count(100)


@pytest.fixture
def hit(make_record):
    """A retrieved chunk of `tokens` words; each from its own source unless told."""

    def _hit(chunk_id: str, score: float, *, tokens: int = 10, source_id: int | None = None, **fields) -> Retrieved:
        text = " ".join(f"{chunk_id}w{i}" for i in range(tokens))
        source_id = next(_sources) if source_id is None else source_id
        return Retrieved(record=make_record(chunk_id, text=text, source_id=source_id, **fields), score=score)

    return _hit


def assemble(retrieved, **config):
    return assemble_blocks(retrieved, config=PipelineConfig(**config))  # make_record: one token per word


def ids(assembly) -> list[str]:
    return [block.record.chunk_id for block in assembly.blocks]


def test_chunk_over_the_budget_is_skipped_and_a_smaller_later_one_still_fits(hit) -> None:
    assembly = assemble(
        [hit("big", 3.0, tokens=60), hit("bigger", 2.0, tokens=50), hit("small", 1.0, tokens=30)],
        context_tokens=100,
    )
    assert ids(assembly) == ["big", "small"]
    assert assembly.skipped == (("bigger", "over the token budget (50 tokens, 40 left)"),)
    assert assembly.tokens_used == 90


def test_chunk_exactly_filling_what_is_left_is_taken(hit) -> None:
    assembly = assemble([hit("a", 2.0, tokens=60), hit("b", 1.0, tokens=40)], context_tokens=100)
    assert ids(assembly) == ["a", "b"]
    assert assembly.tokens_used == 100


def test_chunk_whose_fingerprint_was_taken_is_skipped_as_duplicate(hit) -> None:
    retrieved = [hit("first", 3.0, fingerprint="same"), hit("copy", 2.0, fingerprint="same"), hit("other", 1.0)]
    assembly = assemble(retrieved)
    assert sorted(ids(assembly)) == ["first", "other"]
    assert assembly.skipped == (("copy", "duplicate of first"),)


@pytest.mark.parametrize(
    ("per_source", "taken"),
    [
        (1, ["s1-a", "s2-a"]),
        (2, ["s1-a", "s1-b", "s2-a"]),
        (3, ["s1-a", "s1-b", "s1-c", "s2-a"]),
    ],
)
def test_per_source_cap_holds(hit, per_source: int, taken: list[str]) -> None:
    retrieved = [
        hit("s1-a", 5.0, source_id=1),
        hit("s1-b", 4.0, source_id=1),
        hit("s1-c", 3.0, source_id=1),
        hit("s2-a", 2.0, source_id=2),
    ]
    assembly = assemble(retrieved, per_source=per_source)
    assert sorted(ids(assembly)) == taken
    assert assembly.skipped == tuple((chunk_id, "per-source cap") for chunk_id in ["s1-b", "s1-c"][per_source - 1 :])


@pytest.mark.parametrize("max_blocks", [1, 3, 5])
def test_block_limit_holds(hit, max_blocks: int) -> None:
    retrieved = [hit(f"c{rank}", 10.0 - rank) for rank in range(7)]
    assembly = assemble(retrieved, max_blocks=max_blocks, context_tokens=1000)
    assert sorted(ids(assembly)) == [f"c{rank}" for rank in range(max_blocks)]
    assert assembly.skipped == tuple((f"c{rank}", "block limit") for rank in range(max_blocks, 7))


@pytest.mark.parametrize(
    ("count", "presented"),
    [
        (1, [1]),
        (2, [1, 2]),
        (3, [1, 3, 2]),
        (4, [1, 3, 4, 2]),
        (5, [1, 3, 5, 4, 2]),
    ],
)
def test_best_blocks_are_placed_at_both_ends_and_numbered_in_that_order(hit, count: int, presented: list[int]) -> None:
    retrieved = [hit(f"rank{rank}", 10.0 - rank) for rank in range(1, count + 1)]
    assembly = assemble(list(reversed(retrieved)))
    assert [(block.number, block.record.chunk_id) for block in assembly.blocks] == [
        (number, f"rank{rank}") for number, rank in enumerate(presented, start=1)
    ]
    assert [block.text for block in assembly.blocks] == [block.record.text for block in assembly.blocks]
    assert [block.score for block in assembly.blocks] == [10.0 - rank for rank in presented]


def test_equal_scores_rank_by_chunk_id(hit) -> None:
    assembly = assemble([hit("c", 1.0), hit("a", 1.0), hit("b", 1.0)], max_blocks=2)
    assert ids(assembly) == ["a", "b"]
    assert assembly.skipped == (("c", "block limit"),)


def test_tokens_used_and_every_skip_are_recorded_in_rank_order(hit) -> None:
    retrieved = [
        hit("a", 6.0, tokens=30, source_id=1),
        hit("b", 5.0, tokens=30, source_id=1, fingerprint="fingerprint-a"),
        hit("c", 4.0, tokens=30, source_id=1),
        hit("d", 3.0, tokens=30, source_id=1),
        hit("e", 2.0, tokens=80, source_id=2),
        hit("f", 1.0, tokens=20, source_id=3),
    ]
    assembly = assemble(retrieved, context_tokens=100, per_source=2, max_blocks=3)
    assert sorted(ids(assembly)) == ["a", "c", "f"]
    assert assembly.tokens_used == 80
    assert assembly.skipped == (
        ("b", "duplicate of a"),
        ("d", "per-source cap"),
        ("e", "over the token budget (80 tokens, 40 left)"),
    )


def test_nothing_retrieved_assembles_nothing() -> None:
    assembly = assemble([])
    assert (assembly.blocks, assembly.tokens_used, assembly.skipped) == ((), 0, ())


def test_the_budget_spends_each_chunks_stored_token_count(make_record) -> None:
    record = dataclasses.replace(make_record("c1", text="hello world"), token_count=8)  # as counted at ingest

    assembly = assemble_blocks([Retrieved(record=record, score=1.0)], config=PipelineConfig())

    assert assembly.tokens_used == 8
