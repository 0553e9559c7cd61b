"""The entry point: the extension picks the format; unsupported, empty and oversized files are refused by name."""
import pytest

from corpus_admin.parsing import SUPPORTED
from corpus_admin.testing import docx_bytes, parse, pdf_bytes, pptx_bytes, rejection, xlsx_bytes

MB = 1024 * 1024
ALL_EXTENSIONS = ".csv, .docx, .htm, .html, .markdown, .md, .pdf, .pptx, .rst, .txt, .xlsx"


@pytest.mark.parametrize(
    ("file_name", "content", "reason"),
    [
        ("report.odt", b"hello", f"unsupported file type '.odt' (supported: {ALL_EXTENSIONS})"),
        ("Makefile", b"all:", f"unsupported file type (no extension) (supported: {ALL_EXTENSIONS})"),
        ("empty.md", b"", "the file is empty"),
        ("blank.txt", b" \r\n\t\n  ", "the file is empty"),
        ("blank.html", b"\xef\xbb\xbf\n\n", "the file is empty"),
        ("headings.md", b"# Only\n\n## Headings\n", "the file has no body text (only headings or markup)"),
        ("shell.html", b"<html><head><title>App</title></head><body><script>x()</script></body></html>",
         "the file has no body text (only headings or markup)"),
    ],
)
def test_unsupported_empty_and_bodiless_files_are_rejected_by_name(file_name: str, content: bytes, reason: str) -> None:
    error = rejection(file_name, content)
    assert error.reason == reason
    assert str(error) == f"{file_name}: {reason}"


@pytest.mark.parametrize(
    ("size", "limit", "reason"),
    [
        (int(25.3 * MB), 20 * MB, "the file is 25.3 MB, over the 20 MB limit"),
        (20 * MB + 1, 20 * MB, "the file is 20,971,521 bytes, over the 20,971,520 byte limit"),
        (3 * MB, MB // 2, "the file is 3 MB, over the 0.5 MB limit"),
    ],
)
def test_file_over_the_size_limit_is_rejected_in_mb(size: int, limit: int, reason: str) -> None:
    assert rejection("big.txt", b"a" * size, max_bytes=limit).reason == reason


def test_file_exactly_at_the_size_limit_is_accepted() -> None:
    assert parse("edge.txt", b"a" * 100, max_bytes=100).line_count == 1


def test_size_is_checked_before_content() -> None:
    assert rejection("big.pdf", b"not a pdf at all", max_bytes=4).reason.startswith("the file is ")


@pytest.mark.parametrize(
    ("file_name", "base_name"),
    [
        ("../../etc/passwd.odt", "passwd.odt"),
        ("C:\\Users\\me\\Desktop\\notes.exe", "notes.exe"),
        ("/srv/uploads/x.zip", "x.zip"),
    ],
)
def test_rejection_names_only_the_base_name(file_name: str, base_name: str) -> None:
    error = rejection(file_name, b"x")
    assert error.file_name == base_name
    assert str(error).startswith(f"{base_name}: unsupported file type")


def test_parsed_document_keeps_only_the_base_name() -> None:
    assert parse("docs/sub\\Guide.MD", b"# G\ntext\n").file_name == "Guide.MD"


@pytest.mark.parametrize(("extension", "media_type"), sorted(SUPPORTED.items()))
def test_extension_decides_media_type_case_insensitively(extension: str, media_type: str) -> None:
    content = SAMPLES.get(extension, b"text\n")
    assert parse(f"FILE{extension.upper()}", content).media_type == media_type


# Formats whose content is not plain text lines: a small file of each.
SAMPLES = {
    ".pdf": pdf_bytes("text"),
    ".docx": docx_bytes("text"),
    ".pptx": pptx_bytes(("Title", "text")),
    ".xlsx": xlsx_bytes({"Sheet": [["a", "b"], ["text", "more"]]}),
    ".csv": b"a,b\ntext,more\n",
}
