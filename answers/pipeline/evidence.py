"""What of a chunk may be evidence (§2.8): its text less the sentences written as instructions to an AI."""
import functools
import re
from collections.abc import Iterator, Sequence

from answers.pipeline.records import ChunkRecord, SentenceSpan
from answers.pipeline.text.instructions import instruction_reason
from answers.pipeline.types import Block

_LINE = re.compile(r"[^\n]*\n?")
_LIST_OR_QUOTE = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)]|>)")
_HEADING_WORDS = 6  # as the passage splitter: a short line before a capitalised one is a heading, not a wrap


def instruction_ranges(text: str, sentences: Sequence[SentenceSpan]) -> tuple[tuple[int, int], ...]:
    """Character ranges of a chunk's text written as instructions, in order.

    A chunk stored with its sentences has them flagged at ingestion. One stored before sentences were is judged now,
    paragraph by paragraph as the passage splitter reads it (a quote's lines together): those chunks are protected
    too, though their lines were joined without the blank lines that told paragraphs apart.
    """
    if sentences:
        return tuple((span.start, span.end) for span in sentences if span.instruction)
    return _flagged_paragraphs(text)


def evidence_text(record: ChunkRecord) -> str:
    """The chunk's text with each instruction range blanked, as long as the text (every blanked character a newline,
    so a range reads as a paragraph break and no sentence runs across it)."""
    return _evidence_text(record)


def instruction_text(record: ChunkRecord) -> str:
    """The chunk's text written as instructions, one range a line; empty for a chunk with none (most). What a check
    that failed looks in, to say when the support was only there."""
    return _instruction_text(record)


def block_evidence(block: Block) -> str:
    """What a generator may quote of a block: its text less instructions, also when it is a compressed copy (a kept
    sentence that is not whole in the chunk's evidence text is left out)."""
    evidence = evidence_text(block.record)
    if block.text == block.record.text:
        return evidence
    whole = _squash(evidence)
    return "\n".join(line for line in block.text.splitlines() if _squash(line) and _squash(line) in whole)


# The pipeline asks for the same few records' evidence once per candidate sentence and per verified sentence.
@functools.lru_cache(maxsize=512)
def _evidence_text(record: ChunkRecord) -> str:
    text = record.text
    for start, end in instruction_ranges(record.text, record.sentences):
        start, end = max(start, 0), min(end, len(text))
        if start < end:
            text = text[:start] + "\n" * (end - start) + text[end:]
    return text


@functools.lru_cache(maxsize=512)
def _instruction_text(record: ChunkRecord) -> str:
    return "\n".join(record.text[start:end] for start, end in instruction_ranges(record.text, record.sentences))


def _flagged_paragraphs(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(
        (start, end) for start, end in _paragraphs(text) if instruction_reason(text[start:end]) is not None
    )


def _paragraphs(text: str) -> Iterator[tuple[int, int]]:
    """Offsets of the prose paragraphs of a stored text: lines joined as `passage_sentences` joins them, except that
    a `>` quote's lines stay one paragraph and a line ending in a colon keeps what it introduces (the next line, or
    the list items after it); code, headings, table rows and blank lines belong to none."""
    start = end = -1
    previous = ""
    introduces = False  # the paragraph has a line ending in a colon: list items after it are its own
    in_code = False
    for match in _LINE.finditer(text):
        if not match.group():
            break
        line = match.group().rstrip("\n")
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_code = not in_code
        if in_code or stripped.startswith(("```", "~~~", "#", "|")) or not stripped:
            if start >= 0:
                yield start, end
            start, previous, introduces = -1, "", False
            continue
        quote, listed = stripped.startswith(">"), _LIST_OR_QUOTE.match(line) is not None
        body = previous.lstrip("> ").rstrip()
        starts_new = start < 0 or quote != previous.startswith(">") or (
            not quote
            and body[-1:] != ":"
            and not (introduces and listed)
            and (
                listed
                or body[-1:] in (".", "!", "?")
                or (len(body.split()) <= _HEADING_WORDS and stripped[:1].isupper())
            )
        )
        if starts_new:
            if start >= 0:
                yield start, end
            start, introduces = match.start(), False
        introduces = introduces or stripped.endswith(":")
        end, previous = match.start() + len(line), stripped
    if start >= 0:
        yield start, end


def _squash(text: str) -> str:
    return " ".join(text.split())
