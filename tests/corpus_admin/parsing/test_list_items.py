"""Every text format marks the blocks of list items as ordered or unordered (Block.list_item); other blocks are not."""
import docx
import pytest

from corpus_admin.chunking import chunk_document, stored_sentences
from corpus_admin.parsing.document import ORDERED, UNORDERED
from corpus_admin.selectors import sentence_spans
from corpus_admin.testing import blocks, parse
from tests.corpus_admin.parsing.test_word import saved

MARKDOWN = "# Reset\n\nTo reset it:\n\n1. Open Settings. Pick Security.\n2. Click Reset.\n\n- A bullet item.\n\nDone.\n"
TEXT = "To reset it:\n\n1. Open Settings. Pick Security.\n2. Click Reset.\n\n- A bullet item.\n\nDone.\n"
RST = "Reset\n=====\n\nTo reset it:\n\n#. Open Settings. Pick Security.\n#. Click Reset.\n\n- A bullet item.\n\nDone.\n"
HTML = ("<h1>Reset</h1><p>To reset it:</p><ol><li>Open Settings. Pick Security.</li><li>Click <b>Reset</b>.</li></ol>"
        "<ul><li>A bullet item.</li></ul><p>Done.</p>")
EXPECTED = [("To reset it:", ""), ("Open Settings. Pick Security.", ORDERED), ("Click Reset.", ORDERED),
            ("A bullet item.", UNORDERED), ("Done.", "")]


@pytest.mark.parametrize(("name", "text"), [("a.md", MARKDOWN), ("a.txt", TEXT), ("a.rst", RST), ("a.html", HTML)])
def test_list_items_are_marked_with_their_lists_kind(name: str, text: str) -> None:
    found = [(block.text, block.list_item) for block in blocks(parse(name, text.encode()))]
    assert found == EXPECTED


def test_a_word_documents_numbered_and_bulleted_paragraphs_are_list_items() -> None:
    document = docx.Document()
    document.add_paragraph("To reset it:")
    document.add_paragraph("Open Settings.", style="List Number")
    document.add_paragraph("A bullet item.", style="List Bullet")
    found = [(block.text, block.list_item) for block in blocks(parse("a.docx", saved(document)))]
    assert found == [("To reset it:", ""), ("Open Settings.", ORDERED), ("A bullet item.", UNORDERED)]


def test_code_in_a_list_item_is_not_a_list_item() -> None:
    found = blocks(parse("a.md", b"- Run this:\n\n  ```\n  make setup\n  ```\n"))
    assert [(block.code, block.list_item) for block in found] == [(False, UNORDERED), (True, "")]


def test_stored_sentences_keep_the_list_and_item_and_read_back_the_same() -> None:
    (draft,) = chunk_document(parse("a.md", MARKDOWN.encode()))
    stored = stored_sentences(draft.sentences)
    by_text = {draft.text[s["start"]:s["end"]]: (s.get("list"), s.get("item")) for s in stored}
    assert by_text == {"To reset it:": (None, None), "Open Settings.": (ORDERED, 5), "Pick Security.": (ORDERED, 5),
                       "Click Reset.": (ORDERED, 6), "A bullet item.": (UNORDERED, 8), "Done.": (None, None)}
    assert sentence_spans(stored) == draft.sentences


def test_sentences_stored_before_lists_were_marked_read_as_no_list() -> None:
    (span,) = sentence_spans([{"start": 0, "end": 5, "line": 1}])
    assert (span.list_item, span.item) == ("", 0)
