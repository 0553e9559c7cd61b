"""The one tokenizer (§5): lower-cased words and numbers, English stop words removed, Snowball stemming.

Rules callers rely on:

- Text is NFC-normalised first, so a decomposed "café" and a composed one give the same token.
- A word is a run of Unicode letters and digits that starts with a letter ("Müller", "sha256"); underscores and
  punctuation split words ("cl100k_base" -> "cl100k", "base"; "don't" -> "don", "t", both stop words).
- A number is a run of digits with "." or "," between digit groups, kept as one token: "429", "2.5", "3.11.2".
  Thousands separators are dropped when every comma group has three digits ("12,500" -> "12500"); any other
  comma splits ("1,2" -> "1", "2"). A trailing full stop is punctuation. Letters right after a number start a new
  token, so "200MB" and "200 MB" both give "200", "mb".
- Stop words are matched case-insensitively before stemming; numbers are never stemmed.
"""
import functools
import hashlib
import re
import threading
import unicodedata
from dataclasses import dataclass

import Stemmer

# NLTK's English list (179 words), including the fragments contractions split into ("don", "t", "ll").
ENGLISH_STOP_WORDS: frozenset[str] = frozenset(
    """
    i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he him his
    himself she she's her hers herself it it's its itself they them their theirs themselves what which who whom
    this that that'll these those am is are was were be been being have has had having do does did doing a an the
    and but if or because as until while of at by for with about against between into through during before after
    above below to from up down in out on off over under again further then once here there when where why how all
    any both each few more most other some such no nor not only own same so than too very s t can will just don
    don't should should've now d ll m o re ve y ain aren aren't couldn couldn't didn didn't doesn doesn't hadn
    hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn
    shouldn't wasn wasn't weren weren't won won't wouldn wouldn't
    """.split()  # noqa: SIM905 (a word list reads best as one string)
)

_TOKEN = re.compile(r"(?P<number>\d+(?:[.,]\d+)*)|(?P<word>[^\W\d_][^\W_]*)")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)*")


@dataclass(frozen=True)
class TokenizerConfig:
    """Which steps the tokenizer applies; every step is on by default."""

    lowercase: bool = True
    stopwords: bool = True
    stem: bool = True
    language: str = "english"


DEFAULT = TokenizerConfig()

_local = threading.local()  # PyStemmer objects keep internal state and must not be shared across threads


def _stemmer(language: str) -> Stemmer.Stemmer:
    stemmers = _local.__dict__.setdefault("stemmers", {})
    stemmer = stemmers.get(language)
    if stemmer is None:
        stemmer = stemmers[language] = Stemmer.Stemmer(language)
    return stemmer


def _split(text: str) -> list[tuple[str, bool]]:
    """Return (token, is_number) pairs in text order."""
    pieces: list[tuple[str, bool]] = []
    for match in _TOKEN.finditer(unicodedata.normalize("NFC", text)):
        number = match.group("number")
        if number is None:
            pieces.append((match.group("word"), False))
        elif "," not in number:
            pieces.append((number, True))
        elif _THOUSANDS.fullmatch(number):
            pieces.append((number.replace(",", ""), True))
        else:
            pieces.extend((part, True) for part in number.split(","))
    return pieces


def tokenize(text: str, config: TokenizerConfig = DEFAULT) -> list[str]:
    """Split text into index terms: words and numbers, lower-cased, stop words removed, stemmed."""
    pieces = _split(text)
    if config.stopwords:
        pieces = [(token, is_number) for token, is_number in pieces if token.lower() not in ENGLISH_STOP_WORDS]
    if config.lowercase:
        pieces = [(token.lower(), is_number) for token, is_number in pieces]
    if not config.stem:
        return [token for token, _ in pieces]
    words = [token for token, is_number in pieces if not is_number]
    stems = iter(_stemmer(config.language).stemWords(words))
    return [token if is_number else next(stems) for token, is_number in pieces]


# Bump when a rule above changes in a way the fingerprint below cannot see (code, not data).
RULES_REVISION = 1


def tokenizer_fingerprint(config: TokenizerConfig = DEFAULT) -> str:
    """A short hash of everything tokens depend on: the rules, the stop words, the stemmer and the config.

    A saved index is keyed by it, so an index written by other tokenizer code or data is never loaded.
    """
    parts = (
        RULES_REVISION, _TOKEN.pattern, _THOUSANDS.pattern, sorted(ENGLISH_STOP_WORDS), Stemmer.version, repr(config)
    )
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()[:12]


def significant_terms(text: str, config: TokenizerConfig = DEFAULT) -> list[str]:
    """The distinct tokens of the text, in order of first appearance."""
    return list(_significant_terms(text, config))


# Every question reads its blocks' sentences again (the reader's weights and units, the verifier, the conflict
# check): the same passages for popular questions. Remembering the last ones' terms took a tenth of a worker's time
# under load off it; the terms depend only on the text and the config.
@functools.lru_cache(maxsize=16384)
def _significant_terms(text: str, config: TokenizerConfig) -> tuple[str, ...]:
    return tuple(dict.fromkeys(tokenize(text, config)))
