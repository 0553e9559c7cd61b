"""Split parsed documents into token-capped chunks that keep their heading path and line range."""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from corpus_admin import tokens
from corpus_admin.parsing import Line, ParsedDocument, Section


@dataclass(frozen=True)
class ChunkDraft:
    """A chunk of one section's text, ready to be stored and indexed."""

    ordinal: int
    heading_path: tuple[str, ...]
    line_start: int
    line_end: int
    text: str
    token_count: int
    fingerprint: str


def normalise_text(text: str) -> str:
    """Return text NFKC-normalised, case-folded and with whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def fingerprint_text(text: str) -> str:
    """Return a 32-hex-digit SHA-256 fingerprint of the normalised text."""
    return hashlib.sha256(normalise_text(text).encode("utf-8")).hexdigest()[:32]


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
        for group in _pack_section(section, max_tokens=max_tokens, overlap_tokens=overlap_tokens,
                                   count_tokens=count_tokens):
            text = _join(group)
            drafts.append(ChunkDraft(
                ordinal=len(drafts) + 1,
                heading_path=section.heading_path,
                line_start=min(line.number for line in group),
                line_end=max(line.number for line in group),
                text=text,
                token_count=count_tokens(text),
                fingerprint=fingerprint_text(text),
            ))
    return tuple(drafts)


def _pack_section(
    section: Section, *, max_tokens: int, overlap_tokens: int, count_tokens: Callable[[str], int]
) -> list[list[Line]]:
    """Greedily pack a section's lines into groups that fit max_tokens, with line overlap.

    A group's count is carried as an upper bound: joining lines with a newline never costs more tokens than the
    parts and one token for the newline (the tokenizer splits text at newlines before merging), so a unit that fits
    the bound fits the group, and the whole group is counted again only when the bound says it may not. The groups
    are the ones counting every join would give, for a fraction of the counting.
    """
    groups: list[list[Line]] = []
    current: list[Line] = []
    bound = 0  # at least count_tokens(_join(current))
    for line in section.lines:
        for unit, unit_tokens in _fit_line(line, max_tokens=max_tokens, count_tokens=count_tokens):
            if not current:
                current, bound = [unit], unit_tokens
                continue
            joined = bound + 1 + unit_tokens
            if joined > max_tokens:
                joined = count_tokens(_join([*current, unit]))
            if joined <= max_tokens:
                current.append(unit)
                bound = joined
                continue
            groups.append(current)
            current = [*_overlap(current, unit=unit, max_tokens=max_tokens, overlap_tokens=overlap_tokens,
                                 count_tokens=count_tokens), unit]
            bound = count_tokens(_join(current))
    if current:
        groups.append(current)
    return groups


def _overlap(
    previous: list[Line], *, unit: Line, max_tokens: int, overlap_tokens: int, count_tokens: Callable[[str], int]
) -> list[Line]:
    """Return the longest tail of previous within overlap_tokens that still leaves room for unit."""
    tail: list[Line] = []
    for line in reversed(previous[1:]):
        candidate = [line, *tail]
        if count_tokens(_join(candidate)) > overlap_tokens or count_tokens(_join([*candidate, unit])) > max_tokens:
            break
        tail = candidate
    return tail


def _fit_line(line: Line, *, max_tokens: int, count_tokens: Callable[[str], int]) -> list[tuple[Line, int]]:
    """Split a line longer than max_tokens between words; every piece keeps the line number. With token counts.

    As in packing, a piece's count is carried as an upper bound (a word and the space before it never cost more
    than counted alone), and the piece is counted whole only when the bound passes the cap.
    """
    tokens = count_tokens(line.text)
    if tokens <= max_tokens:
        return [(line, tokens)]
    pieces: list[tuple[Line, int]] = []
    words: list[str] = []
    bound = 0  # at least count_tokens(" ".join(words))
    for word in line.text.split():
        if not words:
            words, bound = [word], count_tokens(word)
            continue
        joined = bound + count_tokens(" " + word)
        if joined > max_tokens:
            joined = count_tokens(" ".join([*words, word]))
        if joined <= max_tokens:
            words.append(word)
            bound = joined
            continue
        pieces.append((Line(number=line.number, text=" ".join(words)), count_tokens(" ".join(words))))
        words, bound = [word], count_tokens(word)
    if words:
        pieces.append((Line(number=line.number, text=" ".join(words)), count_tokens(" ".join(words))))
    return pieces


def _join(lines: Sequence[Line]) -> str:
    """Join line texts the way chunk text is stored."""
    return "\n".join(line.text for line in lines)
