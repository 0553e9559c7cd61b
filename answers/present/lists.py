"""Where each shown sentence of an answer goes on the page: in a paragraph of its own, or in an item of a list.

Consecutive sentences that name the same list item are one `<li>`; consecutive list items of one kind are one `<ol>`
(numbered) or `<ul>`. The list and the item are named by the place of their first sentence in the answer, so the
fragments of a streamed answer can append to them as sentences arrive.
"""
from dataclasses import dataclass

from answers.pipeline.events import SentenceVerified


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
