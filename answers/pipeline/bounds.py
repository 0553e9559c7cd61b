"""The bound checks of §5.6 within one citation's support span: numbers with their units and the words they
qualify, names, and negation. Each failure reads as a reason a person can follow ("[1] states 2 business days,
not 4")."""
from collections.abc import Iterable, Sequence

from answers.pipeline.evidence import evidence_text, instruction_text
from answers.pipeline.records import ChunkRecord
from answers.pipeline.text.claims import Claims, Name, NumberClaim, compatible_units, read_claims, same_value
from answers.pipeline.text.tokens import TokenizerConfig
from answers.pipeline.types import SupportSpan

ONLY_IN_INSTRUCTIONS = " (only in text written as an instruction to an AI, which is never evidence)"


def bound_problems(
    n: int,
    claims: Claims,
    span: SupportSpan,
    record: ChunkRecord,
    *,
    names: Sequence[Name],
    held: Iterable[str],
    tokenizer: TokenizerConfig,
) -> list[str]:
    """What of the sentence's numbers, names and negations citation [n]'s span does not bear out; empty when all.

    The checks run in that order and the first that fails gives the reasons: a wrong number usually also reads as a
    missing name or a negation out of place, and one reason says it best.
    """
    stated = read_claims(span.quote, tokenizer)
    return (
        _number_problems(n, claims, stated, record, tokenizer)
        or _name_problems(n, names, stated, record, tokenizer)
        or _polarity_problems(n, claims, stated, held)
    )


def _number_problems(
    n: int, claims: Claims, stated: Claims, record: ChunkRecord, tokenizer: TokenizerConfig
) -> list[str]:
    problems = []
    for number in claims.numbers:
        problem = _number_problem(number, stated)
        if problem is None:
            continue
        pasted = instruction_text(record)
        if (
            pasted
            and _matching(number, read_claims(pasted, tokenizer).numbers)
            and not _matching(number, read_claims(evidence_text(record), tokenizer).numbers)
        ):
            problem += ONLY_IN_INSTRUCTIONS
        problems.append(f"[{n}] {problem}")
    return problems


def _number_problem(number: NumberClaim, stated: Claims) -> str | None:
    """Why the span does not state the number as the sentence does, or None when it does.

    A number with a unit needs the same value with the same unit (a bare one in a span that states no amount of that
    unit will do); a bare number needs the value; a negated one ("not 4 days") a negated one. And the sentence's words
    about the number must not be words the span says about another value of that unit: "express" next to the 4 in
    the sentence, but next to the 2 in a span that gives 4 for standard delivery and 2 for express.
    """
    same = _matching(number, stated.numbers)
    # A bare number takes the unit the span states it with: "1209600" against "1209600 seconds (two weeks)" has no
    # rival in the weeks.
    units = {number.unit} if number.unit else {other.unit for other in same}
    rivals = [
        other
        for other in stated.numbers
        if not same_value(number.value, other.value)
        and (not units or any(compatible_units(unit, other.unit) for unit in units))
    ]
    if not same:
        if not rivals:
            return f"does not state {number.text}"
        rival = max(rivals, key=lambda other: len(number.about & other.about))
        return f"states {rival.text}, not {_value(number, rival)}"
    if not any(other.negated == number.negated for other in same):
        span_says, sentence_says = ("affirms", "negates") if number.negated else ("negates", "affirms")
        return f'{span_says} "{same[0].text}"; the sentence {sentence_says} it'
    near = frozenset().union(*(other.about for other in same))
    astray = number.about & frozenset().union(*(other.about for other in rivals)) - near
    if not astray:
        return None
    rival = max(rivals, key=lambda other: len(astray & other.about))
    return f"states {rival.text} of {_words(astray & rival.about, stated)}, not {_value(number, rival)}"


def _matching(number: NumberClaim, numbers: Sequence[NumberClaim]) -> list[NumberClaim]:
    same = [
        other
        for other in numbers
        if same_value(number.value, other.value) and (not number.unit or compatible_units(number.unit, other.unit))
    ]
    if same or not number.unit or any(compatible_units(number.unit, other.unit) for other in numbers):
        return same
    return [other for other in numbers if not other.unit and same_value(number.value, other.value)]


def _value(number: NumberClaim, rival: NumberClaim) -> str:
    """The number as the reason names it: its value alone when the rival has the same word unit ("2 business days,
    not 4"), else as written ("$12, not $19")."""
    return number.value if number.unit == rival.unit and number.unit[:1].isalpha() else number.text


def _name_problems(
    n: int, names: Sequence[Name], stated: Claims, record: ChunkRecord, tokenizer: TokenizerConfig
) -> list[str]:
    # The chunk's title and heading path head the span on its chunk page: "the Team plan" under "## Team plan".
    context = read_claims("\n".join((record.source_title, *record.heading_path)), tokenizer)
    problems = []
    for name in names:
        if stated.holds_name(name) or context.holds_name(name):
            continue
        problem = f"[{n}] does not name {name.text.strip('`')}"
        pasted = instruction_text(record)
        if (
            pasted
            and read_claims(pasted, tokenizer).holds_name(name)
            and not read_claims(evidence_text(record), tokenizer).holds_name(name)
        ):
            problem += ONLY_IN_INSTRUCTIONS
        problems.append(problem)
    return problems


def _polarity_problems(n: int, claims: Claims, stated: Claims, held: Iterable[str]) -> list[str]:
    """A term the sentence negates that the span states only plainly, or the other way round: each way the sentence
    uses a term (negated, plain) the span must use it too ("view files but cannot edit files" bears out both "can
    view files" and "cannot edit files")."""
    plain = frozenset({False})  # a term read only inside a number ("business days" of "2 business days") is plain
    # Every term both use, the common ones too: "a token" is common to an API manual's pages, "not a token" is not.
    shared = frozenset(held) | (claims.terms & stated.terms)
    uses = {term: (claims.polarity.get(term, plain), stated.polarity.get(term, plain)) for term in shared}
    astray = [term for term, (said, stated_as) in uses.items() if not said <= stated_as]
    denied = [term for term in astray if True in uses[term][0] - uses[term][1]]
    affirmed = [term for term in astray if False in uses[term][0] - uses[term][1]]
    problems = []
    if denied:
        problems.append(f'[{n}] affirms "{_words(denied, stated)}"; the sentence negates it')
    if affirmed:
        problems.append(f'[{n}] negates "{_words(affirmed, stated)}"; the sentence affirms it')
    return problems


def _words(terms: Iterable[str], stated: Claims) -> str:
    """The terms as the span wrote them, in its order."""
    order = {term: i for i, term in enumerate(stated.written)}
    chosen = sorted(terms, key=lambda term: order.get(term, len(order)))
    return " ".join(stated.written.get(term, term) for term in chosen)
