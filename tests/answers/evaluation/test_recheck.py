"""The independent re-check of delivered sentences, rule by rule."""
import pytest

from answers.evaluation.recheck import CitedChunk, content_words, numbers_of, recheck_sentence

CHUNKS = {
    "refunds-c1": CitedChunk("refunds-c1", "Refunds are processed within 5-7 business days.", "public", "refunds.md"),
    "sla-c1": CitedChunk("sla-c1", "The uptime SLA is 99.9% per calendar month.", "public", "sla.pdf"),
    "discount-c1": CitedChunk("discount-c1", "Partners receive a 20% reseller discount.", "partner", "discount.md"),
}
PUBLIC = ("public",)


@pytest.mark.parametrize(
    ("text", "cited", "audiences", "reasons"),
    [
        ("Refunds are processed within 5-7 business days.", ["refunds-c1"], PUBLIC, ()),
        ("Refunded payments get processed within business days.", ["refunds-c1"], PUBLIC, ()),
        ("Refunds are processed within 5-7 business days.", [], PUBLIC, ("no citation",)),
        ("Refunds are processed quickly.", ["refunds-c9"], PUBLIC, ("cites refunds-c9, which does not exist",)),
        ("Partners receive a 20% reseller discount.", ["discount-c1"], PUBLIC,
         ("cites discount-c1, which public may not see",)),
        ("Partners receive a 20% reseller discount.", ["discount-c1"], ("public", "partner"), ()),
        ("Refunds are processed within 5-9 business days.", ["refunds-c1"], PUBLIC,
         ("numbers not in the cited text: 9",)),
        ("The uptime SLA is 99% per calendar month.", ["sla-c1"], PUBLIC, ("numbers not in the cited text: 99",)),
        ("The uptime SLA is 99.9% per month.", ["sla-c1", "refunds-c1"], PUBLIC, ()),
        ("Bananas ripen slowly beside warm ovens during winter.", ["refunds-c1"], PUBLIC,
         ("shares 0.00 of its words with the cited text (needs 0.30)",)),
        ("Refunds: because these very same ones should again further once here.", ["refunds-c1"], PUBLIC,
         ("shares 0.09 of its words with the cited text (needs 0.30)",)),
    ],
)
def test_recheck_sentence(text, cited, audiences, reasons):
    assert recheck_sentence(text, cited, chunks=CHUNKS, audiences=audiences) == reasons


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("within 5-7 business days.", {"5", "7"}),
        ("99.9% per month, $12,500 a year", {"99.9", "12,500"}),
        ("version 3.11.2 ends in a full stop 4.", {"3.11.2", "4"}),
        ("no digits here", set()),
    ],
)
def test_numbers_of(text, numbers):
    assert numbers_of(text) == numbers


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("The refunds are PROCESSED", {"refun", "proce"}),
        ("an ox is at it", set()),
        ("Two-factor codes", {"two", "facto", "codes"}),
    ],
)
def test_content_words_are_long_lowercase_non_stop_word_prefixes(text, words):
    assert content_words(text) == words
