"""Helpers for tests of the corpus: documents built in memory, parsing them to compare or to see refused, and the
database task queue run here and now."""
from unittest import mock

from fpdf import FPDF

from corpus_admin.parsing import ParsedDocument, RejectedFile, parse_document

Outline = list[tuple[tuple[str, ...], list[tuple[int, str]]]]

_TEST_LIMIT = 20 * 1024 * 1024

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
IMMEDIATE_TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend", "QUEUES": ["default"]}}


def pdf_bytes(*pages: str, title: str | None = None, user_password: str | None = None) -> bytes:
    """A PDF with one page per text (an empty text leaves its page blank), optionally titled or encrypted."""
    pdf = FPDF()
    if title is not None:
        pdf.set_title(title)
    pdf.set_font("Helvetica", size=12)
    for text in pages:
        pdf.add_page()
        if text:
            pdf.multi_cell(0, 8, text)
    if user_password is not None:
        pdf.set_encryption(owner_password="owner", user_password=user_password)
    return bytes(pdf.output())


def parse(file_name: str, content: bytes, *, max_bytes: int = _TEST_LIMIT) -> ParsedDocument:
    """Parse `content` as an upload named `file_name`, under a 20 MB cap unless told otherwise."""
    return parse_document(file_name=file_name, content=content, max_bytes=max_bytes)


def outline(document: ParsedDocument) -> Outline:
    """A document's sections as (heading path, [(line number, text), ...]), to compare with a literal."""
    return [
        (section.heading_path, [(line.number, line.text) for line in section.lines]) for section in document.sections
    ]


def rejection(file_name: str, content: bytes, *, max_bytes: int = _TEST_LIMIT) -> RejectedFile:
    """The RejectedFile that parsing the upload raises; AssertionError if it is accepted."""
    try:
        parse(file_name, content, max_bytes=max_bytes)
    except RejectedFile as error:
        return error
    raise AssertionError(f"{file_name} was accepted, not rejected")


def run_queued_tasks() -> None:
    """Run every task queued in the database backend, in this process, as `ingest_worker --batch` does.

    The library's own worker loop, without the signal handlers its command installs (they would be pytest's), and
    without its closing of old connections: inside a test's transaction that would close the test's connection.
    """
    from django_tasks_db.management.commands import db_worker  # needs Django's apps; the sandbox imports this module

    worker = db_worker.Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="test-worker",
        excluded_queue_names=[],
    )
    with mock.patch.object(db_worker, "close_old_connections", lambda: None):
        worker.run()
