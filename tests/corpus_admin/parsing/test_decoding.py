"""Bytes to text: binary content refused, byte order marks honoured, legacy encodings detected."""
import random

import pytest

from corpus_admin.testing import outline, parse, rejection

RANDOM_BYTES_WITHOUT_NUL = bytes(random.Random(7).choices(range(1, 256), k=4000))


@pytest.mark.parametrize(
    ("file_name", "content", "reason"),
    [
        ("nul.txt", b"looks like text\x00but is not", "binary content, not text"),
        ("elf.txt", b"\x7fELF\x02\x01\x01rest", "binary content, not text"),
        ("exe.md", b"MZ\x90\x00\x03\x00", "binary content, not text"),
        ("image.md", b"\x89PNG\r\n\x1a\nIHDR", "binary content, not text"),
        ("photo.txt", b"\xff\xd8\xff\xe0JFIF", "binary content, not text"),
        ("anim.rst", b"GIF89a....", "binary content, not text"),
        ("archive.html", b"PK\x03\x04\x14\x00", "binary content, not text"),
        ("paper.txt", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "binary content, not text"),
        ("noise.txt", RANDOM_BYTES_WITHOUT_NUL, "text is not valid UTF-8 and its encoding could not be detected"),
    ],
)
def test_binary_or_undecodable_content_is_rejected(file_name: str, content: bytes, reason: str) -> None:
    error = rejection(file_name, content)
    assert error.reason == reason
    assert str(error) == f"{file_name}: {reason}"


def test_latin1_text_decodes_via_detection() -> None:
    text = "Señor Muñoz habló con el niño en la estación. ¿Dónde está la biblioteca?"
    assert outline(parse("es.txt", text.encode("latin-1"))) == [((), [(1, text)])]


def test_cyrillic_legacy_encoding_decodes_via_detection() -> None:
    text = "Съешь же ещё этих мягких французских булок, да выпей чаю. Вчера мы ходили в магазин."
    assert outline(parse("ru.txt", text.encode("cp1251"))) == [((), [(1, text)])]


@pytest.mark.parametrize(
    "content",
    [
        "\ufeff# Título\nbody\n".encode(),
        "# Título\nbody\n".encode("utf-16"),
        "# Título\nbody\n".encode("utf-32"),
    ],
)
def test_byte_order_marks_are_honoured_and_stripped(content: bytes) -> None:
    document = parse("t.md", content)
    assert document.title == "Título"
    assert outline(document) == [(("Título",), [(2, "body")])]


def test_text_starting_with_mz_as_a_word_is_not_binary() -> None:
    assert outline(parse("mz.txt", b"MZ Corp annual report\n")) == [((), [(1, "MZ Corp annual report")])]
