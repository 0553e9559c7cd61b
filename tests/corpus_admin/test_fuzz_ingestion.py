"""Property tests: whatever bytes arrive, ingestion ends in a clear rejection or a clean ingest (§2 promise 5, §4)."""
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from corpus_admin.ingestion import ADDED, FAILED, UNCHANGED, UPDATED, ingest_file
from corpus_admin.models import Source, SourceStatus
from corpus_admin.testing import docx_bytes, pdf_bytes, pptx_bytes, xlsx_bytes

pytestmark = pytest.mark.django_db

FUZZ = settings(max_examples=40, deadline=None)
EXTENSIONS = [".md", ".txt", ".rst", ".html", ".htm", ".pdf", ".markdown", ".docx", ".pptx", ".xlsx", ".csv", ""]
# A few names, so later examples in a test also update, re-ingest unchanged or fail on an existing source.
names = st.builds(lambda stem, extension: stem + extension, st.sampled_from(["notes", "Guide", "a b"]),
                  st.sampled_from(EXTENSIONS))


PDFS = [pdf_bytes("Refunds take five days."), pdf_bytes("Page one text.", "Page two text.", "Page three text.")]
OFFICE = {
    ".docx": docx_bytes("Refunds take five days.", "Invoices are issued monthly."),
    ".pptx": pptx_bytes(("Refunds", "Refunds take five days."), ("Invoices", "Issued monthly.")),
    ".xlsx": xlsx_bytes({"Refunds": [["Plan", "Refund window"], ["Standard", "5 days"], ["Pro", "30 days"]]}),
    ".csv": b"Plan,Refund window\nStandard,5 days\nPro,30 days\n",
}

texts = st.text(max_size=300)
contents = st.one_of(
    st.binary(max_size=600),
    texts.map(lambda text: text.encode("utf-8")),
    st.tuples(texts, st.sampled_from(["utf-16", "utf-32", "latin-1", "cp1252", "shift_jis"])).map(
        lambda pair: pair[0].encode(pair[1], errors="ignore")
    ),
    st.tuples(texts, st.integers(min_value=0, max_value=300)).map(
        lambda pair: (pair[0][: pair[1]] + "\x00" + pair[0][pair[1] :]).encode("utf-8")
    ),
    st.tuples(st.sampled_from(PDFS), st.floats(min_value=0.0, max_value=1.0)).map(
        lambda pair: pair[0][: int(len(pair[0]) * pair[1])]
    ),
    st.tuples(st.sampled_from(PDFS), st.integers(min_value=0), st.binary(min_size=1, max_size=8)).map(
        lambda parts: _splice(parts[0], parts[1], parts[2])
    ),
)


def _splice(content: bytes, at: int, junk: bytes) -> bytes:
    position = at % len(content)
    return content[:position] + junk + content[position + len(junk) :]


def assert_clear_rejection_or_clean_ingest(name: str, content: bytes) -> None:
    before = Source.objects.filter(original_name=name).first()
    current_before = list(before.chunks.current().values_list("chunk_id", flat=True)) if before else []

    result = ingest_file(file_name=name, content=content)

    assert result.outcome in (ADDED, UPDATED, UNCHANGED, FAILED)
    event(result.outcome)  # --hypothesis-show-statistics shows the mix
    source = Source.objects.filter(original_name=name).first()
    if result.outcome == FAILED:
        assert result.error.startswith(f"{name}: ") and "ingest failed" not in result.error, result.error
        if before is None:
            assert source is None  # a rejected new file stores nothing
        else:
            assert source.version == before.version and source.last_error == result.error
            assert list(source.chunks.current().values_list("chunk_id", flat=True)) == current_before
        return
    assert (source.status, source.version) == (SourceStatus.READY, result.version)
    if result.outcome != UNCHANGED:
        assert source.last_error == ""
    texts = list(source.chunks.current().values_list("text", flat=True))
    assert len(texts) == result.chunk_count > 0 and all(text.strip() for text in texts)


@FUZZ
@given(content=st.binary(max_size=2000))
def test_random_bytes_without_a_known_extension_are_rejected_by_name(content):
    assert_clear_rejection_or_clean_ingest("upload.bin", content)
    assert not Source.objects.exists()


@FUZZ
@given(name=names, content=contents)
def test_any_content_under_any_name_is_a_clear_rejection_or_a_clean_ingest(name, content):
    assert_clear_rejection_or_clean_ingest(name, content)


@FUZZ
@given(
    extension=st.sampled_from(sorted(OFFICE)),
    cut=st.floats(min_value=0.0, max_value=1.0),
    at=st.integers(min_value=0),
    junk=st.binary(max_size=8),
)
def test_damaged_office_file_or_csv_is_a_clear_rejection_or_a_clean_ingest(extension, cut, at, junk):
    whole = OFFICE[extension]
    damaged = _splice(whole, at, junk)[: max(1, int(len(whole) * cut))]
    assert_clear_rejection_or_clean_ingest(f"damaged{extension}", damaged)


@FUZZ
@given(pdf=st.sampled_from(PDFS), fraction=st.floats(min_value=0.0, max_value=0.99))
def test_truncated_pdf_is_a_clear_rejection_or_a_clean_ingest(pdf, fraction):
    assert_clear_rejection_or_clean_ingest("cut.pdf", pdf[: int(len(pdf) * fraction)])
