"""Which shown sentences are list items (§6 `sentence.list_item`): as the generator wrote them, or as the text model
stored the sentence they quote."""
import re
from collections.abc import Mapping, Sequence

from answers.pipeline.events import ChunkRef, ListItem
from answers.pipeline.spans import chunk_sentences
from answers.pipeline.text.markup import ORDERED, PlainSentence
from answers.pipeline.types import Block

_NOT_WORDS = re.compile(r"\W+")


def sentence_list_item(
    sentence: PlainSentence, shown: str, citations: Sequence[ChunkRef], blocks: Mapping[int, Block]
) -> ListItem | None:
    """The list item a shown sentence stands in: the generator's ("1. ", "- "), else that of the stored list item's
    sentence that one of its citations' spans holds and the shown text repeats word for word; None for neither."""
    if sentence.list_item:
        return ListItem(sentence.list_item == ORDERED, f"answer-{sentence.item}")
    words = _words(shown)
    for ref in citations:
        block = blocks.get(ref.n)
        if block is None or ref.span is None:
            continue
        stored = chunk_sentences(block.record)
        for number in ref.span.sentences:
            span = stored[number - 1] if 0 < number <= len(stored) else None
            if span is not None and span.list_item and _words(block.record.text[span.start : span.end]) == words:
                return ListItem(span.list_item == ORDERED, f"{block.record.chunk_id}:{span.item}")
    return None


def _words(text: str) -> str:
    return _NOT_WORDS.sub(" ", text).strip().casefold()
