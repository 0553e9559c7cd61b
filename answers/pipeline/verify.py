"""Verification of one complete sentence against the support span of each block it cites (§5.6): a citation passes
when it was issued, its span shares enough of the sentence's terms, and the span bears out the sentence's numbers,
names and negations (bounds.py)."""
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from answers.pipeline.bounds import ONLY_IN_INSTRUCTIONS, bound_problems
from answers.pipeline.commands import command_support
from answers.pipeline.config import PipelineConfig
from answers.pipeline.evidence import evidence_text, instruction_text
from answers.pipeline.spans import support_span
from answers.pipeline.text.claims import NUMBER_WORDS, negation_terms, read_claims, read_names
from answers.pipeline.text.sentences import parse_markers
from answers.pipeline.text.synonyms import reword_phrases, same_meaning, synonym_terms, tabled_terms
from answers.pipeline.text.tokens import TokenizerConfig, significant_terms
from answers.pipeline.text.wording import antonym_terms, say_quantities
from answers.pipeline.types import Block, SupportSpan

# With fewer blocks than this, "in most blocks" says nothing about a term (one block holds every one of its terms).
_MIN_BLOCKS_FOR_COMMON_TERMS = 3


@dataclass(frozen=True)
class Verdict:
    """The outcome for one sentence: shown with its passing citations and their spans, or dropped with reasons."""

    text: str
    passing: tuple[int, ...]
    reasons: tuple[str, ...]
    spans: tuple[SupportSpan, ...] = ()  # one per passing citation, in the same order

    @property
    def shown(self) -> bool:
        return bool(self.passing)


# Every sentence of an answer is checked against the same few chunk texts: tokenize each text once.
@functools.lru_cache(maxsize=256)
def _terms_of(text: str, tokenizer: TokenizerConfig) -> frozenset[str]:
    return frozenset(significant_terms(text, tokenizer))


def common_terms(blocks: Sequence[Block], *, config: PipelineConfig) -> frozenset[str]:
    """Terms found in more than `common_term_share` of the blocks' original texts (less their instructions)."""
    if len(blocks) < _MIN_BLOCKS_FOR_COMMON_TERMS:
        return frozenset()
    counts: dict[str, int] = {}
    for block in blocks:
        for term in _terms_of(evidence_text(block.record), config.tokenizer):
            counts[term] = counts.get(term, 0) + 1
    return frozenset(term for term, count in counts.items() if count / len(blocks) > config.common_term_share)


def verify_sentence(
    sentence: str,
    *,
    blocks: Mapping[int, Block],
    config: PipelineConfig,
    common: frozenset[str] = frozenset(),
) -> Verdict:
    """Check each citation of a sentence: issued, its support span sharing enough terms, and within that span every
    number with its unit, every name and every negation of the sentence (bounds.py)."""
    marked = parse_markers(sentence)
    if not marked.cited:
        return Verdict(marked.text, (), ("no citation",))
    commanded = _as_command(marked.text, marked.cited, blocks)
    if commanded is not None:
        return commanded
    # "without a credit card" and "no credit card" make one claim: the polarity check compares how they say it. A
    # negation word still helps find the span ("cannot restore" is said where "cannot" is), never counting towards
    # the share.
    # A phrase of the synonyms table is read as its word ("turns further requests away" as "rejects further
    # requests"), by every check, unless a cited block writes it too; the verdict keeps the sentence as written.
    read = reword_phrases(marked.text, "\n".join(blocks[n].record.text for n in marked.cited if n in blocks))
    said = set(significant_terms(say_quantities(read), config.tokenizer))
    negations = said & negation_terms(config.tokenizer)
    terms = said - negations
    distinctive = (terms - common) or terms
    # A sentence of one distinctive term, all its others written by most issued blocks ("Whoever creates the
    # workspace is its owner"), is weighed on every term: one word said another way is no sign of another claim.
    background = (terms - distinctive) if len(distinctive) == 1 else frozenset()
    claims = read_claims(read, config.tokenizer)
    names = read_names(read, config.tokenizer)
    # A name picks the span even when most blocks use it: "Team" and "Business" tell apart the sentences of a pricing
    # page, whose blocks all say both. The share counts distinctive terms only.
    name_terms = frozenset(term for name in names for term in name.terms)
    letters = frozenset(name.text for name in names if name.literal and len(name.text) == 1)
    # A span stating the opposite ("closed" for "open") is where the sentence's claim is made: find it, so that the
    # antonym check reads it (an antonym never counts towards the share).
    opposites = antonym_terms(frozenset(terms), config.tokenizer) - terms
    # A span saying a word of the sentence by its synonym ("extended" for "lengthen") holds that word.
    synonyms = synonym_terms(frozenset(distinctive), config.tokenizer) - terms
    negating = any(True in polarity for polarity in claims.polarity.values())
    # A number said in words ("thirty-five days") is looked for as digits too: numbers decide between spans holding as
    # many words ("Backups are retained for 35 days" over "Backups are taken every 6 hours").
    spelled = frozenset(number.value for number in claims.numbers if number.value.isdigit()) - said
    tabled = tabled_terms(config.tokenizer)  # only these can be held by a synonym rather than as written
    reasons: list[str] = []
    valid: list[int] = []
    spans: dict[int, SupportSpan] = {}
    for n in marked.cited:
        block = blocks.get(n)
        if block is None:
            reasons.append(f"cited [{n}], which was not issued")
            continue
        wanted = distinctive | name_terms | opposites | negations | synonyms | spelled
        supported = support_span(
            wanted, block.record, tokenizer=config.tokenizer, names=name_terms, letters=letters, negated=negating,
        )
        if supported is None and background:  # its one distinctive word reworded: the common ones find the span
            supported = support_span(
                wanted | background, block.record, tokenizer=config.tokenizer, names=name_terms, letters=letters,
                negated=negating,
            )
        held = frozenset(
            term for term in distinctive
            if term in supported[1] or (
                term in tabled and any(same_meaning(term, other, config.tokenizer) for other in supported[1])
            )
        ) if supported else frozenset()
        # A number said in words ("thirty-five days") is the number check's to bear out, as digits are: its words
        # count towards the share when the span writes them, and never against it.
        counted = distinctive - (_number_word_terms(config.tokenizer) - held)
        # Weighed on its background too: its common terms the span writes count like the rest.
        around = background & _terms_of(supported[0].quote, config.tokenizer) if supported and background else set()
        share = (len(held) + len(around)) / (len(counted) + len(background)) if counted or background else 0.0
        if supported is None or share < config.min_overlap:
            reason = f"[{n}] shares {share:.2f} of its terms (needs {config.min_overlap:.2f})"
            pasted = instruction_text(block.record)
            with_pasted = held | _terms_of(pasted, config.tokenizer) if pasted else held
            if distinctive and len(distinctive & with_pasted) / len(distinctive) >= config.min_overlap:
                reason += ONLY_IN_INSTRUCTIONS
            reasons.append(reason)
            continue
        problems = bound_problems(
            n, claims, supported[0], block.record, names=names, held=held, tokenizer=config.tokenizer,
            sentence=read, elsewhere=functools.partial(_elsewhere, n, supported[0], blocks),
        )
        if problems:
            reasons.extend(problems)
            continue
        valid.append(n)
        spans[n] = supported[0]
    return Verdict(marked.text, tuple(valid), tuple(reasons), tuple(spans[n] for n in valid))


def _as_command(text: str, cited: tuple[int, ...], blocks: Mapping[int, Block]) -> Verdict | None:
    """A sentence that is a cited chunk's lead and command word for word (commands.py), with the citations holding it;
    None when no cited chunk holds it, for the checks of any sentence."""
    passing, spans = command_support(text, cited, blocks)
    if not passing:
        return None
    reasons = tuple(f"[{n}] does not hold the command" for n in cited if n not in passing)
    return Verdict(text, passing, reasons, spans)


@functools.lru_cache(maxsize=8)
def _number_word_terms(tokenizer: TokenizerConfig) -> frozenset[str]:
    """The terms of the number words ("five", "thirty", "hundred"), less "one": mostly no count ("one of", "no one")."""
    return frozenset(term for word in NUMBER_WORDS - {"one"} for term in significant_terms(word, tokenizer))


def _elsewhere(n: int, span: SupportSpan, blocks: Mapping[int, Block]) -> tuple[str, ...]:
    """The issued evidence outside citation [n]'s span: the other blocks' texts and the rest of its own chunk, where
    an entity swapped into a sentence comes from."""
    own = evidence_text(blocks[n].record)
    rest = own[: span.start] + "\n" + own[span.end :]
    return (rest, *(evidence_text(block.record) for m, block in blocks.items() if m != n))
