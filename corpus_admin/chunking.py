"""Split parsed documents into token-capped chunks that keep their heading path, line range, page and sentences."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from answers.pipeline.records import SentenceSpan
from answers.pipeline.text.sentences import sentence_spans
from corpus_admin import tokens
from corpus_admin.parsing import Block, ParsedDocument, Section

_WORD: Final = re.compile(r"\S+")
_LINE: Final = re.compile(r"[^\n]+")


@dataclass(frozen=True)
class ChunkDraft:
    """A chunk of one section's text, ready to be stored and indexed.

    `text` is its blocks' display texts joined by newlines; `sentences` are its prose split into sentences, with
    offsets into `text` (code is never split); `page` is its blocks' page, for paged formats.
    """

    ordinal: int
    heading_path: tuple[str, ...]
    line_start: int
    line_end: int
    text: str
    token_count: int
    fingerprint: str
    page: int | None = None
    sentences: tuple[SentenceSpan, ...] = ()


def normalise_text(text: str) -> str:
    """Return text NFKC-normalised, case-folded and with whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def fingerprint_text(text: str) -> str:
    """Return a 32-hex-digit SHA-256 fingerprint of the normalised text."""
    return hashlib.sha256(normalise_text(text).encode("utf-8")).hexdigest()[:32]


def stored_sentences(sentences: Sequence[SentenceSpan]) -> list[dict[str, int | bool | str]]:
    """A chunk's sentences as the Chunk row stores them (`selectors.sentence_spans` reads them back)."""
    return [
        {"start": span.start, "end": span.end, "line": span.line, **({"instruction": True} if span.instruction else {}),
         **({"list": span.list_item, "item": span.item} if span.list_item else {})}
        for span in sentences
    ]


def chunk_document(
    document: ParsedDocument,
    *,
    max_tokens: int = 300,
    overlap_tokens: int = 40,
    count_tokens: Callable[[str], int] = tokens.count_tokens,
) -> tuple[ChunkDraft, ...]:
    """Chunk each section separately and number the chunks 1..n across the document."""
    if max_tokens < 1 or not 0 <= overlap_tokens < max_tokens:
        raise ValueError("need max_tokens >= 1 and 0 <= overlap_tokens < max_tokens")
    drafts: list[ChunkDraft] = []
    for section in document.sections:
        for group, bound in _pack_section(section, max_tokens=max_tokens, overlap_tokens=overlap_tokens,
                                          count_tokens=count_tokens):
            text = _join(group)
            drafts.append(ChunkDraft(
                ordinal=len(drafts) + 1,
                heading_path=section.heading_path,
                line_start=min(unit.block.line_start for unit in group),
                line_end=max(unit.block.line_end for unit in group),
                text=text,
                token_count=bound if len(group) == 1 else count_tokens(text),  # one unit's count is exact
                fingerprint=fingerprint_text(text),
                page=group[0].block.page,
                sentences=_sentences(group),
            ))
    return tuple(drafts)


class _Unit(NamedTuple):
    """A block, or a piece of a long one, with its token count and its sentences as (start, end, line) in its text;
    a piece that goes on with a word cut before it."""

    block: Block
    tokens: int
    spans: tuple[tuple[int, int, int], ...]
    continues_word: bool = False


class _Piece(NamedTuple):
    """A stretch text[start:end] of a block that fits the cap, with its token count."""

    start: int
    end: int
    tokens: int
    continues_word: bool = False


def _pack_section(
    section: Section, *, max_tokens: int, overlap_tokens: int, count_tokens: Callable[[str], int]
) -> list[tuple[list[_Unit], int]]:
    """Greedily pack a section's blocks into groups that fit max_tokens, with block overlap; each with its bound.

    A group's count is carried as an upper bound: joining texts with a newline never costs more tokens than the
    parts and one token for the newline (the tokenizer splits text at newlines before merging), so a unit that fits
    the bound fits the group, and the whole group is counted again only when the bound says it may not. The groups
    are the ones counting every join would give, for a fraction of the counting. A piece that goes on with a cut
    word starts a group of its own: a newline before it would land inside the word. Blocks of two pages never
    share a group.
    """
    groups: list[tuple[list[_Unit], int]] = []
    current: list[_Unit] = []
    bound = 0  # at least count_tokens(_join(current)); exact for a group of one unit
    for block in section.blocks:
        for unit in _fit_block(block, max_tokens=max_tokens, count_tokens=count_tokens):
            if current and (unit.continues_word or unit.block.page != current[0].block.page):
                groups.append((current, bound))
                current = []
            if not current:
                current, bound = [unit], unit.tokens
                continue
            joined = bound + 1 + unit.tokens
            if joined > max_tokens:
                joined = count_tokens(_join([*current, unit]))
            if joined <= max_tokens:
                current.append(unit)
                bound = joined
                continue
            groups.append((current, bound))
            tail = _overlap(current, unit=unit, max_tokens=max_tokens, overlap_tokens=overlap_tokens,
                            count_tokens=count_tokens)
            current = [*tail, unit]
            bound = count_tokens(_join(current)) if tail else unit.tokens
    if current:
        groups.append((current, bound))
    return groups


def _overlap(
    previous: list[_Unit], *, unit: _Unit, max_tokens: int, overlap_tokens: int, count_tokens: Callable[[str], int]
) -> list[_Unit]:
    """Return the longest tail of previous within overlap_tokens that still leaves room for unit."""
    tail: list[_Unit] = []
    for candidate_unit in reversed(previous[1:]):
        candidate = [candidate_unit, *tail]
        if count_tokens(_join(candidate)) > overlap_tokens or count_tokens(_join([*candidate, unit])) > max_tokens:
            break
        tail = candidate
    return tail


def _fit_block(block: Block, *, max_tokens: int, count_tokens: Callable[[str], int]) -> list[_Unit]:
    """A block as units within max_tokens: whole if it fits, else cut at sentences (code: at lines), then words."""
    text = block.text
    spans = () if block.code else tuple(sentence_spans(text))
    if not _surely_over(text, max_tokens):
        count = count_tokens(text)
        if count <= max_tokens:
            return [_Unit(block, count, tuple((start, end, block.line_at(start)) for start, end in spans))]
    segments = [(match.start(), match.end()) for match in _LINE.finditer(text)] if block.code else list(spans)
    pieces = _merge(text, _whole_words(text, segments or [(0, len(text))]), max_tokens=max_tokens,
                    count_tokens=count_tokens)
    return [_unit_of(block, piece, spans) for piece in pieces]


def _whole_words(text: str, segments: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Segments joined where no whitespace parts them ("end.)Next"), so a cut between two never splits a word."""
    joined: list[tuple[int, int]] = []
    for start, end in segments:
        if joined and not any(character.isspace() for character in text[joined[-1][1]:start]):
            joined[-1] = (joined[-1][0], end)
        else:
            joined.append((start, end))
    return joined


def _merge(
    text: str, segments: Sequence[tuple[int, int]], *, max_tokens: int, count_tokens: Callable[[str], int]
) -> list[_Piece]:
    """Join consecutive segments (sentences, or code lines) of text into pieces within max_tokens, keeping what lies
    between them; a segment over the cap alone is split between words (`_fit_range`)."""
    pieces: list[_Piece] = []
    current: _Piece | None = None
    for start, end in segments:
        count = max_tokens + 1 if _surely_over(text[start:end], max_tokens) else count_tokens(text[start:end])
        if count > max_tokens:
            if current is not None:
                pieces.append(current)
                current = None
            pieces.extend(_fit_range(text, start, end, max_tokens=max_tokens, count_tokens=count_tokens))
            continue
        if current is None:
            current = _Piece(start, end, count)
            continue
        # As in packing, the count is an upper bound until it passes the cap: the segment with what precedes it
        # never costs more joined than counted alone.
        joined = current.tokens + count_tokens(text[current.end:end])
        if joined > max_tokens:
            joined = count_tokens(text[current.start:end])
        if joined <= max_tokens:
            current = _Piece(current.start, end, joined)
        else:
            pieces.append(current)
            current = _Piece(start, end, count)
    if current is not None:
        pieces.append(current)
    return pieces


def _fit_range(text: str, start: int, end: int, *, max_tokens: int, count_tokens: Callable[[str], int]
               ) -> list[_Piece]:
    """Split text[start:end], longer than max_tokens, between words into pieces within it. With token counts.

    As in packing, a piece's count is carried as an upper bound (a word and the space before it never cost more
    than counted alone), and the piece is counted whole only when the bound passes the cap. A word over the cap
    on its own has no space to split at: it is cut between its tokens, and the words after it go on with its last
    piece. Text that surely cannot fit is never counted whole (a 5 MB word takes tiktoken ten seconds).
    """
    pieces: list[_Piece] = []
    first = last = -1  # the words of the piece being built: text[first:last]
    bound = 0  # at least count_tokens(text[first:last])
    continues = False  # whether the piece starts with the last part of a cut word
    for word in _WORD.finditer(text, start, end):
        if first >= 0:
            joined = max_tokens + 1
            if not _surely_over(word.group(), max_tokens):
                joined = bound + count_tokens(text[last:word.end()])
                if joined > max_tokens:
                    joined = count_tokens(text[first:word.end()])
            if joined <= max_tokens:
                last, bound = word.end(), joined
                continue
            pieces.append(_Piece(first, last, count_tokens(text[first:last]), continues))
        first, last, continues = word.start(), word.end(), False
        bound = max_tokens + 1 if _surely_over(word.group(), max_tokens) else count_tokens(word.group())
        if bound > max_tokens:
            *cut, rest = _cut_word(word.group(), max_tokens=max_tokens, count_tokens=count_tokens)
            offset = word.start()
            for index, (piece, count) in enumerate(cut):
                pieces.append(_Piece(offset, offset + len(piece), count, index > 0))
                offset += len(piece)
            first, last, bound, continues = offset, word.end(), rest[1], bool(cut)
    if first >= 0:
        pieces.append(_Piece(first, last, count_tokens(text[first:last]), continues))
    return pieces


def _cut_word(word: str, *, max_tokens: int, count_tokens: Callable[[str], int]) -> list[tuple[str, int]]:
    """Cut a word over max_tokens into pieces within it, where its tokens end; each with its token count.

    Cuts follow cl100k_base's tokens and never fall inside a character (`tokens.token_prefix`). Only a window a
    little longer than the next piece is tokenized, never the whole word, and each piece is counted on its own,
    since alone it may tokenize differently from inside the word: one that then does not fit is cut shorter. A
    piece holds at least one character, so the cap holds from 4 tokens up (a character is at most 4 bytes).
    """
    pieces: list[tuple[str, int]] = []
    start, window = 0, 4 * max_tokens  # the window, in characters, follows the word's characters per token
    while start < len(word):
        text = word[start:start + window]
        piece = tokens.token_prefix(text, max_tokens) or text[:1]
        if piece == text and start + len(text) < len(word):
            window *= 2  # the window held no more than max_tokens tokens: look further
            continue
        count, take = count_tokens(piece), max_tokens
        while count > max_tokens and len(piece) > 1:
            take = max(1, take - (count - max_tokens))
            shorter = tokens.token_prefix(text, take) or text[:1]
            piece = shorter if len(shorter) < len(piece) else piece[:-1]  # always shorter, so this ends
            count = count_tokens(piece)
        pieces.append((piece, count))
        start += len(piece)
        window = len(piece) + len(piece) // 4 + 16
    return pieces


def _unit_of(block: Block, piece: _Piece, spans: Sequence[tuple[int, int]]) -> _Unit:
    """The stretch of a block a piece covers, as a unit: its own text, lines and sentences."""
    start, end = piece.start, piece.end
    marks = tuple((offset - start, line) for offset, line in block.line_marks if start < offset < end)
    part = Block(text=block.text[start:end], line_start=block.line_at(start), line_end=block.line_at(end - 1),
                 code=block.code, page=block.page, instruction=block.instruction, line_marks=marks,
                 list_item=block.list_item)
    inside = [(max(s, start), min(e, end)) for s, e in spans if s < end and e > start]
    return _Unit(part, piece.tokens, tuple((s - start, e - start, block.line_at(s)) for s, e in inside),
                 piece.continues_word)


def _sentences(group: Sequence[_Unit]) -> tuple[SentenceSpan, ...]:
    """A group's sentences, with offsets into its joined text."""
    sentences: list[SentenceSpan] = []
    offset = 0
    for unit in group:
        block = unit.block
        item = block.line_start if block.list_item else 0  # a list item's sentences share its first line
        sentences.extend(SentenceSpan(start=offset + start, end=offset + end, line=line, instruction=block.instruction,
                                      list_item=block.list_item, item=item) for start, end, line in unit.spans)
        offset += len(unit.block.text) + 1
    return tuple(sentences)


def _surely_over(text: str, max_tokens: int) -> bool:
    """Whether text has more than max_tokens tokens, known from its length alone: no token is longer than
    tokens.MAX_TOKEN_BYTES bytes, and a character is at least one byte."""
    return len(text) > max_tokens * tokens.MAX_TOKEN_BYTES


def _join(units: Sequence[_Unit]) -> str:
    """Join unit texts the way chunk text is stored."""
    return "\n".join(unit.block.text for unit in units)
