"""The values that move between pipeline stages."""
from dataclasses import dataclass

from answers.pipeline.records import ChunkRecord


@dataclass(frozen=True)
class Retrieved:
    """A retrieved chunk with its BM25 score."""

    record: ChunkRecord
    score: float


@dataclass(frozen=True)
class Block:
    """An issued evidence block: number k maps to exactly one chunk.

    `text` is what the generator reads (possibly a compressed copy); verification always reads `record.text`.
    """

    number: int
    record: ChunkRecord
    score: float
    text: str


@dataclass(frozen=True)
class Assembly:
    """The numbered blocks, the tokens they use, and the chunk ids skipped with why."""

    blocks: tuple[Block, ...]
    tokens_used: int
    skipped: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class SupportSpan:
    """The words of a chunk that support a shown sentence (§2.7): one or two of its sentences as stored, as offsets
    into the chunk's text, their 1-based numbers (as the chunk page numbers them) and the quote itself."""

    start: int
    end: int
    sentences: tuple[int, ...]
    quote: str


@dataclass(frozen=True)
class Statement:
    """A quantity stated in a block: the value, its unit, the sentence it stands in and, for a conflict's side, the
    support span holding that sentence in the chunk (§2.7: the stored sentence or two, never an instruction)."""

    block: Block
    sentence: str
    value: str
    unit: str
    span: SupportSpan | None = None


@dataclass(frozen=True)
class Conflict:
    """Two blocks from different sources stating different values for the same quantity."""

    sides: tuple[Statement, Statement]
