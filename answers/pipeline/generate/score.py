"""The answerability score of a candidate unit (§5.5): one number from the signals that it answers the question.

Signals, each 0..1: the question's terms the unit's words cover, the same weighted by how rare each term is among
the blocks' sentences (a term every sentence has tells little; a term none has is the asked thing missing) or, for a
duration, time or date question, by the retriever's idf over the caller's chunks with the asked type as one more
part (`corpus_term_weights`; then the plain share is the weighted one too), the terms
its heading path covers (a field's name, a section's title), whether it holds the type of answer asked for, its
block's retrieval score against the best block's, how much of the unit is about the question and, when the embedding
model is on, how close in meaning its closest sentence is to the question (blended in at `SEMANTIC_SHARE`; without
the model the score is the lexical one, unchanged). The weights are fixed here; the threshold
that turns the score into answer or refuse (`min_answer_score`) is set from evaluation (`evaluate --sweep`). The
span checks need no signal: a unit quotes stored sentences, so each is its own span, and the verifier judges every
shown sentence all the same.
"""
import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from answers.pipeline.embed.similarity import similarity_to_question
from answers.pipeline.generate.fields import parameter_defaults
from answers.pipeline.generate.units import STATES_DEFAULT, STATES_INITIAL, STATES_OMITTED, Unit
from answers.pipeline.text.questions import QuestionType, type_match
from answers.pipeline.text.tokens import TokenizerConfig, significant_terms

WEIGHTS = {"idf_coverage": 0.4, "coverage": 0.2, "type": 0.15, "margin": 0.1, "precision": 0.1, "heading": 0.05}
SEMANTIC_SHARE = 0.3  # with the model on, the score is (1 - share) * the lexical score + share * the semantic signal
# ... less this, so that one `min_answer_score` serves both: summed over the demo and debian-handbook tuning parts,
# the blend's best threshold was 0.05 under the lexical score's (README, Evaluation: `evaluate --sweep` with
# RAG_EMBEDDINGS on and off).
SEMANTIC_OFFSET = -0.05
# A sentence's cosine to the question (all-MiniLM-L6-v2) read as 0 at or below SEMANTIC_NONE, 1 at SEMANTIC_FULL.
SEMANTIC_NONE = 0.2
SEMANTIC_FULL = 0.7
LONE_STEP = 0.75
ABBREVIATION = 3  # a parameter name's part this long or longer may shorten a question's word ("tol", "tolerance")
DEFAULT = "default"  # the question's term a signature's `name=value` states
UNSTATED_DEFAULT = 0.75  # the type fit of a unit that does not state the asked field's default
# Soft kinds that a unit stating the asked default answers in full (whether it holds their mark or not).
DEFAULT_ANSWERS = (QuestionType.YES_NO, QuestionType.NAME)
# A heading's section number ("E.17. Release 15.4", "9.4. String Functions", "Chapter 5."): where the section stands,
# not a number it speaks of ("PostgreSQL 17" is not answered under E.17).
SECTION_NUMBER = re.compile(
    r"^\s*(?:(?:chapter|appendix|section|part)\s+)?(?:(?:[A-Z]|\d+)(?:\.\d+)*\.|\d+(?:\.\d+)+)(?=\s)", re.I
)
# A command-line option a reference line defines ("-i --interactive", "--if-exists", "-x extension").
OPTION = re.compile(r"^--?[A-Za-z][\w-]*(?=[\s=,\[]|$)")
HEADING_SHARE = 0.5  # a term only the heading covers counts half (the heading is context), a field's term in full


def without_section_numbers(headings: Sequence[str]) -> list[str]:
    """A heading path with each heading's section number left out ("E.17. Release 15.4" -> " Release 15.4")."""
    return [SECTION_NUMBER.sub(" ", part) for part in headings]


@dataclass(frozen=True)
class Signals:
    """What a unit covers of the question and how it scores."""

    covered: frozenset[str]  # by the unit's own words
    context_covered: frozenset[str]  # by its heading path only
    coverage: float
    idf_coverage: float
    heading: float
    type: float
    margin: float
    precision: float

    asked: int = 0  # the question's distinct terms
    weighed_by_corpus: bool = False  # the idf weights are the caller's chunks' (then `idf_coverage` is also a reach)
    heading_share: float = HEADING_SHARE  # what a term only the heading covers counts (in full for a field)
    named: frozenset[str] = frozenset()  # by the term it stands under only (a field's or signature's name)
    semantic: float | None = None  # closeness in meaning of its closest sentence, 0..1; None: the model is off

    @property
    def reached(self) -> frozenset[str]:
        """The question's terms the unit covers in any way."""
        return self.covered | self.named | self.context_covered

    @property
    def reach(self) -> float:
        """The share of the question's terms covered by the unit's words, its term or (in part) its heading."""
        held = len(self.covered) + len(self.named) + self.heading_share * len(self.context_covered)
        return held / self.asked if self.asked else 0.0

    @property
    def distinct_reach(self) -> float:
        """The reach that qualifies a unit: its plain reach or, with the corpus's weights, the weighted one (a unit
        covering the question's rare terms and the asked type reaches it though it lacks the company's name)."""
        return max(self.reach, self.idf_coverage) if self.weighed_by_corpus else self.reach

    @property
    def score(self) -> float:
        """The weighted sum of the lexical signals, 0..1, blended with the semantic signal when there is one."""
        lexical = sum(WEIGHTS[name] * float(getattr(self, name)) for name in WEIGHTS)
        if self.semantic is None:
            return lexical
        return (1 - SEMANTIC_SHARE) * lexical + SEMANTIC_SHARE * self.semantic - SEMANTIC_OFFSET


@functools.lru_cache(maxsize=8192)
def text_terms(text: str, tokenizer: TokenizerConfig) -> frozenset[str]:
    """A text's significant terms, read once: a block's sentences recur in many units and answers."""
    return frozenset(significant_terms(text, tokenizer))


def clear_caches() -> None:
    """Forget the terms read so far (for a benchmark of cold answers)."""
    text_terms.cache_clear()


def term_weights(texts: Iterable[str], terms: Sequence[str], tokenizer: TokenizerConfig) -> dict[str, float]:
    """An idf weight for each question term over the given sentences: log(1 + n / (1 + df))."""
    frequency: Counter[str] = Counter()
    count = 0
    wanted = set(terms)
    for text in texts:
        count += 1
        frequency.update(wanted & text_terms(text, tokenizer))
    return {term: math.log(1 + count / (1 + frequency[term])) for term in wanted}


def corpus_term_weights(frequencies: Mapping[str, int], count: int) -> dict[str, float] | None:
    """The retriever's idf of each term over the caller's chunks, log((n - df + 0.5) / (df + 0.5)), at least 0 (a
    term in half of them tells nothing); None when no term tells anything (a corpus of a chunk or two)."""
    weights = {term: max(math.log((count - df + 0.5) / (df + 0.5)), 0.0) for term, df in frequencies.items()}
    return weights if any(weights.values()) else None


def unit_signals(
    unit: Unit,
    terms: Sequence[str],
    kind: QuestionType,
    *,
    weights: dict[str, float],
    best_score: float,
    tokenizer: TokenizerConfig,
    similarities: Mapping[str, float] | None = None,
    asked_type: float = 0.0,
    by_corpus: bool = False,
) -> Signals:
    """The signals of one unit for a question's terms and type; `similarities` maps a stored sentence to its cosine
    to the question (None: the model is off, the score is lexical); `asked_type` is the weight of the asked type as
    one more part of the question, which the unit holds (a required type: every unit scored holds it); `by_corpus`
    says the weights are the caller's chunks' idf."""
    wanted = set(terms)
    implied = signature_terms(unit, wanted, tokenizer)
    own = set().union(*(text_terms(s.text, tokenizer) for s in unit.sentences)) | implied
    if DEFAULT in wanted and any(STATES_OMITTED.search(s.text) for s in unit.sentences):
        own.add(DEFAULT)  # "If port is omitted, ..." says what "when no port is given" asks
    term_words = text_terms(" ".join(unit.terms), tokenizer)
    heading = text_terms(" ".join(without_section_numbers(unit.context)), tokenizer)
    covered = frozenset(wanted & own)
    named = frozenset((wanted & term_words) - covered)
    context_covered = frozenset((wanted & heading) - covered - named)
    total = (sum(weights.values()) + asked_type) or 1.0
    field = unit.kind == "field"
    share = 1.0 if field else HEADING_SHARE
    weighted = (
        sum(weights[t] for t in covered | named) + share * sum(weights[t] for t in context_covered) + asked_type
    )
    # The corpus's weights let a unit leave out only terms commoner among the caller's chunks than every term it
    # holds (the company's name beside "backup"), never one as rare as those ("refunds" in "How long are refunds
    # kept in the trash?" beside "trash"): else the plain share stands.
    by_corpus = by_corpus and _misses_only_commoner(weights, covered | named | context_covered, wanted)
    first = text_terms(unit.sentences[0].text, tokenizer)
    fit = _type(unit, kind)
    if DEFAULT in wanted:
        if not _states_default(unit, implied, own, wanted, tokenizer):
            fit *= UNSTATED_DEFAULT
        elif kind in DEFAULT_ANSWERS or DEFAULT in implied:
            # the stated default is the answer: "Are dataclasses frozen by default?", and a signature's `timeout=None`
            # for "What is the default timeout of subprocess.run?" though it states no amount
            fit = 1.0
    return Signals(
        covered=covered,
        named=named,
        context_covered=context_covered,
        # With the corpus's weights the plain share gives way to the weighted one: a term most chunks hold (the
        # company's name) no longer counts as much as the asked thing.
        coverage=weighted / total if by_corpus else _plain_coverage(covered, named, context_covered, wanted, field),
        idf_coverage=weighted / total,
        heading=len(wanted & heading) / len(wanted) if wanted else 0.0,
        type=fit,
        margin=unit.block.score / best_score if best_score > 0 else 0.0,
        precision=len(wanted & first) / len(first) if first else 0.0,
        asked=len(wanted),
        weighed_by_corpus=by_corpus,
        heading_share=share,
        semantic=None if similarities is None else _semantic(unit, kind, similarities),
    )


def _misses_only_commoner(weights: Mapping[str, float], held: frozenset[str], wanted: set[str]) -> bool:
    """Whether every asked term the unit lacks weighs less than each one it holds."""
    if not held:
        return False
    lightest = min(weights[t] for t in held)
    return all(weights[t] < lightest for t in wanted - held)


def _plain_coverage(
    covered: frozenset[str], named: frozenset[str], context_covered: frozenset[str], wanted: set[str], field: bool
) -> float:
    """The share of the question's terms covered, a heading's in full for a field only."""
    if not wanted:
        return 0.0
    return (len(covered) + len(named) + (len(context_covered) if field else 0)) / len(wanted)


def semantic_signal(unit: Unit, similarities: Mapping[str, float]) -> float:
    """The cosine to the question of the unit's closest sentence (the mean of its sentences' for a section: a window
    of prose is not close for holding one close sentence), scaled from SEMANTIC_NONE (0) to SEMANTIC_FULL (1)."""
    found = [similarities.get(s.stored or s.text, 0.0) for s in unit.sentences]
    best = sum(found) / len(found) if unit.kind == "section" else max(found, default=0.0)
    return min(max((best - SEMANTIC_NONE) / (SEMANTIC_FULL - SEMANTIC_NONE), 0.0), 1.0)


def _semantic(unit: Unit, kind: QuestionType, similarities: Mapping[str, float]) -> float:
    """The semantic signal, at most `LONE_STEP` for a lone sentence answering a procedure (as its type fit is)."""
    signal = semantic_signal(unit, similarities)
    lone = kind is QuestionType.PROCEDURE and unit.kind in ("sentence", "pair")
    return min(signal, LONE_STEP) if lone else signal


def sentence_similarities(question: str, units: Iterable[Unit]) -> dict[str, float] | None:
    """Each stored sentence of the units with its cosine to the question, or None without the embedding model (the
    index build has the stored sentences' vectors remembered, so only the question is embedded)."""
    texts = list(dict.fromkeys(s.stored or s.text for unit in units for s in unit.sentences))
    found = similarity_to_question(question, texts)
    if found is None:
        return None
    return dict(zip(texts, (float(x) for x in found), strict=True))


def signature_terms(unit: Unit, wanted: set[str], tokenizer: TokenizerConfig) -> set[str]:
    """The asked terms a signature states beyond its words: a parameter named by the question, its name's parts
    also as the words they shorten ("rel_tol" for "relative tolerance"), and "default" for one that has a default."""
    signature = unit.sentences[0].signature
    if not signature:
        return set()
    found: set[str] = set()
    for name in parameter_defaults(signature):
        parts = significant_terms(name, tokenizer)
        by_part = [{t for t in wanted if t == p or (len(p) >= ABBREVIATION and t.startswith(p))} for p in parts]
        if parts and all(by_part):  # every part of the name is asked for
            found |= set().union(*by_part) | ({DEFAULT} & wanted)
    return found


def states_asked_default(unit: Unit, terms: Sequence[str], tokenizer: TokenizerConfig) -> bool:
    """Whether the unit is a signature stating the default of a parameter the question names and asks the default of
    (`timeout=None` for "What is the default timeout of subprocess.run?")."""
    wanted = set(terms)
    return DEFAULT in wanted and DEFAULT in signature_terms(unit, wanted, tokenizer)


def _states_default(
    unit: Unit, implied: set[str], own: set[str], wanted: set[str], tokenizer: TokenizerConfig
) -> bool:
    """Whether the unit states the default of an asked field: a signature's parameter the question names, a
    sentence saying "default" under the term of a field the question names, or a "Default: ..." field."""
    signature = unit.sentences[0].signature
    if signature:  # a default of a parameter asked for, or of the function asked for
        name = set(significant_terms(signature.split("(", 1)[0], tokenizer))
        return DEFAULT in implied or (bool(parameter_defaults(signature)) and name <= wanted)
    # The field's whole name is asked ("shared_buffers", not "wal_buffers" for a question on shared_buffers); the
    # type in its parentheses is not part of it.
    field = set(significant_terms(re.sub(r"\([^()]*\)", " ", unit.sentences[0].field), tokenizer))
    states = any(STATES_DEFAULT.search(s.text) or STATES_OMITTED.search(s.text) for s in unit.sentences)
    # ... or a value the thing starts with, in a unit whose own words say every other asked term ("Note that the root
    # logger is created with level WARNING." for "What is the default level of the root logger?")
    initial = wanted - {DEFAULT} <= own and any(STATES_INITIAL.search(s.text) for s in unit.sentences)
    return initial or (states and ((bool(field) and field <= wanted) or unit.kind == "field"))


def _defines_an_option(unit: Unit) -> bool:
    """Whether the unit starts with the line that defines a command's option ("-i --interactive: Prompt for
    confirmation ..."), not with a later sentence of its description."""
    first = unit.sentences[0].text
    return any(OPTION.match(term) and first.startswith(term) for term in unit.terms)


def _type(unit: Unit, kind: QuestionType) -> float:
    """How the unit fits the asked type; for a procedure, steps fit best and a lone sentence or a pair (by its more
    procedural sentence) at most `LONE_STEP` (a procedure is told in more than one sentence)."""
    if kind is not QuestionType.PROCEDURE:
        return type_match(unit.text, kind)
    if unit.kind == "steps" or _defines_an_option(unit):
        return 1.0  # steps, or a command's option: passing it is the step ("--if-exists: Do not throw an error ...")
    if unit.kind == "pair":  # the step may be the sentence that depends on the first ("This is done with ...")
        return min(max(type_match(s.text, kind) for s in unit.sentences), LONE_STEP)
    fit = type_match(unit.sentences[0].text, kind)
    return min(fit, LONE_STEP) if unit.kind == "sentence" else fit
