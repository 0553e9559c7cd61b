"""Answer units: the stored sentences of a block grouped with the context they need to answer (§5.5).

A unit quotes only stored sentences, whole; its context (the chunk's heading path, which names a field such as
`SESSION_COOKIE_AGE`, a table or a section) decides whether it is relevant and is never pasted into what is shown:
- a single sentence (a field's "Default: ..." line, a table row naming its headers, a defined term with its body);
- a sentence with the next one when the next depends on it ("This ...", "It ...");
- the consecutive list items of one list, for a question asking how to do something;
- a sentence with the sentences after it in its section, for such a question when no list holds the steps.
"""
import re
from collections.abc import Sequence
from dataclasses import dataclass

from answers.pipeline.evidence import block_evidence
from answers.pipeline.text.instructions import instruction_reason
from answers.pipeline.text.sentences import MARKER, passage_sentences
from answers.pipeline.types import Block

MIN_WORDS = 4
MAX_STEPS = 8
PROCEDURE_SENTENCES = 3
_LIST_MARK = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)])\s+")
_DEPENDS = re.compile(r"^(?:this|that|these|those|it|its|they|their|them|such|he|she|then|otherwise)\b", re.I)


@dataclass(frozen=True)
class Quoted:
    """A stored sentence of a block as the reader may quote it, its place in the block and whether it is a list item."""

    text: str
    position: int
    listed: bool


@dataclass(frozen=True)
class Unit:
    """One or more consecutive quoted sentences of a block, with the heading path that gives them their context."""

    block: Block
    sentences: tuple[Quoted, ...]
    context: tuple[str, ...]
    kind: str  # "sentence", "pair", "steps" or "section"

    @property
    def text(self) -> str:
        """The unit's sentences joined (for matching; each is shown and verified apart)."""
        return " ".join(s.text for s in self.sentences)

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
    if block.text != record.text or not record.sentences:
        raw = [(s, False) for s in passage_sentences(block_evidence(block))]
    else:
        raw = [
            (record.text[s.start : s.end], bool(_LIST_MARK.match(record.text[s.start : s.end])))
            for s in record.sentences
            if not s.instruction
        ]
    quoted: list[Quoted] = []
    for text, listed in raw:
        clean = " ".join(MARKER.sub("", _LIST_MARK.sub("", text)).split())
        if len(clean.split()) >= MIN_WORDS and instruction_reason(clean) is None:
            quoted.append(Quoted(clean, len(quoted), listed))
    return quoted


def block_units(block: Block, *, procedure: bool = False) -> list[Unit]:
    """Every unit of a block: each sentence, each dependent pair and, for a procedure question, each run of steps."""
    sentences = quoted_sentences(block)
    context = block.record.heading_path
    units = [Unit(block, (s,), context, "sentence") for s in sentences]
    for first, second in zip(sentences, sentences[1:], strict=False):
        if _DEPENDS.match(second.text) and not second.listed:
            units.append(Unit(block, (first, second), context, "pair"))
    if procedure:
        units.extend(_steps(block, sentences, context))
    return units


def _steps(block: Block, sentences: Sequence[Quoted], context: tuple[str, ...]) -> list[Unit]:
    units: list[Unit] = []
    run: list[Quoted] = []
    for sentence in [*sentences, None]:
        if sentence is not None and sentence.listed:
            run.append(sentence)
            continue
        if len(run) >= 2:
            units.append(Unit(block, tuple(run[:MAX_STEPS]), context, "steps"))
        run = []
    for start in range(len(sentences)):
        window = tuple(sentences[start : start + PROCEDURE_SENTENCES])
        if len(window) > 1 and not any(s.listed for s in window):
            units.append(Unit(block, window, context, "section"))
    return units
