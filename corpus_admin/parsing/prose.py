"""Prose as a reader sees it: pieces of text from a parser's tree joined into one line, each word's source line kept.

Every format's parser feeds the text of one paragraph, list item, quote or cell here piece by piece, in document
order, with the newlines of its source still in it. Whitespace runs (newlines included) become one space, so a
paragraph or quote wrapped over several lines reads as whole sentences again; the newlines are counted, so each word
keeps its line in the original file (`Block.line_marks`). Pieces that meet without whitespace stay one word
("un<b>break</b>able").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from corpus_admin.parsing.document import Block, Event


@dataclass
class Prose:
    """Collects one block's text pieces; `block()` returns the finished Block, or None when it has no words."""

    line: int  # the source line of the next piece
    _parts: list[str] = field(default_factory=list)
    _length: int = 0
    _space: bool = False  # whitespace since the last word
    _first_line: int = 0
    _last_line: int = 0
    _marks: list[tuple[int, int]] = field(default_factory=list)

    def add(self, raw: str) -> None:
        """Append a piece of source text; each newline in it moves on one line."""
        if "\n" not in raw:
            self._add_segment(raw)
            return
        for index, segment in enumerate(raw.split("\n")):
            if index:
                self.line += 1
                self._space = True
            self._add_segment(segment)

    def resync(self, line: int | None) -> None:
        """Move on to a line the parser knows (a tag's own line), never back."""
        if line is not None and line > self.line:
            self.line = line

    def skip_lines(self, count: int) -> None:
        """Move on past lines whose text is left out (a comment's, a script's)."""
        self.line += count

    def add_space(self) -> None:
        """Separate the words before and after, as a line break or a cell boundary does."""
        self._space = True

    def drop_space(self) -> None:
        """Forget the whitespace since the last word (before something left out, such as a footnote marker)."""
        self._space = False

    def empty(self) -> bool:
        """Whether no word has been added yet."""
        return not self._parts

    def block(self, *, page: int | None = None) -> Block | None:
        """The text collected so far as a prose block."""
        if not self._parts:
            return None
        return Block(text="".join(self._parts), line_start=self._first_line, line_end=self._last_line, page=page,
                     line_marks=tuple(self._marks))

    def _add_segment(self, segment: str) -> None:
        words = segment.split()
        if not words:
            if segment:
                self._space = True
            return
        if segment[0].isspace():
            self._space = True
        if not self._parts:
            self._first_line = self.line
        else:
            if self._space:
                self._parts.append(" ")
                self._length += 1
            if self.line != self._last_line:
                self._marks.append((self._length, self.line))
        text = " ".join(words)
        self._parts.append(text)
        self._length += len(text)
        self._last_line = self.line
        self._space = segment[-1].isspace()


def join_term(term: Block, body: Block) -> Block:
    """A definition, field or option as one block that keeps its term: "Default: 1209600 (2 weeks, in seconds)"."""
    separator = " " if term.text.endswith(":") else ": "
    shift = len(term.text) + len(separator)
    marks = list(term.line_marks)
    if body.line_start != term.line_end:
        marks.append((shift, body.line_start))
    marks.extend((offset + shift, line) for offset, line in body.line_marks)
    return Block(text=term.text + separator + body.text, line_start=term.line_start,
                 line_end=max(term.line_end, body.line_end), page=body.page, line_marks=tuple(marks))


class TermedEvents:
    """A parse's events, in which a definition's or field's term (`_term`) waits for its body: the next prose block
    is joined to it (`join_term`); a term with no prose body is a block of its own. Shared by every format's walker."""

    events: list[Event]
    _term: Block | None

    def _emit(self, block: Block) -> None:
        if self._term is not None and not block.code:
            block, self._term = join_term(self._term, block), None
        self._flush_term()
        self.events.append(block)

    def _flush_term(self) -> None:
        term, self._term = self._term, None
        if term is not None and term.text.strip():
            self.events.append(term)
