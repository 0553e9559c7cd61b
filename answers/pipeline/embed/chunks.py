"""What is embedded for a chunk: the text BM25 indexes (its source title, heading path and text) and each of its
sentences that may be evidence (never one flagged as an instruction, §2.8)."""
from collections.abc import Sequence

from answers.pipeline.records import ChunkRecord, SentenceSpan, indexed_text


def chunk_embedding_text(title: str, heading_path: Sequence[str], text: str) -> str:
    """A chunk's embedded text from its parts, as `indexed_text` joins them for a stored record."""
    return "\n".join((title, *heading_path, text))


def sentence_texts(text: str, sentences: Sequence[SentenceSpan]) -> list[str]:
    """The chunk's sentences to embed, in order, each once: instructions and empty spans left out."""
    found = (" ".join(text[span.start : span.end].split()) for span in sentences if not span.instruction)
    return list(dict.fromkeys(sentence for sentence in found if sentence))


def record_texts(record: ChunkRecord) -> list[str]:
    """A stored chunk's embedded texts: its whole text first, then its sentences."""
    return [indexed_text(record), *sentence_texts(record.text, record.sentences)]
