"""What a sentence claims beyond its words (§5.6): its numbers with their units and the words each qualifies, its
names and code literals, and which of its words stand under a negation. A sentence and its support span are read by
the same rules, so the verifier can compare the two.

Rules callers rely on:

- Text is NFC-normalised; "4 to 6 days" and "between 4 and 6 days" read as the range "4-6 days"; a number word right
  before a unit is a number ("two business days" -> "2 business days"); "14:00", "2 pm" and "2:00 p.m." are the time
  "14:00". Other numbers follow `quantities`: "12%", "$19", "25 kg", "$12 per month", and a bare "1209600"; digits
  run into two or more capitals ("2FA", "3DS") are an identifier, no number (but "24h" and "2x" are numbers).
  Quantity phrases are said one way (wording.py: "a single time" and "only once" -> "one time").
- A number qualifies the words of its clause (clauses end at , ; : ( ) and at "and", "but", "while", "whereas",
  "or", "except", "unlike"); a word in a clause with no number qualifies the nearest number of its sentence; a word
  equally near two numbers qualifies both.
- A name is a code literal (in backticks, or with "_", "()", or a dot inside; "__hash__()" with its underscores),
  an e-mail address, a key combination ("Ctrl+K") or a single capital letter naming a key ("press S"; never "A" or
  "I"), an acronym (two to five capitals), or a capitalised word that does not start the sentence; never a stop word
  ("IT", "AN" of a heading in capitals) nor a unit ("MB"). A letter is held only by the same letter in the same case.
- A period said without a number ("every year", "each month", "weekly", "annual") is one of that unit ("1 year"),
  unless it follows an amount, whose rate it is ("$8 each month").
- A negation ("no", "not", "never", "without", "cannot", "none", "nothing", "nobody", "neither", "nor", "non-", any
  "n't") negates up to three content words after it in its clause, or a number right after it ("takes not 4
  days"), never past a number nor a content word it negated ("not resolved after 30 minutes" states 30 minutes);
  "no more than", "not later than" and "not only" are no negations, nor is a negation word capitalised in the middle
  of a sentence ("default=None", "returns None": a value's name); "rather than" and "instead of" are ("credited
  rather than paid in cash" negates the paying), and "exclude" reads as "not include". Its scope goes on past "or"
  and "and" ("does not include VAT or sales tax") and ends at a clause's end and at "when", "if", "unless",
  "because", "until", "once", "since" ("never removed when old versions expire" does not deny the versions).
- A number word counting a noun is a number ("the latest five versions" -> 5; never "one"), and a share said in
  words is a percentage ("nine tenths" -> 90%, "half of" -> 50%).
"""
import functools
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation

from answers.pipeline.text.quantities import UNIT_WORDS, find_quantities, number_spans
from answers.pipeline.text.tokens import ENGLISH_STOP_WORDS, TokenizerConfig, tokenize
from answers.pipeline.text.wording import say_quantities

TIME = "time"


@dataclass(frozen=True)
class NumberClaim:
    """A number as stated: its value ("2", "4-6", "14:00"), unit ("business day", "%", "$", "time", or "" for a bare
    number), the words as written, and the terms it qualifies."""

    value: str
    unit: str
    text: str
    about: frozenset[str]
    negated: bool = False  # "takes not 4 days"


@dataclass(frozen=True)
class Name:
    """A name, identifier or code literal as written, its terms, and how it is matched: a literal by its text, an
    acronym by its terms or by the initials of words, any other name by its terms."""

    text: str
    terms: tuple[str, ...]
    literal: bool = False
    acronym: bool = False
    # A literal written against the digits after it ("uuid.uuid4", "enable_SMTPUTF8"): the number check reads those
    # digits, so the literal is looked up with any digits after it.
    fused: bool = False


@dataclass(frozen=True)
class Claims:
    """What a text states: its numbers, each term's polarities (True: under a negation), the words each term was
    written as, and what a name is looked up in."""

    numbers: tuple[NumberClaim, ...]
    polarity: Mapping[str, frozenset[bool]]
    written: Mapping[str, str]
    terms: frozenset[str]
    lowered: str  # the normalised text, lower-cased: where a literal is looked up
    text: str  # the normalised text: where a letter named as a key is looked up ("press S")
    initials: str  # the first letter of each word, lower-cased: where an acronym's expansion is looked up
    # Terms written only plainly past a negation's reach in their clause ("does not send sign-in codes by text
    # message": "text"): read as plain, but the clause may mean them negated.
    trailing: frozenset[str] = frozenset()
    # Terms written before a denied modal ("Real customer data must not go ..."): plain, but the sentence may mean
    # them denied as "must not be used for real customer data" does. Read only of a sentence, never of a span.
    modal_subjects: frozenset[str] = frozenset()

    def holds_name(self, name: "Name") -> bool:
        """Whether this text names `name`: the literal, every term of it, or an acronym's words."""
        if name.literal and len(name.text) == 1:
            return holds_letter(self.text, name.text)
        if name.literal:
            literal = re.escape(_literal(name.text).lower()) + (r"\d*" if name.fused else "")
            return re.search(rf"(?<![\w+]){literal}(?![\w+])", self.lowered) is not None
        if name.terms and set(name.terms) <= self.terms:
            return True
        return name.acronym and name.text.lower() in self.initials


def holds_letter(text: str, letter: str) -> bool:
    """Whether the text names a letter by its case: alone or quoted ("press S", "'Y'"), never the "s" of "Lumora's"
    or the "I" of "I'm"."""
    escaped = re.escape(letter)
    return re.search(rf"(?<![\w+])(?<!\w['’]){escaped}(?![\w+])(?!['’]\w)", text) is not None


_AMOUNT = r"\d+(?:[.,]\d+)*"
_RANGE_TO = re.compile(rf"(?<![\w.,])({_AMOUNT})\s+(?:to|through)\s+([$€£]?{_AMOUNT})(?![\w.,]?\d)", re.I)
_RANGE_BETWEEN = re.compile(rf"\bbetween\s+([$€£]?{_AMOUNT})\s+and\s+([$€£]?{_AMOUNT})(?![\w.,]?\d)", re.I)
_NUMBER_WORDS = {
    word: str(value)
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "  # noqa: SIM905
        "seventeen eighteen nineteen twenty".split()
    )
} | {
    "thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90",
    "hundred": "100",
}
NUMBER_WORDS = frozenset(_NUMBER_WORDS)
_NUMBER_WORD = re.compile(rf"\b({'|'.join(_NUMBER_WORDS)})(?=[\s-]+(?:{UNIT_WORDS})\b)", re.I)
# A number word counting a noun is a number as digits are ("the latest five versions" -> 5): "one" is left alone, as
# it is mostly no count ("one of the", "no one"); so is a word before "of", "or" and "and" ("two of them" is read by
# its noun elsewhere) and before a word written in digits.
_COUNT_WORD = re.compile(
    rf"\b(?<![-'’])({'|'.join(word for word in _NUMBER_WORDS if word != 'one')})\b(?=\s+(?!(?:of|or|and|to)\b)[a-z])",
    re.I,
)
# Number words said in two or more words: "thirty-five" is 35, "two hundred" 200, and the first word of a range
# before a unit ("five to seven business days") a number as the second is.
_DIGITS = "one two three four five six seven eight nine".split()  # noqa: SIM905
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()  # noqa: SIM905
_COMPOUND = re.compile(rf"\b({'|'.join(_TENS)})[\s-]+({'|'.join(_DIGITS)})\b", re.I)
_HUNDREDS = re.compile(rf"\b({'|'.join(_DIGITS)}|a)\s+hundred\b", re.I)
_WORD_RANGE = re.compile(
    rf"\b({'|'.join(_NUMBER_WORDS)})(?=\s+(?:to|through)\s+(?:(?:{'|'.join(_NUMBER_WORDS)})|\d+)[\s-]+(?:{UNIT_WORDS})\b)",
    re.I,
)
# "a single request" counts one as "one request" does; "single files" and "the largest single file" name a kind.
_A_SINGLE = re.compile(rf"\ba\s+single\s+(?=(?:{UNIT_WORDS})\b)", re.I)
# A share said in words is a percentage: "nine tenths of the quota" is 90%, "a quarter" 25%, "half of" 50%.
_TENTHS = re.compile(rf"\b({'|'.join(_NUMBER_WORDS)})[\s-]+tenths?\b", re.I)
_HALF = re.compile(r"\b(?:one|a)[\s-]+half\b|\bhalf(?=\s+of\b)", re.I)
_QUARTERS = re.compile(r"\b(one|a|three)[\s-]+quarters?(?=\s+of\b)", re.I)
_TIME = re.compile(
    r"(?<![\w:.])(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?(?(minute)(?:\s?(?P<half>[ap])\.?m\b)?|\s?(?P<half2>[ap])\.?m\b)",
    re.I,
)
_KEYS = r"(?:[A-Za-z]+\+)+[A-Za-z0-9]\w*"  # a key combination ("Ctrl+K", "Shift+N"): one identifier
_LABEL = r"[A-Za-z]+-\d+\w*"  # a label with a number ("Sev-1", "Tier-2"): an identifier, no amount
_EMAIL = r"[A-Za-z0-9_.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"  # an address is one identifier, its user part too
# "Retry-After", "X-RateLimit-Remaining": one name (a lower-case letter in it: "HMAC-SHA256" is read as before)
_COMPOUND_NAME = r"(?=[A-Za-z-]*[a-z])[A-Z][A-Za-z]*(?:-[A-Z][A-Za-z]*)+"
_ROMAN = re.compile(r"(?:I|II|III|IV|V|VI|VII|VIII|IX|X)")  # "Type II", "Tier III": a numeral naming a kind
_ITEM = re.compile(
    rf"(?P<word>{_EMAIL}|{_KEYS}|{_LABEL}|{_COMPOUND_NAME}(?![\w'’])|_+[^\W\d_]\w*(?:\(\))?|[^\W\d_][\w'’]*(?:\.[A-Za-z_]\w+)*(?:\(\))?|`[^`\n]+`)"
    r"|(?P<sep>[,;:()\[\]]|[.!?](?=\s|$)|\n)"
)
_CLAUSE_WORDS = frozenset("and but while whereas or except unlike although though however".split())  # noqa: SIM905
_SENTENCE_END = frozenset(".!?\n")
# The words that negate what follows them (with any "n't"); "non" only as the prefix of a word such as "non-EU".
NEGATION_WORDS = frozenset("no not never without cannot none nothing nobody neither nor".split())  # noqa: SIM905
_NEGATIONS = NEGATION_WORDS | {"non"}
_NOT_NEGATING = re.compile(
    r"\s+(?:(?:more|less|fewer|later|earlier|sooner|longer|greater|higher|lower)\s+than|only)\b", re.I
)
_SCOPE = 3
_SUBORDINATORS = frozenset("when if unless because until once since whenever".split())  # noqa: SIM905
# A verb that starts a predicate: after a negation has reached a content word, it ends the negation's reach ("Members
# without the owner role can see the form": "without" qualifies the members, the seeing is plain).
_PREDICATE_STARTS = frozenset(
    "can could may might must shall should will would is are was were do does did has have had".split()  # noqa: SIM905
)
_OBJECT_PRONOUNS = frozenset("it them one this that these those".split())  # noqa: SIM905
# A negation of a passive ("aren't blocked", "is not refunded", "cannot be registered") denies what its subject,
# written before it, undergoes: "Executables aren't blocked" says what "does not block executable files" says.
_BE_FORMS = frozenset("is are was were".split())  # noqa: SIM905
_BE_NEXT = re.compile(r"\s+(?:be|been)\b", re.I)
_MODALS = frozenset("must may can could should will would shall".split())  # noqa: SIM905
_MODAL_NEGATIONS = frozenset(("cannot", "can't", "can’t", "mustn't", "mustn’t", "won't", "won’t"))
_NOT_WORDS = frozenset(("not", "never"))  # "A card is never charged" is "is not charged" said for every time
_PASSIVE_NEGATIONS = frozenset(f"{form}n't" for form in ("is", "are", "was", "were")) | frozenset(
    f"{form}n’t" for form in ("is", "are", "was", "were")
)
# A verb that says "not include" is a negation of "include": "prices exclude VAT" as "do not include VAT".
_EXCLUDE = re.compile(r"\bexclud(e|es|ed|ing)\b", re.I)
_RATHER = re.compile(r"\s*,?\s*\b(?:rather\s+than|instead\s+of)\b", re.I)  # "credited rather than paid": not paid
_ACRONYM_LETTERS = 5  # a longer word in capitals is shouted ("UPDATES DURING AN INCIDENT"), not an acronym
_IDENTIFIER_TAIL = re.compile(r"[A-Z]{2,}")
# A period said without a number is one of it: "rotated every year" and "yearly" state 1 year, so that "every month"
# against it is a unit swap as "12 months" against "12 years" is.
_PERIOD_UNITS = {
    "hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "yearly": "year", "annually": "year",
    "annual": "year",
}
_PERIOD = re.compile(
    r"\b(?:every|each)\s+(?P<unit>second|minute|hour|day|business\s+day|week|month|year)\b"
    r"|\b(?P<adverb>hourly|daily|weekly|monthly|yearly|annually|annual)\b",
    re.I,
)
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w+)*(?:\(\))?")


@functools.lru_cache(maxsize=4096)
def read_claims(text: str, tokenizer: TokenizerConfig) -> Claims:
    """The numbers and polarities of a sentence or span, and what it names (cached: a span is read once an answer)."""
    text, numbers, items = _read(text, tokenizer)
    about = _attribute(items, len(numbers))
    negated = {item.number for item in items if item.number >= 0 and item.negated}
    claims = tuple(
        NumberClaim(value, unit, " ".join(text[start:end].split()), frozenset(about[i]), i in negated)
        for i, (value, unit, start, end) in enumerate(numbers)
    )
    polarity: dict[str, set[bool]] = {}
    written: dict[str, str] = {}
    reached: set[str] = set()  # terms with a plain use no negation of its clause came before
    subjects = _passive_subjects(items)
    lenient = subjects | _before_no(items)  # terms that may be meant negated though written plain
    modal = _passive_subjects(items, passive=False)
    for item in items:
        for term in item.terms:
            polarity.setdefault(term, set()).add(item.negated)
            written.setdefault(term, item.word)
            if not item.negated and not item.trailing:
                reached.add(term)
    words = [item.word for item in items if item.word]
    return Claims(
        numbers=claims,
        polarity={term: frozenset(values) for term, values in polarity.items()},
        written=written,
        terms=frozenset(polarity),
        lowered=text.replace("`", "").lower(),
        text=text.replace("`", ""),
        initials="".join(part[0] for word in words for part in re.split(r"[-'’.]", word) if part).lower(),
        trailing=frozenset(term for term, uses in polarity.items() if False in uses) - (reached - lenient),
        modal_subjects=frozenset(term for term in modal if polarity.get(term) == {False}),
    )


def _before_no(items: Sequence["_Item"]) -> frozenset[str]:
    """The terms of the word right before a "no" that negates what follows it ("needs no approval", "creates no new
    version"): that word may be the one denied, as "does not need approval" denies the needing."""
    return frozenset(
        term for before, item, after in zip(items, items[1:], items[2:], strict=False)
        if item.negation and item.word.lower() == "no" and after.negated
        for term in before.terms
    )


def _passive_subjects(items: Sequence["_Item"], *, passive: bool = True) -> frozenset[str]:
    """The terms written before a negated passive in its clause ("executables" of "Executables aren't blocked"): its
    subject, which the negation may deny as "does not block executable files" does; with `passive` false, those
    before a denied modal instead ("must not", "can't")."""
    found: set[str] = set()
    start = 0
    for i, item in enumerate(items):
        if item.clause_end:
            start = i + 1
            continue
        if not item.negation:
            continue
        lowered = item.word.lower()
        before = items[i - 1].word.lower() if i else ""
        after = items[i + 1].word.lower() if i + 1 < len(items) else ""
        denies_passive = (
            lowered in _PASSIVE_NEGATIONS or (lowered in _NOT_WORDS and before in _BE_FORMS) or after in ("be", "been")
        )
        denies_modal = (lowered == "not" and before in _MODALS) or lowered in _MODAL_NEGATIONS
        if denies_passive if passive else (denies_modal and not denies_passive):
            found.update(term for earlier in items[start:i] for term in earlier.terms)
    return frozenset(found)


@functools.lru_cache(maxsize=1024)
def read_names(text: str, tokenizer: TokenizerConfig) -> tuple[Name, ...]:
    """The names, identifiers and code literals a sentence states, each once, in order (a span is asked whether it
    holds them, `Claims.holds_name`, never for its own)."""
    return tuple(_names(_read(text, tokenizer)[2], tokenizer))


@functools.lru_cache(maxsize=4096)
def _read(
    text: str, tokenizer: TokenizerConfig
) -> tuple[str, tuple[tuple[str, str, int, int], ...], tuple["_Item", ...]]:
    """The normalised text, its numbers (value, unit, start, end) and its items, read once for claims and names."""
    text = _normalise(text)
    numbers, taken = _numbers(text)
    return text, tuple(numbers), tuple(_items(text, taken, numbers, tokenizer))


@functools.lru_cache(maxsize=8)
def negation_terms(tokenizer: TokenizerConfig) -> frozenset[str]:
    """The terms of the negation words ("without", "never", "cannot"): what a sentence says of its terms, which the
    polarity check reads, not terms of its claim."""
    return frozenset(term for word in _NEGATIONS for term in _terms(word, tokenizer))


def same_value(a: str, b: str) -> bool:
    """Whether two values state the same amount: "2.50" and "2.5", "4-6" and "4-6.0"; a time by its text."""
    try:
        return [Decimal(part) for part in a.split("-")] == [Decimal(part) for part in b.split("-")]
    except InvalidOperation:
        return a == b


def compatible_units(a: str, b: str) -> bool:
    """Whether two units state the same kind of amount: equal, a rate and its base ("$/user" and "$"), or a rate and
    a rate of it ("$/user" and "$/month/user": "$12 per user" of "$12 per user per month")."""
    if a == b or a.split("/")[0] == b or b.split("/")[0] == a:
        return True
    (base_a, *over_a), (base_b, *over_b) = a.split("/"), b.split("/")
    return base_a == base_b and (set(over_a) <= set(over_b) or set(over_b) <= set(over_a))


def _normalise(text: str) -> str:
    text = say_quantities(unicodedata.normalize("NFC", text))
    text = _RATHER.sub(", not", text)
    lowered = text.lower()
    if "exclud" in lowered:
        text = _EXCLUDE.sub(lambda m: f"not includ{m.group(1)}", text)
    if "tenth" in lowered:
        text = _TENTHS.sub(lambda m: f"{int(_NUMBER_WORDS[m.group(1).lower()]) * 10}%", text)
    if "half" in lowered or "quarter" in lowered:
        text = _QUARTERS.sub(lambda m: "75%" if m.group(1).lower() == "three" else "25%", _HALF.sub("50%", text))
    if "single" in lowered:
        text = _A_SINGLE.sub("one ", text)
    if any(tens in lowered for tens in _TENS):
        text = _COMPOUND.sub(lambda m: str(_value(m.group(1)) + _value(m.group(2))), text)
    if "hundred" in lowered:
        text = _HUNDREDS.sub(lambda m: str(100 * (1 if m.group(1).lower() == "a" else _value(m.group(1)))), text)
    if " to " in lowered or " through " in lowered:
        text = _WORD_RANGE.sub(lambda m: _NUMBER_WORDS[m.group(1).lower()], text)
    text = _NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group(1).lower()], text)
    text = _COUNT_WORD.sub(lambda m: _NUMBER_WORDS[m.group(1).lower()], text)
    text = _RANGE_BETWEEN.sub(r"\1-\2", text)
    return _RANGE_TO.sub(r"\1-\2", text)


def _value(word: str) -> int:
    return int(_NUMBER_WORDS[word.lower()])


def _numbers(text: str) -> tuple[list[tuple[str, str, int, int]], list[tuple[int, int]]]:
    """(value, unit, start, end) of each number, in text order, and the ranges they take."""
    found: list[tuple[str, str, int, int]] = []
    taken: list[tuple[int, int]] = []
    for match in _TIME.finditer(text):
        hour, minute = int(match.group("hour")), int(match.group("minute") or 0)
        half = (match.group("half") or match.group("half2") or "").lower()
        if half == "p" and hour < 12:
            hour += 12
        elif half == "a" and hour == 12:
            hour = 0
        if hour < 24 and minute < 60:
            found.append((f"{hour:02d}:{minute:02d}", TIME, match.start(), match.end()))
            taken.append((match.start(), match.end()))
    blanked = _blank(text, taken)
    for quantity in find_quantities(blanked):
        found.append((quantity.value, quantity.unit, quantity.start, quantity.end))
        taken.append((quantity.start, quantity.end))
    blanked = _blank(text, taken)
    labels = [match.span() for match in re.finditer(rf"(?<![\w-]){_LABEL}", text)]
    for value, start, end in number_spans(blanked):
        if _IDENTIFIER_TAIL.match(text, end):  # digits run into capitals are an identifier ("2FA"), no number
            continue
        if any(a <= start < b for a, b in labels):  # "Sev-1", "CANARY-9X4": a label, read as a name
            continue
        found.append((value, "", start, end))
        taken.append((start, end))
    ends = {end for _, end in taken}
    for match in _PERIOD.finditer(_blank(text, taken)):
        # "$8 each month" is the $8's rate, said another way: the period belongs to the amount before it.
        if text[: match.start()].rstrip() and len(text[: match.start()].rstrip()) in ends:
            continue
        word = " ".join((match.group("unit") or match.group("adverb")).lower().split())
        found.append(("1", _PERIOD_UNITS.get(word, word), match.start(), match.end()))
        taken.append((match.start(), match.end()))
    found.sort(key=lambda number: number[2])
    return found, sorted(taken)


def _blank(text: str, ranges: list[tuple[int, int]]) -> str:
    for start, end in ranges:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


@dataclass(frozen=True)
class _Item:
    """A word (with its terms), a number (by its index) or a clause or sentence boundary, in text order."""

    word: str = ""
    terms: tuple[str, ...] = ()
    number: int = -1
    clause_end: bool = False
    sentence_end: bool = False
    negated: bool = False
    first: bool = False  # the sentence's first word
    joined: bool = False  # written against a digit or hyphen ("the X of 9X4"): part of a code, not a word
    fused: bool = False  # digits follow the word with no break ("uuid4"): read as a number of their own
    trailing: bool = False  # plain, but after a negation of its clause whose reach ended before it
    negation: bool = False  # a negation word


def _items(
    text: str, taken: list[tuple[int, int]], numbers: list[tuple[str, str, int, int]], tokenizer: TokenizerConfig
) -> Iterator[_Item]:
    starts = {start: i for i, (_, _, start, _) in enumerate(numbers)}
    pending = sorted(starts)
    scope = 0  # content words a negation still covers
    reach = False  # no content word yet between the negation and here
    negated_clause = False  # a negation came before in this clause
    at_start = True
    # "not tied to a single member": the negation's first word and a preposition before a count of one deny the
    # count (1: that word was just read, 2: and then the preposition)
    denial = 0
    passive = False  # the clause's negation is of a passive ("is not blocked", "can't be brought back")
    denier = ""  # the clause's negation word, lower-cased
    previous = ""  # the word before, lower-cased
    for match in _ITEM.finditer(_blank(text, taken)):
        while pending and pending[0] < match.start():
            # A negation reaches a number right after it ("takes not 4 days"), never past it nor past a word it
            # negates ("not resolved after 30 minutes" negates the resolving, not the 30 minutes).
            index = starts[pending.pop(0)]
            yield _Item(number=index, negated=(scope > 0 and reach) or (denial == 2 and _counts_one(numbers[index])))
            scope, denial = 0, 0
        if match.group("sep"):
            denial = 0
            ends = match.group() in _SENTENCE_END
            yield _Item(clause_end=True, sentence_end=ends)
            scope, negated_clause = 0, False
            at_start = at_start or ends
            continue
        word = match.group("word").rstrip(".")
        lowered = word.lower()
        before, previous = previous, lowered
        if lowered == "by" and scope and passive:
            scope, negated_clause = 0, False  # a denied passive's agent: "not blocked by Lumora" denies no Lumora
        if lowered in _CLAUSE_WORDS:
            denial = 0
            yield _Item(clause_end=True)
            # "cannot edit or delete" negates both, and so does "does not include VAT and sales tax" (but "is not
            # processed and must be sent again" negates no sending)
            scope = scope if lowered == "or" or (lowered == "and" and _content_follows(text, match.end())) else 0
            negated_clause = negated_clause and scope > 0
            continue
        first, at_start = at_start, False
        if lowered in _PREDICATE_STARTS and scope and not reach:
            # "No credit card is required": the passive of a subject denied by "no" may be what is denied (it
            # trails: lenient), as "is not required" says; after "without", or before a modal ("No discount may
            # take"), it is plain
            scope, negated_clause = 0, negated_clause and denier == "no" and lowered in _BE_FORMS
        if lowered in _SUBORDINATORS:
            scope, negated_clause = 0, False  # "never removed when old versions expire": no version is denied
        if _negates(word, text, match.end(), first=first):
            denier = lowered
            scope = 1 if lowered == "non" else _SCOPE
            passive = lowered in _PASSIVE_NEGATIONS or (lowered in _NOT_WORDS and before in _BE_FORMS) or (
                _BE_NEXT.match(text, match.end()) is not None)
            reach = negated_clause = True
            denial = 0
            yield _Item(word=word, first=first, negation=True)
            continue
        terms = _terms(word, tokenizer)
        joined = len(word) == 1 and any(
            0 <= i < len(text) and (text[i].isalnum() or text[i] == "-") for i in (match.start() - 1, match.end())
        )
        yield _Item(
            word=word, terms=terms, negated=scope > 0 and bool(terms), first=first, joined=joined,
            fused=text[match.end() : match.end() + 1].isdigit(),
            trailing=negated_clause and scope == 0 and bool(terms),
        )
        denial = 1 if terms and scope and reach else 2 if denial == 1 and lowered in _DENYING_PREPOSITIONS else 0
        if terms and scope:
            scope -= 1
            reach = False
        elif scope and reach and denier == "without" and lowered in _OBJECT_PRONOUNS:
            reach = False  # "Members without it have to set it up": the pronoun is what they are without
    for start in pending:
        yield _Item(number=starts[start])


_DENYING_PREPOSITIONS = frozenset("to by with for from".split())  # noqa: SIM905
_DURATION_UNITS = frozenset(
    ("ms", "second", "minute", "hour", "business hour", "day", "business day", "week", "month", "year")
)


def _counts_one(number: tuple[str, str, int, int]) -> bool:
    """Whether a number counts one of a thing ("1 member", "one seat"): no duration, which a negation before it leaves
    alone ("not resolved within 1 hour" denies the resolving)."""
    value, unit, _, _ = number
    return value == "1" and bool(unit) and unit not in _DURATION_UNITS and "/" not in unit


_AUXILIARIES = frozenset("must may might could would shall should need needs".split())  # noqa: SIM905


def _content_follows(text: str, end: int) -> bool:
    """Whether the word after `end` is a content word (no stop word): "and sales tax", not "and must"."""
    following = re.match(r"\s+([^\W\d_][\w'’]*)", text[end:])
    return following is not None and following.group(1).lower() not in ENGLISH_STOP_WORDS | _AUXILIARIES



def _negates(written: str, text: str, end: int, *, first: bool) -> bool:
    word = written.lower()
    if not (word in _NEGATIONS or word.endswith(("n't", "n’t"))):
        return False
    if not first and written[:1].isupper() and written[1:].islower():
        return False  # "default=None", "returns None": a value's name in the middle of a sentence, no negation
    return word not in ("no", "not") or _NOT_NEGATING.match(text, end) is None


@functools.lru_cache(maxsize=8192)
def _terms(word: str, tokenizer: TokenizerConfig) -> tuple[str, ...]:
    return tuple(tokenize(word.strip("`"), tokenizer))


def _attribute(items: Sequence[_Item], count: int) -> list[set[str]]:
    """The terms each number qualifies: its clause's words, else for a word whose clause has no number, the nearest
    number of its sentence (both when two are as near)."""
    about: list[set[str]] = [set() for _ in range(count)]
    clause = sentence = 0
    clauses: list[tuple[int, int]] = []  # (clause, sentence) of each item
    for item in items:
        clauses.append((clause, sentence))
        if item.clause_end:
            clause += 1
        if item.sentence_end:
            sentence += 1
    positions = [(i, item.number) for i, item in enumerate(items) if item.number >= 0]
    for i, item in enumerate(items):
        if not item.terms:
            continue
        near = [p for p in positions if clauses[p[0]][0] == clauses[i][0]]
        near = near or [p for p in positions if clauses[p[0]][1] == clauses[i][1]]
        if not near:
            continue
        distance = min(abs(p - i) for p, _ in near)
        for p, number in near:
            if abs(p - i) == distance:
                about[number].update(item.terms)
    return about


def _names(items: Sequence[_Item], tokenizer: TokenizerConfig) -> Iterator[Name]:
    seen: set[str] = set()
    for i, item in enumerate(items):
        word = item.word
        if not word or word in seen or item.negation:  # "OWNED BY NONE": the polarity check reads a negation
            continue
        following = items[i + 1].word if i + 1 < len(items) else ""
        if word[:1].isupper() and word.isalpha() and _ROMAN.fullmatch(following) and not _ROMAN.fullmatch(word):
            # "SOC 2 Type I" against "Type II": the numeral belongs to the word it follows, matched as written
            seen.add(word)
            yield Name(f"{word} {following}", _terms(word, tokenizer), literal=True)
            continue
        name = _name(word, first=item.first, joined=item.joined, tokenizer=tokenizer)
        if name is not None and name.literal and item.fused:
            name = replace(name, fused=True)
        if name is not None:
            seen.add(word)
            yield name


def _name(word: str, *, first: bool, tokenizer: TokenizerConfig, joined: bool = False) -> Name | None:
    if word.startswith("`"):
        return Name(word, _terms(word, tokenizer), literal=True)
    bare = word.strip("()'’-.")
    if not bare:
        return None
    if _IDENTIFIER.fullmatch(word) and ("_" in word or word.endswith("()") or "." in word.rstrip(".")):
        return Name(word, _terms(word, tokenizer), literal=True)
    if re.fullmatch(_LABEL, word):
        return Name(word, _terms(word, tokenizer), literal=True)
    if "@" in word or "+" in word or (len(bare) == 1 and bare.isupper() and bare not in "AI" and not (first or joined)):
        return Name(bare, _terms(bare, tokenizer), literal=True)  # "Ctrl+K"; a key or a letter named: "press S"
    if re.fullmatch(_COMPOUND_NAME, bare) and not first:  # "the Retry-After header": matched as written
        return Name(bare, _terms(bare, tokenizer), literal=True)
    if re.search(r"[a-z][A-Z]", bare):  # camelCase or QuerySet: an identifier
        return Name(bare, _terms(bare, tokenizer), literal=True)
    if bare.lower() in ENGLISH_STOP_WORDS or _unit(bare):  # "IT", "AN" of a heading in capitals; "MB"
        return None
    if 1 < len(bare) <= _ACRONYM_LETTERS and bare.isupper() and bare.isalpha():
        return Name(bare, _terms(bare, tokenizer), acronym=True)
    single = bare[:-1]
    if bare.endswith("s") and 1 < len(single) <= _ACRONYM_LETTERS and single.isupper() and single.isalpha():
        return Name(single, _terms(single, tokenizer), acronym=True)  # "PDFs", "URLs": the acronym's plural
    if first or not bare[0].isupper():
        return None
    terms = _terms(bare, tokenizer)
    return Name(bare, terms) if terms else None


@functools.lru_cache(maxsize=1024)
def _unit(word: str) -> bool:
    return re.fullmatch(UNIT_WORDS, word, re.I) is not None


def _literal(text: str) -> str:
    text = text.strip("`").strip()
    return text[:-2] if text.endswith("()") else text
