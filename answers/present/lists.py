"""Where each shown sentence of an answer goes on the page: in a paragraph of its own, or in an item of a list.

Consecutive sentences that name the same list item are one `<li>`; consecutive list items of one kind are one `<ol>`
(numbered) or `<ul>`. The list and the item are named by the place of their first sentence in the answer, so the
fragments of a streamed answer can append to them as sentences arrive. A list needs two items: an answer that quotes
one item of a list (one sentence, or an item's sentences alone) reads as prose, so the sentences of a first item are
held (`ListPlacer.add`) until a second item opens the list or anything else shows they stand alone
(`ListPlacer.flush`).
"""
from dataclasses import dataclass

from answers.pipeline.events import AnswerDone, AnswerFailed, AnswerRefused, SentenceVerified

# The events after which no sentence of the answer follows: a held first item shows as prose before them (a dropped
# sentence, shown to nobody, does not end a list).
ENDS_HELD_ITEMS = (AnswerDone, AnswerFailed, AnswerRefused)


@dataclass(frozen=True)
class Placement:
    """A list item sentence's place: its list's tag and id number, its item's id number, and whether it opens them."""

    tag: str  # "ol" or "ul"
    list_at: int
    item_at: int
    opens_list: bool
    opens_item: bool


class ListPlacer:
    """Places the sentences of one answer in order (one placer per answer)."""

    def __init__(self) -> None:
        self._list: tuple[str, int] | None = None  # the open list's tag and the position of its first sentence
        self._item: tuple[str, int] | None = None  # the open item's name and the position of its first sentence
        self._held: list[tuple[SentenceVerified, int]] = []  # a first item's sentences, until a second item comes

    def add(self, sentence: SentenceVerified, position: int) -> list["Placed"]:
        """The sentences ready to show once the sentence at `position` arrived, in order, with their places: none
        while a possible list has one item so far; its sentences as list items once a second item comes."""
        listed = sentence.list_item
        if self._held:
            first = self._held[0][0].list_item
            assert first is not None
            if listed is not None and listed.ordered == first.ordered:
                if listed.item == first.item:
                    self._held.append((sentence, position))  # more of the first item
                    return []
                held, self._held = self._held, []  # a second item: the list is a list
                return [(s, p, self.place(s, p)) for s, p in held] + [(sentence, position,
                                                                        self.place(sentence, position))]
            return self.flush() + self.add(sentence, position)
        opens = listed is not None and (self._list is None or self._list[0] != ("ol" if listed.ordered else "ul"))
        if opens:
            self._held.append((sentence, position))
            return []
        return [(sentence, position, self.place(sentence, position))]

    def flush(self) -> list["Placed"]:
        """The held sentences of a list with one item, as prose: the answer ended or moved on without a second."""
        held, self._held = self._held, []
        self._list = self._item = None
        return [(s, p, None) for s, p in held]

    def place(self, sentence: SentenceVerified, position: int) -> Placement | None:
        """Where the sentence at `position` (1, 2, ...) goes: None for a paragraph of its own (which ends a list)."""
        listed = sentence.list_item
        if listed is None:
            self._list = self._item = None
            return None
        tag = "ol" if listed.ordered else "ul"
        opens_list = self._list is None or self._list[0] != tag
        if opens_list:
            self._list, self._item = (tag, position), None
        opens_item = self._item is None or self._item[0] != listed.item
        if opens_item:
            self._item = (listed.item, position)
        assert self._list is not None and self._item is not None
        return Placement(tag, self._list[1], self._item[1], opens_list, opens_item)


Placed = tuple[SentenceVerified, int, Placement | None]  # a sentence ready to show, its position, its place
