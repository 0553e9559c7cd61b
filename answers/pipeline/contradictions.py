"""Contradictions said without a number or a negation word (§5.6): the sentence puts one side of an opposite pair
("hidden", "later", "only") where its span puts the other ("appear", "earlier", "also") next to the same words.

An opposite counts only where it qualifies the same words on both sides: one of the four content words either side of
the sentence's word (within its clause: up to a comma or a word such as "after", "when", "even") is one of those
of the span's. A sentence that says "after" of one thing, with
a span saying "before" of another, is no contradiction. Neither is a negated opposite ("not hidden" for "appear"),
nor a span that also says the sentence's word of those words. The pairs are the phrase pairs of the one opposites
table (text/opposites.py); its word pairs are read by the antonym check of bounds.py.
"""
import functools
import re
from collections.abc import Sequence

from answers.pipeline.text.claims import NEGATION_WORDS
from answers.pipeline.text.opposites import phrase_pairs
from answers.pipeline.text.sentences import MARKER
from answers.pipeline.text.tokens import TokenizerConfig
from answers.pipeline.text.wording import word_terms

_PAIRS = phrase_pairs()
_WINDOW = 4  # content words either side of an opposite that it qualifies
_TOKEN = re.compile(r"[^\W_][\w'’-]*|,")
# A comma or a subordinating word ends what an opposite qualifies: "kept even after the file is erased" keeps the
# history, it does not erase it.
_BOUNDS = frozenset((",", "after", "before", "when", "if", "unless", "until", "because", "even", "once", "since"))


@functools.lru_cache(maxsize=1)
def _sides() -> tuple[tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]], ...]:
    """Each pair both ways round, each phrase as its words."""
    def split(side: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(phrase.split()) for phrase in side)

    return tuple((split(one), split(other)) for a, b in _PAIRS for one, other in ((a, b), (b, a)))


@functools.lru_cache(maxsize=1)
def _phrases_by_first_word() -> dict[str, tuple[tuple[str, ...], ...]]:
    found: dict[str, set[tuple[str, ...]]] = {}
    for one, _ in _sides():
        for phrase in one:
            found.setdefault(phrase[0], set()).add(phrase)
    return {word: tuple(phrases) for word, phrases in found.items()}


_Place = tuple[tuple[str, ...], int, tuple[str, ...]]  # a part's words, where a phrase starts in it, the phrase


def contradiction_problems(n: int, sentence: str, quote: str, tokenizer: TokenizerConfig) -> list[str]:
    """Each opposite the span states of the words the sentence qualifies with the other side of its pair: "[1] says
    appear, not hidden"; empty when none."""
    said = _places(sentence)
    if not said:
        return []  # most sentences write no word of the table
    stated = _places(quote)
    problems = []
    for own, opposite in _sides():
        for words, at, phrase in _found(said, own):
            near = _near(words, at, len(phrase), tokenizer)
            if not near:
                continue
            against = []
            for part, k, other in _found(stated, opposite):
                qualified = _near(part, k, len(other), tokenizer)
                if near & qualified:
                    against.append((len(near & qualified), other, qualified))
            if not against:
                continue
            shared, other, qualified = max(against, key=lambda found: found[0])
            # The span saying the sentence's word of those words too, or the sentence saying the other of what the
            # span's word qualifies, sets the two apart itself ("a free trial before a paid plan").
            if any(len(near & _near(part, k, len(p), tokenizer)) >= shared for part, k, p in _found(stated, own)):
                continue
            if any(
                len(qualified & _near(part, k, len(p), tokenizer)) >= shared for part, k, p in _found(said, opposite)
            ):
                continue
            problems.append(f"[{n}] says {' '.join(other)}, not {' '.join(phrase)}")
    return list(dict.fromkeys(problems))


def _found(places: dict[tuple[str, ...], list[_Place]], side: Sequence[tuple[str, ...]]) -> list[_Place]:
    return [place for phrase in side for place in places.get(phrase, ())]


@functools.lru_cache(maxsize=2048)
def _places(text: str) -> dict[tuple[str, ...], list[_Place]]:
    """Where the text writes each phrase of the table, not negated, by phrase (the text split at . ! ? ; and new
    lines, markers out, lower-cased)."""
    by_first = _phrases_by_first_word()
    places: dict[tuple[str, ...], list[_Place]] = {}
    for part in re.split(r"[.!?;]\s|\n", MARKER.sub(" ", text)):
        words = tuple(word.lower() for word in _TOKEN.findall(part))
        for k, word in enumerate(words):
            for phrase in by_first.get(word, ()):
                if words[k : k + len(phrase)] != phrase:
                    continue
                if any(w in NEGATION_WORDS or w.endswith(("n't", "n’t")) for w in words[max(0, k - 3) : k]):
                    continue  # "not hidden" says what "appears" does
                places.setdefault(phrase, []).append((words, k, phrase))
    return places


def _near(words: Sequence[str], at: int, size: int, tokenizer: TokenizerConfig) -> frozenset[str]:
    """The content terms of the words either side of a phrase: what it qualifies."""
    start = next((i + 1 for i in range(at - 1, -1, -1) if words[i] in _BOUNDS), 0)
    end = next((i for i in range(at + size, len(words)) if words[i] in _BOUNDS), len(words))
    before = [term for word in words[start:at] for term in word_terms(word, tokenizer)][-_WINDOW:]
    after = [term for word in words[at + size : end] for term in word_terms(word, tokenizer)][:_WINDOW]
    return frozenset(before + after)
