"""The bound checks of §5.6 within one citation's support span: numbers with their units and the words they
qualify, names, and negation. Each failure reads as a reason a person can follow ("[1] states 2 business days,
not 4")."""
import functools
import re
from collections.abc import Callable, Iterable, Sequence
from difflib import SequenceMatcher

from answers.pipeline.clauses import clause_swap_problems, order_swap_problems
from answers.pipeline.contradictions import contradiction_problems
from answers.pipeline.evidence import evidence_text, instruction_text
from answers.pipeline.negations import negation_problems
from answers.pipeline.records import ChunkRecord, SentenceSpan
from answers.pipeline.spans import chunk_sentences
from answers.pipeline.text.claims import (
    NEGATION_WORDS,
    NUMBER_WORDS,
    Claims,
    Name,
    NumberClaim,
    compatible_units,
    read_claims,
    read_names,
    same_value,
)
from answers.pipeline.text.hypernyms import covered_in
from answers.pipeline.text.light import light_terms
from answers.pipeline.text.negating import PRIVATIVE, reword_negations
from answers.pipeline.text.opposites import opposite_words
from answers.pipeline.text.quantities import duration_units, same_duration, spoken_amounts
from answers.pipeline.text.sentences import MARKER
from answers.pipeline.text.synonyms import reword_phrases, same_meaning
from answers.pipeline.text.tokens import ENGLISH_STOP_WORDS, TokenizerConfig
from answers.pipeline.text.wording import (
    ANTONYMS,
    Word,
    antonym_side,
    content_words,
    names_kind,
    phrases,
    role_of,
    word_terms,
)
from answers.pipeline.types import SupportSpan

# A span that points back to an amount ("older than that", "after that period") states it in the sentence before.
_BACK_REFERENCE = re.compile(
    r"\b(?:than|after|before|until|within|beyond|past|over)\s+(?:that|this|then)\b"
    r"|\b(?:that|this|the same)\s+(?:period|time|date|limit|window|number|amount)\b|\bby then\b",
    re.I,
)
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
    sentence: str = "",
    elsewhere: Callable[[], Sequence[str]] = tuple,
) -> list[str]:
    """What of the sentence's numbers, units of time, names, list items, negations, opposites and swapped words
    citation [n]'s span does not bear out; empty when all.

    The checks run in that order and the first that fails gives the reasons: a wrong number usually also reads as a
    missing name or a negation out of place, and one reason says it best. The last two need the sentence's text;
    the swap check also the issued evidence outside the span (`elsewhere`, asked only when a substitution needs it).
    """
    stated = read_claims(span.quote, tokenizer)
    return (
        _number_problems(n, claims, stated, record, tokenizer, span, sentence)
        or (_duration_problems(n, claims, sentence, span.quote, evidence_text(record), tokenizer) if sentence else [])
        or _name_problems(n, _not_ours(names, span.quote, record, elsewhere), stated, record, tokenizer)
        or (_list_problems(n, reword_negations(sentence, span.quote), span.quote, tokenizer) if sentence else [])
        or _polarity_problems(n, *_reworded(claims, stated, sentence, span.quote, tokenizer), held, sentence)
        or (negation_problems(n, sentence, claims, span, record, tokenizer, elsewhere) if sentence else [])
        or (_antonym_problems(n, sentence, span, record, claims, stated, tokenizer) if sentence else [])
        or (contradiction_problems(n, sentence, span.quote, tokenizer) if sentence else [])
        or (_swap_problems(n, sentence, span.quote, elsewhere, tokenizer, names) if sentence else [])
        or (_entity_problems(n, sentence, span, record, tokenizer) if sentence else [])
        or (_clause_problems(n, sentence, span, record, tokenizer) if sentence else [])
        or (clause_swap_problems(n, sentence, span.quote, tokenizer) if sentence else [])
        or (order_swap_problems(n, sentence, span.quote, tokenizer) if sentence else [])
    )


def _number_problems(
    n: int, claims: Claims, stated: Claims, record: ChunkRecord, tokenizer: TokenizerConfig,
    span: SupportSpan | None = None,
    sentence: str = "",
) -> list[str]:
    problems = []
    referent = _referent(record, span, tokenizer) if span is not None else None
    heading = _heading_claims(record, tokenizer)
    for number in claims.numbers:
        problem = _number_problem(number, stated)
        if problem is None:
            continue
        if problem.startswith("does not state") and referent and _number_problem(number, referent) is None:
            continue  # "Charges older than that" after "within 21 days": the span says 21 days by pointing back
        if problem.startswith("does not state") and _counted_by_its_list(number, sentence):
            continue  # "Three things go into the note: open incidents, silenced alerts and planned changes"
        if any(
            same_value(number.value, other.value) and compatible_units(number.unit, other.unit)
            and number.about & other.about and (problem.startswith("does not state") or number.text == other.text)
            for other in heading.numbers
        ):
            # "Web app 5.0 brought dark mode" under "Web app release notes 5.0", "The 2024 guide was written for the
            # 4.x web app" under "Upload limits (2024 guide)": the heading states it of the same words (written as the
            # heading writes it when the span states another number; never the "2" of "Doc 2" for "2 warehouses")
            continue
        if problem.startswith("does not state") and _is_version(number) and any(
            _is_version(other) and other.value == number.value for other in heading.numbers
        ):
            continue  # "Since version 5.0, folders can be given a colour" under "Web app release notes 5.0"
        pasted = instruction_text(record)
        if (
            pasted
            and _matching(number, read_claims(pasted, tokenizer).numbers)
            and not _matching(number, read_claims(evidence_text(record), tokenizer).numbers)
        ):
            problem += ONLY_IN_INSTRUCTIONS
        problems.append(f"[{n}] {problem}")
    return problems


_COUNT_WORDS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_LIST_SPLIT = re.compile(r",\s*|\s+(?:and|or)\s+", re.I)
_LIST_OPENER = re.compile(r"[:,]\s*")


def _counted_by_its_list(number: NumberClaim, sentence: str) -> bool:
    """Whether a small bare count is the sentence's own count of the items it lists after it (a colon's or a comma's
    list of two to nine short items): the items are the span's to bear out (the list check), the count is the
    sentence's. "Two engineers are on call, a primary and a secondary"; never a count the list does not match."""
    if number.unit or not number.value.isdigit() or not 2 <= int(number.value) <= 9:
        return False
    written = re.search(rf"(?<![\w.]){number.value}(?![\w.])|\b{_COUNT_WORDS[int(number.value)]}\b", sentence, re.I)
    if written is None:
        return False
    opener = _LIST_OPENER.search(sentence, written.end())  # the list is all that follows the first colon or comma
    if opener is None:
        return False
    tail = re.sub(r"\s*(?:\[\d+\]\s*)*[.!?]?\s*$", "", sentence[opener.end() :])
    items = [item for item in _LIST_SPLIT.split(tail) if item.strip()]
    return len(items) == int(number.value) and all(len(item.split()) <= _MAX_ITEM for item in items)


def _referent(record: ChunkRecord, span: SupportSpan, tokenizer: TokenizerConfig) -> Claims | None:
    """What the stored sentence before the span states, when the span points back to it ("older than that"); the
    span's own amounts still come first: only a number the span does not state at all is looked up there."""
    if not span.sentences or span.sentences[0] < 2 or not _BACK_REFERENCE.search(span.quote):
        return None
    before = chunk_sentences(record)[span.sentences[0] - 2]
    if before.instruction:
        return None
    return read_claims(record.text[before.start : before.end], tokenizer)


def _number_problem(number: NumberClaim, stated: Claims) -> str | None:
    """Why the span does not state the number as the sentence does, or None when it does.

    A number with a unit needs the same value with the same unit (a bare one in a span that states no amount of that
    unit will do); a bare number needs the value; a negated one ("not 4 days") a negated one. And the sentence's words
    about the number must not be words the span says about another value of that unit (or, for a duration, of any
    duration): "express" next to the 4 in the sentence, but next to the 2 in a span that gives 4 for standard
    delivery and 2 for express.
    """
    same = _matching(number, stated.numbers)
    if not same and number.unit and _said_otherwise((number.value, number.unit), stated):
        return None  # "within 24 hours" against "within a day", "every 30 minutes" against "every half hour"
    # A bare number takes the unit the span states it with: "1209600" against "1209600 seconds (two weeks)" has no
    # rival in the weeks.
    units = {number.unit} if number.unit else {other.unit for other in same}
    rivals = [
        other
        for other in stated.numbers
        if not same_value(number.value, other.value)
        and (not units or any(compatible_units(unit, other.unit) for unit in units))
        and _is_version(other) == _is_version(number)
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
    # Words the sentence puts next to its number may belong to any other amount of that kind in the span: "the VP"
    # next to 30 minutes, where the span gives the VP two hours and the manager 30 minutes.
    rivals = [
        other
        for other in stated.numbers
        if not same_value(number.value, other.value)
        and (not units or any(_same_kind(unit, other.unit, number.unit) for unit in units))
        and _is_version(other) == _is_version(number)
    ]
    astray = number.about & frozenset().union(*(other.about for other in rivals)) - near
    if not astray:
        return None
    rival = max(rivals, key=lambda other: len(astray & other.about))
    return f"states {rival.text} of {_words(astray & rival.about, stated)}, not {_value(number, rival)}"


def _said_otherwise(amount: tuple[str, str], stated: Claims) -> bool:
    """Whether the span states the amount in other words: the same length of time in another unit ("1 day" for "24
    hours") or the unit said without digits ("a day", "the same file", "half an hour")."""
    amounts = {(other.value, other.unit) for other in stated.numbers} | spoken_amounts(stated.text)
    return any(
        (same_value(amount[0], other[0]) and amount[1] == other[1]) or same_duration(amount, other) for other in amounts
    )


_VERSION = re.compile(r"\d+(?:\.\d+)+")


def _is_version(number: NumberClaim) -> bool:
    """Whether a number is written as a version ("5.0", "1.3", "22.04": digits with a dot and no unit): an identifier,
    whose rivals are other versions only, never the span's quantities ("The 5.0 web app supports the two most recent
    versions" against "the latest two versions": 2 is no rival of 5.0)."""
    return not number.unit and _VERSION.fullmatch(number.value) is not None


# Durations are one kind of amount: "30 minutes" of the manager's escalation is the rival of "two hours" of the VP's.
_DURATIONS = frozenset(
    ("second", "minute", "hour", "business hour", "day", "business day", "week", "month", "year", "ms")
)


def _same_kind(a: str, b: str, written: str) -> bool:
    """Whether two units state amounts that can stand for each other's value: compatible, or both durations when the
    sentence wrote its unit (a bare "1209600" is the span's 1209600 seconds, whatever two weeks it also says)."""
    return compatible_units(a, b) or bool(written and a in _DURATIONS and b in _DURATIONS)


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


def _duration_problems(
    n: int, claims: Claims, sentence: str, quote: str, chunk: str, tokenizer: TokenizerConfig
) -> list[str]:
    """A unit of time the sentence names without its number where the span names only others: "the number of
    minutes to wait" against "the number of seconds", "in its first week" against "in its first month"."""
    said, stated = duration_units(sentence), duration_units(quote)
    counted = frozenset(part for number in claims.numbers for part in number.unit.split("/"))
    # "within a day" against "within 24 hours": the day is the span's hours said in another unit
    span_claims = read_claims(quote, tokenizer)
    spoken = frozenset(unit for value, unit in spoken_amounts(sentence) if _said_otherwise((value, unit), span_claims))
    # "second" alone is read as the ordinal ("a second factor"), "seconds" as the unit
    astray = sorted(unit for unit in said - stated - counted - spoken if unit != "second" or _SECONDS.search(sentence))
    if astray and stated - said:
        return [f"[{n}] states {_plural(sorted(stated - said))}, not {_plural(astray)}"]
    # "how many minutes to hold off" cited on a span that states no length of time, from a chunk that gives the wait in
    # seconds elsewhere: the unit is the chunk's other one, swapped
    # seconds elsewhere: the unit is the chunk's other one, swapped
    others = duration_units(chunk) - said if astray and not stated else frozenset()
    if others and not duration_units(chunk) & set(astray):
        return [f"[{n}] states {_plural(sorted(others))}, not {_plural(astray)}"]
    # "a full day to use a reset link" against a span that states no length of time: the amount is the span's to bear
    unborne = sorted(
        unit for value, unit in spoken_amounts(sentence)
        if unit in _DURATIONS and unit not in stated and not _said_otherwise((value, unit), span_claims)
    )
    if unborne and not stated:
        return [f"[{n}] does not state {' or '.join(f'a {unit}' for unit in unborne)}"]
    return []


_SECONDS = re.compile(r"\bseconds\b", re.I)


def _plural(units: Sequence[str]) -> str:
    return " or ".join("milliseconds" if unit == "ms" else f"{unit}s" for unit in units)


_LIST_TOKEN = re.compile(r"[^\W_][\w'’.@+-]*[\w]|[^\W_]|[,;:()]|[.!?](?=\s|$)")
_COORDINATORS = frozenset(("and", "or"))
_COORDINATOR = re.compile(r"\b(?:and|or)\b", re.I)
_ITEM_STARTS = frozenset(("the", "a", "an", "its", "their", "your", "our"))  # stop words an item may hold
_MAX_ITEM = 4  # words of one listed item ("whole photo albums"); a longer run after "and" is a clause of its own
# A run after "and" that starts with a modal is a predicate of its own ("can expire and may be protected"), no item.
_MODAL_WORDS = frozenset("can could may might must shall should will would".split())  # noqa: SIM905
_STEP_TO = frozenset(("to", "on"))  # "go to Security", "click on Save": a step's verb and where it leads
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _list_problems(n: int, sentence: str, quote: str, tokenizer: TokenizerConfig) -> list[str]:
    """An item of a list in the sentence that the span's list leaves out: "moving and renaming files" against a
    span's "moving, copying and deleting files", "US dollars or pounds" against "US dollars or euros". A list is
    read where the item before "and" or "or" is one the span lists too (followed by a comma, "and" or "or"); each
    item of it must be in the span (half its words at least)."""
    if not _COORDINATOR.search(sentence):
        return []
    held, listed = _listed_terms(quote, tokenizer)
    said = _LIST_TOKEN.findall(MARKER.sub(" ", sentence))
    missing: list[str] = []
    for i, token in enumerate(said):
        if token.lower() not in _COORDINATORS or (i and _NUMBER.fullmatch(said[i - 1])):
            continue  # "Windows 10 or newer": "or" after a number bounds the number, it lists nothing
        before = next((word for word in reversed(said[:i]) if word[:1].isalnum()), "")
        terms = word_terms(before, tokenizer)
        if not terms or not set(terms) <= listed:
            continue
        for item in _list_items(said, i, held, tokenizer):
            item_terms = [term for word in item for term in word_terms(word, tokenizer)]
            if item_terms and _unlisted(item, item_terms, held):
                missing.append(" ".join(item))
    return [f"[{n}] does not list {item}" for item in dict.fromkeys(missing)]


def _unlisted(item: Sequence[str], terms: Sequence[str], held: frozenset[str]) -> bool:
    """Whether an item of the sentence's list is not the span's: its first word unheld when that word ends in
    "-ing" ("renaming files" against "moving, copying and deleting files": the action is the item, the noun its
    shared object), else more than half its words unheld ("quicker replies" against "faster support replies" is the
    span's item reworded, "pounds" against "euros" is not; "in light and dark mode alike" lists dark mode)."""
    if item[0].lower().endswith("ing"):
        return terms[0] not in held
    return 2 * sum(term not in held for term in terms) > len(terms)


def _list_items(
    tokens: Sequence[str], at: int, held: frozenset[str], tokenizer: TokenizerConfig
) -> list[list[str]]:
    """The items of the list whose "and" or "or" stands at `at`: the words after it up to a separator, and the
    short runs between commas before it. A run led by a modal is no item; a lower-case word cut short by "to" or
    "on" ("go to Security", "click on Save") is a step, judged with the word the preposition leads to when the span
    holds it (the verb is the step reworded, "choose Security"; "Opera on Windows" still lists Opera)."""
    after: list[str] = []
    stop = len(tokens)
    for k, token in enumerate(tokens[at + 1 :], start=at + 1):
        lowered = token.lower()
        if not token[:1].isalnum() or _item_length(after) == _MAX_ITEM or (
            lowered in ENGLISH_STOP_WORDS and lowered not in _ITEM_STARTS
        ):
            stop = k
            break  # "light mode or high-contrast mode in Account settings": the item ends at "in"
        after.append(token)
    if after and after[0].lower() in _MODAL_WORDS:
        after = []
    elif len(after) == 1 and after[0].islower() and stop < len(tokens) and tokens[stop].lower() in _STEP_TO:
        following = next((t for t in tokens[stop + 1 : stop + 3] if t.lower() not in ENGLISH_STOP_WORDS), "")
        terms = word_terms(following, tokenizer) if following[:1].isalnum() else ()
        if terms and set(terms) <= held:
            after = [*after, following]
    items = [after] if 0 < _item_length(after) < _MAX_ITEM else []
    end = at
    for k in range(at - 1, -1, -1):
        if tokens[k] != ",":
            continue
        run = [t for t in tokens[k + 1 : end] if t[:1].isalnum()]
        if not run or len(run) >= _MAX_ITEM or len(run) != end - k - 1:
            break
        items.append(run)
        end = k
    return items


def _item_length(words: Sequence[str]) -> int:
    """The words of an item that count towards its length: a leading article or possessive pronoun does not ("the
    visitor's email address" is an item of three words)."""
    return len(words) - (1 if words and words[0].lower() in _ITEM_STARTS else 0)


@functools.lru_cache(maxsize=1024)
def _listed_terms(text: str, tokenizer: TokenizerConfig) -> tuple[frozenset[str], frozenset[str]]:
    """The content terms of the text, and those whose word a list separator (a comma, "and", "or") follows."""
    tokens = _LIST_TOKEN.findall(MARKER.sub(" ", text))
    held: set[str] = set()
    listed: set[str] = set()
    for i, token in enumerate(tokens):
        terms = word_terms(token, tokenizer)
        held.update(terms)
        if i + 1 < len(tokens) and (tokens[i + 1] == "," or tokens[i + 1].lower() in _COORDINATORS):
            listed.update(terms)
    return frozenset(held), frozenset(listed)


def _heading_claims(record: ChunkRecord, tokenizer: TokenizerConfig) -> Claims:
    """What the chunk's title and heading path state: they head the span on its chunk page ("## Team plan")."""
    return read_claims("\n".join((record.source_title, *record.heading_path)), tokenizer)


def _name_problems(
    n: int, names: Sequence[Name], stated: Claims, record: ChunkRecord, tokenizer: TokenizerConfig
) -> list[str]:
    context = _heading_claims(record, tokenizer)
    problems = []
    for name in names:
        if stated.holds_name(name) or context.holds_name(name) or covered_in(name.text, stated.text):
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


_FIRST_PERSON = re.compile(r"\b(?:our|ours|we|us)\b", re.I)
_POSSESSIVE = re.compile(r"^(.+?)(?:['’]s|['’])$")


def _not_ours(
    names: Sequence[Name], quote: str, record: ChunkRecord, elsewhere: Callable[[], Sequence[str]]
) -> Sequence[Name]:
    """The names less a possessive one ("Lumora's print partner") where the span says "our" or "we" and the issued
    evidence writes the name: the document speaking of itself in the first person names the same owner. Another
    possessive, or one no issued text writes, still needs the span to name it."""
    if not _FIRST_PERSON.search(quote):
        return names
    kept = []
    for name in names:
        owner = _POSSESSIVE.match(name.text)
        if owner and any(
            re.search(rf"\b{re.escape(owner.group(1))}\b", text)
            for text in (record.source_title, record.text, *elsewhere())
        ):
            continue
        kept.append(name)
    return kept


def _said_privatively(text: str, other: str) -> bool:
    """Whether a text says its negation by a word that holds one (negating.PRIVATIVE: "has ended", "stays hidden from",
    "falls outside", "beyond", "instead of"), with no negation word, where the other text writes a negation and not
    that word (the other's "does not block" is no "blocked" said privatively)."""
    found = PRIVATIVE.search(text)
    if found is None or _negations(text) or not _negations(other):
        return False
    return re.search(rf"\b{re.escape(found.group()[:4])}", other, re.I) is None


# A negation denying more than an amount ("no code ... more than once", "never more than one owner") says the span's
# limit of that amount ("only once", "exactly one", "at most 3").
_MORE_THAN = re.compile(
    r"\b(?:no|never|not|cannot|can['’]t|won['’]t|isn['’]t|aren['’]t)\b[^.,;:]*?\bmore\s+than\s+(\w+)", re.I
)
_LIMIT = r"\b(?:only|exactly|at\s+most|up\s+to|no\s+more\s+than|a\s+maximum\s+of|just)\s+"


def _denied_more_than(sentence: str, span: str) -> bool:
    """Whether the sentence denies more than an amount that the span states as a limit, the same amount."""
    found = _MORE_THAN.search(sentence)
    return found is not None and re.search(rf"{_LIMIT}{re.escape(found.group(1))}\b", span, re.I) is not None


def _polarity_problems(n: int, claims: Claims, stated: Claims, held: Iterable[str], sentence: str = "") -> list[str]:
    """A term the sentence negates that the span states only plainly, or the other way round: each way the sentence
    uses a term (negated, plain) the span must use it too ("view files but cannot edit files" bears out both "can
    view files" and "cannot edit files")."""
    plain = frozenset({False})  # a term read only inside a number ("business days" of "2 business days") is plain
    # Every term both use, the common ones too: "a token" is common to an API manual's pages, "not a token" is not.
    shared = frozenset(held) | (claims.terms & stated.terms)
    uses = {term: (claims.polarity.get(term, plain), stated.polarity.get(term, plain)) for term in shared}
    astray = [term for term, (said, stated_as) in uses.items() if not said <= stated_as]
    # A term only past the reach of a negation of its clause may be meant negated: "doesn't send sign-in codes by
    # text message" against "does not send codes by text message" (each side reads 3 words after the negation).
    denied = [term for term in astray if True in uses[term][0] - uses[term][1] and term not in stated.trailing]
    affirmed = [
        term for term in astray
        if False in uses[term][0] - uses[term][1] and term not in claims.trailing | claims.modal_subjects
    ]
    if (denied or affirmed) and _denied_alike(claims, stated):
        return []
    if denied and not affirmed and _denied_more_than(sentence, stated.text):
        return []  # "No code can be used more than once" against "Each code can be used only once"
    if affirmed and not denied and _said_privatively(sentence, stated.text):
        return []  # "Support for Internet Explorer has ended" against "Internet Explorer is no longer supported"
    if denied and not affirmed and _said_privatively(stated.text, sentence):
        return []  # "nobody can upload until a plan is picked" against "Uploading ... is blocked until ..."
    problems = []
    if denied:
        problems.append(f'[{n}] affirms "{_words(denied, stated)}"; the sentence negates it')
    if affirmed:
        problems.append(f'[{n}] negates "{_words(affirmed, stated)}"; the sentence affirms it')
    return problems


_NEGATION = re.compile(rf"\b(?:{'|'.join(sorted(NEGATION_WORDS))})\b|\w+n['’]t\b", re.I)


_CONTRAST = re.compile(r"(?:,|\band\b|\bbut\b)\s*not\b", re.I)  # "a priority and not a chore", "X, not Y"


def _negations(text: str) -> int:
    """How many negation words a text writes ("not", "never", "nobody", "don't", ...), a contrast's "and not", "but
    not" or ", not" (as "instead of" is read) left out: it denies the other thing, not the claim."""
    return len(_NEGATION.findall(_CONTRAST.sub(" ", text)))


def _denied_alike(claims: Claims, stated: Claims) -> bool:
    """Whether the sentence and the span deny as many times and deny a term alike: the negation only placed elsewhere
    in the clause, "Nobody from support will ask for your password" against "Support will never ask for your
    password" (each side reads its own reach; "ask" is denied by both)."""
    if not 0 < _negations(claims.text) == _negations(stated.text):
        return False
    if _negations(claims.text) == 1 and _one_clause(claims.text) and _one_clause(stated.text):
        return True  # "A refund never hinges on a survey" against "We never make a refund depend on a survey"
    return bool(_denied(claims) & _denied(stated))


_CLAUSE_BREAK = re.compile(
    r"[,;:()]|\b(?:and|but|or|while|whereas|unless|until|if|when|because|although|only|without)\b", re.I
)


def _one_clause(text: str) -> bool:
    """Whether a text is one plain clause: no punctuation or conjunction joining another claim to it, nor "only"
    (which negates all else) or "without" (which negates a phrase, not the claim: "sends codes to users without an
    app"). One negation in each of two such texts denies the one claim, wherever each places it."""
    return _CLAUSE_BREAK.search(text.strip().rstrip(".")) is None


def _denied(claims: Claims) -> frozenset[str]:
    return frozenset(term for term, uses_of in claims.polarity.items() if True in uses_of)


def _reworded(
    claims: Claims, stated: Claims, sentence: str, quote: str, tokenizer: TokenizerConfig
) -> tuple[Claims, Claims]:
    """The sentence's and the span's claims with their negations said without a negation word written with one
    (negating.py): "keeps the newer versions" against "does not delete newer versions"; and their phrases said as the
    synonyms table's words ("put the trial on hold" as "pause the trial")."""
    if not sentence:
        return claims, stated
    said = reword_phrases(reword_negations(sentence, quote), quote)
    span = reword_phrases(reword_negations(quote, sentence), sentence)
    return (
        claims if said == sentence else read_claims(said, tokenizer),
        stated if span == quote else read_claims(span, tokenizer),
    )


def _words(terms: Iterable[str], stated: Claims) -> str:
    """The terms as the span wrote them, in its order."""
    order = {term: i for i, term in enumerate(stated.written)}
    chosen = sorted(terms, key=lambda term: order.get(term, len(order)))
    return " ".join(stated.written.get(term, term) for term in chosen)


def _antonym_problems(
    n: int, sentence: str, span: SupportSpan, record: ChunkRecord, claims: Claims, stated: Claims,
    tokenizer: TokenizerConfig,
) -> list[str]:
    """A word of the sentence whose antonym the span states with the same polarity, in a sentence of the span that
    holds more of the claim than any holding the word itself or neither word: "open on weekends" against "closed on
    weekends" (but "not closed" bears out "open", and so does "open on weekdays and closed on Sundays", and "open
    Monday to Friday" is said by "staffed Monday to Friday" beside "closed on weekends")."""
    words = content_words(sentence, tokenizer)
    said = {word.written.lower(): word for word in words if word.written.lower() in ANTONYMS}
    # A sentence that states both sides ("a free trial before a paid plan") sets them apart itself.
    said = {lowered: word for lowered, word in said.items() if not ANTONYMS[lowered] & said.keys()}
    if not said:
        return []
    claim = frozenset(word.term for word in words if word.written.lower() not in ANTONYMS)
    parts = [content_words(record.text[s.start : s.end], tokenizer) for s in _span_sentences(span, record)]
    problems = []
    for lowered, word in said.items():
        own, opposite = frozenset(antonym_side(lowered)), ANTONYMS[lowered]
        # A sentence of the span without the opposite that holds as much of the claim is where the claim is made
        # ("Support is staffed Monday to Friday" beside "closed on weekends", against "open Monday to Friday").
        with_word = [
            len(claim & {w.term for w in part}) for part in parts
            if any(w.written.lower() in own for w in part) or not any(w.written.lower() in opposite for w in part)
        ]
        against = [
            (len(claim & {w.term for w in part}), next(w for w in part if w.written.lower() in opposite), part)
            for part in parts
            if any(w.written.lower() in opposite for w in part) and not any(w.written.lower() in own for w in part)
        ]
        if not against:
            continue
        held, written, part = max(against, key=lambda found: found[0])
        if held <= max(with_word, default=-1):
            continue
        if _negated(word.written, claims, tokenizer) != _negated(written.written, stated, tokenizer):
            continue
        if lowered in _ORDER_WORDS and _reversed(words, word, part, written):
            continue  # "takes effect after the owner accepts" is "the owner must accept before it takes effect"
        problems.append(f"[{n}] says {written.written}, the sentence says {word.written}")
    return problems


_ORDER_WORDS = frozenset(("before", "after"))


def _reversed(said: Sequence[Word], word: Word, stated: Sequence[Word], written: Word) -> bool:
    """Whether the sentence puts on each side of its "before" or "after" what the span puts on the other side of its
    opposite: "X after Y" says what "Y before X" does."""
    def sides(words: Sequence[Word], at: Word) -> tuple[frozenset[str], frozenset[str]]:
        i = words.index(at)
        return frozenset(w.term for w in words[:i]), frozenset(w.term for w in words[i + 1 :])

    said_before, said_after = sides(said, word)
    stated_before, stated_after = sides(stated, written)
    crossed = len(said_before & stated_after) + len(said_after & stated_before)
    return crossed > len(said_before & stated_before) + len(said_after & stated_after)


def _span_sentences(span: SupportSpan, record: ChunkRecord) -> list[SentenceSpan]:
    sentences = chunk_sentences(record)
    return [sentences[i - 1] for i in span.sentences if 0 < i <= len(sentences)] or [
        SentenceSpan(span.start, span.end, 1, False)
    ]


def _negated(word: str, claims: Claims, tokenizer: TokenizerConfig) -> bool:
    terms = word_terms(word, tokenizer)
    return bool(terms) and True in claims.polarity.get(terms[0], frozenset())


_OPPOSITE_WORDS = opposite_words()
_MAX_SWAPPED = 3  # words on each side of a substitution; a longer one is a rewording of the whole clause
_MAX_KIND = 2  # words naming the kind of a noun ("operating system setting"), on each side


def _swap_problems(
    n: int, sentence: str, quote: str, elsewhere: Callable[[], Sequence[str]], tokenizer: TokenizerConfig,
    names: Sequence[Name] = (),
) -> list[str]:
    """Words the sentence puts where the span has others, when the sentence's words come from elsewhere in the issued
    evidence: "reviewed by the support team" against a span's "reviewed by the billing team", with a support team
    in another block. Models swap in entities from their context; a rewording ("gets" for "receives") uses words the
    evidence does not put there.

    A substitution is one to three words on each side, next to a word both share that is no number, with no number
    in it (the numbers check reads those) and not all of its words in the span (a reordering; but a name for
    another name, or one role for another, is a swap even when the span uses the word elsewhere). It is a swap when
    its two sides name different roles ("workspace admin" for "account owner"), when its one or two words name
    the kind of a shared noun the span names otherwise ("support team" for "billing team", "shipping address" for
    "billing address", "browser setting" for "operating system setting"; the kind nouns of wording.py), or when
    its words swapped in are written together outside the span (two or more as a run, a single one with the shared
    word beside it). A single word swapped in that reads as an inflected verb ("keeps" for "stores") is taken for a
    rewording in the last two cases; an antonym's stop word ("before") is left to the antonym check.
    """
    said, span = content_words(sentence, tokenizer), content_words(quote, tokenizer)
    said_terms, span_terms = [word.term for word in said], [word.term for word in span]
    in_span = frozenset(span_terms)
    # A sentence whose words the span all holds (most true sentences) may still put a name or a role where the span
    # has another: "added from the Storage page" against "Storage blocks are added from the Billing page".
    if not span or (
        in_span.issuperset(said_terms) and not names and all(role_of(term, tokenizer) is None for term in said_terms)
    ):
        return []
    opcodes = SequenceMatcher(None, said_terms, span_terms, autojunk=False).get_opcodes()
    problems = []
    for k, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag != "replace" or not (i2 - i1 <= _MAX_SWAPPED and j2 - j1 <= _MAX_SWAPPED):
            continue
        swapped_in = said_terms[i1:i2]
        # A number word swapped in is the numbers check's ("One upload batch" for "A single upload batch").
        if any(term[:1].isdigit() for term in swapped_in + span_terms[j1:j2]) or any(
            _numeric(term, tokenizer) for term in swapped_in
        ):
            continue
        if i2 - i1 == j2 - j1 and all(
            same_meaning(a, b, tokenizer) for a, b in zip(swapped_in, span_terms[j1:j2], strict=True)
        ):
            continue  # "shared across the workspace" for "pooled across": the synonyms table's rewording
        if _universal(said[i1:i2]) and _universal(span[j1:j2]):
            continue  # "whatever plan" for "every plan", "anywhere" for "everywhere": one universal quantifier
        # A shared number or number word next to the words tells nothing of what they are ("used one time").
        before = k > 0 and opcodes[k - 1][0] == "equal" and not _numeric(said_terms[i1 - 1], tokenizer)
        after = k + 1 < len(opcodes) and opcodes[k + 1][0] == "equal" and not _numeric(said_terms[i2], tokenizer)
        if not (before or after):
            continue
        one = i2 - i1 == 1 and j2 - j1 == 1
        # "Team gives each user" against "The Team plan includes ... per user": the span's "plan" ends the name the
        # sentence writes by its first word, no role the sentence's words stand in for.
        named = (
            before and span[j1].written.islower() and span[j1 - 1].written[:1].isupper()
            and role_of(span_terms[j1], tokenizer) is not None and span_terms[j1] not in said_terms
        )
        if named and j2 - j1 == 1 and set(swapped_in) <= in_span:
            continue  # "Business owners" for "owners on the Business plan": the span writes the role elsewhere
        # A role the span names elsewhere still stands in another's place: "Guests upload, edit and share files"
        # against "Members upload, edit and share files. Guests can only see ...".
        if _names_swapped(swapped_in, span_terms[j1:j2], names, quote, tokenizer) or (
            one and span_terms[j1] not in said_terms and _roles_differ(swapped_in, span_terms[j1:j2], tokenizer)
        ):
            problems.append(f"[{n}] says {_written(span[j1:j2])}, not {_written(said[i1:i2])}")
            continue
        # A light word swapped in ("also carries" for "includes") adds no claim: what else it brings must be the span's.
        if set(swapped_in) - light_terms(tokenizer) <= in_span:
            continue
        if any(word.term == word.written.lower() and word.term in ENGLISH_STOP_WORDS for word in said[i1:i2]):
            continue  # "before" for "early": an antonym's word, which the antonym check reads
        # One word written as a verb is ("keeps" for "stores", "used" for "works"): a rewording, unless it names
        # another role.
        verb = i2 - i1 == 1 and (_inflected(said[i1].written) or _after_modal(sentence, said[i1].written))
        small = i2 - i1 <= _MAX_KIND and j2 - j1 <= _MAX_KIND and not set(span_terms[j1:j2]) & set(said_terms)
        # After an article the word is no verb: "a fixed window" for "a rolling window".
        led = _led_alike(sentence, said[i1].written, quote, span[j1].written)
        modifier = not verb or led in _ARTICLES
        if not (
            _roles_differ(swapped_in, span_terms[j1 + named : j2], tokenizer)
            or (
                one and before and _role_for_thing(said[i1], span[j1], tokenizer)
                and not _as_verb(sentence, said[i1].written)  # "does not lead to a refund" for "trigger"
            )
            or (
                small and modifier and after and names_kind(said_terms[i2], tokenizer)
                and (one or role_of(said_terms[i2], tokenizer) is None)  # "count as paid users": a rewording
                # The kind is named by the word right before the noun, on both sides: "pick which folders" for
                # "choose which folders", "how many members" for "the number of members" name none.
                and _right_before(sentence, said[i2 - 1].written, said[i2].written)
                and _right_before(quote, span[j2 - 1].written, span[j2].written if j2 < len(span) else "")
            )
            or (not verb and _found_elsewhere(said_terms, i1, i2, before, after, elsewhere, tokenizer))
            or (
                small and before and after and not any(term in NUMBER_WORDS for term in span_terms[j1:j2])
                and not any(word.written.lower() in _OPPOSITE_WORDS for word in (*said[i1:i2], *span[j1:j2]))
                and _modifies_alike(sentence, said[i1:i2], said[i2], quote, span[j1:j2], span[j2])
                and not _unwritten(swapped_in, quote, elsewhere, tokenizer)  # "biggest" for "largest": a rewording
            )
            or (
                small and modifier and led and _ends_phrase(sentence, said[i2 - 1].written, tokenizer)
                # "-ly" and "-ing" words are said of an action; an all-capitals one is an abbreviation ("SSO").
                and not any(word.written.lower().endswith(("ly", "ing")) or word.written.isupper()
                            for word in said[i1:i2])
                and _unwritten(swapped_in, quote, elsewhere, tokenizer)
            )
        ):
            continue
        flank = after and (i2 - i1 == 1 or j2 - j1 == 1)
        flank_said, flank_span = _flank(said, i1, i2, flank), _flank(span, j1, j2, flank)
        problems.append(f"[{n}] says {_written(flank_span)}, not {_written(flank_said)}")
    return problems


def _opposite_of_negated(sentence: str, quote: str, stated: Sequence[Word], tokenizer: TokenizerConfig) -> bool:
    """Whether the span negates its words in the slot, and the sentence writes no negation word: "still open after
    30 minutes" for "not resolved after 30 minutes" says the span's negation by an opposite, which the polarity
    checks read; another thing in the slot names something else, not the lack of one."""
    if _negations(sentence):
        return False
    claims = read_claims(quote, tokenizer)
    return any(_negated(word.written, claims, tokenizer) for word in stated)


# Words that quantify over all of a kind, said in any of their forms: one claim whichever a sentence uses.
_UNIVERSALS = frozenset(
    "every any all each whatever whichever everywhere anywhere wherever everyone anyone everybody anybody "  # noqa: SIM905
    "everything anything whenever".split()
)


def _universal(words: Sequence[Word]) -> bool:
    return bool(words) and all(word.written.lower() in _UNIVERSALS for word in words)


# Words that lead a noun phrase: the same one before a word of the sentence and the span's word in its place makes
# them the same slot ("pay by cheque" where the span says "pay by bank transfer").
_ARTICLES = frozenset(("a", "an", "the", "each", "every", "per"))
_LEADERS = _ARTICLES | frozenset(("by", "in", "on", "at", "for", "with", "from", "via", "into", "through", "of"))


def _led_alike(sentence: str, said: str, quote: str, stated: str) -> str:
    """The article or preposition written right before both words (the sentence's and the span's), or ""."""
    def leader(text: str, word: str) -> str:
        found = re.search(rf"(\w+)\s+{re.escape(word)}\b", MARKER.sub(" ", text))
        return found.group(1).lower() if found else ""

    lead = leader(sentence, said)
    return lead if lead in _LEADERS and lead == leader(quote, stated) else ""


def _ends_phrase(sentence: str, last: str, tokenizer: TokenizerConfig) -> bool:
    """Whether the word ends its noun phrase: no content word follows it ("by cheque.", "in euros and")."""
    found = re.search(rf"\b{re.escape(last)}\b\W*(\w*)", MARKER.sub(" ", sentence))
    return found is not None and not (found.group(1) and word_terms(found.group(1), tokenizer))


def _unwritten(
    terms: Sequence[str], quote: str, elsewhere: Callable[[], Sequence[str]], tokenizer: TokenizerConfig
) -> bool:
    """Whether no issued evidence writes any of the terms: a word that stands in the span's word's place and comes
    from nowhere the model was shown ("retina scan" for "fingerprint check")."""
    written = {word.term for text in (quote, *elsewhere()) for word in content_words(text, tokenizer)}
    return not set(terms) & written


_MIN_REST = 2


def _clause_problems(
    n: int, sentence: str, span: SupportSpan, record: ChunkRecord, tokenizer: TokenizerConfig
) -> list[str]:
    """Of a two-sentence span, one sentence's words put in the place of the other's: "The Frankfurt data centre
    serves the United States data region" against "The Frankfurt data centre serves the European data region. The
    Oregon data centre serves the United States data region." The sentence is aligned with each sentence of the span;
    a substitution whose words only the other sentence holds, for words only this one holds, in a sentence whose other
    words this one all holds, recombines two claims."""
    parts = _span_sentences(span, record)
    if len(parts) != 2:
        return []
    said = content_words(sentence, tokenizer)
    said_terms = [word.term for word in said]
    texts = [content_words(record.text[part.start : part.end], tokenizer) for part in parts]
    for own, other in ((texts[0], texts[1]), (texts[1], texts[0])):
        own_terms, other_terms = [word.term for word in own], frozenset(word.term for word in other)
        opcodes = SequenceMatcher(None, said_terms, own_terms, autojunk=False).get_opcodes()
        for k, (tag, i1, i2, j1, j2) in enumerate(opcodes):
            if tag != "replace" or i2 - i1 > _MAX_SWAPPED or j2 - j1 > _MAX_SWAPPED:
                continue
            flanked = any(0 <= m < len(opcodes) and opcodes[m][0] == "equal" for m in (k - 1, k + 1))
            taken, left = set(said_terms[i1:i2]), set(own_terms[j1:j2])
            if taken <= light_terms(tokenizer) and left <= light_terms(tokenizer):
                continue  # "may take extra time" for "may need extra time": one light verb for another
            rest = set(said_terms) - taken
            if (
                flanked and not any(_numeric(term, tokenizer) for term in taken | left)
                and taken <= other_terms and not taken & set(own_terms)
                # A word of the span's that the sentence writes elsewhere may go with the swap ("members without
                # 2FA" for "guests" in a sentence that names 2FA before), but not every one: that is a reordering.
                and left - set(said_terms)
                # The rest of the claim is this sentence's, as many words as were taken and two at least ("Escape
                # closes that panel" against "The list opens in a panel" is another claim).
                and len(rest) >= max(_MIN_REST, len(taken)) and rest <= set(own_terms)
            ):
                return [f"[{n}] says {_written(own[j1:j2])}, not {_written(said[i1:i2])}, which it says of another"]
    return []


def _modifies_alike(
    sentence: str, said: Sequence[Word], head: Word, quote: str, stated: Sequence[Word], stated_head: Word
) -> bool:
    """Whether the words swapped in stand right before the head noun both share, where the span has its own words
    right before it, led by the same word, between words both share: "include the ticket number" against "include
    the invoice number", "the left side" against "the right side". Never a verb ("to share the selected file")."""
    if head.written.lower().endswith("ly") or any(
        _as_verb(sentence, word.written) or word.written.lower().endswith("ly") for word in said
    ):
        return False  # "yearly" for "annual", "applies immediately" for "takes effect immediately": a rewording
    if _word_before(sentence, said[0].written) != _word_before(quote, stated[0].written):
        return False  # "Support works Monday" for "Support is staffed Monday": another verb, not a modifier
    return _right_before(sentence, said[-1].written, head.written) and _right_before(
        quote, stated[-1].written, stated_head.written
    )


def _word_before(text: str, word: str) -> str:
    """The word written right before the word in the text, lower-cased, or ""."""
    found = re.search(rf"(\w+)\W+{re.escape(word)}\b", MARKER.sub(" ", text))
    return found.group(1).lower() if found else ""


def _names_swapped(
    said: Sequence[str], span: Sequence[str], names: Sequence[Name], quote: str, tokenizer: TokenizerConfig
) -> bool:
    """Whether a name of the sentence stands where the span has another name: "a folder called Photos" against "a
    folder called Camera Uploads", though the span says "photos" elsewhere in lower case."""
    said_names = {term for name in names for term in name.terms}
    span_names = {term for name in read_names(quote, tokenizer) for term in name.terms}
    return set(said) <= said_names and set(span) <= span_names and not set(said) & set(span)


def _role_for_thing(said: Word, span: Word, tokenizer: TokenizerConfig) -> bool:
    """Whether a role noun stands where the span has a word of no role, both plural or both singular: "limited to
    specific members" against "limited to specific folders"."""
    same_number = said.written.lower().endswith("s") == span.written.lower().endswith("s")
    return same_number and role_of(said.term, tokenizer) is not None and role_of(span.term, tokenizer) is None


def _roles_differ(said: Sequence[str], span: Sequence[str], tokenizer: TokenizerConfig) -> bool:
    """Whether both sides name a role and not the same one: "workspace admin" for "account owner"."""
    said_roles = {role_of(term, tokenizer) for term in said} - {None}
    span_roles = {role_of(term, tokenizer) for term in span} - {None}
    return bool(said_roles and span_roles) and not said_roles & span_roles


def _found_elsewhere(
    terms: Sequence[str], i1: int, i2: int, before: bool, after: bool, elsewhere: Callable[[], Sequence[str]],
    tokenizer: TokenizerConfig,
) -> bool:
    """Whether the words swapped in are written together outside the span: two or more as a run, a single one with
    the shared word beside it."""
    runs = [tuple(terms[i1:i2])] if i2 - i1 > 1 else []
    if before:
        runs.append(tuple(terms[i1 - 1 : i2]))
    if after:
        runs.append(tuple(terms[i1 : i2 + 1]))
    return any(run in phrases(text, tokenizer) for text in elsewhere() for run in runs)


def _right_before(text: str, word: str, noun: str) -> bool:
    """Whether the word is written right before the noun somewhere in the text, nothing but a space or hyphen between
    ("billing team", "operating system setting"); never when the noun is missing."""
    if not noun:
        return False
    pattern = rf"\b{re.escape(word)}[\s-]+{re.escape(noun)}\b"
    return re.search(pattern, MARKER.sub(" ", text), re.I) is not None


def _as_verb(sentence: str, word: str) -> bool:
    """Whether the word stands as a verb: after a modal, "to", a negation or a form of "do" ("does not lead")."""
    return _after_modal(sentence, word) or re.search(
        rf"(?:\b(?:not|never|does|do|did)|n't)\s+{re.escape(word)}\b", sentence, re.I
    ) is not None


def _after_modal(sentence: str, word: str) -> bool:
    """Whether the word stands as a verb after a modal or "to" ("can restrict", "to restrict")."""
    return re.search(rf"\b(?:{_MODALS})\s+{re.escape(word)}\b", sentence, re.I) is not None


_MODALS = "can|cannot|could|may|might|must|shall|should|will|would|to"


def _inflected(word: str) -> bool:
    """Whether a word ends as an inflected verb does ("keeps", "used"); "business" and "status" do not."""
    lowered = word.lower()
    return lowered.endswith("ed") or (lowered.endswith("s") and not lowered.endswith(("ss", "us", "is")))


def _numeric(term: str, tokenizer: TokenizerConfig) -> bool:
    """Whether a term is a number: digits, a number word, or the term the tokenizer makes of one ("thirti")."""
    return term[:1].isdigit() or term in NUMBER_WORDS or term in _number_terms(tokenizer)


@functools.lru_cache(maxsize=8)
def _number_terms(tokenizer: TokenizerConfig) -> frozenset[str]:
    """The terms of the number words, read once per tokenizer."""
    return frozenset(term for word in NUMBER_WORDS for term in word_terms(word, tokenizer))


def _flank(words: Sequence[Word], start: int, end: int, flank: bool) -> Sequence[Word]:
    """The substituted words as a reason names them: with the shared word after them when one side is a single
    word ("billing team", "operating system setting"), else the words alone ("account owner")."""
    if flank and end < len(words):
        return words[start : end + 1]
    return words[start:end]


def _written(words: Sequence[Word]) -> str:
    return " ".join(word.written for word in words)


def _entity_problems(
    n: int, sentence: str, span: SupportSpan, record: ChunkRecord, tokenizer: TokenizerConfig
) -> list[str]:
    """The entity swaps the word-by-word swap check lets through: a role the span does not name where it names
    another (`_role_problems`), a noun put in the slot of the span's after the same article or preposition
    (`_slot_problems`), and an identifier of the span's shape with another ending (`_identifier_problems`)."""
    return (
        _role_problems(n, sentence, span.quote, record, tokenizer)
        or _slot_problems(n, sentence, span.quote, tokenizer)
        or _identifier_problems(n, sentence, span.quote)
    )


def _role_problems(
    n: int, sentence: str, quote: str, record: ChunkRecord, tokenizer: TokenizerConfig
) -> list[str]:
    """A role the sentence names that neither the span nor its headings name, where the span names a role the
    sentence does not: "seen by the workspace owner and by guests" against "the workspace owner and billing admins
    can see invoices", "a maximum of 50 guests" against "50 members", "The incident commander decides" against
    "The security lead decides". Roles are compared as groups ("admins" and "administrators" are one)."""
    def roles(text: str) -> dict[int, str]:
        found: dict[int, str] = {}
        for word in content_words(text, tokenizer):
            role = role_of(word.term, tokenizer)
            if role is not None:
                found.setdefault(role, word.written)
        return found

    said, stated = roles(sentence), roles(quote)
    headed = roles("\n".join((record.source_title, *record.heading_path)))
    astray = [word for role, word in said.items() if role not in stated and role not in headed]
    instead = [word for role, word in stated.items() if role not in said]
    if not astray or not instead:
        return []
    return [f"[{n}] names {' or '.join(instead)}, not {' or '.join(astray)}"]


def _slot_problems(n: int, sentence: str, quote: str, tokenizer: TokenizerConfig) -> list[str]:
    """One or two nouns that end their phrase in the sentence, after the article or preposition that leads the
    span's own one or two words there, and that the span does not use: "pay by cheque" against "pay by bank
    transfer", "for each token" against "for each workspace", "logged in the incident channel" against "logged in
    the restore register", "shown in euros" against "shown in US dollars". Whether another block writes the words
    tells nothing here (a model takes them from its context as readily as from nowhere); a verb after a modal, an
    "-ly" or "-ing" word and an abbreviation are left alone."""
    said, span = content_words(sentence, tokenizer), content_words(quote, tokenizer)
    said_terms, span_terms = [word.term for word in said], [word.term for word in span]
    in_span = frozenset(span_terms)
    opcodes = SequenceMatcher(None, said_terms, span_terms, autojunk=False).get_opcodes()
    for k, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag != "replace" or i2 - i1 > _MAX_KIND or j2 - j1 > _MAX_KIND or k == 0 or opcodes[k - 1][0] != "equal":
            continue
        words = said[i1:i2]
        if set(said_terms[i1:i2]) <= light_terms(tokenizer):
            continue  # "also carries" for "response includes": light words fill no slot with another thing
        if set(said_terms[i1:i2]) & in_span or any(
            _numeric(term, tokenizer) for term in said_terms[i1:i2] + span_terms[j1:j2]
        ):
            continue
        if any(
            word.written.lower() in ENGLISH_STOP_WORDS or word.written.isupper()
            or word.written.lower().endswith(("ly", "ing"))
            for word in words
        ) or (i2 - i1 == 1 and _after_modal(sentence, words[0].written)):
            continue
        if (
            _leads_both(sentence, words[0].written, quote, span[j1].written)
            and _ends_phrase(sentence, words[-1].written, tokenizer)
            and _ends_phrase(quote, span[j2 - 1].written, tokenizer)
        ):
            if _opposite_of_negated(sentence, quote, span[j1:j2], tokenizer):
                continue  # "A Sev-1 still open" for "A Sev-1 incident that is not resolved": an opposite
            return [f"[{n}] says {_written(span[j1:j2])}, not {_written(words)}"]
    return []


def _leads_both(sentence: str, said: str, quote: str, stated: str) -> str:
    """The article, preposition, number or "-ing" modifier before the sentence's word that also stands before some
    use of the span's word ("the" of "in the restore register", though the span opens with "Every restore"; "500" of
    "up to 500 folders" against "up to 500 files"; "failing" of "failing downloads" against "failing uploads"), or
    ""."""
    found = re.search(rf"([\w.]+)\s+{re.escape(said)}\b", MARKER.sub(" ", sentence))
    lead = found.group(1).lower() if found else ""
    if lead not in _LEADERS and not lead[:1].isdigit() and not lead.endswith("ing"):
        return ""
    if not re.search(rf"\b{re.escape(lead)}\s+{re.escape(stated)}\b", quote, re.I):
        return ""
    return lead


_IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:[-_:][a-z0-9]+)+\b", re.I)


def _identifier_problems(n: int, sentence: str, quote: str) -> list[str]:
    """An identifier ("data-theme") the span does not write where the span writes one of the same first part and
    another ending ("data-accent"), which the sentence does not: one attribute, event or setting named for another
    (its plural is the same one)."""
    said = {found.lower() for found in _IDENTIFIER.findall(MARKER.sub(" ", sentence))}
    stated = {found.lower() for found in _IDENTIFIER.findall(quote)}
    problems = []
    for name in sorted(said - stated):
        head = re.split(r"[-_:]", name)[0]
        # "sign-ins" is the span's "sign-in" in the plural, "right-clicking" its "right-click" as a verb: no other
        # identifier
        rivals = sorted(
            other for other in stated - said
            if re.split(r"[-_:]", other)[0] == head and not _forms(name) & _forms(other)
        )
        if rivals:
            problems.append(f"[{n}] names {rivals[0]}, not {name}")
    return problems



_INFLECTIONS = ("ing", "ed", "es", "s")


def _forms(identifier: str) -> frozenset[str]:
    """An identifier and what it is less an inflection of its last word ("right-clicking" and "right-clicked" hold
    "right-click", "sign-ins" "sign-in", "drag-and-dropped" "drag-and-drop")."""
    forms = {identifier}
    for ending in _INFLECTIONS:
        base = identifier.removesuffix(ending)
        if base != identifier and len(re.split(r"[-_:]", base)[-1]) >= 2:
            forms.add(base)
            if len(base) > 2 and base[-1] == base[-2]:
                forms.add(base[:-1])
    return frozenset(forms)
