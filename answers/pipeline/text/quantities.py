"""Numbers and quantities (a number with a unit) as stated in text, for the conflict gate and the verifier (§5).

Numbers follow the tokenizer's rules: digits with "." or "," between digit groups are one number, thousands
separators are dropped when every comma group has three digits ("12,500" -> "12500"), any other comma splits
("1,2" -> "1", "2"), and a trailing full stop is punctuation. Unlike `tokenize`, `numbers_in` also counts digits
right after letters ("v2.5" -> "2.5"), so a sentence and the chunk it cites are read the same way whatever surrounds
the number; a quantity never starts inside a word ("x86 GB" is none).

A quantity is a number or a range ("5-7", "5–7") followed by a unit ("200 MB", "200MB", "30-day", "99.9%") or
after a currency sign ("$12"). Units are normalised: case and plural do not matter ("MB"/"mb", "day"/"days"),
"%", "percent" and "per cent" are one unit, a business hour or day is a unit of its own and a calendar week,
month or year is a week, month or year, a currency sign is the unit ("$12" -> "$"), and a rate keeps its
divisor ("$12 per month" -> "$/month", "100 requests per minute" -> "request/minute").
"""
import re
import unicodedata
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Quantity:
    """A number stated with a unit: normalised value and unit, its offset in the NFC text, the words before it."""

    value: str
    unit: str
    start: int
    context: tuple[str, ...]
    end: int = field(default=0, compare=False)  # just past its last character (its unit, or its rate's divisor)


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)*")
_WORD = re.compile(r"[^\W\d_][^\W_]*")  # the tokenizer's word rule: starts with a letter

_UNIT_ALIASES: dict[str, tuple[str, ...]] = {
    "byte": ("byte", "bytes"),
    "kb": ("kb", "kilobyte", "kilobytes"),
    "mb": ("mb", "megabyte", "megabytes"),
    "gb": ("gb", "gigabyte", "gigabytes"),
    "tb": ("tb", "terabyte", "terabytes"),
    "kib": ("kib",),
    "mib": ("mib",),
    "gib": ("gib",),
    "tib": ("tib",),
    "ms": ("ms", "msec", "millisecond", "milliseconds"),
    "second": ("second", "seconds", "sec", "secs"),
    "minute": ("minute", "minutes", "min", "mins"),
    "hour": ("hour", "hours", "hr", "hrs"),
    "business hour": ("business hour", "business hours", "working hour", "working hours"),
    "day": ("day", "days", "calendar day", "calendar days"),
    "business day": ("business day", "business days", "working day", "working days"),
    "week": ("week", "weeks", "calendar week", "calendar weeks"),
    "month": ("month", "months", "calendar month", "calendar months"),
    "year": ("year", "years", "yr", "yrs", "calendar year", "calendar years"),
    "request": ("request", "requests", "req"),
    "call": ("call", "calls"),
    "user": ("user", "users"),
    "member": ("member", "members"),
    "seat": ("seat", "seats"),
    "licence": ("licence", "licences", "license", "licenses"),
    "file": ("file", "files"),
    "page": ("page", "pages"),
    "character": ("character", "characters", "chars"),
    "token": ("token", "tokens"),
    "message": ("message", "messages"),
    "attempt": ("attempt", "attempts", "retry", "retries"),
    "project": ("project", "projects"),
    "workspace": ("workspace", "workspaces"),
    "g": ("g", "gram", "grams"),
    "kg": ("kg", "kgs", "kilogram", "kilograms"),
    "lb": ("lb", "lbs"),
    "cm": ("cm", "centimetre", "centimetres", "centimeter", "centimeters"),
    "km": ("km", "kilometre", "kilometres", "kilometer", "kilometers"),
    "mile": ("mile", "miles"),
    "%": ("%", "percent", "per cent", "pct"),
    "$": ("$", "usd", "dollar", "dollars"),
    "€": ("€", "eur", "euro", "euros"),
    "£": ("£", "gbp", "pound", "pounds"),
}
_UNITS = {alias: unit for unit, aliases in _UNIT_ALIASES.items() for alias in aliases}
_WORD_UNITS = {alias: unit for alias, unit in _UNITS.items() if alias[-1].isalpha()}
_RATE_UNITS = ("second", "minute", "hour", "day", "week", "month", "year", "user", "member", "seat", "request", "file")
_RATES = {alias: unit for unit in _RATE_UNITS for alias in _UNIT_ALIASES[unit]}


def _alternation(aliases: dict[str, str]) -> str:
    return "|".join(re.escape(alias).replace(r"\ ", r"\s+") for alias in aliases)


# The word units as one regex alternation, for callers that look for "<number word> <unit>" ("two business days").
UNIT_WORDS = _alternation(_WORD_UNITS)

_AMOUNT = r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)*|\d+(?:\.\d+)*)(?![.,]?\d)"
_QUANTITY = re.compile(
    rf"(?:(?P<currency>[$€£])\s?)?"
    # Not inside a word or a longer number: "x86 GB" and the "2.3" of "1.2.3" are no quantities.
    rf"(?<!\w)(?<!\d[.,])"
    rf"(?P<low>{_AMOUNT})(?:\s?[-–—]\s?[$€£]?(?P<high>{_AMOUNT}))?"
    rf"(?:[ \t\u00a0-]?(?P<unit>[%$€£]|(?:{_alternation(_WORD_UNITS)})\b))?"
    rf"(?:\s*(?:/|\bper\b|\ban?\b|\bfor\s+each\b)\s*(?P<rate>(?:{_alternation(_RATES)})\b)"
    # A rate of a rate: "$12 per user per month", "$12 a month for each user" (its divisors read in either order).
    rf"(?:\s*(?:/|\bper\b|\ban?\b|\bfor\s+each\b|\beach\b|\bevery\b)\s*(?P<again>(?:{_alternation(_RATES)})\b))?)?",
    re.IGNORECASE,
)


def find_quantities(text: str) -> list[Quantity]:
    """The quantities stated in text, in order; context holds the words back to the previous quantity."""
    text = unicodedata.normalize("NFC", text)
    found: list[Quantity] = []
    context_start = 0
    for match in _QUANTITY.finditer(text):
        currency, unit, rate = match.group("currency"), match.group("unit"), match.group("rate")
        if unit is not None:
            unit = _UNITS[_alias(unit)]
        elif currency is not None:
            unit = currency
        else:
            continue
        if rate is not None:
            again = match.group("again")
            divisors = {_RATES[_alias(rate)], *([_RATES[_alias(again)]] if again is not None else [])}
            unit = "/".join((unit, *sorted(divisors)))
        low, high = match.group("low").replace(",", ""), match.group("high")
        value = low if high is None else f"{low}-{high.replace(',', '')}"
        # Words before an earlier quantity describe that one: "kept 30 days; the trial lasts 90 days".
        context = tuple(_WORD.findall(text, context_start, match.start()))
        found.append(Quantity(value=value, unit=unit, start=match.start(), context=context, end=match.end()))
        context_start = match.end()
    return found


_DURATION_UNITS = ("ms", "second", "minute", "hour", "business hour", "day", "business day", "week", "month", "year")
# Named as words only when written out: "ms" or "MS" alone is as often a name ("MS Office") as a millisecond.
_DURATION_WORDS = {
    alias: unit
    for unit in _DURATION_UNITS
    for alias in _UNIT_ALIASES[unit]
    if alias[-1].isalpha() and (unit != "ms" or alias.startswith("milli"))
}
# A period named by how often ("once a quarter", "monthly", "a weekly review") is a unit of time the text names. A
# quarter is named here only: it is no unit of `find_quantities`, so "a quarter of the storage" states no amount.
_DURATION_WORDS |= {"quarter": "quarter", "quarters": "quarter", "quarterly": "quarter", "hourly": "hour",
                    "daily": "day", "weekly": "week", "monthly": "month", "yearly": "year", "annually": "year"}
_DURATION = re.compile(
    rf"(?<![\w-])({_alternation(dict(sorted(_DURATION_WORDS.items(), key=lambda item: -len(item[0]))))})(?![\w-])", re.I
)


def duration_units(text: str) -> frozenset[str]:
    """The units of time a text names as words, with or without a number ("the number of seconds", "its first
    month" -> second, month)."""
    return frozenset(_DURATION_WORDS[_alias(match.group(1))] for match in _DURATION.finditer(text))


def _alias(unit: str) -> str:
    return " ".join(unit.lower().split())


def numbers_in(text: str) -> set[str]:
    """The normalised numbers in text: "12,500" -> "12500", "5-7" -> "5" and "7", "$12" -> "12", "v2.5" -> "2.5"."""
    return {value for value, _, _ in number_spans(unicodedata.normalize("NFC", text))}


def number_spans(text: str) -> list[tuple[str, int, int]]:
    """Each number of an NFC text as `numbers_in` reads it, with its offsets: ("12500", start, end); "1,2" gives two."""
    found: list[tuple[str, int, int]] = []
    for match in _NUMBER.finditer(text):
        number, start = match.group(), match.start()
        if "," not in number:
            found.append((number, start, match.end()))
        elif _THOUSANDS.fullmatch(number):
            found.append((number.replace(",", ""), start, match.end()))
        else:
            for part in number.split(","):
                found.append((part, start, start + len(part)))
                start += len(part) + 1
    return found


# A unit said once without a number: "a day", "an hour", "the same file", "the largest single file" state one of it,
# "half an hour" and "every half hour" a half, "a full day" or "one whole week" one (an adjective of completeness
# between the article and the unit). Singular forms only: "the same files" counts nothing. "The same day" is a date,
# not a length of one day: "ships the same day" states no "1 day".
_SINGULAR_UNITS = {unit: unit for unit in _UNIT_ALIASES if unit.replace(" ", "").isalpha() and len(unit) > 2}
_SINGULAR_UNITS |= {"licence": "licence", "license": "licence", "retry": "attempt"}
_SPOKEN = re.compile(
    rf"\b(?:(?P<half>half)\s+(?:an?\s+)?|(?P<same>the\s+same\s+)|(?:an?|single|one)\s+(?:(?:full|whole|entire|complete)\s+)?)"
    rf"(?P<unit>{_alternation(dict(sorted(_SINGULAR_UNITS.items(), key=lambda item: -len(item[0]))))})(?![\w-])",
    re.I,
)


def spoken_amounts(text: str) -> frozenset[tuple[str, str]]:
    """The amounts a text says of a unit without digits, as (value, unit): "within a day" -> ("1", "day"), "the same
    file" -> ("1", "file"), "every half hour" -> ("0.5", "hour"); "the same day" is a date, no length of time."""
    found = set()
    for match in _SPOKEN.finditer(unicodedata.normalize("NFC", text)):
        unit = _SINGULAR_UNITS[_alias(match.group("unit"))]
        if not (match.group("same") and unit in _DURATION_UNITS):
            found.add(("0.5" if match.group("half") else "1", unit))
    return frozenset(found)


# Seconds in each unit of time that has a fixed length; a month and a year are counted in months of their own, and a
# business day or hour in nothing else (how long one is depends on the calendar).
_SECONDS = {"ms": 0.001, "second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800}
_MONTHS = {"month": 1, "year": 12}


def same_duration(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Whether two (value, unit) amounts state one length of time in different units: ("24", "hour") and ("1",
    "day"), ("12", "month") and ("1", "year"); never ("90", "hour") and ("90", "day"), nor a range or a rate."""
    for scale in (_SECONDS, _MONTHS):
        if a[1] in scale and b[1] in scale:
            try:
                return abs(float(a[0]) * scale[a[1]] - float(b[0]) * scale[b[1]]) < 1e-9
            except ValueError:
                return False
    return False
