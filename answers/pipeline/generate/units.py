"""Answer units: the stored sentences of a block grouped with the context they need to answer (§5.5).

A unit quotes only stored sentences, whole; its context (the chunk's heading path, which names a field such as
`SESSION_COOKIE_AGE`, a table or a section) decides whether it is relevant and is never pasted into what is shown:
- a single sentence (a table row naming its headers, a defined term with its body), or a field ("Default: ...")
  whose term is its heading, so the heading's words count in full for it, or an API signature;
- each sentence standing under the term its line defines (fields.py: a definition's term, a parameter, a
  signature's name) or under the line that leads its list ("... the following fields:"), whose words count for it;
- a sentence with the next one when the next depends on it ("This ...", "It ...", and for a question asking how to do
  something a step naming "those packages" the sentence before spoke of);
- a field's default with the sentence that says what the field is ("deadlock_timeout (integer): This is the amount
  of time to wait on a lock ..." and "The default is one second (1s) ...");
- the consecutive list items of one list, for a question asking how to do something;
- a sentence with the sentences after it in its section, for such a question when no list holds the steps;
- for such a question, a sentence leading with ":" and the code line after it, quoted as one sentence with the line
  as a code span, so that it reaches the verifier word for word (commands.py).
"""
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from answers.pipeline.commands import Command, chunk_commands
from answers.pipeline.evidence import block_evidence
from answers.pipeline.generate.fields import line_term
from answers.pipeline.records import ChunkRecord, SentenceSpan
from answers.pipeline.text.instructions import instruction_reason
from answers.pipeline.text.markup import MarkdownSentenceBuffer
from answers.pipeline.text.sentences import MARKER, parse_markers, passage_sentences
from answers.pipeline.types import Block

MIN_WORDS = 4
MAX_STEPS = 8
PROCEDURE_SENTENCES = 3
_LIST_MARK = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)])\s+")
# A field of a reference page as the text model stores it: "Default: 1209600 (2 weeks, in seconds)", its term the
# heading it stands under.
FIELD = re.compile(r"^[A-Z][\w ]{0,30}:\s+\S")
# A sentence stating a default ("The default is 1s", "defaults to 'r'", "defaulting to 28 places"), not one about
# other values ("non-default").
STATES_DEFAULT = re.compile(r"(?<!non-)\bdefault(?:s|ed|ing)?\b", re.I)
# A sentence stating what holds when no value is given, a default in other words ("If port is omitted, ...", "When
# no lock mode is given, ...", "called without arguments"): the question's "when none is given" is read as "default".
STATES_OMITTED = re.compile(
    r"\bomitted\b|\bnot\s+(?:given|specified|supplied|provided|passed)\b|"
    r"\b(?:if|when|where)\s+(?:no\s+[\w-]+(?:\s+[\w-]+)?|none|nothing)\s+(?:is|are)\s+(?:given|specified|supplied|provided|"
    r"passed)\b|\bwithout\s+(?:an?\s+)?arguments?\b",
    re.I,
)
# A sentence stating the value a thing starts with, a default in other words ("is created with level WARNING").
STATES_INITIAL = re.compile(r"\binitially\b|\b(?:is|are)\s+created\s+with\b", re.I)
# A sentence pointing back, also after a short opening phrase and its comma ("By default, it contains files dns") or
# a preposition ("In this case", "For these reasons").
_DEPENDS = re.compile(
    r"^(?:[\w-]+(?:\s+[\w-]+){0,2},\s+|(?:in|for|with|by|after|before|on|at|from|under|of)\s+)?"
    r"(?:this|that|these|those|it|its|they|their|them|such|he|she|then|otherwise)\b",
    re.I,
)

# For a "how do I" question, a step that names what the sentence before it spoke of, anywhere in it ("apt autoremove
# will get rid of those packages" after "... a list of automatic packages that are no longer needed").
_POINTS_BACK = re.compile(r"\b(?:those|these|such)\s+(?!as\b)\w+", re.I)


# A list item of a table of contents: a page's name, a dash and its title, with no sentence's end ("SHOW — show the
# value of a run-time parameter", "csv — CSV File Reading and Writing"): it points to a page, it is no step.
_CONTENTS_ENTRY = re.compile(r"^\S+(?:\s\S+){0,3}\s[—–]\s\S.*(?<![.!?:;])$")


# A line that ends as a sentence or a list item does (its closing quote or bracket after), or leads what follows.
_ENDS_SENTENCE = re.compile(r"[.!?:;][\"'’”)\]]*$")


def reads_as_code(text: str) -> bool:
    """Whether a text reads as code or a program's output rather than prose: more than half its lines end with no
    sentence's end ("Enabled Apache ssl module", "$ a2enmod ssl", "}"), as a terminal transcript's do."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return 2 * sum(_ENDS_SENTENCE.search(line) is None for line in lines) > len(lines)


@dataclass(frozen=True)
class Quoted:
    """A stored sentence of a block as the reader may quote it, its place in the block, whether it is a list item, and
    the terms it stands under: the signature and the field it describes (fields.py), or the sentence leading its
    list ("... the following fields:")."""

    text: str
    position: int
    listed: bool
    terms: tuple[str, ...] = ()
    signature: str = ""  # the `name(...)` this very sentence starts with, when it is a signature
    field: str = ""  # of `terms`, the field's (a definition's term, a parameter), not a signature's name or a lead
    definition: str = ""  # the first sentence of the field's line, which says what the field is
    stored: str = ""  # the stored sentence as its vector is keyed (whitespace collapsed, before cleaning)


@dataclass(frozen=True)
class Unit:
    """One or more consecutive quoted sentences of a block, with the heading path that gives them their context."""

    block: Block
    sentences: tuple[Quoted, ...]
    context: tuple[str, ...]
    kind: str  # "sentence", "field", "signature", "pair", "described", "steps", "section" or "command"

    @property
    def text(self) -> str:
        """The unit's sentences joined (for matching; each is shown and verified apart)."""
        return " ".join(s.text for s in self.sentences)

    @property
    def terms(self) -> tuple[str, ...]:
        """The terms its first sentence stands under (a field's name, a signature's, a list's lead)."""
        return self.sentences[0].terms

    @property
    def position(self) -> int:
        """The place of its first sentence in the block."""
        return self.sentences[0].position


def quoted_sentences(block: Block) -> list[Quoted]:
    """The sentences of a block the reader may quote: the chunk's stored sentences less its instructions, so each
    quoted sentence is a stored one and the verifier finds that very sentence as its span. A compressed copy (not the
    chunk's text) is split afresh, less what is not whole in the chunk's evidence, and so is a chunk stored before
    sentences were. A document's own "[1]" never becomes a citation; fragments and instructions are left out.
    """
    record = block.record
    if block.text == record.text and not record.sentences and reads_as_code(record.text):
        return []  # the chunker stores no sentences for code: a chunk of code alone has none to quote
    if block.text != record.text or not record.sentences:
        return _quotable([Quoted(s, 0, False) for s in passage_sentences(block_evidence(block))])
    kept = _quoted.get(id(record))
    if kept is not None and kept[0] is record:
        return list(kept[1])
    items = _listed(record.text, record.sentences)
    placed = _with_terms(record.text, record.sentences, items)
    quoted = _quotable([q for q, span in zip(placed, record.sentences, strict=True) if not span.instruction])
    if len(_quoted) >= QUOTED_KEPT:
        _quoted.clear()
    _quoted[id(record)] = (record, tuple(quoted))
    return quoted


# A chunk's quotable sentences depend on its record alone (immutable; an update makes a new one), and every question
# retrieving the chunk read them afresh: a quarter of an extractive answer's time. Kept per record object (the entry
# holds the record, so its id is not reused while kept) for the last QUOTED_KEPT chunks read.
QUOTED_KEPT = 16_384
_quoted: dict[int, tuple[ChunkRecord, tuple[Quoted, ...]]] = {}


def _states_field_value(sentence: Quoted, clean: str) -> bool:
    """Whether a short sentence states the value of the field it stands under ("Default is 10." under pgbench's
    `-t transactions`, "MAXYEAR is 9999." under `datetime.MAXYEAR`): its term gives it the context it lacks."""
    return bool(sentence.field) and (_DIGIT.search(clean) is not None or STATES_DEFAULT.search(clean) is not None)


_DIGIT = re.compile(r"\d")


def _quotable(raw: Sequence[Quoted]) -> list[Quoted]:
    """The sentences the reader may quote, cleaned and numbered in order: whole, long enough, no instruction."""
    quoted: list[Quoted] = []
    for sentence in raw:
        clean = " ".join(MARKER.sub("", _LIST_MARK.sub("", sentence.text)).split())
        long_enough = len(clean.split()) >= MIN_WORDS or (
            len(clean.split()) >= 2 and (FIELD.match(clean) is not None or _states_field_value(sentence, clean))
        )
        if long_enough and instruction_reason(clean) is None:
            stored = " ".join(sentence.text.split())
            quoted.append(replace(sentence, text=clean, position=len(quoted), stored=stored))
    return quoted


def _with_terms(text: str, sentences: Sequence[SentenceSpan], items: Sequence[bool]) -> list[Quoted]:
    """Each stored sentence with whether it is listed, the terms it stands under and the signature it starts with.

    A line that defines a term (fields.py) gives it to its sentences and to the lines after it until another term;
    a signature's name stays above the fields that follow it; a line ending in ":" leads the list items, or the
    lines of one sentence each, right after it."""
    found: list[Quoted] = []
    signature_name = field = lead = definition = ""
    line_start = -1
    for i, span in enumerate(sentences):
        sentence = text[span.start : span.end]
        listed = items[i] or bool(_LIST_MARK.match(sentence))
        start = text.rfind("\n", 0, span.start) + 1
        starts_signature = ""
        if start != line_start:
            line_start = start
            end = text.find("\n", start)
            defined = line_term(_LIST_MARK.sub("", text[start : end if end >= 0 else len(text)]))
            if defined.signature:
                signature_name, field, starts_signature, definition = defined.term, "", defined.signature, ""
            elif defined.term:
                field, definition = defined.term, " ".join(MARKER.sub("", sentence).split())
        whole_line = span.start == line_start and text[span.end : span.end + 1] in ("", "\n")
        if not (listed or whole_line):
            lead = ""
        terms = tuple(t for t in (signature_name, field, lead) if t)
        signature = starts_signature if span.start == line_start else ""
        found.append(Quoted(sentence, i, listed, terms, signature, field, definition if field else ""))
        if sentence.rstrip().endswith(":") and whole_line:
            lead = " ".join(MARKER.sub("", sentence).split())
    return found


def _listed(text: str, sentences: Sequence[SentenceSpan]) -> list[bool]:
    """Which sentences are list items: the text model stores each item as a line of its own, on consecutive lines of
    the source (a paragraph's sentences share a line; paragraphs are a blank line apart)."""
    whole = [
        (s.start == 0 or text[s.start - 1] == "\n") and (s.end >= len(text.rstrip()) or text[s.end : s.end + 1] == "\n")
        for s in sentences
    ]
    listed = [False] * len(sentences)
    for i in range(len(sentences) - 1):
        if whole[i] and whole[i + 1] and sentences[i + 1].line == sentences[i].line + 1:
            listed[i] = listed[i + 1] = True
    return listed


def block_units(block: Block, *, procedure: bool = False) -> list[Unit]:
    """Every unit of a block: each sentence, each dependent pair, each field's default with the sentence saying what
    the field is and, for a procedure question, each run of steps."""
    sentences = quoted_sentences(block)
    context = block.record.heading_path
    units = [Unit(block, (s,), context, _kind(s)) for s in sentences]
    for first, second in zip(sentences, sentences[1:], strict=False):
        points_back = _DEPENDS.match(second.text) or (procedure and _POINTS_BACK.search(second.text))
        if points_back and not second.listed:
            units.append(Unit(block, (first, second), context, "pair"))
    by_text = {s.text: s for s in sentences}
    for sentence in sentences:  # "The default is one second (1s)." with what the field is
        described = by_text.get(sentence.definition)
        if described is not None and described.position < sentence.position and STATES_DEFAULT.search(sentence.text):
            units.append(Unit(block, (described, sentence), context, "described"))
    if procedure:
        units.extend(_steps(block, sentences, context))
        # a lead quoted without its command ("To cluster the database test:") promises what it leaves out: in every
        # unit of a how-to, a lead is quoted with it
        leads = _commands(block, sentences)
        units = [_with_commands(unit, leads) for unit in units]
    return units


def _with_commands(unit: Unit, leads: dict[int, Quoted]) -> Unit:
    """The unit with each lead it quotes followed by its command; a lead alone is a unit of its own kind."""
    if not any(s.position in leads for s in unit.sentences):
        return unit
    sentences = tuple(leads.get(s.position, s) for s in unit.sentences)
    return Unit(unit.block, sentences, unit.context, "command" if len(sentences) == 1 else unit.kind)


def _commands(block: Block, sentences: Sequence[Quoted]) -> dict[int, Quoted]:
    """Each quotable lead of the block's chunk, by its place, as quoted with the command after it (a compressed copy
    has none: what is quoted must be the chunk's own text)."""
    if block.text != block.record.text:
        return {}
    leads = {s.stored: s for s in sentences}
    found: dict[int, Quoted] = {}
    for command in chunk_commands(block.record):
        lead = leads.get(command.lead)
        shown = command_quote(command, block.number)
        if lead is not None and shown is not None:
            found[lead.position] = replace(lead, text=shown)
    return found


def command_quote(command: Command, number: int) -> str | None:
    """A command as the reader writes it, its line a code span so that no Markdown is read in it; None unless the
    sentence buffer then reads it, with its marker, as the very words the verifier finds (commands.py)."""
    if "`" in command.code:
        return None
    shown = f"{command.lead} `{command.code}`"
    buffer = MarkdownSentenceBuffer()
    read = buffer.feed(f"{shown} [{number}]. ")  # as the generator writes it: no end mark, so "[n]." is added
    rest, tail = buffer.flush()
    read += rest
    if tail or len(read) != 1 or read[0].list_item:
        return None
    marked = parse_markers(read[0].text)
    return shown if marked.cited == (number,) and marked.text in (command.text, command.text + ".") else None


def _kind(sentence: Quoted) -> str:
    if sentence.signature:
        return "signature"
    return "field" if FIELD.match(sentence.text) else "sentence"


def _steps(block: Block, sentences: Sequence[Quoted], context: tuple[str, ...]) -> list[Unit]:
    units: list[Unit] = []
    run: list[Quoted] = []
    for sentence in [*sentences, None]:
        if sentence is not None and sentence.listed:
            run.append(sentence)
            continue
        if len(run) >= 2 and not is_contents(run):
            units.append(Unit(block, tuple(run[:MAX_STEPS]), context, "steps"))
        run = []
    for start in range(len(sentences)):
        window = tuple(sentences[start : start + PROCEDURE_SENTENCES])
        if len(window) > 1 and not any(s.listed for s in window) and not is_contents(window):
            units.append(Unit(block, window, context, "section"))
    return units


def is_contents(items: Sequence[Quoted]) -> bool:
    """Whether list items (or a window of lines) are a table of contents rather than steps: half of them or more are
    a page's name and title (`_CONTENTS_ENTRY`)."""
    return 2 * sum(_CONTENTS_ENTRY.match(item.text) is not None for item in items) >= len(items)
