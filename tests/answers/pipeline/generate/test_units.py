"""Answer units: stored sentences grouped with the context they need, quoting only stored words."""
from answers.pipeline.generate.units import block_units, quoted_sentences
from tests.answers.pipeline.generate.documents import document_blocks

GUIDE = """# Sessions

## SESSION_COOKIE_AGE

Default: 1209600 (2 weeks, in seconds).

The age of session cookies, in seconds.

## Resetting a password

To reset a password:

1. Open the sign-in page of the web app.
2. Click Forgot password under the form.
3. Follow the link that arrives by email.

## Tokens

Tokens are issued by the admin console. They expire after one hour.
"""


def units_of(heading: str, *, procedure: bool = False):
    block = next(b for b in document_blocks("guide.md", GUIDE) if b.record.heading_path[-1] == heading)
    return block_units(block, procedure=procedure)


def test_a_field_sentence_carries_its_heading_as_context_not_as_words():
    field = units_of("SESSION_COOKIE_AGE")[0]

    assert field.text == "Default: 1209600 (2 weeks, in seconds)."
    assert field.context == ("Sessions", "SESSION_COOKIE_AGE")


def test_a_sentence_that_depends_on_the_one_before_makes_a_pair():
    pairs = [u for u in units_of("Tokens") if u.kind == "pair"]

    assert [u.text for u in pairs] == ["Tokens are issued by the admin console. They expire after one hour."]


def test_consecutive_list_items_make_one_steps_unit_for_a_procedure_only():
    steps = [u for u in units_of("Resetting a password", procedure=True) if u.kind == "steps"]

    assert [[s.text for s in u.sentences] for u in steps] == [[
        "Open the sign-in page of the web app.",
        "Click Forgot password under the form.",
        "Follow the link that arrives by email.",
    ]]
    assert not [u for u in units_of("Resetting a password") if u.kind == "steps"]


def test_quoted_sentences_are_stored_sentences_less_their_list_marks():
    block = next(b for b in document_blocks("guide.md", GUIDE) if b.record.heading_path[-1] == "Resetting a password")
    stored = [block.record.text[s.start : s.end] for s in block.record.sentences]

    quoted = quoted_sentences(block)

    assert all(any(q.text in s for s in stored) for q in quoted)
    assert [q.listed for q in quoted] == [False, True, True, True]
