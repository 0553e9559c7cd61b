"""reStructuredText (docutils, with Sphinx's roles and directives): sections, display text, lines."""
import pytest

from corpus_admin.testing import blocks, outline, parse, texts


def rst(source: str) -> list[str]:
    return texts(parse("page.rst", source.encode()))


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


def test_a_wrapped_paragraph_is_one_block_whose_words_keep_their_lines() -> None:
    document = parse("a.rst", b"Title\n=====\n\nRefunds take five\nbusiness days after\napproval.\n")
    (block,) = blocks(document)
    assert (block.text, block.line_start, block.line_end) == (
        "Refunds take five business days after approval.", 4, 6)
    assert [block.line_at(block.text.index(word)) for word in ("five", "business", "approval")] == [4, 5, 6]


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("Defaults to :file:`registration/password_reset_email.html`",
         "Defaults to registration/password_reset_email.html"),
        ("See :ref:`the signals guide <topics-signals>`.", "See the signals guide."),
        ("Call :meth:`~django.db.models.Model.save` or :func:`!render`.", "Call save or render."),
        ("Set :setting:`DEBUG` and :setting:`SECRET_KEY`.", "Set DEBUG and SECRET_KEY."),
        ("Use :class:`~django.http.HttpResponse` from :mod:`django.http`.", "Use HttpResponse from django.http."),
        ("Read :doc:`/ref/settings` and :term:`project`.", "Read /ref/settings and project."),
        ("Run :djadmin:`migrate` with :option:`--noinput`.", "Run migrate with --noinput."),
        ("The :ttag:`url` tag and :tfilter:`date` filter.", "The url tag and date filter."),
        ("Lookups :lookup:`exact` and :fieldlookup:`iexact`.", "Lookups exact and iexact."),
        ("See :pep:`8`, :rfc:`2616` and :ticket:`1234`.", "See PEP 8, RFC 2616 and #1234."),
        ("Set :envvar:`DJANGO_SETTINGS_MODULE` for :program:`django-admin`.",
         "Set DJANGO_SETTINGS_MODULE for django-admin."),
        ("Raises :exc:`ValueError`; :data:`None`, :attr:`Field.null`.", "Raises ValueError; None, Field.null."),
        ("Fixed in :commit:`abc123` (:source:`django/db/models`).", "Fixed in abc123 (django/db/models)."),
        ("An :made-up-role:`unknown role` reads as text.", "An unknown role reads as text."),
        ("Plain ``literal``, *emphasis*, **strong** and `default`.", "Plain literal, emphasis, strong and default."),
        ("A `link <https://example.com>`_ and a footnote [#]_.", "A link and a footnote."),
        ("Escaped \\*stars\\* stay.", "Escaped *stars* stay."),
    ],
)
def test_roles_and_inline_markup_become_their_text(source: str, shown: str) -> None:
    assert rst(source) == [shown]


def test_field_lists_definition_lists_and_option_lists_keep_their_terms() -> None:
    source = """\
:Default: ``1209600`` (2 weeks, in seconds)
:Type: integer

Grace period
   Seven days after
   the renewal date.

-v, --verbose  Print every step.
"""
    document = parse("a.rst", source.encode())
    assert outline(document) == [((), [
        (1, "Default: 1209600 (2 weeks, in seconds)"),
        (2, "Type: integer"),
        (4, "Grace period: Seven days after the renewal date."),
        (8, "-v, --verbose: Print every step."),
    ])]


def test_literal_blocks_and_code_directives_are_code_at_their_own_lines() -> None:
    source = """\
Example::

    python manage.py migrate
    python manage.py runserver

.. code-block:: python
   :emphasize-lines: 1

   print("hello")

.. console::

    $ pip install Django

After.
"""
    document = parse("a.rst", source.encode())
    assert [(b.text, b.code, b.line_start, b.line_end) for b in blocks(document)] == [
        ("Example:", False, 1, 1),
        ("python manage.py migrate\npython manage.py runserver", True, 3, 4),
        ('print("hello")', True, 9, 9),
        ("$ pip install Django", True, 13, 13),
        ("After.", False, 15, 15),
    ]


def test_version_and_seealso_directives_put_their_label_before_the_text() -> None:
    source = """\
.. versionadded:: 5.0

    The ``usable`` argument was added.

.. versionchanged:: 4.2 The default is now 20.

.. deprecated:: 5.1

.. seealso:: The :doc:`signals guide </topics/signals>`.
"""
    assert rst(source) == [
        "Added in version 5.0: The usable argument was added.",
        "Changed in version 4.2: The default is now 20.",
        "Deprecated since version 5.1",
        "See also: The signals guide.",
    ]


def test_object_descriptions_put_their_signature_before_their_description() -> None:
    source = """\
.. class:: Paginator(object_list, per_page)

    Splits a list into pages.

.. attribute:: Field.null

    If ``True``, empty values are stored as ``NULL``.

.. django-admin:: migrate [app_label]
"""
    assert rst(source) == [
        "Paginator(object_list, per_page): Splits a list into pages.",
        "Field.null: If True, empty values are stored as NULL.",
        "django-admin migrate [app_label]",
    ]


def test_targets_are_dropped_and_admonitions_and_unknown_directives_keep_their_text() -> None:
    source = """\
.. _guide-label:

.. toctree::
   :hidden:

   intro

.. index:: single: refunds

.. setting:: REFUND_DAYS

.. highlight:: python

.. note:: Back up first.

.. warning::

   Deleting is final.

.. made-up-directive:: argument
   :some-option: 3

   Its content is kept.

.. glossary::

   refund
      Money sent back.

.. This is a comment.

|product| is fast.

.. |product| replace:: Lumora
"""
    assert rst(source) == [
        "Back up first.", "Deleting is final.", "Its content is kept.", "refund: Money sent back.", "Lumora is fast.",
    ]


def test_block_quotes_and_tables_read_as_sentences() -> None:
    source = """\
Intro paragraph.

    A quoted paragraph
    over two lines.

=================  ===============
Shipping method    Delivery time
=================  ===============
Express domestic   2 business days
Standard           5 business days
=================  ===============

+----------+---------+-------+
| Plan     | Price   | Seats |
+==========+=========+=======+
| Standard | $19     | 5     |
+----------+---------+-------+
"""
    document = parse("a.rst", source.encode())
    assert outline(document) == [((), [
        (1, "Intro paragraph."),
        (3, "A quoted paragraph over two lines."),
        (9, "Shipping method: Express domestic; Delivery time: 2 business days"),
        (10, "Shipping method: Standard; Delivery time: 5 business days"),
        (16, "Plan: Standard; Price: $19; Seats: 5"),
    ])]


@pytest.mark.parametrize(
    "source",
    [
        "Title\n=====\n\nText\n\nSub\n~~~\n\nMore\n\nSkip\n^^^^\n\nDeep\n---\n\nEnd.\n",  # inconsistent title levels
        ".. include:: /etc/passwd\n\n.. raw:: html\n\n   <script>x()</script>\n\nText.\n",
        "* a\n\n  * b\n\n" + "    " * 200 + "deep\n",
        ".. list-table::\n\n   * - broken\n  * - table\n",
        "`unterminated *markup and :role:`x\n\n.. image::\n",
        ".. csv-table:: From a file\n   :file: /etc/passwd\n\nAfter.\n",
        "x" * 20_000 + "\n\nA line over docutils' length limit.\n",
    ],
)
def test_odd_rst_never_fails_never_reads_files_and_keeps_its_text(source: str, capsys) -> None:
    document = parse("odd.rst", source.encode())
    text = "\n".join(texts(document))
    assert "root:" not in text and "<script>" not in text
    assert capsys.readouterr() == ("", "")  # docutils printed nothing


def test_a_toctree_is_the_list_of_pages_it_links_to_so_an_index_page_is_a_page() -> None:
    source = ("API Reference\n=============\n\n.. toctree::\n   :maxdepth: 1\n\n"
              "   applications\n   Checks <checks>\n   *\n")
    document = parse("index.txt", source.encode())
    assert outline(document) == [(("API Reference",), [(7, "applications"), (8, "Checks")])]


def test_a_title_docutils_refuses_for_its_level_still_heads_its_text() -> None:
    source = "Title\n=====\n\nText.\n\nSub\n---\n\nMore.\n\nDeeper\n~~~~~~\n\nDeep text.\n\nBack\n~~~~\n\nLast.\n"
    document = parse("a.rst", source.encode())
    assert [path for path, _ in outline(document)][:3] == [("Title",), ("Title", "Sub"), ("Title", "Sub", "Deeper")]
    assert "Last." in texts(document)


def test_rst_explicit_markup_lines_are_dropped_but_admonition_text_kept() -> None:
    source = (
        b"Guide\n=====\n\n.. _guide-label:\n\n.. note:: Back up first.\n"
        b"\n.. code-block:: python\n\n   print('x')\n"
    )
    assert outline(parse("guide.rst", source)) == [(("Guide",), [(6, "Back up first."), (10, "print('x')")])]
