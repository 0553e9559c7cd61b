"""An answer's list item sentences are placed in one <ol> or <ul>, a list item's sentences in one <li>, with the
sentence text escaped (never the document's HTML)."""
from answers.pipeline.events import ChunkRef, ListItem, SentenceVerified
from answers.present.fragments import render_event
from answers.present.lists import ListPlacer, Placement
from tests.answers.present.test_fragments import Elements

CITED = (ChunkRef(1, "reset-v1-c01", "Reset guide", None),)


def said(text: str, item: ListItem | None = None) -> SentenceVerified:
    return SentenceVerified(text, CITED, item)


def test_consecutive_items_of_one_kind_are_one_list_and_an_items_sentences_one_item():
    placer = ListPlacer()
    answer = [said("Intro."), said("Open Settings.", ListItem(True, "a")), said("Pick Security.", ListItem(True, "a")),
              said("Click Reset.", ListItem(True, "b")), said("A bullet.", ListItem(False, "c")), said("Done.")]
    placed = [placer.place(sentence, position) for position, sentence in enumerate(answer, start=1)]
    assert placed == [
        None,
        Placement("ol", 2, 2, opens_list=True, opens_item=True),
        Placement("ol", 2, 2, opens_list=False, opens_item=False),
        Placement("ol", 2, 4, opens_list=False, opens_item=True),
        Placement("ul", 5, 5, opens_list=True, opens_item=True),
        None,
    ]


def test_a_paragraph_between_two_lists_ends_the_first():
    placer = ListPlacer()
    placer.place(said("One.", ListItem(True, "a")), 1)
    placer.place(said("Between."), 2)
    assert placer.place(said("Two.", ListItem(True, "b")), 3) == Placement("ol", 3, 3, True, True)


def test_the_fragments_open_the_list_then_append_items_then_sentences_to_an_item():
    opening = Elements(render_event("t1", said("Open <b>Settings</b>."), position=1,
                                    placement=Placement("ol", 1, 1, opens_list=True, opens_item=True)))
    assert opening.find("div", id="answer-t1", **{"hx-swap-oob": "beforeend"})
    assert opening.find("ol", id="list-t1-1") and opening.find("li", id="item-t1-1")
    assert not opening.find("b")  # the text is escaped, never markup
    item = Elements(render_event("t1", said("Click Reset."), position=2, placement=Placement("ol", 1, 2, False, True)))
    assert item.find("div", **{"hx-swap-oob": "beforeend:#list-t1-1"}) and item.find("li", id="item-t1-2")
    more = Elements(render_event("t1", said("Confirm."), position=3, placement=Placement("ol", 1, 2, False, False)))
    assert more.find("div", **{"hx-swap-oob": "beforeend:#item-t1-2"}) and not more.find("li", id="item-t1-2")
    assert more.find("p", **{"class": "sentence"})


def test_a_bulleted_list_is_a_ul():
    fragment = Elements(render_event("t1", said("A bullet."), position=1, placement=Placement("ul", 1, 1, True, True)))
    assert fragment.find("ul", id="list-t1-1") and not fragment.find("ol")


def test_an_answer_quoting_one_item_of_a_list_reads_as_prose():
    placer = ListPlacer()
    assert placer.add(said("Open Settings.", ListItem(True, "a")), 1) == []  # held: a list needs two items
    held = placer.add(said("Pick Security.", ListItem(True, "a")), 2)  # the same item: still one
    assert held == [] and [placement for _, _, placement in placer.flush()] == [None, None]


def test_a_second_item_opens_the_list_with_the_first_and_a_paragraph_releases_one_item_as_prose():
    placer = ListPlacer()
    first, second = said("Open Settings.", ListItem(True, "a")), said("Click Reset.", ListItem(True, "b"))
    assert placer.add(first, 1) == []
    assert placer.add(second, 2) == [(first, 1, Placement("ol", 1, 1, True, True)),
                                     (second, 2, Placement("ol", 1, 2, False, True))]
    assert placer.add(said("Then a third.", ListItem(True, "c")), 3)[0][2] == Placement("ol", 1, 3, False, True)
    alone, after = said("A bullet.", ListItem(False, "d")), said("Done.")
    placer.add(said("Between."), 4)
    assert placer.add(alone, 5) == []
    assert placer.add(after, 6) == [(alone, 5, None), (after, 6, None)]
    assert placer.flush() == []
