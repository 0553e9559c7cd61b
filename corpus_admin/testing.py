"""Helpers for tests of the corpus: documents built in memory."""
from fpdf import FPDF


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
