"""Office files and a scanned PDF, built here, ingested and asked: each answer cites the right section, sheet,
slide or page (issue 15: "each answered with a citation to the right page, sheet or slide")."""
import io

import docx
import pptx
import pytest
from pptx.util import Inches

from answers.pipeline.events import AnswerDone, SentenceVerified
from answers.services import Caller, ask
from corpus_admin.ingestion import ingest_file
from corpus_admin.models import Chunk
from corpus_admin.testing import scanned_pdf_bytes, xlsx_bytes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def saved(document) -> bytes:
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def handbook_docx() -> bytes:
    document = docx.Document()
    document.add_heading("Shipping handbook", 0)
    document.add_heading("Delivery", 1)
    document.add_paragraph("Parcels leave the warehouse every weekday.")
    rows = document.add_table(rows=3, cols=2)
    for r, row in enumerate([["Service", "Delivery time"], ["Express domestic", "2 business days"],
                             ["Standard domestic", "5 business days"]]):
        for c, text in enumerate(row):
            rows.cell(r, c).text = text
    document.add_heading("Returns", 1)
    document.add_paragraph("Unworn items may be returned within 30 days of delivery.")
    return saved(document)


def pricing_pptx() -> bytes:
    deck = pptx.Presentation()
    plans = deck.slides.add_slide(deck.slide_layouts[1])
    plans.shapes.title.text = "Plans"
    plans.placeholders[1].text_frame.text = "The Standard plan costs $19 per month."
    support = deck.slides.add_slide(deck.slide_layouts[1])
    support.shapes.title.text = "Support"
    support.placeholders[1].text_frame.text = "Phone support comes with the Pro plan."
    storage = deck.slides.add_slide(deck.slide_layouts[5])  # title only
    storage.shapes.title.text = "Storage"
    table = storage.shapes.add_table(3, 3, Inches(1), Inches(2), Inches(6), Inches(2)).table
    for r, row in enumerate([["Plan", "Storage", "Devices"], ["Standard", "100 GB", "3"], ["Pro", "2 TB", "10"]]):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    return saved(deck)


def logistics_xlsx() -> bytes:
    return xlsx_bytes({
        "Shipping": [["Service", "Time", "Price"], ["International economy", "10 business days", "$25"],
                     ["International priority", "4 business days", "$40"]],
        "Returns": [["Item", "Return window", "Refund"], ["Shoes", "30 days", "full"],
                    ["Electronics", "14 days", "store credit"]],
    })


def warranty_scan() -> bytes:
    return scanned_pdf_bytes(
        "Returns\n\nUnworn items may be returned\nwithin 30 days of delivery.",
        "Warranty\n\nThe warranty on every kettle\nlasts 2 years from purchase.",
    )


@pytest.fixture
def office_corpus(filler):
    for name, content in [("handbook.docx", handbook_docx()), ("pricing.pptx", pricing_pptx()),
                          ("logistics.xlsx", logistics_xlsx()), ("warranty-scan.pdf", warranty_scan())]:
        result = ingest_file(file_name=name, content=content)
        assert not result.failed, result.error


async def cited_answer(question: str) -> tuple[str, list[Chunk]]:
    stream = await ask(caller=Caller(), question=question, channel="api")
    events = [event async for event in stream]
    done = events[-1]
    assert isinstance(done, AnswerDone) and done.status == "answered", events
    sentences = [event for event in events if isinstance(event, SentenceVerified)]
    ids = [ref.chunk_id for sentence in sentences for ref in sentence.citations]
    chunks = [chunk async for chunk in Chunk.objects.filter(chunk_id__in=ids).select_related("source")]
    return " ".join(sentence.text for sentence in sentences), chunks


@pytest.mark.parametrize(
    ("question", "fact", "file_name", "heading_path", "page"),
    [
        ("What is the delivery time for Express domestic?", "2 business days", "handbook.docx",
         ["Shipping handbook", "Delivery"], None),
        ("How much storage does the Pro plan include?", "2 TB", "pricing.pptx", ["Slide 3: Storage"], 3),
        ("What is the return window for electronics?", "14 days", "logistics.xlsx", ["Returns"], None),
        ("How long does the warranty on a kettle last?", "2 years", "warranty-scan.pdf", ["Page 2"], 2),
    ],
    ids=["docx-section", "pptx-slide", "xlsx-sheet", "scanned-pdf-page"],
)
async def test_the_answer_cites_the_right_section_slide_sheet_or_page(
    office_corpus, question, fact, file_name, heading_path, page
):
    text, chunks = await cited_answer(question)

    assert fact in text
    assert chunks and all(chunk.source.original_name == file_name for chunk in chunks)
    assert [(chunk.heading_path, chunk.page) for chunk in chunks] == [(heading_path, page)] * len(chunks)
