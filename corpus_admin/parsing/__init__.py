"""Turn uploaded files into sections of numbered text lines, or reject them with a reason.

This package's public face: callers import from `corpus_admin.parsing`, never from its modules. Inside, `dispatch`
checks an upload and picks the parser for its extension, `decoding` turns bytes into text, `markdown`, `rst`, `html`,
`text` and `pdf` each read one format's headings and body lines, `word` (DOCX), `slides` (PPTX), `sheets` (XLSX) and
`delimited` (CSV) read office formats into blocks (`ooxml` checks their packages, `tables` turns rows into
sentences), `ocr` reads scanned PDF pages, and `document` holds what they produce.
"""

from corpus_admin.parsing.dispatch import SUPPORTED, base_name, parse_document
from corpus_admin.parsing.document import Line, ParsedDocument, Section
from corpus_admin.parsing.rejection import RejectedFile

__all__ = ["SUPPORTED", "Line", "ParsedDocument", "RejectedFile", "Section", "base_name", "parse_document"]
