"""The extractive generator: quotes the 1-3 block sentences that best answer the question, with their markers."""
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from answers.pipeline.config import PipelineConfig
from answers.pipeline.generation import GenerationRequest
from answers.pipeline.quantities import numbers_in
from answers.pipeline.sentences import MARKER, split_sentences
from answers.pipeline.tokenize import significant_terms
from answers.pipeline.types import Block

# Words that only say what kind of answer is wanted ("how long", "how many") carry no content to match.
_ASKS_QUANTITY = re.compile(
    r"\b(how\s+(?:many|long|much|often|soon|fast|large|big|quickly)|when|what\s+time|(?:which|what)\s+year)\b", re.I
)
_ASKS_SEVERAL = re.compile(r"\b(and|both|each|all|list|compare)\b|,", re.I)
_MONTH_OR_DAY = re.compile(
    r"\b(january|february|march|april|may|june|july|august|september|october|november|december|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|midnight|noon)\b",
    re.I,
)
# Text addressed to an assistant is data in a document, never something to repeat as an answer.
_ADDRESSED_TO_MODEL = re.compile(
    r"\b(ignore|disregard|forget|override)\b[^.]{0,60}\b(instructions?|prompts?|rules|guidelines)\b|"
    r"\b(system prompt|you are (?:now )?(?:an? )?(?:ai|assistant|language model|chatbot))\b",
    re.I,
)
_LIST_MARK = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)])\s+")
_NEW_PARAGRAPH = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)]|#|\||```|~~~|>)")
_MIN_WORDS = 4
_HEADING_WORDS = 6  # a short line without end punctuation before a capitalised line is a heading, not a wrap
_PART_SLACK = 0.25


@dataclass(frozen=True)
class Candidate:
    """A sentence of a block with what it covers of the question."""

    text: str
    block: Block
    covered: frozenset[str]
    coverage: float
    position: int


def question_terms(question: str, *, config: PipelineConfig) -> list[str]:
    """The question's significant terms, without the words that only ask for a quantity."""
    return significant_terms(_ASKS_QUANTITY.sub(" ", question), config.tokenizer)


def extract_answer(question: str, blocks: Sequence[Block], *, config: PipelineConfig) -> list[str]:
    """Pick the sentences that answer the question, each ending with its block's marker.

    One sentence must cover `min_sentence_coverage` of the question's terms; a question that asks for several
    facts may instead be answered by up to `max_sentences` sentences that each cover part of it
    (`_PART_SLACK` less) and together cover that share.
    """
    terms = question_terms(question, config=config)
    if not terms:
        return []
    wants_quantity = bool(_ASKS_QUANTITY.search(question))
    floor = config.min_sentence_coverage
    if _ASKS_SEVERAL.search(question):
        floor = max(floor - _PART_SLACK, 0.0)
    ranked = sorted(
        (c for c in _candidates(blocks, terms, config=config) if _qualifies(c, floor, wants_quantity)),
        key=lambda c: (-c.coverage, -c.block.score, len(c.text), c.block.number, c.position),
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
        for position, sentence in enumerate(_block_sentences(block.text)):
            covered = frozenset(wanted & set(significant_terms(sentence, config.tokenizer)))
            found.append(Candidate(sentence, block, covered, len(covered) / len(wanted), position))
    return found


def _qualifies(candidate: Candidate, floor: float, wants_quantity: bool) -> bool:
    if candidate.coverage < floor or _ADDRESSED_TO_MODEL.search(candidate.text):
        return False
    if wants_quantity:
        return bool(numbers_in(candidate.text) or _MONTH_OR_DAY.search(candidate.text))
    return True


def _block_sentences(text: str) -> list[str]:
    """Sentences of a block: wrapped lines joined, list items and headings kept apart, markup stripped."""
    paragraphs: list[list[str]] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("```", "~~~", "#", "|")):
            paragraphs.append([])
            continue
        starts_new = _NEW_PARAGRAPH.match(line) or not paragraphs or not paragraphs[-1]
        previous = paragraphs[-1][-1].rstrip() if paragraphs and paragraphs[-1] else ""
        ends_previous = previous[-1:] in ".!?:" or (
            len(previous.split()) <= _HEADING_WORDS and stripped[:1].isupper()
        )
        if starts_new or ends_previous:
            paragraphs.append([])
        paragraphs[-1].append(_LIST_MARK.sub("", stripped))
    sentences: list[str] = []
    for paragraph in paragraphs:
        for sentence in split_sentences(" ".join(paragraph)):
            clean = MARKER.sub("", sentence).strip()  # a document's own "[1]" must not become a citation
            if len(clean.split()) >= _MIN_WORDS:
                sentences.append(clean)
    return sentences


def _with_marker(sentence: str, number: int) -> str:
    """Put the marker before the closing punctuation: "... 30 days [2]."."""
    match = re.search(r"[.!?]+[\"')\]]*$", sentence)
    if match is None:
        return f"{sentence} [{number}]."
    return f"{sentence[: match.start()]} [{number}]{sentence[match.start():]}"


def _normalise(text: str) -> str:
    return re.sub(r"\W+", " ", text).strip().lower()
