"""Turn uploaded files into sections of display-text blocks, or reject them with a reason.

This package's public face: callers import from `corpus_admin.parsing`, never from its modules. Inside, `dispatch`
checks an upload and picks the parser for its extension, `decoding` turns bytes into text, `markdown`
(markdown-it-py), `rst` (docutils, with `rst_sphinx`'s roles and directives), `html` (lxml; `flat_html` for what
libxml2 gives up on), `text`, `pdf` (pypdf; `ocr` reads its scanned pages), `word` (DOCX), `slides` (PPTX), `sheets`
(XLSX) and `delimited` (CSV; `ooxml` checks the office packages) each read one format's headings and blocks, `prose`,
`tables` and `paragraphs` build blocks the same way for all of them, and `document` holds what they produce.
"""

from corpus_admin.parsing.dispatch import SUPPORTED, base_name, parse_document
from corpus_admin.parsing.document import Block, ParsedDocument, Section
from corpus_admin.parsing.rejection import RejectedFile

__all__ = ["SUPPORTED", "Block", "ParsedDocument", "RejectedFile", "Section", "base_name", "parse_document"]
