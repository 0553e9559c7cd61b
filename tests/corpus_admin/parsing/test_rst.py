"""reStructuredText: title levels by adornment style, explicit markup dropped."""
from corpus_admin.testing import outline, parse


def test_rst_levels_follow_first_appearance_of_each_adornment_style() -> None:
    source = b"""=========
Handbook
=========

Intro.

Billing
=======

Billing body.

Refunds
-------

Refund body.

Support
=======

Support body.
"""
    document = parse("handbook.rst", source)
    # Overline+underline "=" and underline-only "=" are different styles, so Billing is level 2.
    assert outline(document) == [
        (("Handbook",), [(5, "Intro.")]),
        (("Handbook", "Billing"), [(10, "Billing body.")]),
        (("Handbook", "Billing", "Refunds"), [(15, "Refund body.")]),
        (("Handbook", "Support"), [(20, "Support body.")]),
    ]
    assert document.title == "Handbook"
    assert document.media_type == "text/x-rst"


def test_rst_underline_shorter_than_title_is_not_a_title() -> None:
    document = parse("a.rst", b"Title\n=====\n\nLonger title here\n---\nbody\n")
    assert outline(document) == [(("Title",), [(4, "Longer title here"), (5, "---"), (6, "body")])]


def test_rst_explicit_markup_lines_are_dropped_but_admonition_text_kept() -> None:
    source = (
        b"Guide\n=====\n\n.. _guide-label:\n\n.. note:: Back up first.\n"
        b"\n.. code-block:: python\n\n   print('x')\n"
    )
    assert outline(parse("guide.rst", source)) == [
        (("Guide",), [(6, "Back up first."), (10, "   print('x')")]),
    ]
