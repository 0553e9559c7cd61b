"""The shared tokenizer: words and numbers, lower-cased, stop words removed, stemmed; each step switchable."""

import pytest

from answers.pipeline.text.tokens import ENGLISH_STOP_WORDS, TokenizerConfig, significant_terms, tokenize

PLAIN = TokenizerConfig(stopwords=False, stem=False)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Refunds are issued within 30 days", ["refund", "issu", "within", "30", "day"]),
        ("The refunds", ["refund"]),
        ("Müller's café", ["müller", "café"]),
        ("cafe\u0301", ["café"]),  # decomposed accent is normalised to the composed form
        ("HTTP 429 errors", ["http", "429", "error"]),
        ("version 2.5 ships", ["version", "2.5", "ship"]),
        ("ends at 2.", ["end", "2"]),
        ("12,500 users", ["12500", "user"]),
        ("pick 1,2 or 3", ["pick", "1", "2", "3"]),
        ("200MB upload limit", ["200", "mb", "upload", "limit"]),
        ("sha256 and cl100k_base", ["sha256", "cl100k", "base"]),
        ("don't stop", ["stop"]),
        ("", []),
    ],
)
def test_tokenize_table(text, expected):
    assert tokenize(text) == expected


def test_stop_words_are_removed_case_insensitively():
    assert tokenize("THE Answer Is Here") == ["answer"]
    assert {"the", "is", "and", "not"} <= ENGLISH_STOP_WORDS
    assert 120 <= len(ENGLISH_STOP_WORDS) <= 400


def test_each_step_can_be_switched_off():
    text = "The Refunds"
    assert tokenize(text, TokenizerConfig(stopwords=False)) == ["the", "refund"]
    assert tokenize(text, TokenizerConfig(stem=False)) == ["refunds"]
    assert tokenize(text, TokenizerConfig(lowercase=False, stem=False)) == ["Refunds"]
    assert tokenize(text, TokenizerConfig(lowercase=False, stopwords=False, stem=False)) == ["The", "Refunds"]
    assert tokenize(text, PLAIN) == ["the", "refunds"]


def test_numbers_are_never_stemmed():
    assert tokenize("2.50 1990") == ["2.50", "1990"]


def test_significant_terms_are_distinct_in_first_appearance_order():
    assert significant_terms("Refunds, refund, and refunding: the refund window") == ["refund", "window"]
