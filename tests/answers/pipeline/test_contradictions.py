"""A sentence saying the opposite of its span in other words ("hidden" for "appear", "later" for "earlier") is dropped
with the two words named; an opposite said of other words, or negated, is no contradiction."""
import pytest

from answers.pipeline.contradictions import contradiction_problems
from answers.pipeline.text.tokens import DEFAULT


@pytest.mark.parametrize(
    ("sentence", "span", "reason"),
    [
        ("Online-only folders are hidden from the Lumora web app.",
         "Online-only folders still appear in the Lumora web app.", "[1] says appear, not hidden"),
        ("Version history is the list of a file's later copies.",
         "Version history is the list of earlier copies of a file.", "[1] says earlier, not later"),
        ("Folder colours are shown in the web app only.",
         "Folder colours also appear in the mobile apps.", "[1] says also, not only"),
        ("By default, camera uploads also run over mobile networks.",
         "Camera uploads run only over Wi-Fi unless you change the setting.", "[1] says only, not also"),
        ("Two-factor authentication is optional for partner portal accounts.",
         "Partner portal accounts must use two-factor authentication.", "[1] says must, not optional"),
        ("A partner portal account is the same account as a normal Lumora account.",
         "Partner portal accounts are separate from normal Lumora accounts.", "[1] says separate, not same"),
        ("Closing the tab lets any unfinished upload carry on in the background.",
         "Closing the tab cancels any upload that has not finished.", "[1] says cancels, not carry on"),
        ("Partner discounts are left out when the floor is applied.",
         "The floor applies after every discount, including partner discounts.", "[1] says including, not left out"),
        ("Both data centres have staff on site during office hours only.",
         "Both data centres have staff on site at all times.", "[1] says at all times, not during office hours"),
        ("The classic sharing dialog is still offered next to the new Share dialog.",
         "The classic sharing dialog has been replaced by the new Share dialog.", "[1] says replaced, not still"),
        # The sentence's "erased" qualifies the file, its "kept" the history the span says is erased.
        ("A file's version history is kept even after the file is permanently erased.",
         "When a file is permanently erased, its version history is erased too.", "[1] says erased, not kept"),
        # Every form of a pair's words is read: "keeps" against "removes", "accepted" against "rejected".
        ("Signing out a phone keeps its offline files on it.",
         "Signing out a phone removes offline files from that phone.", "[1] says removes, not keeps"),
        ("Requests sent over plain HTTP are accepted as well.", "Requests sent over plain HTTP are rejected.",
         "[1] says rejected, not accepted"),
        # A day said as the week's end against its working days, a side, and a state of a link.
        ("The community team answers forum posts at weekends.",
         "The community team answers forum posts on working days.", "[1] says on working days, not at weekends"),
        ("The list opens in a panel on the left side of the screen.",
         "The list opens in a panel on the right side of the screen.", "[1] says right, not left"),
        ("Admins get reports of all expired share links.", "Reports of all active share links.",
         "[1] says active, not expired"),
        ("Uploads carry on when the workspace storage quota is full.",
         "Uploads are paused when the workspace storage quota is full.", "[1] says paused, not carry on"),
        ("Sync pauses are lifted manually after a restart.",
         "Sync pauses are lifted automatically after a restart.", "[1] says automatically, not manually"),
        # One thing put in place of another against both together.
        ("Two-factor authentication replaces the password with a code from an app.",
         "Two-factor authentication asks for a code from an app in addition to a password.",
         "[1] says in addition to, not replaces"),
        # Something of one's own against the same for everyone.
        ("Each member can set up shortcuts of their own.", "Shortcuts are the same for every member of a workspace.",
         "[1] says same, not their own"),
    ],
)
def test_an_opposite_of_the_same_words_is_named(sentence, span, reason):
    assert contradiction_problems(1, sentence, span, DEFAULT) == [reason]


@pytest.mark.parametrize(
    ("sentence", "span"),
    [
        # The opposite qualifies other words in the span: the older releases, not the versions kept.
        ("The web app supports the latest two versions of each browser.",
         "Older releases of the desktop app stop syncing. The web app supports the latest two versions of Chrome."),
        ("Online-only folders are not hidden in the web app.", "Online-only folders still appear in the web app."),
        # The span says both of the same words: "only" is borne out where it also says "only".
        ("Colours are shown only in the web app.", "Colours appear only in the web app, and all members see them."),
        ("Every dialog of the web app can be used with the keyboard alone.",
         "All dialogs in the web app can now be used with the keyboard only."),
        ("Earlier copies are listed before later ones.", "The list shows earlier copies first and later ones last."),
        ("Restoring a version keeps the newer versions.", "Restoring a version does not delete newer versions."),
    ],
)
def test_an_opposite_of_other_words_or_negated_is_no_contradiction(sentence, span):
    assert contradiction_problems(1, sentence, span, DEFAULT) == []
