"""The gates before generation (§5.2): no_material, then a conflict between sources."""
import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation

from answers.pipeline.config import PipelineConfig
from answers.pipeline.evidence import evidence_text
from answers.pipeline.spans import support_span
from answers.pipeline.text.quantities import Quantity, find_quantities
from answers.pipeline.text.questions import question_terms, sentence_coverage
from answers.pipeline.text.sentences import passage_sentences
from answers.pipeline.text.tokens import significant_terms, tokenize
from answers.pipeline.types import Block, Conflict, Retrieved, Statement

MIN_SHARED_CONTEXT = 2  # "share at least two significant tokens" (§5.2)


def gate_no_material(
    *,
    question: str,
    retrieved: Sequence[Retrieved],
    has_term: Callable[[str], bool],
    config: PipelineConfig,
) -> str | None:
    """None when there is material to answer from, else why not, for the log."""
    if not retrieved:
        return "no hit"
    best = max(hit.score for hit in retrieved)
    if best < config.min_score:
        return f"best score {best:.3f} below {config.min_score}"
    terms = significant_terms(question, config.tokenizer)
    if not terms:
        return "no significant terms in the question"
    covered = sum(1 for term in terms if has_term(term))
    # A true division is correctly rounded, so 3 of 5 terms meets a threshold of 0.6 exactly.
    if covered / len(terms) < config.min_coverage:
        return f"coverage {covered}/{len(terms)} below {config.min_coverage}"
    return None


def find_conflict(
    blocks: Sequence[Block], *, config: PipelineConfig, question: str | None = None, terms: list[str] | None = None
) -> Conflict | None:
    """The best-ranked conflict between two sources, or None.

    Two statements conflict when their blocks come from different sources, they have the same unit and different
    values, and the last `config.conflict_window` significant tokens before each number share at least two. Of
    several conflicting pairs, the one whose blocks rank best wins: rank is the assembly order (score, then chunk
    id), not the block number, which is presentation order. Pairs compare by their better block's rank, then the
    other block's, then by where the statements stand in their texts. The sides are newest first by the source's
    update date (no date is oldest), ties by chunk id. Given the question, a pair counts only when the context the
    two statements share holds at least two of the question's significant terms (all of them if it has fewer), and
    each statement's sentence covers as much of the question as an answering sentence must
    (`min_sentence_coverage`): a disagreement that would not answer the question does not refuse it. `terms` are the
    question's terms (`question_terms`) when the caller has them already.
    """
    asked = None if question is None else frozenset(tokenize(question, config.tokenizer))
    if terms is None and question is not None:  # the caller may pass the question's terms it already has
        terms = question_terms(question, config=config)
    ranked = sorted(blocks, key=lambda block: (-block.score, block.record.chunk_id))
    stated = [
        _Stated(rank=rank, statement=statement, context=_context(quantity, config=config))
        for rank, block in enumerate(ranked)
        for statement, quantity in _statements(block)
        if terms is None or sentence_coverage(statement.sentence, terms, config=config) >= config.min_sentence_coverage
    ]
    # `stated` runs in rank order, then text order, so a pair (i, j) with i < j has its better block first.
    pairs = (
        (a.rank, b.rank, i, j)
        for i, a in enumerate(stated)
        for j, b in enumerate(stated[i + 1 :], start=i + 1)
        if _disagree(a, b, asked=asked)
    )
    best = min(pairs, default=None)
    if best is None:
        return None
    _, _, i, j = best
    sides = (_with_span(stated[i].statement, config=config), _with_span(stated[j].statement, config=config))
    return Conflict(sides=_newest_first(*sides))


@dataclass(frozen=True)
class _Stated:
    rank: int
    statement: Statement
    context: frozenset[str]


def _disagree(a: _Stated, b: _Stated, *, asked: frozenset[str] | None) -> bool:
    if a.statement.block.record.source_id == b.statement.block.record.source_id:
        return False
    if a.statement.unit != b.statement.unit or _same_value(a.statement.value, b.statement.value):
        return False
    shared = a.context & b.context
    if len(shared) < MIN_SHARED_CONTEXT:
        return False
    return asked is None or len(shared & asked) >= min(MIN_SHARED_CONTEXT, len(asked))


def _statements(block: Block) -> Iterator[tuple[Statement, Quantity]]:
    # The record's text, not block.text: a compressed copy may have dropped the sentence that conflicts. Less its
    # instructions: a number an injected instruction states is no side of a conflict (§2.8).
    for sentence, quantity in _quantities(evidence_text(block.record)):
        yield Statement(block=block, sentence=sentence, value=quantity.value, unit=quantity.unit), quantity


@functools.lru_cache(maxsize=4096)
def _quantities(text: str) -> tuple[tuple[str, Quantity], ...]:
    # Every question reads its blocks' sentences for numbers again; a chunk's text never changes (rows are
    # immutable), so a hot chunk is read once. A function of the text only: nothing about the caller is kept.
    return tuple((sentence, quantity) for sentence in passage_sentences(text) for quantity in find_quantities(sentence))


def _with_span(statement: Statement, *, config: PipelineConfig) -> Statement:
    """The statement with the stored sentence(s) of its chunk that hold it: the span its side names (§2.7)."""
    terms = significant_terms(statement.sentence, config.tokenizer)
    supported = support_span(terms, statement.block.record, tokenizer=config.tokenizer)
    return replace(statement, span=supported[0] if supported else None)


def _context(quantity: Quantity, *, config: PipelineConfig) -> frozenset[str]:
    tokens = tokenize(" ".join(quantity.context), config.tokenizer)
    return frozenset(tokens[-config.conflict_window :]) if config.conflict_window > 0 else frozenset()


def _same_value(a: str, b: str) -> bool:
    # "2.50" and "2.5" state the same amount; compare each end of a range as a number.
    try:
        return [Decimal(part) for part in a.split("-")] == [Decimal(part) for part in b.split("-")]
    except InvalidOperation:
        return a == b


def _newest_first(a: Statement, b: Statement) -> tuple[Statement, Statement]:
    def key(statement: Statement) -> tuple[int, str]:
        updated_on = statement.block.record.updated_on
        return (-updated_on.toordinal() if updated_on else 0, statement.block.record.chunk_id)

    first, second = sorted((a, b), key=key)
    return first, second
