"""The synonyms table: forms of one entry say the same thing; other words, and opposites, do not."""
import pytest

from answers.pipeline.text.synonyms import SYNONYMS, reword_phrases, same_meaning, synonym_terms, tabled_terms
from answers.pipeline.text.tokens import DEFAULT, significant_terms


def term(word: str) -> str:
    return significant_terms(word, DEFAULT)[0]


@pytest.mark.parametrize(
    ("said", "stated", "same"),
    [
        ("shared", "pooled", True),
        ("entire", "whole", True),
        ("lengthened", "extends", True),
        ("yearly", "annual", True),
        ("previous", "old", True),
        ("old", "older", True),
        ("partly", "partial", True),
        ("offered", "available", True),
        ("covers", "applies", True),
        ("shared", "whole", False),  # two entries
        ("open", "closed", False),  # opposites are never synonyms
        ("team", "team", True),
    ],
)
def test_forms_of_one_entry_are_the_same_meaning(said, stated, same):
    assert same_meaning(term(said), term(stated), DEFAULT) is same


def test_the_synonyms_of_terms_are_the_other_forms_of_their_entries():
    found = synonym_terms(frozenset(significant_terms("lengthen", DEFAULT)), DEFAULT)

    assert set(significant_terms("extended", DEFAULT)) <= found
    assert not set(significant_terms("lengthen shorten", DEFAULT)) & found


def test_the_tabled_terms_are_every_form_of_the_table_so_another_term_means_only_itself():
    tabled = tabled_terms(DEFAULT)

    assert {term(form) for group in SYNONYMS for form in group} == tabled
    assert term("team") not in tabled


@pytest.mark.parametrize(
    ("text", "reworded"),
    [
        ("An owner can put the trial on hold.", "An owner can pause the trial."),
        ("Newer versions stay put.", "Newer versions are kept."),
        ("Once the workspace exists, its region is fixed.", "Once the workspace exists, its region cannot be changed."),
        ("Tax is given back.", "Tax is refunded."),
        ("Each member can bring back files.", "Each member can restore files."),
        ("Nobody can get it back.", "Nobody can recover it."),
        ("Out of the box, a link runs out after a week.", "by default, a link expires after a week."),
        ("The file goes back into its folder.", "The file returns to its folder."),
        ("Restores wipe the newer versions out.", "Restores delete the newer versions."),
        ("The trial cannot be put on hold.", "The trial cannot be pause."),  # one term with "paused"
        ("Uploads are on hold until space is freed.", "Uploads are paused until space is freed."),
        ("Moving from Business down to Team applies", "a downgrade from Business to Team applies"),
        ("The API turns further requests away.", "The API reject further requests."),  # one term with "rejects"
        ("The app costs nothing.", "The app is free."),
        ("Each time staff access a system, it is logged.", "every staff access a system, it is logged."),
        ("A Sev-1 means a full outage.", "A Sev-1 is a full outage."),  # a definition's "means" is its "is"
        ("Sign in by means of a key.", "Sign in by means of a key."),
        ("Hold the line.", "Hold the line."),  # no phrase of the table
    ],
)
def test_a_phrase_of_the_table_is_said_as_its_word(text, reworded):
    assert reword_phrases(text) == reworded


def test_a_phrase_the_other_text_writes_too_is_left_as_written():
    quoted = "Lumora saves a version each time a file changes."

    assert reword_phrases(quoted, quoted) == quoted
    assert reword_phrases(quoted, "Every change saves a version.") == "Lumora saves a version every a file changes."
