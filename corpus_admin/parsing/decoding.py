"""Bytes to text: byte order marks, binary content, UTF-8, and the declared or detected encoding otherwise."""

from __future__ import annotations

import codecs
from typing import Final

from bs4.dammit import EncodingDetector
from charset_normalizer import from_bytes

from corpus_admin.parsing.rejection import Reject

_BINARY_MAGIC: Final = (b"%PDF", b"PK\x03\x04", b"\x7fELF", b"\x89PNG", b"GIF8", b"\xff\xd8\xff",
                        b"\x1f\x8b", b"7z\xbc\xaf\x27\x1c", b"Rar!\x1a\x07", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")
_UNICODE_BOMS: Final = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                        (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def decode_text(*, content: bytes, html: bool) -> str:
    """Decode text bytes, rejecting binary content and undetectable encodings."""
    text = _decode_unicode_bom(content=content)
    if text is None:
        if b"\x00" in content or _has_binary_magic(content):
            raise Reject("binary content, not text")
        text = _strict_decode(content=content, encoding="utf-8-sig")
    if text is None:
        text = _detect_and_decode(content=content, html=html)
    if "\x00" in text:
        raise Reject("binary content, not text")
    return text


def _decode_unicode_bom(*, content: bytes) -> str | None:
    """Decode UTF-16/32 text marked by a byte order mark; None when there is no such mark."""
    for bom, encoding in _UNICODE_BOMS:
        if content.startswith(bom):
            text = _strict_decode(content=content, encoding=encoding)
            if text is None:
                raise Reject("binary content, not text")
            return text
    return None


def _detect_and_decode(*, content: bytes, html: bool) -> str:
    """Decode non-UTF-8 text by its HTML declaration or by charset detection."""
    if html:
        declared = EncodingDetector.find_declared_encoding(content, is_html=True)
        if declared and (text := _strict_decode(content=content, encoding=declared)) is not None:
            return text
    # best() is None when every candidate reads as too chaotic (mean mess ratio over 0.2).
    match = from_bytes(content).best()
    # It can also fall back to a codec that does not decode the whole payload, so re-check.
    text = _strict_decode(content=content, encoding=match.encoding) if match else None
    if text is None:
        raise Reject("text is not valid UTF-8 and its encoding could not be detected")
    return text


def _strict_decode(*, content: bytes, encoding: str) -> str | None:
    """Decode with the named codec, or return None if it is unknown or does not fit."""
    try:
        return content.decode(encoding)
    except (LookupError, UnicodeDecodeError):
        return None


def _has_binary_magic(content: bytes) -> bool:
    """Tell whether the bytes start like a well-known binary format."""
    if content.startswith(_BINARY_MAGIC):
        return True
    # "MZ" alone could start a sentence; executables follow it with control bytes.
    return content.startswith(b"MZ") and any(byte < 0x09 for byte in content[2:64])
