"""Negations said without a negation word are written with one, the same way in a sentence and its span."""
import pytest

from answers.pipeline.text.negating import reword_negations


@pytest.mark.parametrize(
    ("text", "other", "reworded"),
    [
        ("Items are left out of syncing.", "", "Items are not syncing."),
        ("The plan omits phone support.", "", "The plan does not include phone support."),
        ("Prices exclude tax.", "", "Prices does not include tax."),
        ("The free plan lacks version history.", "", "The free plan has no version history."),
        ("The app refuses to open the file.", "", "The app does not open the file."),
        ("Users are unable to upload files.", "", "Users are not able to upload files."),
        ("Restoring keeps newer versions.", "Restoring does not delete newer versions.",
         "Restoring does not delete newer versions."),
        ("Lumora blocks passwords that contain the word Lumora.", "A password may not contain it.",
         "Lumora passwords that not contain the word Lumora."),
        ("Folders that are not selected stay online only.", "", "Folders that are not selected, stay online only."),
        ("View-only links stop visitors from downloading.", "Visitors cannot download files.",
         "View-only links visitors not downloading."),
        ("Emptied files stop counting toward storage.", "They do not count toward storage.",
         "Emptied files not counting toward storage."),
        ("Neither you nor support can recover them.", "", "you and support can not recover them."),
        ("Nobody from support will ask for your password.", "", "support will not ask for your password."),
        ("None of your last three passwords can be used.", "", "your last three passwords can not be used."),
        ("Nobody, not even support, can recover it.", "", "anyone and support can not recover it."),
        # A word negating its stem by its form, where the other text writes the stem.
        ("The data centres are unstaffed at night.", "Both data centres have staff on site.",
         "The data centres are not staffed at night."),
        ("Post-mortems are blameless.", "Post-mortems do not blame anyone.", "Post-mortems are no blame."),
        ("The file is non-editable.", "Nobody can edit the file.", "The file is not editable."),
    ],
)
def test_a_negation_said_another_way_is_written_with_a_negation_word(text, other, reworded):
    assert reword_negations(text, other) == reworded


@pytest.mark.parametrize(
    ("text", "other"),
    [
        ("Restoring keeps newer versions.", "Restoring saves a new version."),  # no "not delete" to agree with
        # The text says the verb itself: it is read word for word.
        ("Restoring keeps newer versions and deletes drafts.", "Restoring does not delete newer versions."),
        ("Lumora blocks passwords that leak.", "Passwords that leak are blocked."),  # said with the verb both times
        ("Files that are not synced to desktop stay online.", ""),  # the negation goes on past "to"
        ("A reset link stops working after an hour.", "Reset links expire after one hour."),  # no "not work" there
        ("An admin can unlock a member.", "Members are locked out."),  # "un-" of a verb undoes, it does not negate
        ("Storage is unlimited.", "Storage is unlimited on Business."),  # both write the word: read as written
        ("The data centres are unstaffed at night.", "Guards patrol at night."),  # no stem to compare it with
    ],
)
def test_a_text_is_left_as_written_where_no_rule_applies(text, other):
    assert reword_negations(text, other) == text
