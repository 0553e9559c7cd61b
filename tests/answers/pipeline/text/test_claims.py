"""A sentence's numbers (with units and the words they qualify), names and negations are read alike in a sentence
and in its support span."""
import pytest

from answers.pipeline.text.claims import compatible_units, holds_letter, read_claims, read_names, same_value
from answers.pipeline.text.tokens import DEFAULT


def numbers(text: str) -> list[tuple[str, str]]:
    return [(number.value, number.unit) for number in read_claims(text, DEFAULT).numbers]


def names(text: str) -> list[str]:
    return [name.text for name in read_names(text, DEFAULT)]


def negated(text: str) -> set[str]:
    return {term for term, values in read_claims(text, DEFAULT).polarity.items() if True in values}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Express takes 2 business days.", [("2", "business day")]),
        ("Express takes two business days.", [("2", "business day")]),
        ("Standard takes 4 to 6 business days.", [("4-6", "business day")]),
        ("Standard takes between 4 and 6 business days.", [("4-6", "business day")]),
        ("A restocking fee of 12% applies.", [("12", "%")]),
        ("A restocking fee of 12 percent applies.", [("12", "%")]),
        ("Parcels up to 25 kg ship free.", [("25", "kg")]),
        ("Orders placed before 14:00 ship today.", [("14:00", "time")]),
        ("Orders placed before 2 pm ship today.", [("14:00", "time")]),
        ("Orders placed before 2:30 p.m. ship today.", [("14:30", "time")]),
        ("Express costs $19.", [("19", "$")]),
        ("The Team plan costs $12 per user.", [("12", "$/user")]),
        ("SESSION_COOKIE_AGE defaults to 1209600.", [("1209600", "")]),
        ("It defaults to 1,209,600 seconds.", [("1209600", "second")]),
        ("Replies come within 8 business hours.", [("8", "business hour")]),
        ("Gold status needs 200 seats in one calendar year.", [("200", "seat"), ("1", "year")]),
        # A period said without a number is one of it.
        ("Keys are rotated every year.", [("1", "year")]),
        ("Keys are rotated each month.", [("1", "month")]),
        ("Reports are sent weekly.", [("1", "week")]),
        ("The annual fee is waived.", [("1", "year")]),
        ("Backups run every 6 hours.", [("6", "hour")]),
        # ... but after an amount it is the amount's rate, said another way.
        ("A block costs $8 each month.", [("8", "$")]),
    ],
)
def test_numbers_are_read_with_their_units(text, expected):
    assert numbers(text) == expected


def test_a_number_qualifies_the_words_of_its_own_clause():
    claims = read_claims("Standard delivery takes 4 to 6 business days, while express takes 2 business days.", DEFAULT)

    standard, express = claims.numbers
    assert {"standard", "deliveri"} <= standard.about and "express" not in standard.about
    assert "express" in express.about and "standard" not in express.about


def test_words_of_a_clause_without_a_number_qualify_the_nearest_number():
    (number,) = read_claims("Express delivery, available in Lisbon and Porto, takes 2 business days.", DEFAULT).numbers

    assert {"express", "deliveri", "lisbon", "porto"} <= number.about


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Our warehouses are in Rotterdam and Lisbon.", ["Rotterdam", "Lisbon"]),
        ("Lisbon hosts the returns office.", []),  # a capital at the start of a sentence says nothing
        ("Set `SESSION_COOKIE_AGE` to two weeks.", ["`SESSION_COOKIE_AGE`"]),
        ("Call select_for_update() in a transaction.", ["select_for_update()"]),
        ("Business plan admins can turn on SSO.", ["SSO"]),
        ("Invoices can be downloaded as PDFs.", ["PDF"]),  # an acronym's plural names the acronym
        ("The limit is 5 GB per file.", []),  # a unit is no name
        ("Load the widget from cdn.example.com first.", ["cdn.example.com"]),
        ("UPDATES DURING AN INCIDENT", ["INCIDENT"]),  # a heading in capitals: its stop words are no acronyms
        ("It is written for IT managers.", []),
        ("Press Ctrl+K to search, then Shift+Enter.", ["Ctrl+K", "Shift+Enter"]),  # a key combination
        ("Select a file and press S to share it.", ["S"]),  # a key named by its letter
        ("Write to help.desk@example.org today.", ["help.desk@example.org"]),  # an address, whole
        ("Page the team on a Sev-1 incident.", ["Sev-1"]),  # a label with its number
        ("A file opens in a panel. I press nothing.", []),  # "A" and "I" are words, not keys
    ],
)
def test_names_identifiers_and_code_literals_are_found(text, expected):
    assert names(text) == expected


def test_an_acronym_is_held_by_the_initials_of_its_words():
    span = read_claims("Admins can turn on single sign-on for the workspace.", DEFAULT)
    (sso,) = read_names("Admins can turn on SSO.", DEFAULT)

    assert span.holds_name(sso)


def test_an_acronyms_plural_is_held_by_the_acronym_and_by_nothing_else():
    (pdfs,) = read_names("Past invoices can be downloaded as PDFs.", DEFAULT)

    assert read_claims("Past invoices can be downloaded as PDF files.", DEFAULT).holds_name(pdfs)
    assert not read_claims("Past invoices can be downloaded as CSV files.", DEFAULT).holds_name(pdfs)


def test_a_key_combination_is_held_only_by_the_same_keys():
    (keys,) = read_names("Use Shift+N for a new folder.", DEFAULT)

    assert read_claims("Press Shift+N to create a new folder.", DEFAULT).holds_name(keys)
    assert not read_claims("Press Shift+U to upload a folder; N is unused.", DEFAULT).holds_name(keys)


def test_a_key_letter_is_held_by_that_letter_in_its_case_only():
    (letter,) = read_names("Then press S to share.", DEFAULT)

    assert read_claims("Press S to open the Share dialog.", DEFAULT).holds_name(letter)
    assert not read_claims("Press U to open the dialog of the team's files.", DEFAULT).holds_name(letter)


def test_a_label_with_a_number_is_one_identifier_held_only_by_itself():
    assert names("The tracking code is CANARY-9X4.") == ["CANARY-9X4"]
    assert numbers("Every Sev-1 and Sev-2 incident needs a post-mortem.") == []
    (label,) = read_names("A Sev-2 incident is a partial outage.", DEFAULT)

    assert read_claims("For every Sev-1 and Sev-2 incident a post-mortem is written.", DEFAULT).holds_name(label)
    assert not read_claims("For every Sev-1 incident a post-mortem is written.", DEFAULT).holds_name(label)


def test_an_address_is_held_only_by_the_same_address():
    (address,) = read_names("Mail abuse@example.org about it.", DEFAULT)

    assert read_claims("Reports go to abuse@example.org.", DEFAULT).holds_name(address)
    assert not read_claims("Reports go to help@example.org, not to abuse.", DEFAULT).holds_name(address)


def test_a_literal_is_held_only_by_its_own_text():
    (literal,) = read_names("Call `select_for_update()` here.", DEFAULT)

    assert read_claims("Use select_for_update() to lock rows.", DEFAULT).holds_name(literal)
    assert not read_claims("Use select_related() to join rows.", DEFAULT).holds_name(literal)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Returns have no restocking fee.", {"restock", "fee"}),
        ("Guests cannot edit or delete files.", {"edit", "delet", "file"}),
        ("Express orders don't ship on Sundays.", {"ship", "sunday"}),
        ("The setup fee is non-refundable.", {"refund"}),
        ("A restocking fee of 12% applies.", set()),
        ("Orders placed no later than 14:00 ship today.", set()),  # a bound, not a negation
        ("Not only files but folders sync.", set()),
        ("Guests cannot edit files, but they can view them.", {"edit", "file"}),  # the negation ends with its clause
        ("Credits go to the next invoice rather than paid in cash.", {"paid", "cash"}),
        ("Credits go to the next invoice instead of a cash payout.", {"cash", "payout"}),
    ],
)
def test_negated_words(text, expected):
    assert negated(text) == expected


def test_a_negation_reaches_a_number_right_after_it_never_past_a_word_it_negates():
    (direct,) = read_claims("Express takes not 4 days.", DEFAULT).numbers
    (past_word,) = read_claims("A case not resolved after 30 minutes is escalated.", DEFAULT).numbers

    assert direct.negated
    assert not past_word.negated


def test_values_and_units_compare_as_amounts():
    assert same_value("2.50", "2.5") and same_value("4-6", "4-6.0") and not same_value("4", "4-6")
    assert compatible_units("$/user", "$") and not compatible_units("day", "business day")
    # a rate and a rate of it: "$12 per user" of "$12 per user per month"; another divisor is another amount
    assert compatible_units("$/user", "$/month/user") and not compatible_units("$/year/user", "$/month/user")


def test_a_rate_of_a_rate_reads_its_divisors_in_either_order():
    units = {read_claims(text, DEFAULT).numbers[0].unit for text in (
        "The Team plan costs $12 per user per month.", "Team is $12 a month for each user.",
        "Team costs $12 for each user every month.",
    )}
    assert units == {"$/month/user"}


def test_none_in_the_middle_of_a_sentence_is_a_value_not_a_negation():
    assert negated("The default=None argument keeps the order.") == set()
    assert negated("A function that ends early returns None as its result.") == set()
    assert "order" in negated("None of the order is kept.")


def test_a_dunder_literal_is_read_with_its_underscores_and_held_by_itself():
    stated = read_claims("A class that defines __eq__() should define __hash__() too.", DEFAULT)

    assert names("Define __hash__() as well.") == ["__hash__()"]
    assert all(stated.holds_name(name) for name in read_names("Define __hash__() and __eq__().", DEFAULT))
    assert not any(stated.holds_name(name) for name in read_names("Define __ne__() as well.", DEFAULT))


@pytest.mark.parametrize(
    ("text", "letter", "held"),
    [("press S to save", "S", True), ("the format {% now 'Y' %} prints the year", "Y", True),
     ("Lumora's plans", "s", False), ("I'm here", "I", False), ("Ctrl+S saves", "S", False), ("SSO", "S", False)],
)
def test_a_letter_is_named_alone_or_quoted_never_inside_a_word_or_a_contraction(text, letter, held):
    assert holds_letter(text, letter) is held


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The web app supports the latest five versions.", [("5", "")]),
        ("You cannot reuse any of your last three passwords.", [("3", "")]),
        ("Admins are told when usage passes nine tenths of the quota.", [("90", "%")]),
        ("Half of the seats are free.", [("50", "%")]),
        ("Two of them are free.", []),
        ("Partner portal accounts need two-factor authentication.", []),
        ("Each backup is kept for thirty-five days.", [("35", "day")]),
        ("Maintenance is announced seventy-two hours ahead.", [("72", "hour")]),
        ("Gold needs two hundred seats a year.", [("200", "seat/year")]),
        ("Refunds take five to seven business days.", [("5-7", "business day")]),
        ("A bulk call counts as a single request.", [("1", "request")]),
        ("The largest single file is accepted.", []),  # "single" naming a kind of file counts nothing
    ],
)
def test_number_words_that_count_or_share_are_numbers(text, expected):
    assert numbers(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Prices exclude VAT and sales tax.", {"includ", "vat", "sale"}),
        ("Prices do not include VAT or sales tax.", {"includ", "vat", "sale"}),
        ("A request is not processed and must be sent again later.", {"process"}),
        ("The current version is never removed when old versions expire.", {"remov"}),
        ("Members without the owner role cannot see the form.", {"owner", "role", "see", "form"}),
        ("Members without the owner role can see the form.", {"owner", "role"}),  # "can see" starts the predicate
        ("No credit card is required to start the trial.", {"credit", "card"}),
    ],
)
def test_a_negation_reaches_past_and_before_a_content_word_and_stops_at_a_subordinate_clause(text, expected):
    assert negated(text) == expected


def test_a_term_past_a_negations_reach_in_its_clause_is_trailing_and_still_plain():
    claims = read_claims("Lumora doesn't send sign-in codes by text message.", DEFAULT)

    assert claims.polarity["text"] == frozenset({False}) and claims.trailing == frozenset({"text", "messag"})
    assert read_claims("Lumora does not give the prospect to another partner while it is active.",
                       DEFAULT).trailing == frozenset({"partner"})  # "while" starts a clause the negation leaves


def test_a_term_also_written_with_no_negation_before_it_is_not_trailing():
    assert read_claims("Text messages are fine. Lumora does not send codes by email to text users.",
                       DEFAULT).trailing == frozenset({"user"})


def test_the_subject_of_a_negated_passive_may_be_meant_negated_and_stays_plain():
    claims = read_claims("Executables aren't blocked by the web app.", DEFAULT)

    assert claims.polarity["execut"] == frozenset({False}) and "execut" in claims.trailing
    assert "prospect" in read_claims("A prospect that is already a customer cannot be registered.", DEFAULT).trailing
    assert read_claims("Executables are blocked, but scripts can't run.", DEFAULT).trailing == frozenset()


def test_never_after_is_makes_a_negated_passive_as_not_does():
    assert "card" in read_claims("A card is never charged automatically when a trial ends.", DEFAULT).trailing
    assert "card" not in read_claims("A card is charged automatically when a trial ends.", DEFAULT).trailing


def test_a_capitalised_hyphenated_compound_is_one_name_matched_as_written():
    said = read_names("Every API response includes the Retry-After header.", DEFAULT)
    span = read_claims("Every API response includes the X-RateLimit-Remaining header.", DEFAULT)

    assert [name.text for name in said] == ["API", "Retry-After"]
    assert not span.holds_name(said[1])
    assert names("Each request is signed with HMAC-SHA256.") == ["HMAC", "SHA"]  # as before: no lower-case letter


def test_a_roman_numeral_belongs_to_the_word_it_follows():
    said = read_names("Lumora Labs holds a SOC 2 Type I report.", DEFAULT)

    assert [name.text for name in said][-1] == "Type I"
    assert not read_claims("Lumora Labs holds a SOC 2 Type II report.", DEFAULT).holds_name(said[-1])
    assert read_claims("It holds a SOC 2 Type I report.", DEFAULT).holds_name(said[-1])


@pytest.mark.parametrize(
    ("text", "denied"),
    [
        ("Service account tokens are not tied to a single member.", True),
        ("Guests are not charged for one seat.", True),
        ("Service account tokens are tied to a single member.", False),
        ("Tickets are not resolved within one hour.", False),  # a duration: the negation denies the resolving
        ("Tokens are not tied to 2 members.", False),
    ],
)
def test_a_negated_word_and_a_preposition_before_a_count_of_one_deny_the_count(text, denied):
    (number,) = read_claims(text, DEFAULT).numbers
    assert number.negated is denied


def test_the_agent_of_a_denied_passive_is_not_denied():
    claims = read_claims("Executable files are not blocked by Lumora.", DEFAULT)

    assert claims.polarity["block"] == frozenset({True}) and claims.polarity["lumora"] == frozenset({False})
    assert read_claims("Lumora does not block files by default.", DEFAULT).polarity["block"] == frozenset({True})


def test_the_subject_of_a_denied_modal_is_read_apart_for_the_sentence_side_only():
    claims = read_claims("Real customer data must not go into a demo workspace.", DEFAULT)

    assert claims.polarity["real"] == frozenset({False}) and "real" in claims.modal_subjects
    assert "real" not in claims.trailing  # a span's modal subject excuses no sentence that negates it
    assert "team" in read_claims("The Team plan can't get higher limits.", DEFAULT).modal_subjects
    assert read_claims("Real customer data must go into a demo workspace.", DEFAULT).modal_subjects == frozenset()


def test_the_word_before_a_negating_no_may_be_the_one_denied():
    claims = read_claims("During a Sev-1, a rollback needs no approval from the release owner.", DEFAULT)

    assert claims.polarity["need"] == frozenset({False}) and "need" in claims.trailing
    assert "need" not in read_claims("A rollback needs approval from the release owner.", DEFAULT).trailing


@pytest.mark.parametrize(
    ("text", "lenient"),
    [
        ("No credit card is required to start the trial.", True),  # "is not required" says the same
        ("No discount may take a price below the floor.", False),  # a modal's predicate stays plain
        ("Members without the owner role are shown the form.", False),  # "without" qualifies the members
    ],
)
def test_the_passive_of_a_subject_denied_by_no_trails_the_negation(text, lenient):
    claims = read_claims(text, DEFAULT)
    predicate = {"required": "requir", "may": "take", "shown": "shown"}
    term = next(value for key, value in predicate.items() if key in text)

    assert (term in claims.trailing) is lenient


def test_a_pronoun_after_without_is_what_is_lacked_and_the_predicate_after_it_is_plain():
    claims = read_claims("Members without it then have to set it up at their next sign-in.", DEFAULT)
    assert claims.polarity["set"] == frozenset({False}) and claims.polarity["next"] == frozenset({False})

