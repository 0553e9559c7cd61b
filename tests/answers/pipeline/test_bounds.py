"""The bound checks within one span: numbers first, then names, then negation, each failure a reason to read."""
import dataclasses

import pytest

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


# Entity swaps the word-by-word swap check lets through: roles, slots, identifiers, list items and possessives.
def checked(sentence: str, chunk: str, make_record, *others: str) -> list[str]:
    record = make_record("doc-v1-c01", text=chunk, flagged=[])
    names = read_names(sentence, DEFAULT)
    found = support_span(significant_terms(sentence, DEFAULT), record, tokenizer=DEFAULT)
    assert found is not None
    span, held = found
    return bound_problems(
        1, read_claims(sentence, DEFAULT), span, record, names=names, held=held, tokenizer=DEFAULT,
        sentence=sentence, elsewhere=lambda: others,
    )


@pytest.mark.parametrize(
    ("chunk", "sentence", "reason"),
    [
        ("Only the workspace owner and billing admins can see invoices.",
         "Invoices can be seen by the workspace owner and by guests.", "[1] names admins, not guests"),
        ("The Team plan allows a maximum of 50 members.", "The Team plan allows a maximum of 50 guests.",
         "[1] names members, not guests"),
    ],
)
def test_a_role_the_span_does_not_name_where_it_names_another_is_a_swap(make_record, chunk, sentence, reason):
    assert checked(sentence, chunk, make_record) == [reason]


def test_roles_the_span_names_all_pass_in_any_order(make_record):
    chunk = "Only the workspace owner and billing admins can see invoices."

    assert checked("Billing admins and the workspace owner can see invoices.", chunk, make_record) == []


@pytest.mark.parametrize(
    ("chunk", "sentence", "other", "reason"),
    [
        # The word swapped in is one another issued block writes: a model takes it from its context.
        ("Prices are shown in US dollars and do not include tax.", "Prices are shown in euros and do not include tax.",
         "Invoices for European customers can be paid in euros.", "[1] says US dollars, not euros"),
        ("Every restore is logged in the restore register.", "Every restore is logged in the incident channel.",
         "Incidents are declared by the first responder.", "[1] says restore register, not incident channel"),
        ("The API rate limit is 600 requests per minute for each workspace.",
         "The API rate limit is 600 requests per minute for each token.", "Each token has its own scopes.",
         "[1] says workspace, not token"),
        # The same "-ing" modifier leads both nouns.
        ("A Sev-2 incident is a partial outage, such as failing uploads in one data region.",
         "A Sev-2 incident is a partial outage, such as failing downloads in one data region.",
         "A Sev-3 incident is a minor problem.", "[1] says uploads, not downloads"),
        # A number leads both nouns: the sentence's number counts other things.
        ("A single upload batch can contain up to 500 files.", "A single upload batch can contain up to 500 folders.",
         "Folders can be uploaded in browsers that support it.", "[1] says files, not folders"),
    ],
)
def test_a_noun_put_in_the_slot_of_the_spans_is_a_swap_though_another_block_writes_it(
    make_record, chunk, sentence, other, reason
):
    assert checked(sentence, chunk, make_record, other) == [reason]


def test_the_same_slot_said_with_the_spans_words_passes(make_record):
    chunk = "Prices are shown in US dollars and do not include tax."

    assert checked("All prices are shown in US dollars.", chunk, make_record, "Invoices can be paid in euros.") == []


def test_an_identifier_of_the_spans_shape_with_another_ending_is_a_swap(make_record):
    chunk = "You can set the accent colour with the data-accent attribute."

    assert checked("You can set the accent colour with the data-theme attribute.", chunk, make_record) == [
        "[1] names data-accent, not data-theme"
    ]
    assert checked("The data-accent attribute sets the accent colour.", chunk, make_record) == []


def test_a_list_item_after_an_article_is_read_as_an_item(make_record):
    chunk = "The event includes the file name and file size."

    assert checked("The event includes the file name and the visitor's email address.", chunk, make_record) == [
        "[1] does not list the visitor's email address"
    ]


def test_a_possessive_name_is_the_spans_our_when_the_evidence_writes_the_name(make_record):
    chunk = "Kits are posted by our print partner in Rotterdam."
    sentence = "Kits are posted by Lumora's print partner in Rotterdam."

    assert checked(sentence, chunk, make_record, "Post in the Lumora community forum.") == []
    assert checked(sentence, chunk, make_record) == ["[1] does not name Lumora's"]  # no text writes Lumora
    assert checked("Kits are posted by Acme's print partner in Rotterdam.", chunk, make_record,
                   "Post in the Lumora community forum.") == ["[1] does not name Acme's"]


def test_a_number_word_for_the_spans_single_is_left_to_the_numbers_check(make_record):
    chunk = "A single upload batch can contain up to 500 files."

    other = "The upload limit is the largest single file that the web app accepts in one upload."  # "one upload"

    assert checked("One upload batch can hold up to 500 files.", chunk, make_record, other) == []


def test_a_list_item_with_half_its_words_the_spans_is_the_spans_item_reworded(make_record):
    chunk = "The Business plan adds phone support and faster support replies."

    assert checked("The Business plan adds phone support and quicker replies.", chunk, make_record) == []
    assert checked("The Business plan adds phone support and on-site visits.", chunk, make_record) == [
        "[1] does not list on-site visits"
    ]


def test_a_listed_action_must_be_the_spans_though_its_object_is_shared(make_record):
    chunk = "Bulk endpoints exist for moving, copying and deleting files."

    assert checked("Bulk endpoints exist for moving and renaming files.", chunk, make_record) == [
        "[1] does not list renaming files"
    ]


def test_or_after_a_number_bounds_the_number_and_lists_nothing(make_record):
    chunk = "The desktop app runs on Windows 10 or later."

    assert checked("The desktop app needs Windows 10 or newer.", chunk, make_record) == []
    assert checked("The desktop app needs Windows 8 or newer.", chunk, make_record) != []  # the number still counts


def test_a_predicate_led_by_a_modal_after_and_is_no_list_item(make_record):
    chunk = "Share links can expire and can be protected with a password."

    assert checked("Share links can expire and may be password-protected.", chunk, make_record) == []


def test_a_step_after_and_is_judged_with_where_it_leads(make_record):
    chunk = "Open Account settings and choose Security."

    assert checked("Open Account settings and go to Security.", chunk, make_record) == []
    assert checked("Open Account settings and go to billing.", chunk, make_record) == ["[1] does not list go"]


def titled(sentence: str, chunk: str, title: str, make_record) -> list[str]:
    record = dataclasses.replace(make_record("doc-v1-c01", text=chunk, flagged=[]), source_title=title)
    found = support_span(significant_terms(sentence, DEFAULT), record, tokenizer=DEFAULT)
    assert found is not None
    span, held = found
    return bound_problems(
        1, read_claims(sentence, DEFAULT), span, record, names=read_names(sentence, DEFAULT), held=held,
        tokenizer=DEFAULT, sentence=sentence,
    )


def test_a_version_is_an_identifier_the_spans_quantities_are_no_rivals_of(make_record):
    chunk = "The web app supports the latest two versions of Chrome, Firefox, Safari and Edge."
    title = "Web app release notes 5.0"

    assert titled("The 5.0 web app supports the two most recent versions of Chrome, Firefox, Safari and Edge.",
                  chunk, title, make_record) == []
    assert titled("The web app supports the latest three versions of Chrome.", chunk, title, make_record) == [
        "[1] states 2, not 3"
    ]


def test_a_version_the_title_states_is_stated_and_another_version_is_not(make_record):
    chunk = "Folders can now be given a colour. Folder colours are visible to every member of the workspace."
    title = "Web app release notes 5.0"

    assert titled("Since version 5.0, folders can be given a colour.", chunk, title, make_record) == []
    assert titled("Since version 5.1, folders can be given a colour.", chunk, title, make_record) == [
        "[1] does not state 5.1"
    ]


def test_a_number_the_title_writes_of_the_same_words_is_the_titles_though_the_span_states_another(make_record):
    chunk = "This guide explains upload limits. It was written for the 4.x version of the web app."
    title = "Upload limits (2024 guide)"

    assert titled("The 2024 guide was written for the 4.x web app.", chunk, title, make_record) == []
    assert titled("The 2023 guide was written for the 4.x web app.", chunk, title, make_record) != []
    chunk = "The web app supports the latest two versions of Chrome, Firefox, Safari and Edge."
    assert titled("The web app supports the latest five versions of Chrome.", chunk, "Web app release notes 5.0",
                  make_record) == ["[1] states 2, not 5"]


def test_a_version_of_the_span_is_the_rival_of_another_version(make_record):
    chunk = "Data in transit is protected with TLS 1.3. Keys are rotated every 2 years."

    assert checked("Data in transit is protected with TLS 1.2.", chunk, make_record) == ["[1] states 1.3, not 1.2"]


@pytest.mark.parametrize(
    ("chunk", "sentence"),
    [
        ("Selective sync lets you choose which folders are stored on your computer.",
         "Selective sync lets you pick which folders are kept on your computer."),
        ("Every Lumora workspace has a storage quota. The quota depends on the plan and the number of members.",
         "The quota depends on the plan and how many members the workspace has."),
    ],
)
def test_a_word_not_right_before_a_kind_noun_names_no_kind_of_it(make_record, chunk, sentence):
    assert checked(sentence, chunk, make_record) == []


def test_the_word_right_before_a_kind_noun_still_names_its_kind(make_record):
    chunk = "Each refund request is reviewed by the Lumora Labs billing team."

    assert checked("Each refund request is reviewed by the Lumora Labs support team.", chunk, make_record) == [
        "[1] says billing team, not support team"
    ]


@pytest.mark.parametrize("sentence", ["Downgrading a plan does not lead to a refund.",
                                      "Downgrading a plan doesn't lead to a refund."])
def test_a_role_noun_written_as_a_verb_names_no_role(make_record, sentence):
    chunk = "Downgrading a plan does not trigger a refund; the lower price applies from the next invoice."

    assert checked(sentence, chunk, make_record) == []


def test_a_role_noun_in_a_things_place_is_still_a_swap(make_record):
    chunk = "Download access can be limited to specific folders."

    assert checked("Download access can be limited to specific members.", chunk, make_record) == [
        "[1] says folders, not members"
    ]


@pytest.mark.parametrize(
    ("chunk", "true", "false", "reason"),
    [
        # The sentence's negation reaches "codes" but not "text"; the span's reaches "text".
        ("Lumora does not send codes by text message. Text messages are less secure than authenticator apps.",
         "Lumora doesn't send sign-in codes by text message.", "Lumora sends sign-in codes by text message.",
         '[1] negates "send codes"; the sentence affirms it'),
        # The span's negation reaches "another" but not "partner"; the sentence's reaches "partner".
        ("Lumora Labs will not give the same prospect to another partner while your registration is active.",
         "While your registration is active, Lumora Labs won't hand that prospect to any other partner.",
         "While your registration is active, Lumora Labs will hand that prospect to another partner.",
         '[1] negates "prospect another"; the sentence affirms it'),
        ("Members can empty their own trash at any time. Files removed by emptying the trash do not count toward "
         "storage.", "Files removed by emptying the trash no longer count toward storage.",
         "Files removed by emptying the trash still count toward storage.",
         '[1] negates "count toward storage"; the sentence affirms it'),
    ],
)
def test_a_term_past_one_sides_negation_reach_in_a_negated_clause_is_no_polarity_problem(
    make_record, chunk, true, false, reason
):
    assert checked(true, chunk, make_record) == []
    assert checked(false, chunk, make_record) == [reason]


@pytest.mark.parametrize(
    ("chunk", "sentence", "other", "shown"),
    [
        # A modifier another block writes, put before the head noun both share, between words both share: a swap.
        ("Registered deals also qualify for the partner reseller discount.",
         "Registered deals qualify for the partner referral discount.", "Referral partners earn a commission.",
         False),
        ("Please include the invoice number in your message.", "Please include the ticket number in your message.",
         "Open a support ticket from the help centre.", False),
        # The same slot with a word no issued block writes is a rewording ("biggest" for "largest").
        ("The upload limit is the largest single file that the web app accepts.",
         "The upload limit is the biggest single file that the web app accepts.", "Files are kept for 30 days.",
         True),
        # A verb in that slot is left to the other checks ("to share the selected file").
        ("Press Enter to open the selected file.", "Press Enter to share the selected file.",
         "Share links can expire.", True),
    ],
)
def test_a_modifier_another_block_writes_before_the_spans_head_noun_is_a_swap(
    make_record, chunk, sentence, other, shown
):
    assert (checked(sentence, chunk, make_record, other) == []) is shown


@pytest.mark.parametrize(
    ("chunk", "sentence", "borne_out"),
    [
        ("Support replies to every ticket within 24 hours.", "Support replies to every ticket within a day.", True),
        ("Support replies to every ticket within a day.", "Support replies to every ticket within 24 hours.", True),
        ("The status page is updated every half hour.", "The status page is updated every 30 minutes.", True),
        ("Two people change the same file before syncing.", "Two people change one file before syncing.", True),
        ("Support replies to every ticket within 24 hours.", "Support replies to every ticket within a week.", False),
        ("Support replies to every ticket within 24 hours.", "Support replies to every ticket within 2 days.", False),
        ("The status page is updated every half hour.", "The status page is updated every 20 minutes.", False),
        ("Two people change the same file before syncing.", "Two people change three files before syncing.", False),
    ],
)
def test_an_equal_amount_in_other_units_or_words_is_borne_out_and_another_is_not(
    chunk, sentence, borne_out, make_record
):
    assert (checked(sentence, chunk, make_record) == []) is borne_out


def test_a_count_of_one_the_span_denies_is_a_negation_the_sentence_lacks(make_record):
    chunk = "Service account tokens are not tied to a single member."
    assert checked("Each service account token belongs to one member.", chunk, make_record) != []
    assert checked("Service account tokens are not tied to one member.", chunk, make_record) == []


def test_a_number_word_for_an_amount_said_otherwise_is_no_swap_of_words(make_record):
    chunk = "During an incident the status page is updated at least every half hour."
    sentence = "During an incident the status page is updated at least every {} minutes."
    assert checked(sentence.format("thirty"), chunk, make_record) == []
    assert checked(sentence.format("twenty"), chunk, make_record) != []


def test_an_identifier_in_the_plural_is_the_same_identifier(make_record):
    chunk = "Five failed sign-in attempts in a row lock the account."
    assert checked("Five failed sign-ins in a row lock the account.", chunk, make_record) == []
    assert checked("Five failed sign-outs in a row lock the account.", chunk, make_record) != []


def test_an_identifier_said_as_an_inflected_verb_is_the_same_identifier(make_record):
    chunk = "Right-click a file and choose Version history to see its versions."
    assert checked("Right-clicking a file and picking Version history lists its versions.", chunk, make_record) == []
    assert checked("Right-dragging a file and picking Version history lists its versions.", chunk, make_record) != []


def test_a_role_noun_ending_a_name_the_sentence_writes_by_its_first_word_is_no_role_swapped(make_record):
    chunk = "The Team plan includes 1 TB of storage per user."
    assert checked("Team gives each user 1 TB.", chunk, make_record) == []
    assert checked("Team plan admins get 1 TB of storage per user.", "Team plan members get 1 TB of storage per user.",
                   make_record) != []


def test_a_role_the_span_writes_before_a_name_it_ends_with_a_role_noun_is_a_reordering(make_record):
    chunk = "Workspace owners on the Business plan can order a printed welcome kit."
    assert checked("Business owners can order a printed welcome kit.", chunk, make_record) == []
    assert checked("Business guests can order a printed welcome kit.", chunk, make_record) != []


@pytest.mark.parametrize(
    ("chunk", "sentence"),
    [
        ("Rollbacks do not need approval from the release owner during a Sev-1 incident.",
         "Release owner approval is not needed for a rollback during a Sev-1."),
        ("If neither engineer acknowledges the page, it goes to the engineering manager on duty.",
         "A page that neither engineer acknowledges is passed to the engineering manager on duty."),
        ("Folders that are not selected stay online only.", "Folders you don't select remain online only."),
    ],
)
def test_a_negation_placed_elsewhere_in_the_clause_passes_when_both_deny_alike(make_record, chunk, sentence):
    assert checked(sentence, chunk, make_record) == []


@pytest.mark.parametrize(
    ("chunk", "sentence", "reason"),
    [
        # The span's one negation denies "finished", the sentence's "browser tab": not the same denial.
        ("Keep the browser tab open until the upload finishes. Closing the tab cancels any upload that has not "
         "finished.", "Keep the not browser tab open until the upload finishes.", "the sentence negates it"),
        # A contrast's "and not" denies the other thing, not the claim.
        ("Our billing team treats refund requests as a priority and not as a chore.",
         "The billing team does not treat refund requests as a priority.", "the sentence negates it"),
    ],
)
def test_a_negation_of_something_else_is_still_out_of_place(make_record, chunk, sentence, reason):
    assert reason in " ".join(checked(sentence, chunk, make_record))


def test_a_period_said_by_how_often_must_be_the_spans(make_record):
    chunk = "Partner managers hold a review call with each partner once per quarter."

    assert checked("Partner managers hold a review call with each partner once a month.", chunk, make_record) == [
        "[1] states quarters, not months"
    ]
    assert checked("Each partner gets a quarterly review call with its partner manager.", chunk, make_record) == []


def test_a_unit_of_time_said_without_a_number_needs_the_span_to_state_it(make_record):
    reset = "Lumora sends a reset link to your email address."
    assert checked("You have a full day to use a password reset link.", reset, make_record) == [
        "[1] does not state a day"
    ]
    assert checked("Lumora emails you a reset link.", reset, make_record) == []
    retry = "The Retry-After header gives the number of seconds to wait before sending the next request."
    assert checked("Retry-After gives the wait in milliseconds.", retry, make_record) == [
        "[1] states seconds, not milliseconds"
    ]



def test_a_unit_of_time_the_span_leaves_out_is_swapped_when_the_chunk_states_another_elsewhere(make_record):
    chunk = ("A rate-limited response includes the Retry-After header. The Retry-After header gives the number of "
             "seconds to wait before sending the next request.")
    # the span ("includes the Retry-After header") states no length of time; the chunk's wait is in seconds
    assert checked("A rate-limited response includes a Retry-After header in minutes.", chunk, make_record) == [
        "[1] states seconds, not minutes"
    ]
    assert checked("A rate-limited response includes a Retry-After header in seconds.", chunk, make_record) == []
    # "second" alone is the ordinal: "a second factor" names no unit of time
    keys = "Business plan users can register hardware security keys. Backup codes are valid for 90 days."
    assert checked("Business plan users can register hardware security keys as a second factor.", keys,
                   make_record) == []


@pytest.mark.parametrize(
    ("sentence", "borne_out"),
    [
        ("Three things go into the handover note: open incidents, silenced alerts and planned changes.", True),
        ("Two things go into the handover note: open incidents, silenced alerts and planned changes.", False),
        ("Four things go into the handover note: open incidents and silenced alerts.", False),
    ],
)
def test_a_small_count_of_the_items_the_sentence_lists_after_it_is_its_own(sentence, borne_out, make_record):
    chunk = "The handover note lists open incidents, silenced alerts and planned changes."
    assert (checked(sentence, chunk, make_record) == []) is borne_out


@pytest.mark.parametrize(
    ("sentence", "borne_out"),
    [
        ("Support for Internet Explorer has ended.", True),
        ("Internet Explorer has lost support.", True),
        ("Internet Explorer is supported.", False),  # the negation left out, with no word that holds one
        ("Internet Explorer is supported, and nothing has ended.", False),  # a negation word of its own
    ],
)
def test_a_word_whose_meaning_holds_a_negation_says_what_the_spans_negation_does(sentence, borne_out, make_record):
    chunk = "Internet Explorer is no longer supported."
    assert (checked(sentence, chunk, make_record) == []) is borne_out


@pytest.mark.parametrize(
    ("sentence", "borne_out"),
    [
        ("There is no support on weekends.", True),  # "closed" holds the negation
        ("Support is not closed on weekends.", False),
    ],
)
def test_closed_says_what_a_negation_of_the_service_says(sentence, borne_out, make_record):
    assert (checked(sentence, "Support is closed on weekends.", make_record) == []) is borne_out


@pytest.mark.parametrize(
    ("sentence", "borne_out"),
    [
        ("A workspace never has more than one owner.", True),
        ("A workspace never has more than two owners.", False),
    ],
)
def test_denying_more_than_an_amount_says_the_spans_limit_of_it(sentence, borne_out, make_record):
    assert (checked(sentence, "Each workspace has exactly one owner.", make_record) == []) is borne_out


def test_one_universal_quantifier_for_another_is_no_swap(make_record):
    chunk = "The desktop app is free on every plan."
    assert checked("The desktop app costs nothing, whatever plan you are on.", chunk, make_record) == []
    assert checked("The desktop app is free on the Team plan.", chunk, make_record) != []


def test_a_span_saying_its_negation_by_such_a_word_bears_out_the_sentences_negation(make_record):
    chunk = "Uploading, editing and sharing are blocked until a plan is chosen."
    assert checked("Until a plan is picked, nobody can upload, edit or share anything.", chunk, make_record) == []
    # The span writing the word itself, negated, is a negation the sentence leaves out.
    assert checked("Executable files are blocked.", "Lumora does not block executable files.", make_record) != []



def test_a_general_name_for_the_system_the_span_names_is_named(make_record):
    record = make_record("desktop-v1-c01", text="The desktop app runs on macOS 13 or later.", flagged=[])
    for sentence, expected in (
        ("On a Mac it needs macOS 13 or later.", []),
        ("On a PC it needs macOS 13 or later.", ["[1] does not name PC"]),
    ):
        claims = read_claims(sentence, DEFAULT)
        found = support_span(significant_terms(sentence, DEFAULT), record, tokenizer=DEFAULT)
        assert found is not None
        span, held = found
        assert bound_problems(
            1, claims, span, record, names=read_names(sentence, DEFAULT), held=held, tokenizer=DEFAULT
        ) == expected


def test_a_span_negation_said_by_an_opposite_in_the_slot_is_no_swap(make_record):
    text = "A Sev-1 incident that is not resolved after 30 minutes is escalated to the engineering manager on duty."
    record = make_record("oncall-v1-c01", text=text, flagged=[])

    def reasons(sentence: str) -> list[str]:
        found = support_span(significant_terms(sentence, DEFAULT), record, tokenizer=DEFAULT)
        assert found is not None
        span, held = found
        return bound_problems(
            1, read_claims(sentence, DEFAULT), span, record, names=read_names(sentence, DEFAULT), held=held,
            tokenizer=DEFAULT, sentence=sentence,
        )

    assert reasons("A Sev-1 still open after 30 minutes goes up to the engineering manager on duty.") == []
    # A sentence writing a negation of its own puts another thing in the slot.
    assert reasons("A Sev-1 outage not fixed after 30 minutes goes up to the engineering manager on duty.") != []


@pytest.mark.parametrize(
    ("sentence", "quote"),
    [
        ("A refund never hinges on filling in a survey.", "We never make a refund depend on a survey."),
        ("Service account tokens don't belong to any single member.", "Tokens are not tied to a single member."),
        (
            "Moving an existing workspace to another data region isn't something support can do.",
            "Support cannot change the data region of an existing workspace.",
        ),
    ],
)
def test_one_negation_in_each_of_two_plain_clauses_denies_the_one_claim(sentence, quote, make_record):
    record = make_record("policy-v1-c01", text=quote, flagged=[])
    found = support_span(significant_terms(sentence, DEFAULT), record, tokenizer=DEFAULT)
    assert found is not None
    span, held = found
    assert bound_problems(
        1, read_claims(sentence, DEFAULT), span, record, names=read_names(sentence, DEFAULT), held=held,
        tokenizer=DEFAULT, sentence=sentence,
    ) == []


def test_a_negation_of_a_phrase_by_without_is_not_the_claims_negation(make_record):
    quote = "Lumora does not send codes by text message."
    record = make_record("two-factor-v1-c01", text=quote, flagged=[])
    sentence = "Lumora sends codes by text message to users without an authenticator app."
    found = support_span(significant_terms(sentence, DEFAULT), record, tokenizer=DEFAULT)
    assert found is not None
    span, held = found
    assert bound_problems(
        1, read_claims(sentence, DEFAULT), span, record, names=read_names(sentence, DEFAULT), held=held,
        tokenizer=DEFAULT, sentence=sentence,
    ) != []


def test_an_identifier_written_against_its_digits_is_named_by_its_own_quote(make_record):
    chunk = "To make a random UUID, call uuid.uuid4(); mail servers that accept it set enable_SMTPUTF8."

    assert checked(chunk, chunk, make_record) == []  # the digits are a number of their own; the name still holds
    assert checked("To make a random UUID, call uuid.uuid5().", chunk, make_record) == ["[1] states 4, not 5"]
    assert checked("To make a random UUID, call uuid.uuid_4().", chunk, make_record) != []


def test_a_negation_word_in_capitals_is_no_name_the_span_must_hold(make_record):
    chunk = "Specifying OWNED BY NONE removes any existing association of the sequence."

    assert checked(chunk, chunk, make_record) == []
