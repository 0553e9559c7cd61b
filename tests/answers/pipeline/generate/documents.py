"""Blocks built the way the site builds them: a document parsed and chunked by corpus_admin, each chunk a record."""
from answers.pipeline.records import ChunkRecord
from answers.pipeline.types import Block
from corpus_admin.chunking import chunk_document
from corpus_admin.parsing.dispatch import parse_document


def document_blocks(name: str, content: str, *, first: int = 1, score: float = 5.0) -> list[Block]:
    """Every chunk of the document as a block, numbered from `first`, the score falling by 0.1 a block."""
    parsed = parse_document(file_name=name, content=content.encode(), max_bytes=10**7)
    blocks = []
    for offset, draft in enumerate(chunk_document(parsed)):
        record = ChunkRecord(
            chunk_id=f"{name}-c{draft.ordinal:02d}", source_id=first, source_title=name, original_name=name,
            audience="public", updated_on=None, heading_path=draft.heading_path, line_start=draft.line_start,
            line_end=draft.line_end, text=draft.text, token_count=draft.token_count, fingerprint=draft.fingerprint,
            sentences=draft.sentences,
        )
        blocks.append(Block(number=first + offset, record=record, score=score - offset / 10, text=draft.text))
    return blocks
