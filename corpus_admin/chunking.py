"""Split parsed documents into token-capped chunks that keep their heading path and line range."""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

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
        for group, bound in _pack_section(section, max_tokens=max_tokens, overlap_tokens=overlap_tokens,
                                          count_tokens=count_tokens):
            text = _join(group)
            drafts.append(ChunkDraft(
                ordinal=len(drafts) + 1,
                heading_path=section.heading_path,
                line_start=min(line.number for line in group),
                line_end=max(line.number for line in group),
                text=text,
                token_count=bound if len(group) == 1 else count_tokens(text),  # one unit's count is exact
                fingerprint=fingerprint_text(text),
            ))
    return tuple(drafts)


class _Unit(NamedTuple):
    """A line, or a piece of a long one, with its token count; a piece that goes on with a word cut before it."""

    line: Line
    tokens: int
    continues_word: bool = False


def _pack_section(
    section: Section, *, max_tokens: int, overlap_tokens: int, count_tokens: Callable[[str], int]
) -> list[tuple[list[Line], int]]:
    """Greedily pack a section's lines into groups that fit max_tokens, with line overlap; each with its bound.

    A group's count is carried as an upper bound: joining lines with a newline never costs more tokens than the
    parts and one token for the newline (the tokenizer splits text at newlines before merging), so a unit that fits
    the bound fits the group, and the whole group is counted again only when the bound says it may not. The groups
    are the ones counting every join would give, for a fraction of the counting. A piece that goes on with a cut
    word starts a group of its own: a newline before it would land inside the word.
    """
    groups: list[tuple[list[Line], int]] = []
    current: list[Line] = []
    bound = 0  # at least count_tokens(_join(current)); exact for a group of one unit
    for line in section.lines:
        for unit in _fit_line(line, max_tokens=max_tokens, count_tokens=count_tokens):
            if current and unit.continues_word:
                groups.append((current, bound))
                current = []
            if not current:
                current, bound = [unit.line], unit.tokens
                continue
            joined = bound + 1 + unit.tokens
            if joined > max_tokens:
                joined = count_tokens(_join([*current, unit.line]))
            if joined <= max_tokens:
                current.append(unit.line)
                bound = joined
                continue
            groups.append((current, bound))
            tail = _overlap(current, unit=unit.line, max_tokens=max_tokens, overlap_tokens=overlap_tokens,
                            count_tokens=count_tokens)
            current = [*tail, unit.line]
            bound = count_tokens(_join(current)) if tail else unit.tokens
    if current:
        groups.append((current, bound))
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


def _fit_line(line: Line, *, max_tokens: int, count_tokens: Callable[[str], int]) -> list[_Unit]:
    """Split a line longer than max_tokens between words; every piece keeps the line number. With token counts.

    As in packing, a piece's count is carried as an upper bound (a word and the space before it never cost more
    than counted alone), and the piece is counted whole only when the bound passes the cap. A word over the cap
    on its own has no space to split at: it is cut between its tokens, and the words after it go on with its last
    piece. Text that surely cannot fit is never counted whole (a 5 MB word takes tiktoken ten seconds).
    """
    if not _surely_over(line.text, max_tokens):
        count = count_tokens(line.text)
        if count <= max_tokens:
            return [_Unit(line, count)]
    units: list[_Unit] = []
    words: list[str] = []
    bound = 0  # at least count_tokens(" ".join(words))
    continues = False  # whether words start with the last piece of a cut word
    for word in line.text.split():
        if words:
            joined = max_tokens + 1
            if not _surely_over(word, max_tokens):
                joined = bound + count_tokens(" " + word)
                if joined > max_tokens:
                    joined = count_tokens(" ".join([*words, word]))
            if joined <= max_tokens:
                words.append(word)
                bound = joined
                continue
            units.append(_piece(line, words, continues=continues, count_tokens=count_tokens))
        words, continues = [word], False
        bound = max_tokens + 1 if _surely_over(word, max_tokens) else count_tokens(word)
        if bound > max_tokens:
            *cut, (rest, bound) = _cut_word(word, max_tokens=max_tokens, count_tokens=count_tokens)
            units.extend(_Unit(Line(line.number, text), count, n > 0) for n, (text, count) in enumerate(cut))
            words, continues = [rest], bool(cut)
    if words:
        units.append(_piece(line, words, continues=continues, count_tokens=count_tokens))
    return units


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


def _piece(line: Line, words: list[str], *, continues: bool, count_tokens: Callable[[str], int]) -> _Unit:
    text = " ".join(words)
    return _Unit(Line(number=line.number, text=text), count_tokens(text), continues)


def _surely_over(text: str, max_tokens: int) -> bool:
    """Whether text has more than max_tokens tokens, known from its length alone: no token is longer than
    tokens.MAX_TOKEN_BYTES bytes, and a character is at least one byte."""
    return len(text) > max_tokens * tokens.MAX_TOKEN_BYTES


def _join(lines: Sequence[Line]) -> str:
    """Join line texts the way chunk text is stored."""
    return "\n".join(line.text for line in lines)
