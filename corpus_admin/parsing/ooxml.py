"""Office Open XML packages (DOCX, PPTX, XLSX): is the upload the kind of package its extension claims?

Each is a zip archive whose `[Content_Types].xml` names the type of its main part; that type, not the extension,
says what the file is. Library errors while reading a package become a short rejection reason.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from lxml import etree

from corpus_admin.parsing.rejection import Reject

_OOXML: Final = "application/vnd.openxmlformats-officedocument."
WORD: Final = _OOXML + "wordprocessingml.document.main+xml"
SLIDES: Final = _OOXML + "presentationml.presentation.main+xml"
WORKBOOK: Final = _OOXML + "spreadsheetml.sheet.main+xml"

# What each main-part type is, to say what a misnamed file really holds.
_KINDS: Final[dict[str, str]] = {
    WORD: "a Word document (.docx)",
    SLIDES: "a PowerPoint presentation (.pptx)",
    WORKBOOK: "an Excel workbook (.xlsx)",
    _OOXML + "wordprocessingml.template.main+xml": "a Word template (.dotx)",
    _OOXML + "presentationml.slideshow.main+xml": "a PowerPoint slide show (.ppsx)",
    _OOXML + "presentationml.template.main+xml": "a PowerPoint template (.potx)",
    _OOXML + "spreadsheetml.template.main+xml": "an Excel template (.xltx)",
    "application/vnd.ms-word.document.macroEnabled.main+xml": "a macro-enabled Word document (.docm)",
    "application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml": "a macro-enabled presentation (.pptm)",
    "application/vnd.ms-excel.sheet.macroEnabled.main+xml": "a macro-enabled Excel workbook (.xlsm)",
}
_OLE_MAGIC: Final = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_CONTENT_TYPES: Final = "[Content_Types].xml"
_CONTENT_TYPES_MAX_BYTES: Final = 1024 * 1024
# What zipfile raises on a damaged archive: bad headers, corrupt deflate data, unknown compression methods.
_DAMAGED: Final = (zipfile.BadZipFile, zlib.error, OSError, ValueError, EOFError, NotImplementedError)


def check_package(*, content: bytes, main_type: str) -> None:
    """Reject content that is not an Office Open XML package whose main part has `main_type`."""
    wanted = _KINDS[main_type]
    if content.startswith(_OLE_MAGIC):
        raise Reject(f"an old binary Office file (.doc, .xls or .ppt), not {wanted}; save it in the newer format")
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
    except _DAMAGED:
        raise Reject(f"not {wanted} (the content is not a zip archive)") from None
    with archive:
        found = _main_types(archive, wanted=wanted)
    if main_type in found:
        return
    others = [_KINDS[kind] for kind in found if kind in _KINDS]
    if others:
        raise Reject(f"the file is {others[0]}, not {wanted}")
    raise Reject(f"not {wanted} (a zip archive of another kind)")


@contextmanager
def unreadable(kind: str) -> Iterator[None]:
    """Turn what a reading library raises on a malformed file into a rejection: "unreadable DOCX: <why>"."""
    try:
        yield
    except (Reject, MemoryError):  # MemoryError is the sandbox's to report, with its limit
        raise
    except Exception as error:  # the office libraries raise many exception types on malformed input
        raise Reject(f"unreadable {kind}: {short_reason(error)}") from None


def short_reason(error: Exception) -> str:
    """Summarise an exception in one short line."""
    message = " ".join(str(error).split()) or type(error).__name__
    return message if len(message) <= 120 else f"{message[:117]}..."


def _main_types(archive: zipfile.ZipFile, *, wanted: str) -> set[str]:
    """The content types that the package's `[Content_Types].xml` gives its parts."""
    try:
        info = archive.getinfo(_CONTENT_TYPES)
    except KeyError:
        raise Reject(f"not {wanted} (a zip archive without {_CONTENT_TYPES})") from None
    if info.file_size > _CONTENT_TYPES_MAX_BYTES:
        raise Reject(f"not {wanted} ({_CONTENT_TYPES} is implausibly large)")
    try:
        # A parser per call: lxml parsers are not to be shared between threads (parses run in the server's threads
        # when the sandbox is off). No entities are expanded and nothing is fetched.
        parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
        root = etree.fromstring(archive.read(info), parser=parser)
    except etree.XMLSyntaxError:
        raise Reject(f"not {wanted} (its {_CONTENT_TYPES} is not valid XML)") from None
    except _DAMAGED as error:
        raise Reject(f"a damaged zip archive: {short_reason(error)}") from None
    return {element.get("ContentType", "") for element in root if isinstance(element.tag, str)
            and etree.QName(element).localname == "Override"}
