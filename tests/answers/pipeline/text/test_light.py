"""Light words are read by their terms: the verbs of having and taking, and the adverbs that only add."""
from answers.pipeline.text.light import light_terms
from answers.pipeline.text.tokens import DEFAULT


def test_the_light_words_are_read_as_terms_in_every_form():
    assert {"carri", "includ", "contain", "take", "need", "also", "still", "moment"} <= light_terms(DEFAULT)


def test_a_word_naming_a_thing_is_no_light_word():
    assert not {"featur", "store", "restor", "respons"} & light_terms(DEFAULT)
