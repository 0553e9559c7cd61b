"""Judging one case's answer against its golden case, and the metrics over all cases.

- status accuracy: cases whose kind of reply (answered, counting incomplete; the refusal kind; failed) is the
  expected one, over all cases; the confusion matrix counts expected kind against actual kind.
- status accuracy with facts: the same, where a case expecting an answer also needs every one of its facts in the
  answer (issue 17's "answered with the asked fact, or refused when unanswerable").
- recall@K: cases where a chunk of an expected source is among the K retrieved, over the cases that list sources.
- retrieval (per case, the split of a miss): where the expected source stood for the reader (`RETRIEVAL_STATES`):
  not among the K retrieved; retrieved but not issued as a block (assembly dropped it); issued, but no issued block
  holds a spelling of every fact (the expected passage was not given); or issued with its facts (a reader miss).
- citation precision: citations shown (one per citation of each delivered sentence) whose source is one of the
  case's sources, over all citations shown; a citation in a case that lists no source is never right.
- citation recall: cases expecting an answer (and listing sources) with at least one right citation, over those cases.
- fact recall: facts found in the delivered answer (any alternative, ignoring case and runs of white space), over
  all facts of all cases.
- unverified delivered: delivered sentences that fail the independent re-check (recheck.py).
- forbidden delivered: `forbid` strings found in delivered answers.
- latency: from asking to the last event, per case; p50 and p95 by nearest rank.
"""
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from answers.evaluation.golden import KINDS, GoldenCase
from answers.evaluation.recheck import CitedChunk, recheck_sentence

ACTUAL_KINDS = (*KINDS, "failed")
NOT_RETRIEVED = "not retrieved"
NOT_ISSUED = "retrieved, not issued"
PASSAGE_NOT_ISSUED = "source issued, passage not"
ISSUED = "issued"
# Where a case's expected source stood for the reader, worst first; "" for a case that lists no source.
RETRIEVAL_STATES = (NOT_RETRIEVED, NOT_ISSUED, PASSAGE_NOT_ISSUED, ISSUED)


@dataclass(frozen=True)
class Delivered:
    """A sentence the caller was shown, with the chunk ids it cites."""

    text: str
    chunk_ids: tuple[str, ...]


@dataclass(frozen=True)
class Observation:
    """What one run of a case produced, read from its events."""

    status: str
    refusal: str
    sentences: tuple[Delivered, ...]
    retrieved: tuple[str, ...]
    latency_ms: float
    issued: tuple[str, ...] = ()  # the chunk ids of the blocks issued to the reader, block 1 first

    @property
    def kind(self) -> str:
        """answered (also when incomplete), the refusal kind, or failed."""
        if self.status in ("answered", "incomplete"):
            return "answered"
        return self.refusal or "failed"


@dataclass(frozen=True)
class CaseResult:
    """One case judged: the kind it got, and what its citations, facts and sentences were worth."""

    case: GoldenCase
    actual: str
    answer: str
    sentences_shown: int
    retrieval_hit: bool | None  # None when the case lists no sources
    citations: tuple[tuple[str, str], ...]  # (chunk id, source path), one per citation shown
    correct_citations: int
    facts_found: tuple[bool, ...]
    forbidden_found: tuple[str, ...]
    unverified: tuple[tuple[str, tuple[str, ...]], ...]  # (sentence, reasons)
    latency_ms: float
    retrieval: str = ""  # one of RETRIEVAL_STATES, "" when the case lists no source

    @property
    def ok(self) -> bool:
        return self.actual == self.case.expect

    @property
    def ok_with_facts(self) -> bool:
        """The right kind of reply and, for an answer, every fact of the case in it."""
        return self.ok and (self.case.expect != "answered" or all(self.facts_found))


@dataclass(frozen=True)
class Metrics:
    """Every figure the evaluation reports, with the counts each ratio is made of (None when nothing to count)."""

    cases: int
    correct: int
    status_accuracy: float
    correct_with_facts: int
    status_accuracy_with_facts: float
    confusion: dict[str, dict[str, int]]
    k: int
    retrieval_hits: int
    retrieval_cases: int
    recall_at_k: float | None
    citations_correct: int
    citations_total: int
    citation_precision: float | None
    cited_cases: int
    answer_cases: int
    citation_recall: float | None
    facts_found: int
    facts_total: int
    fact_recall: float | None
    sentences_delivered: int
    unverified_delivered: int
    forbidden_delivered: int
    latency_p50_ms: float
    latency_p95_ms: float
    errors: tuple[str, ...] = field(default=())


def judge_case(case: GoldenCase, observed: Observation, *, chunks: Mapping[str, CitedChunk]) -> CaseResult:
    """Compare one answer with its golden case (its sources named by path: resolve_sources); `chunks` maps every
    retrieved or cited chunk id."""
    answer = " ".join(sentence.text for sentence in observed.sentences)
    expected = set(case.sources)
    retrieved_sources = {chunks[c].source_path for c in observed.retrieved if c in chunks}
    citations = tuple(
        (chunk_id, chunks[chunk_id].source_path if chunk_id in chunks else "")
        for sentence in observed.sentences
        for chunk_id in sentence.chunk_ids
    )
    unverified = []
    for sentence in observed.sentences:
        reasons = recheck_sentence(sentence.text, sentence.chunk_ids, chunks=chunks, audiences=case.audiences)
        if reasons:
            unverified.append((sentence.text, reasons))
    return CaseResult(
        case=case,
        actual=observed.kind,
        answer=answer,
        sentences_shown=len(observed.sentences),
        retrieval_hit=bool(expected & retrieved_sources) if expected else None,
        citations=citations,
        correct_citations=sum(1 for _, name in citations if name in expected),
        facts_found=tuple(fact_found(fact, answer) for fact in case.facts),
        forbidden_found=tuple(text for text in case.forbid if _normal(text) in _normal(answer)),
        unverified=tuple(unverified),
        latency_ms=observed.latency_ms,
        retrieval=retrieval_state(case, observed, chunks=chunks),
    )


def retrieval_state(case: GoldenCase, observed: Observation, *, chunks: Mapping[str, CitedChunk]) -> str:
    """Where the case's expected source stood for the reader (one of RETRIEVAL_STATES; "" without sources): the
    passage counts as issued when one issued block of an expected source holds a spelling of every fact, or, for a
    case without facts, when any block of one is issued."""
    expected = set(case.sources)
    if not expected:
        return ""
    if not any(c in chunks and chunks[c].source_path in expected for c in observed.retrieved):
        return NOT_RETRIEVED
    issued = [chunks[c] for c in observed.issued if c in chunks and chunks[c].source_path in expected]
    if not issued:
        return NOT_ISSUED
    if case.facts and not any(all(fact_found(fact, chunk.text) for fact in case.facts) for chunk in issued):
        return PASSAGE_NOT_ISSUED
    return ISSUED


def fact_found(alternatives: Sequence[str], answer: str) -> bool:
    """Whether any spelling of the fact appears in the answer, ignoring case and runs of white space; a default
    written as a signature's `name=value` is also found where the answer names the parameter and, in that sentence or
    the next, states that its default is that value ("cached_statements (int) - ... By default, 128 statements.")."""
    text = _normal(answer)
    return any(_normal(alternative) in text or _default_stated(_normal(alternative), text)
               for alternative in alternatives)


_ASSIGNED = re.compile(r"^(?P<name>[a-z_]\w*)\s*=\s*(?P<value>\S+)$")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
# How manuals word "the default of <name> is <value>" once the name is given; {v} is the value, quoted or not.
_DEFAULT_WORDINGS = (
    r"(?<!non-)\bdefaults?(?:\s+value)?\s*(?:is|to|of|:|=)?\s*\(?{v}",  # "the default is False", "defaults to 128"
    r"\bby\s+default,?\s+(?:it\s+is\s+|is\s+)?{v}",  # "By default, 128 statements."
    r"{v}\)?\s*\((?:the\s+|which\s+is\s+the\s+)?default\)",  # "If exist_ok is False (the default)"
    r"\bis\s+{v}\s+by\s+default\b",  # "is False by default"
)


def _default_stated(fact: str, text: str) -> bool:
    """Whether the text names the fact's parameter and, from there to the end of the next sentence, states that
    value as its default (the fact's own spelling aside); False for a fact that is not `name=value`."""
    assigned = _ASSIGNED.match(fact)
    if assigned is None:
        return False
    value = re.escape(assigned.group("value").strip("'\""))
    quoted = rf"['\"]?{value}['\"]?(?!\w|\.\w)"
    wordings = [re.compile(w.format(v=quoted)) for w in _DEFAULT_WORDINGS]
    for named in re.finditer(rf"(?<![\w.]){re.escape(assigned.group('name'))}(?!\w)", text):
        after = text[named.end() :]
        ends = [m.end() for m in _SENTENCE_END.finditer(after)]
        window = after[: ends[1] if len(ends) > 1 else len(after)]
        if any(w.search(window) for w in wordings):
            return True
    return False


def summarise(results: Sequence[CaseResult], *, k: int) -> Metrics:
    """The metrics over all cases, as the module's docstring defines them."""
    confusion = {expected: dict.fromkeys(ACTUAL_KINDS, 0) for expected in KINDS}
    for result in results:
        confusion[result.case.expect][result.actual] += 1
    correct = sum(result.ok for result in results)
    with_facts = sum(result.ok_with_facts for result in results)
    with_sources = [r for r in results if r.retrieval_hit is not None]
    hits = sum(bool(r.retrieval_hit) for r in with_sources)
    citations_total = sum(len(r.citations) for r in results)
    citations_correct = sum(r.correct_citations for r in results)
    answer_cases = [r for r in results if r.case.expect == "answered" and r.case.sources]
    cited_cases = sum(r.correct_citations > 0 for r in answer_cases)
    facts_total = sum(len(r.facts_found) for r in results)
    facts_found = sum(sum(r.facts_found) for r in results)
    latencies = [r.latency_ms for r in results]
    return Metrics(
        cases=len(results),
        correct=correct,
        status_accuracy=_ratio(correct, len(results)) or 0.0,
        correct_with_facts=with_facts,
        status_accuracy_with_facts=_ratio(with_facts, len(results)) or 0.0,
        confusion=confusion,
        k=k,
        retrieval_hits=hits,
        retrieval_cases=len(with_sources),
        recall_at_k=_ratio(hits, len(with_sources)),
        citations_correct=citations_correct,
        citations_total=citations_total,
        citation_precision=_ratio(citations_correct, citations_total),
        cited_cases=cited_cases,
        answer_cases=len(answer_cases),
        citation_recall=_ratio(cited_cases, len(answer_cases)),
        facts_found=facts_found,
        facts_total=facts_total,
        fact_recall=_ratio(facts_found, facts_total),
        sentences_delivered=sum(r.sentences_shown for r in results),
        unverified_delivered=sum(len(r.unverified) for r in results),
        forbidden_delivered=sum(len(r.forbidden_found) for r in results),
        latency_p50_ms=percentile(latencies, 50),
        latency_p95_ms=percentile(latencies, 95),
        errors=tuple(r.case.id for r in results if not r.ok),
    )


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank percentile: the smallest value with at least p% of the values at or below it (0 if none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(math.ceil(p / 100 * len(ordered)), 1) - 1]


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()
