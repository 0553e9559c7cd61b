"""A generator's text less its Markdown, sentence by sentence (§5.6): the verifier judges the plain words, and the
sentence shown carries no markup.

A model writes Markdown: `**bold**`, `` `code` ``, links, `#` headings, `- ` and `1. ` list items. The streamed text
is read line by line as it arrives: a line that opens with a list marker or a heading mark ends the sentences before
it (a list item's last words often have no full stop) and starts a new run of sentences, without its mark; the
sentences of a list item's line carry its kind (ordered or not) and its number among the answer's items, so they are
shown as one item of a list. A blank line ends a list. Inside a sentence, markdown-it's inline parser (CommonMark:
"snake_case" and "2 * 3" are not emphasis) keeps the words and drops the emphasis, code, strikethrough and link marks
(a link keeps its text, an image its alt text; no URL is kept). Raw HTML is not parsed: it stays text, shown escaped.
`[n]` markers are not links (no reference definitions), so they reach the verifier as written.
"""
import functools
import re
from dataclasses import dataclass
from typing import Final

from markdown_it import MarkdownIt

from answers.pipeline.text.sentences import SentenceBuffer

ORDERED, UNORDERED = "ordered", "unordered"
_HEADING = "heading"
_INLINE: Final = MarkdownIt("commonmark", {"html": False}).enable("strikethrough")
# The mark a line opens with: a bullet, a number ("1." or "1)"), or a heading's hashes.
_LINE_MARK: Final = re.compile(r"[ \t]*(?:(?P<bullet>[-*+•])|(?P<number>\d{1,3})[.)]|(?P<heading>#{1,6}))[ \t]+")
_UNDECIDED: Final = re.compile(r"[ \t]*(?:[-*+•]|\d{1,3}[.)]?|#{1,6})?")  # a line start that may still become a mark
_WORDS: Final = re.compile(r"\w")
# Marks whose other half is in another sentence ("**Refunds take 5 days [1]. They start** ..."): never words.
_LEFT_OVER: Final = re.compile(r"\*\*+|__+|~~+|`+")


@dataclass(frozen=True)
class PlainSentence:
    """A sentence without markup (its `[n]` markers kept); for a list item's sentence, the list's kind and the item's
    number among the answer's list items (the sentences of one item share it; 0 for no item)."""

    text: str
    list_item: str = ""
    item: int = 0


# An extractive answer's sentences are stored sentences with their marker: the same few for every question about the
# same passage, and markdown-it's parse was a twentieth of the pipeline's time. The words depend only on the sentence.
@functools.lru_cache(maxsize=4096)
def plain_text(sentence: str) -> str:
    """A sentence's words without inline Markdown: emphasis, code, strikethrough and link marks dropped."""
    tokens = _INLINE.parseInline(sentence)
    pieces: list[str] = []
    for child in tokens[0].children or () if tokens else ():
        if child.type in ("text", "code_inline", "image"):  # an image's content is its alt text
            pieces.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            pieces.append(" ")
    return " ".join(_LEFT_OVER.sub("", "".join(pieces)).split())


class MarkdownSentenceBuffer:
    """SentenceBuffer's sentences, each less its Markdown and with the list item it stands in (module docstring)."""

    def __init__(self) -> None:
        self._sentences = SentenceBuffer()
        self._line = ""  # the start of the current line, until it is known whether it opens with a mark
        self._at_line_start = True
        self._kind = ""  # the run's: ORDERED, UNORDERED, _HEADING or ""
        self._items = 0

    def feed(self, delta: str) -> list[PlainSentence]:
        """Add streamed text; return the sentences it completed."""
        done: list[PlainSentence] = []
        for index, piece in enumerate(delta.split("\n")):
            if index:
                done += self._end_line()
            done += self._add(piece)
        return done

    def flush(self, *, finished: bool = True) -> tuple[list[PlainSentence], str]:
        """End of stream: the remaining sentences and any unfinished tail, less its markup; when the stream
        `finished` (was not cut off), a last list item's words without a full stop are a sentence too."""
        done = self._add("", final=True)
        sentences, tail = self._sentences.flush()
        done += [self._plain(s) for s in sentences]
        if tail and finished and self._kind in (ORDERED, UNORDERED):
            return [*done, self._plain(tail)], ""
        return done, plain_text(tail) if tail else ""

    def _add(self, piece: str, *, final: bool = False) -> list[PlainSentence]:
        if not self._at_line_start:
            return [self._plain(s) for s in self._sentences.feed(piece)]
        self._line += piece
        mark = _LINE_MARK.match(self._line)
        if mark is None and not final and _UNDECIDED.fullmatch(self._line):
            return []  # "1" may become "1. ", "#" may become "# "
        self._at_line_start = False
        line, self._line = self._line, ""
        if mark is None:
            return [self._plain(s) for s in self._sentences.feed(line)]
        done = self._end_run()
        self._kind = _HEADING if mark.group("heading") else UNORDERED if mark.group("bullet") else ORDERED
        if self._kind != _HEADING:
            self._items += 1
        return done + [self._plain(s) for s in self._sentences.feed(line[mark.end():])]

    def _end_line(self) -> list[PlainSentence]:
        """A newline: a blank line ends the run (a list, a paragraph); a heading's line ends with it."""
        done: list[PlainSentence] = []
        if self._at_line_start and not self._line.strip():
            done = self._end_run()
            self._kind = ""
        elif self._at_line_start:
            done = self._add("", final=True)
        if self._kind == _HEADING:
            done += self._end_run()
            self._kind = ""
        self._sentences.feed("\n")
        self._at_line_start, self._line = True, ""
        return done

    def _end_run(self) -> list[PlainSentence]:
        """Finish the run's sentences: a list item's or a heading's last words need no full stop."""
        sentences, tail = self._sentences.flush()
        if tail and _WORDS.search(tail):
            sentences.append(tail)
        return [self._plain(s) for s in sentences]

    def _plain(self, sentence: str) -> PlainSentence:
        if self._kind in (ORDERED, UNORDERED):
            return PlainSentence(plain_text(sentence), self._kind, self._items)
        return PlainSentence(plain_text(sentence))
