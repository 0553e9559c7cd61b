"""The extractive generator: quotes the 1-3 stored block sentences that best answer the question (never an
instruction)."""
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from answers.pipeline.config import PipelineConfig
from answers.pipeline.evidence import block_evidence
from answers.pipeline.generate.base import GenerationRequest
from answers.pipeline.text.instructions import instruction_reason
from answers.pipeline.text.quantities import numbers_in
from answers.pipeline.text.questions import ASKS_SEVERAL, question_terms, wants_quantity
from answers.pipeline.text.sentences import MARKER, passage_sentences
from answers.pipeline.text.tokens import significant_terms
from answers.pipeline.types import Block

_MONTH_OR_DAY = re.compile(
    r"\b(january|february|march|april|may|june|july|august|september|october|november|december|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|midnight|noon)\b",
    re.I,
)
_MIN_WORDS = 4
_LIST_MARK = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)])\s+")
_PART_SLACK = 0.3


@dataclass(frozen=True)
class Candidate:
    """A sentence of a block with what it covers of the question."""

    text: str
    block: Block
    covered: frozenset[str]
    coverage: float
    precision: float
    position: int


def extract_answer(question: str, blocks: Sequence[Block], *, config: PipelineConfig) -> list[str]:
    """Pick the sentences that answer the question, each ending with its block's marker.

    One sentence must cover `min_sentence_coverage` of the question's terms; a question that asks for several
    facts may instead be answered by up to `max_sentences` sentences that each cover part of it
    (`_PART_SLACK` less) and together cover that share.
    """
    terms = question_terms(question, config=config)
    if not terms:
        return []
    quantity = wants_quantity(question)
    floor = config.min_sentence_coverage
    if ASKS_SEVERAL.search(question):
        floor = max(floor - _PART_SLACK, 0.0)
    ranked = sorted(
        (c for c in _candidates(blocks, terms, config=config) if _qualifies(c, floor, quantity)),
        key=lambda c: (-c.coverage, -c.precision, -c.block.score, len(c.text), c.block.number, c.position),
    )
    chosen: list[Candidate] = []
    covered: set[str] = set()
    seen: set[str] = set()
    for candidate in ranked:
        if len(chosen) == (config.max_sentences if floor < config.min_sentence_coverage else 1):
            break
        if (not chosen or candidate.covered - covered) and _normalise(candidate.text) not in seen:
            chosen.append(candidate)
            covered |= candidate.covered
            seen.add(_normalise(candidate.text))
    if len(covered) / len(terms) < config.min_sentence_coverage:
        return []
    if len(chosen) > 1 and chosen[0].coverage >= config.min_sentence_coverage:
        # A sentence that answers the whole question on its own keeps only partners that add to it.
        chosen = [chosen[0]] + [c for c in chosen[1:] if c.coverage >= floor]
    return [_with_marker(c.text, c.block.number) for c in chosen]


class ExtractiveGenerator:
    """Streams the extracted sentences; deterministic, so it never regenerates."""

    name = "extractive"
    regenerates = False

    def __init__(self, config: PipelineConfig) -> None:
        self._config = config

    async def stream(self, request: GenerationRequest) -> AsyncIterator[str]:
        """Yield one sentence at a time."""
        for sentence in extract_answer(request.question, request.blocks, config=self._config):
            yield sentence + " "


def _candidates(blocks: Sequence[Block], terms: list[str], *, config: PipelineConfig) -> list[Candidate]:
    wanted = set(terms)
    found: list[Candidate] = []
    for block in blocks:
        # A document's own "[1]" must never become a citation; fragments are not answers; instructions are not evidence.
        sentences = (" ".join(MARKER.sub("", s).split()) for s in _block_sentences(block))
        for position, sentence in enumerate(s for s in sentences if len(s.split()) >= _MIN_WORDS):
            own = set(significant_terms(sentence, config.tokenizer))
            if not own:  # stop words only ("All of the above."): nothing it could answer with
                continue
            covered = frozenset(wanted & own)
            found.append(
                Candidate(sentence, block, covered, len(covered) / len(wanted), len(covered) / len(own), position)
            )
    return found


def _block_sentences(block: Block) -> list[str]:
    """The sentences of a block the reader may quote: the chunk's stored sentences less its instructions, so that each
    quoted sentence is a stored one and the verifier finds that very sentence as its span. A compressed copy (not the
    chunk's text) is split afresh, less what is not whole in the chunk's evidence, and so is a chunk stored before
    sentences were (the passage splitter knows its headings and wrapped lines, which a plain split does not).
    """
    record = block.record
    if block.text != record.text or not record.sentences:
        return passage_sentences(block_evidence(block))
    return [_LIST_MARK.sub("", record.text[s.start : s.end]) for s in record.sentences if not s.instruction]


def _qualifies(candidate: Candidate, floor: float, needs_number: bool) -> bool:
    # The rule again on the sentence itself: a chunk flagged at ingestion by an older rule is judged by today's too.
    if candidate.coverage < floor or instruction_reason(candidate.text) is not None:
        return False
    if needs_number:
        return bool(numbers_in(candidate.text) or _MONTH_OR_DAY.search(candidate.text))
    return True


def _with_marker(sentence: str, number: int) -> str:
    """Put the marker before the closing punctuation: "... 30 days [2]."."""
    match = re.search(r"[.!?]+[\"')\]]*$", sentence)
    if match is None:
        return f"{sentence} [{number}]."
    return f"{sentence[: match.start()]} [{number}]{sentence[match.start():]}"


def _normalise(text: str) -> str:
    return re.sub(r"\W+", " ", text).strip().lower()
