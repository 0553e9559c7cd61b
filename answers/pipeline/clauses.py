"""Clause swaps (§5.6): a sentence that gives one clause's subject the other clause's predicate, where the span
states two claims ("The web app shows file sizes and the mobile app shows folder colours" read as "the mobile app
shows file sizes"), within one sentence or across the two of a span.

An order swap is a sentence with the very words of one of the span's sentences, two runs of them exchanged ("The
incident commander assigns the first responder" against "The first responder assigns an incident commander", "sync
the same file before changing it" against "change the same file before syncing"), when neither writes a list or an
agent or a passive ("," "and" "or" "by" "is"), where an exchange is a reordering that says the same.

A clause of the sentence recombines the span's two when its first word is the subject of one of them (and only that
one), every one of its words is in the two, and it takes words only the other clause holds: all of what it says
beside its subject (a shared word apart), or a number. The other clause must have a subject of its own, which the
sentence does not write (a pronoun, "and they can also invite people", is the same subject's).
"""
import functools
import re

from answers.pipeline.text.sentences import MARKER
from answers.pipeline.text.tokens import TokenizerConfig
from answers.pipeline.text.wording import Word, content_words

_CLAUSE_BREAK = re.compile(r"[.!?;]\s+|\n|,?\s+\b(?:and|but|while|whereas)\b\s+|,\s+(?:while|whereas)\s+", re.I)
_SUBJECT = 2  # words of a clause's subject that a reason names
_PRONOUN = re.compile(r"\s*(?:they|it|he|she|this|these|those|we|you)\b", re.I)
_MIN_WORDS = 2
_SPAN_SENTENCE = re.compile(r"(?<=[.!?])\s+")
# A list, an agent or a form of "be" (a passive: "Syncing can be paused" says "You can pause syncing") makes an
# exchange say the same.
_LISTS_OR_AGENT = re.compile(r",|\b(?:and|or|by|is|are|was|were|be|been|being)\b|['’](?:s|re)\b", re.I)
_MIN_ORDERED = 3  # content words a sentence needs for its order to say who does what


def clause_swap_problems(n: int, sentence: str, quote: str, tokenizer: TokenizerConfig) -> list[str]:
    """Each clause of the sentence that puts the words of one of the span's two claims with the other's subject:
    "[1] says folder colours of mobile app, not of web app"; empty when none."""
    parts = _clauses(quote, tokenizer)
    if len(parts) != 2 or any(pronoun for pronoun, _ in parts):
        return []
    problems = []
    for _, said in _clauses(sentence, tokenizer):
        problem = _recombined(said, parts[0][1], parts[1][1])
        if problem:
            problems.append(f"[{n}] {problem}")
    return problems


@functools.lru_cache(maxsize=2048)
def _clauses(text: str, tokenizer: TokenizerConfig) -> tuple[tuple[bool, tuple[Word, ...]], ...]:
    """The text's clauses of two content words or more: whether a pronoun starts it, and its content words."""
    found = []
    for part in _CLAUSE_BREAK.split(MARKER.sub(" ", text)):
        words = content_words(part, tokenizer)
        if len(words) >= _MIN_WORDS:
            found.append((_PRONOUN.match(part) is not None, words))
    return tuple(found)


def order_swap_problems(n: int, sentence: str, quote: str, tokenizer: TokenizerConfig) -> list[str]:
    """The span's sentence whose words the sentence writes with two runs of them exchanged: "[1] says first
    responder assigns incident commander"; empty when none."""
    said_text = MARKER.sub(" ", sentence)
    if _LISTS_OR_AGENT.search(said_text):
        return []
    said = [word.term for word in content_words(said_text, tokenizer)]
    if len(said) < _MIN_ORDERED:
        return []
    for part in _SPAN_SENTENCE.split(quote):
        words = content_words(part, tokenizer)
        stated = [word.term for word in words]
        if stated != said and sorted(stated) == sorted(said) and not _LISTS_OR_AGENT.search(part) and _exchanged(
            said, stated
        ):
            return [f"[{n}] says {_written(words)}"]
    return []


def _exchanged(said: list[str], stated: list[str]) -> bool:
    """Whether two orders of the same words differ by two runs exchanged around words both keep: P y Q against Q y
    P, y not empty ("file select" for "select file" is a rewording)."""
    start = next(i for i, (a, b) in enumerate(zip(said, stated, strict=True)) if a != b)
    end = len(said)
    while said[end - 1] == stated[end - 1]:
        end -= 1
    a, b = said[start:end], stated[start:end]
    return any(
        a[:p] == b[len(b) - p :] and a[len(a) - q :] == b[:q] and a[p : len(a) - q] == b[q : len(b) - p]
        for p in range(1, len(a)) for q in range(1, len(a) - p)  # a word between the runs: who does what to whom
    )


def _recombined(said: tuple[Word, ...], first: tuple[Word, ...], second: tuple[Word, ...]) -> str:
    terms = {word.term for word in said}
    holding = [part for part in (first, second) if said[0].term in {word.term for word in part}]
    if len(holding) != 1:
        return ""
    own = holding[0]
    other = second if own is first else first
    own_terms, other_terms = {word.term for word in own}, {word.term for word in other}
    if len(_leading(own, own_terms - other_terms, set(), len(own))) == len(own):
        return ""  # "Only the workspace owner and billing admins can see invoices": one claim with two subjects
    if not terms <= own_terms | other_terms or other[0].term in terms:
        return ""  # a word of neither claim, or the other claim's subject written too
    subject = _leading(said, own_terms - other_terms, set(), len(said))
    taken = terms & (other_terms - own_terms)
    kept = terms & (own_terms - other_terms) - {word.term for word in subject}
    numeric = any(term[:1].isdigit() for term in taken)
    if not taken or (kept and not numeric):
        return ""
    written = " ".join(word.written for word in said if word.term in taken)
    other_subject = _leading(other, other_terms - own_terms, taken, _SUBJECT)
    return f"says {written} of {_written(other_subject)}, not of {_written(subject[:_SUBJECT])}"


def _leading(words: tuple[Word, ...], only: set[str], taken: set[str], most: int) -> tuple[Word, ...]:
    """The clause's subject as its first words (`most` at most) that only its claim holds and the sentence did not
    take ("Members who use single", "mobile")."""
    end = 0
    while end < min(len(words), most) and words[end].term in only - taken:
        end += 1
    return words[: max(end, 1)]


def _written(words: tuple[Word, ...]) -> str:
    return " ".join(word.written for word in words)
