"""The bound checks within one span: numbers first, then names, then negation, each failure a reason to read."""
from answers.pipeline.bounds import bound_problems
from answers.pipeline.spans import support_span
from answers.pipeline.text.claims import read_claims, read_names
from answers.pipeline.text.tokens import DEFAULT, significant_terms
from answers.pipeline.types import SupportSpan

TEXT = "Express delivery to Lisbon takes 2 business days.\nStandard delivery takes 4 to 6 business days."


def problems(sentence: str, make_record) -> list[str]:
    record = make_record("shipping-v1-c01", text=TEXT, flagged=[])
    claims = read_claims(sentence, DEFAULT)
    found = support_span(significant_terms(sentence, DEFAULT), record, tokenizer=DEFAULT)
    assert found is not None
    span, held = found
    return bound_problems(1, claims, span, record, names=read_names(sentence, DEFAULT), held=held, tokenizer=DEFAULT)


def test_a_sentence_the_span_bears_out_has_no_problem(make_record):
    assert problems("Express delivery to Lisbon takes two business days.", make_record) == []


def test_a_wrong_number_is_the_one_reason_given_even_with_a_wrong_name(make_record):
    assert problems("Express delivery to Porto takes 3 business days.", make_record) == [
        "[1] states 2 business days, not 3"
    ]


def test_a_wrong_name_is_named(make_record):
    assert problems("Express delivery to Porto takes 2 business days.", make_record) == ["[1] does not name Porto"]


def test_a_negation_the_span_lacks_is_named_with_the_words_it_covers(make_record):
    assert problems("Express delivery to Lisbon is not quick.", make_record) == []  # "quick" is not in the span
    assert problems("Express delivery does not go to Lisbon.", make_record) == [
        '[1] affirms "Lisbon"; the sentence negates it'
    ]


def test_a_negated_number_needs_a_negated_number_in_the_span(make_record):
    assert problems("Express delivery to Lisbon takes not 2 business days.", make_record) == [
        '[1] affirms "2 business days"; the sentence negates it'
    ]


def test_every_wrong_number_of_a_sentence_is_named(make_record):
    assert problems("Express delivery to Lisbon takes 3 business days, at 12% more.", make_record) == [
        "[1] states 2 business days, not 3",
        "[1] does not state 12%",
    ]


def test_a_negation_counts_on_terms_common_to_most_blocks_too(make_record):
    record = make_record("api-v1-c01", text="Scopes limit what a token can do.", flagged=[])
    claims = read_claims("Scopes limit not what a token can do.", DEFAULT)
    found = support_span(["scope", "limit"], record, tokenizer=DEFAULT)  # "token" is common: not a span term
    assert found is not None

    assert bound_problems(1, claims, found[0], record, names=(), held=found[1], tokenizer=DEFAULT) == [
        '[1] affirms "token"; the sentence negates it'
    ]


def test_a_span_pointing_back_states_the_number_of_the_sentence_before(make_record):
    text = "Refunds must be asked for within 21 days.\nCharges older than that are not eligible for a refund."
    plain = "Refunds must be asked for within 21 days.\nCharges older than a year are not eligible for a refund."

    def reasons(sentence: str, chunk: str) -> list[str]:
        record = make_record("refund-v1-c01", text=chunk, flagged=[])
        second = SupportSpan(chunk.index("Charges"), len(chunk), (2,), chunk[chunk.index("Charges") :])
        return bound_problems(1, read_claims(sentence, DEFAULT), second, record, names=(), held=(), tokenizer=DEFAULT)

    assert reasons("Charges older than 21 days are not eligible for a refund.", text) == []
    assert reasons("Charges older than 30 days are not eligible for a refund.", text) != []
    assert reasons("Charges older than 21 days are not eligible for a refund.", plain) != []
