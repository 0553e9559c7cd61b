"""Sentence boundaries and citation markers: what the verifier reads, one complete sentence at a time."""
import re
from dataclasses import dataclass

# "[1]", "[1, 3]", "[1][2]"; nothing else is a marker.
MARKER = re.compile(r"\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]")
_MARKER_RUN = re.compile(r"\s*(?:\[\d{1,3}(?:\s*,\s*\d{1,3})*\]\s*)+")  # matched at an index

# Abbreviations whose full stop does not end a sentence (compared case-insensitively, without the dot).
ABBREVIATIONS = frozenset(
    "e.g i.e etc vs cf al approx dept est fig inc ltd co corp no nos vol p pp dr mr mrs ms prof sr jr st mt "  # noqa: SIM905 (a word list reads best as one string)
    "jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun u.s u.k".split()
)
_LIST_MARK = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)])\s+")
_NEW_PARAGRAPH = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)]|>)")
_HEADING_WORDS = 6  # a short line without end punctuation before a capitalised line is a heading, not a wrap
_PARTIAL_MARKER = re.compile(r"\[\d{0,3}(?:\s*,\s*\d{0,3})*")
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_TERMINATORS = ".!?"
_TERMINATOR_OR_BREAK = re.compile(r"[.!?]|\n\n")
_WORD_LOOKBEHIND = 64
_CLOSERS = "\"')]*_"


@dataclass(frozen=True)
class MarkedSentence:
    """A sentence with its markers taken out: the clean text and the block numbers it cites, in order."""

    text: str
    cited: tuple[int, ...]


def parse_markers(sentence: str) -> MarkedSentence:
    """Strip `[n]` markers from a sentence and return its clean text and distinct cited numbers."""
    cited: list[int] = []
    for match in MARKER.finditer(sentence):
        for part in match.group(1).split(","):
            number = int(part)
            if number not in cited:
                cited.append(number)
    text = MARKER.sub(" ", sentence)
    while MARKER.search(text):  # "[5 [1], 7]" less "[1]" reads "[5 , 7]": not a citation, and never shown as one
        text = MARKER.sub(" ", text)
    # a mark a marker left a space before closes the sentence or clause; one that starts a word or a path (".venv",
    # "./configure") keeps its space
    text = re.sub(r"\s+([.,;:!?])(?![\w/])", r"\1", text)
    text = re.sub(r"\s+", " ", text).strip()
    return MarkedSentence(text=text, cited=tuple(cited))


def _ends_sentence(text: str, index: int) -> bool:
    """Whether the terminator at `index` closes a sentence (not "e.g.", "Dr.", "v2.5" or "2.5 GB")."""
    following = text[index + 1 : index + 2]
    if following and not following.isspace() and following not in _CLOSERS + _TERMINATORS:
        return False  # "2.5", "v2.5", "example.com", "![image]", "?q=1"
    if text[index] != ".":
        return True
    # Only the word's end is read: no abbreviation or initial is that long, and a long text is not scanned again.
    word = _WORD_BEFORE.search(text, max(0, index - _WORD_LOOKBEHIND), index)
    if word is None:
        return True
    token = word.group(1).rstrip(".").lower()
    if token in ABBREVIATIONS:
        return False
    # A single capital before the dot is an initial ("J. Smith"), not a sentence end.
    return not (len(token) == 1 and word.group(1)[-1].isupper())


def _boundary(text: str, *, final: bool, start: int = 0) -> int | None:
    """Index just past the first complete sentence in text from `start`, or None if none is complete yet.

    Every search starts at an index, and only the sentence at hand is ever copied, so reading a long text
    sentence by sentence takes time in proportion to its length.
    """
    position = start
    while position < len(text):
        found = _TERMINATOR_OR_BREAK.search(text, position)
        if found is None:
            return None
        if found.group() == "\n\n":
            newline = found.start()
            if text[start:newline].strip():
                return newline + 2
            position = newline + 2
            continue
        terminator = found.start()
        end = terminator + 1
        while end < len(text) and text[end] in _TERMINATORS + _CLOSERS:
            end += 1
        if end >= len(text) and not final:
            return None  # the next character decides ("2." may become "2.5")
        if not _ends_sentence(text, terminator):
            position = terminator + 1
            continue
        if not final and _PARTIAL_MARKER.fullmatch(text[end:].lstrip()):
            return None  # "[4" may be the start of a marker that belongs to this sentence
        markers = _MARKER_RUN.match(text, end)
        if markers:
            if not final:
                after = text[markers.end():]
                if not after or _PARTIAL_MARKER.fullmatch(after.lstrip()):
                    return None  # markers after the full stop may still be arriving
            return markers.end()
        if not final and text[end:].strip() == "":
            return None  # wait: a marker placed after the full stop may follow
        return end
    return None


class SentenceBuffer:
    """Collects streamed text and releases each sentence as soon as it is complete."""

    def __init__(self) -> None:
        self._pending = ""

    def feed(self, delta: str) -> list[str]:
        """Add streamed text; return the sentences it completed."""
        self._pending += delta
        return self._drain(final=False)

    def flush(self) -> tuple[list[str], str]:
        """End of stream: return the remaining complete sentences and any unfinished tail."""
        sentences = self._drain(final=True)
        tail, self._pending = self._pending.strip(), ""
        return sentences, tail

    def _drain(self, *, final: bool) -> list[str]:
        sentences: list[str] = []
        while True:
            end = _boundary(self._pending, final=final)
            if end is None:
                break
            sentence, self._pending = self._pending[:end].strip(), self._pending[end:]
            if sentence and _has_words(sentence):
                sentences.append(sentence)
        if final and self._pending.strip() and _ends_with_terminator(self._pending):
            sentences.append(self._pending.strip())
            self._pending = ""
        return sentences


def split_sentences(text: str) -> list[str]:
    """Split a finished text into sentences with the same rules as the streaming buffer."""
    buffer = SentenceBuffer()
    sentences = buffer.feed(text)
    rest, tail = buffer.flush()
    return sentences + rest + ([tail] if tail else [])


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where each sentence of a finished text starts and ends: split_sentences' sentences, as offsets into text."""
    spans: list[tuple[int, int]] = []
    start = 0
    while (end := _boundary(text, final=True, start=start)) is not None:
        first, last = _stripped(text, start, end)
        if first < last and _has_words(text[first:last]):
            spans.append((first, last))
        start = end
    first, last = _stripped(text, start, len(text))
    if first < last:
        spans.append((first, last))
    return spans


def _stripped(text: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of text[start:end] without its leading and trailing whitespace."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def passage_sentences(text: str) -> list[str]:
    """Sentences of a stored passage: wrapped lines joined, headings and list items kept apart, code left out."""
    paragraphs: list[list[str]] = []
    in_code = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_code = not in_code  # code is not prose: its lines are never sentences
            paragraphs.append([])
            continue
        if in_code or not stripped or stripped.startswith(("#", "|")):
            paragraphs.append([])
            continue
        previous = paragraphs[-1][-1].rstrip() if paragraphs and paragraphs[-1] else ""
        starts_new = not previous or _NEW_PARAGRAPH.match(line) or previous[-1] in ".!?:" or (
            len(previous.split()) <= _HEADING_WORDS and stripped[:1].isupper()
        )
        if starts_new:
            paragraphs.append([])
        paragraphs[-1].append(_LIST_MARK.sub("", stripped))
    return [sentence for paragraph in paragraphs if paragraph for sentence in split_sentences(" ".join(paragraph))]


def is_heading(sentence: str) -> bool:
    """Whether a stored sentence is a heading line, not a claim: one line of at most six words, no digit, no end
    punctuation ("AFTER THE INCIDENT", "Payment methods")."""
    text = sentence.strip()
    return (
        bool(text)
        and "\n" not in text
        and text[-1] not in _TERMINATORS + _CLOSERS + ":;,"
        and len(text.split()) <= _HEADING_WORDS
        and not re.search(r"\d", text)
    )


def _has_words(sentence: str) -> bool:
    return bool(re.search(r"\w", MARKER.sub("", sentence)))


def _ends_with_terminator(text: str) -> bool:
    stripped = MARKER.sub("", text).rstrip()
    return bool(stripped) and stripped[-1] in _TERMINATORS + _CLOSERS
