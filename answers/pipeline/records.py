"""What the pipeline knows about a chunk: plain data handed over by the corpus selector."""
import datetime as dt
from dataclasses import dataclass

AUDIENCE_RANK = {"public": 0, "partner": 1, "internal": 2}


@dataclass(frozen=True)
class SentenceSpan:
    """One sentence of a chunk's text as split at ingestion: character offsets into the text, its line in the
    original file, whether it is written as an instruction (§2.8: never evidence), and for a sentence of a list item
    the list's kind ("ordered" or "unordered"; "" for none, and for chunks stored before lists were marked) and the
    item's first line, which the sentences of one item share."""

    start: int
    end: int
    line: int
    instruction: bool = False
    list_item: str = ""
    item: int = 0


@dataclass(frozen=True)
class ChunkRecord:
    """One served chunk with the source facts a citation shows."""

    chunk_id: str
    source_id: int
    source_title: str
    original_name: str
    audience: str
    updated_on: dt.date | None
    heading_path: tuple[str, ...]
    line_start: int
    line_end: int
    text: str
    token_count: int
    fingerprint: str
    source_path: str = ""
    page: int | None = None
    sentences: tuple[SentenceSpan, ...] = ()  # empty for chunks written before sentences were stored

    def __hash__(self) -> int:
        """Hashed by id and text (a str keeps its hash), not every field: the verifier's caches are keyed by records,
        looked up for each sentence and block, and equal records still hash alike."""
        return hash((self.chunk_id, self.text))


def indexed_text(record: ChunkRecord) -> str:
    """What BM25 indexes for a chunk: its source title, heading path and text."""
    return "\n".join((record.source_title, *record.heading_path, record.text))
