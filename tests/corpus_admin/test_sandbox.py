"""The parse worker: same results as parsing inline, and a file that breaks a limit fails alone with a reason.

The parse worker imports this module to run the parsers below (`parser=f"{__name__}:..."`). It has no Django,
so Django is only imported inside the tests that need the database.
"""
import os
import select
import signal
import subprocess
import tempfile
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from corpus_admin.parsing import RejectedFile
from corpus_admin.sandbox import (
    ChunkedFile,
    ParseOptions,
    ParsePool,
    ParserFailed,
    chunk_file,
    parse_and_chunk,
)
from corpus_admin.testing import docx_bytes, pdf_bytes, pptx_bytes, scanned_pdf_bytes, xlsx_bytes

LIMITS = {"max_bytes": 20 * 1024 * 1024, "max_tokens": 300, "overlap_tokens": 40}
MEMORY_MB = 1536
TOO_SLOW = "parsing took longer than 1 s; the file may be malformed or too complex"
TOO_SLOW_PDF = f"{TOO_SLOW}, or a scanned PDF with more pages than OCR reads in that time"
TOO_BIG = "parsing needed more than {} MB of memory; the file may be malformed or too complex"
NOTE = b"# Note\n\nThe office opens at nine.\n"


# --- parsers the worker runs in the tests below --------------------------------------------------------------


def hanging_parser(**_request) -> ChunkedFile:
    time.sleep(3600)
    raise AssertionError("unreachable")


def greedy_parser(**_request) -> ChunkedFile:
    hoard = []
    while True:
        hoard.append(bytearray(32 * 1024 * 1024))


def killed_parser(**_request) -> ChunkedFile:
    os.kill(os.getpid(), signal.SIGKILL)  # what the kernel's OOM killer does
    raise AssertionError("unreachable")


def buggy_parser(**_request) -> ChunkedFile:
    raise ValueError("a bug in the parser")


def child_hanging_parser(*, content: bytes, **_request) -> ChunkedFile:
    """Waits on a program that outlives the time limit, as tesseract does on a long scan; its pid goes to a file."""
    child = subprocess.Popen(["sleep", "3600"])
    Path(content.decode()).write_text(str(child.pid))
    child.wait()
    raise AssertionError("unreachable")


def temp_file_hanging_parser(*, content: bytes, **_request) -> ChunkedFile:
    """Leaves a temporary file as pytesseract does for a page it reads (named in the file the content names), then
    outlives the time limit, as tesseract does on a long scan."""
    with tempfile.NamedTemporaryFile(prefix="tess_", suffix="_input.PNG", delete=False) as page:
        page.write(b"a rendered page")
    Path(content.decode()).write_text(page.name)
    time.sleep(3600)
    raise AssertionError("unreachable")


def pid_parser(**_request) -> ChunkedFile:
    return ChunkedFile(media_type="text/plain", title=str(os.getpid()), drafts=())


def meeting_parser(*, content: bytes, **_request) -> ChunkedFile:
    """Leaves its pid in the folder named by the content and returns once two parsers have: two files at once meet,
    one after the other never do (the second waits for the first, which waits for it, until the time limit)."""
    folder = Path(content.decode())
    (folder / str(os.getpid())).touch()
    while len(list(folder.iterdir())) < 2:
        time.sleep(0.01)
    return pid_parser()


# --- helpers ---------------------------------------------------------------------------------------------------


def parse(file_name: str, content: bytes, **options) -> ChunkedFile:
    return parse_and_chunk(file_name=file_name, content=content, options=parse_options(**options))


def parse_options(**options) -> ParseOptions:
    return ParseOptions(**LIMITS, **{"timeout_s": 30, "memory_mb": MEMORY_MB, **options})


def rejection(file_name: str, content: bytes, **options) -> RejectedFile:
    with pytest.raises(RejectedFile) as caught:
        parse(file_name, content, **options)
    return caught.value


def raw_pdf(*, page_count: int, stream: bytes) -> bytes:
    """A PDF whose pages all draw the same content stream, given Flate-compressed."""
    kids = b" ".join(b"%d 0 R" % (5 + i) for i in range(page_count))
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R"
        b" /Resources << /Font << /F1 4 0 R >> >> >>"
    )
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, page_count),
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(stream), stream),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        *[page] * page_count,
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def many_page_pdf() -> bytes:
    """Under 10 KB, yet 50 pages of 12,000 text operations each: about 25 s of text extraction."""
    return raw_pdf(page_count=50, stream=zlib.compress(b"BT /F1 12 Tf 72 712 Td (Hello world) Tj ET\n" * 12_000))


def dense_html(*, sections: int) -> bytes:
    section = (
        "<div><h2>Section {i}</h2><p>The <code>SELECT</code> statement <a href='x{i}'>reads</a> rows. {more}</p>"
        "</div>\n"
    )
    body = "".join(section.format(i=i, more="Some <em>words</em> here. " * 10) for i in range(sections))
    return f"<html><body>{body}</body></html>".encode()


def assert_worker_still_parses() -> None:
    assert parse("note.md", NOTE).drafts[0].text == "The office opens at nine."


# --- same results ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("file_name", "content"),
    [
        ("guide.md", b"# Guide\n\n## Refunds\n\nRefunds take 5-7 days.\n\n## Hours\n\n" + b"Open late. " * 400),
        ("page.html", dense_html(sections=40)),
        ("notes.rst", b"Notes\n=====\n\nBackups run every 6 hours.\n\nRestores\n--------\n\nAsk the desk.\n"),
        ("manual.pdf", pdf_bytes("Chapter one says hello.", "Chapter two says goodbye.")),
        ("scan.pdf", scanned_pdf_bytes("Chapter one says hello.", "Chapter two says goodbye.")),  # OCR in the worker
        ("guide.docx", docx_bytes("Open late. " * 400)),
        ("deck.pptx", pptx_bytes(("Hours", "Open at nine."), ("Prices", "Standard costs $19."))),
        ("plans.xlsx", xlsx_bytes({"Plans": [["Plan", "Price"], ["Pro", "$49"]],
                                   "Seats": [["Plan", "Seats"], ["Pro", 5]]})),
        ("plans.csv", b"Plan,Price\n" + b"Standard,$19\n" * 200),
    ],
)
def test_file_parsed_in_the_worker_gives_the_same_chunks_as_inline(file_name, content):
    inline = chunk_file(file_name=file_name, content=content, **LIMITS)

    isolated = parse(file_name, content)

    assert isolated == inline and len(isolated.drafts) >= 2
    assert all(draft.sentences for draft in isolated.drafts)  # the text model crosses the pipe with the drafts
    if file_name.endswith(".pdf"):
        assert [draft.page for draft in isolated.drafts] == [1, 2]


def test_rejection_in_the_worker_names_the_file_and_reason():
    assert str(rejection("slides.key", b"hello")).startswith("slides.key: unsupported file type '.key'")


def test_parsing_runs_in_another_process_unless_isolation_is_off():
    assert parse("x.txt", b"x", parser=f"{__name__}:pid_parser").title != str(os.getpid())
    assert parse("x.txt", b"x", parser=f"{__name__}:pid_parser", isolated=False).title == str(os.getpid())


# --- limits ----------------------------------------------------------------------------------------------------


def test_parse_past_the_time_limit_is_killed_with_a_clear_reason_and_the_next_file_parses():
    started = time.monotonic()

    error = rejection("slow.md", b"x", parser=f"{__name__}:hanging_parser", timeout_s=1)

    assert str(error) == f"slow.md: {TOO_SLOW}"
    assert time.monotonic() - started < 10  # killed at the limit, not left to sleep
    assert_worker_still_parses()


def test_a_program_the_parse_started_dies_with_the_worker_at_the_time_limit(tmp_path):
    pid_file = tmp_path / "child.pid"
    parse("x.txt", b"x", parser=f"{__name__}:pid_parser")  # the worker imports this module before the clock starts

    error = rejection("scan.pdf", str(pid_file).encode(), parser=f"{__name__}:child_hanging_parser", timeout_s=1)

    assert str(error) == f"scan.pdf: {TOO_SLOW_PDF}"
    assert has_exited(int(pid_file.read_text()), within_s=5)
    assert_worker_still_parses()


def test_temporary_files_of_a_parse_killed_at_the_time_limit_are_removed(tmp_path):
    name_file = tmp_path / "temp.name"
    parse("x.txt", b"x", parser=f"{__name__}:pid_parser")  # the worker imports this module before the clock starts

    error = rejection("scan.pdf", str(name_file).encode(), parser=f"{__name__}:temp_file_hanging_parser", timeout_s=1)

    assert str(error) == f"scan.pdf: {TOO_SLOW_PDF}"
    left = Path(name_file.read_text())
    assert not left.exists() and not left.parent.exists()  # the file and the worker's own temporary folder
    assert_worker_still_parses()


def has_exited(pid: int, *, within_s: float) -> bool:
    """Wait until a process that is not our child exits (a zombie has exited), at most within_s."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        readable, _, _ = select.select([handle], [], [], within_s)
    finally:
        os.close(handle)
    return bool(readable)


def test_parse_beyond_the_memory_limit_fails_with_the_memory_reason_and_the_next_file_parses():
    error = rejection("greedy.md", b"x", parser=f"{__name__}:greedy_parser", memory_mb=256)

    assert str(error) == f"greedy.md: {TOO_BIG.format(256)}"
    assert_worker_still_parses()


def test_worker_killed_mid_parse_fails_that_file_with_the_memory_reason():
    error = rejection("killed.md", b"x", parser=f"{__name__}:killed_parser")

    assert str(error) == f"killed.md: {TOO_BIG.format(MEMORY_MB)}"
    assert_worker_still_parses()


def test_parser_bug_is_reported_as_a_failure_not_a_rejection():
    with pytest.raises(ParserFailed, match="ValueError: a bug in the parser"):
        parse("bug.md", b"x", parser=f"{__name__}:buggy_parser")

    assert_worker_still_parses()


# --- several workers at once -------------------------------------------------------------------------------------


def pool_parse(pool: ParsePool, file_name: str, content: bytes, **options) -> ChunkedFile | RejectedFile:
    try:
        return pool.parse_and_chunk(file_name=file_name, content=content, options=parse_options(**options))
    except RejectedFile as error:
        return error


def test_a_pool_parses_files_side_by_side_in_workers_of_their_own(tmp_path):
    def meet(name: str) -> ChunkedFile | RejectedFile:
        return pool_parse(pool, name, str(tmp_path).encode(), parser=f"{__name__}:meeting_parser", timeout_s=20)

    with ParsePool(2) as pool, ThreadPoolExecutor(2) as threads:
        first, second = threads.map(meet, ["a.txt", "b.txt"])

    assert isinstance(first, ChunkedFile) and isinstance(second, ChunkedFile)
    assert len({first.title, second.title, str(os.getpid())}) == 3  # two workers, neither of them this process


def test_a_file_past_the_time_limit_in_a_pool_fails_alone_and_the_other_parses_within_the_limits():
    with ParsePool(2) as pool, ThreadPoolExecutor(2) as threads:
        slow = threads.submit(pool_parse, pool, "slow.md", b"x", parser=f"{__name__}:hanging_parser", timeout_s=1)
        greedy = threads.submit(pool_parse, pool, "greedy.md", b"x", parser=f"{__name__}:greedy_parser",
                                memory_mb=256)
        slow_error, greedy_error = slow.result(), greedy.result()
        after = pool_parse(pool, "note.md", NOTE)

    assert str(slow_error) == f"slow.md: {TOO_SLOW}"
    assert str(greedy_error) == f"greedy.md: {TOO_BIG.format(256)}"
    assert isinstance(after, ChunkedFile) and after.drafts[0].text == "The office opens at nine."


# --- hostile files ----------------------------------------------------------------------------------------------


def test_tiny_pdf_with_many_heavy_pages_is_stopped_by_the_time_limit():
    content = many_page_pdf()
    assert len(content) < 10_000

    assert str(rejection("pages.pdf", content, timeout_s=1)) == f"pages.pdf: {TOO_SLOW_PDF}"
    assert_worker_still_parses()


def test_pdf_decompression_bomb_is_refused_by_pypdf_within_the_limits():
    spaces = zlib.compressobj(9)
    megabyte = b" " * (1024 * 1024)
    stream = b"".join(spaces.compress(megabyte) for _ in range(200)) + spaces.flush()  # 200 KB inflating to 200 MB

    error = rejection("bomb.pdf", raw_pdf(page_count=1, stream=stream))

    # pypdf stops inflating at 75 MB (pypdf.Configuration.zlib_maximum_output_length).
    assert str(error).startswith("bomb.pdf: unreadable PDF: page 1: Limit reached while decompressing")


def test_deeply_nested_html_parses_within_the_limits():
    depth = 100_000  # 2 s here; 200,000 take 6 s, both well inside the default 30 s
    content = b"<html><body>" + b"<div>" * depth + b"Deep text here." + b"</div>" * depth + b"</body></html>"

    assert [draft.text for draft in parse("deep.html", content).drafts] == ["Deep text here."]


def test_large_html_beyond_a_small_memory_budget_fails_with_the_memory_reason():
    error = rejection("big.html", dense_html(sections=20_000), memory_mb=64)

    assert str(error) == f"big.html: {TOO_BIG.format(64)}"
    assert_worker_still_parses()


# --- through ingestion ------------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "limit", "hostile", "reason"),
    [
        ("manual.pdf", {"RAG_PARSE_TIMEOUT_S": 1}, many_page_pdf, TOO_SLOW_PDF),
        ("manual.html", {"RAG_PARSE_MEMORY_MB": 64}, lambda: dense_html(sections=20_000), TOO_BIG.format(64)),
    ],
    ids=["time", "memory"],
)
def test_failed_parse_records_the_reason_and_keeps_the_served_version(settings, ingest, name, limit, hostile, reason):
    from corpus_admin.ingestion import FAILED, ingest_file
    from corpus_admin.models import Chunk, Source

    ingest(name, pdf_bytes("The manual says hello.") if name.endswith(".pdf") else b"<p>The manual says hello.</p>")
    for setting, value in limit.items():
        setattr(settings, setting, value)

    result = ingest_file(file_name=name, content=hostile())

    assert (result.outcome, result.error) == (FAILED, f"{name}: {reason}")
    source = Source.objects.get(original_name=name)
    assert (source.version, source.last_error) == (1, f"{name}: {reason}")
    assert [chunk.text for chunk in Chunk.objects.current().filter(source=source)] == ["The manual says hello."]
