"""Markdown: ATX and setext headings, fenced code, front matter."""
import pytest

from corpus_admin.testing import outline, parse


def test_markdown_heading_path_follows_nesting() -> None:
    source = b"""# Billing

Intro to billing.

## Refunds

Refunds take five days.
Partial refunds too.

### Card refunds
Cards get refunds in three days.

## Invoices
Invoices are monthly.

# Support
Call us.
"""
    assert outline(parse("guide.md", source)) == [
        (("Billing",), [(3, "Intro to billing.")]),
        (("Billing", "Refunds"), [(7, "Refunds take five days."), (8, "Partial refunds too.")]),
        (("Billing", "Refunds", "Card refunds"), [(11, "Cards get refunds in three days.")]),
        (("Billing", "Invoices"), [(14, "Invoices are monthly.")]),
        (("Support",), [(17, "Call us.")]),
    ]


def test_markdown_text_before_first_heading_has_empty_path() -> None:
    document = parse("notes.md", b"Preamble line.\n\n# Title\nBody.\n")
    assert outline(document) == [((), [(1, "Preamble line.")]), (("Title",), [(4, "Body.")])]


@pytest.mark.parametrize(
    ("source", "title"),
    [
        (b"## Setup\ntext\n# Real Title\nmore\n# Second\nx\n", "Real Title"),
        (b"## Only level two\ntext\n", None),
        (b"Hand Book\n=========\ntext\n", "Hand Book"),
        (b"# Closed heading ##\ntext\n", "Closed heading"),
    ],
)
def test_markdown_title_is_first_h1(source: bytes, title: str | None) -> None:
    assert parse("doc.md", source).title == title


@pytest.mark.parametrize("fence", ["```", "~~~", "````"])
def test_markdown_hash_lines_in_fenced_code_are_body_lines(fence: str) -> None:
    source = f"# Setup\n{fence}bash\n# install it\npip install x\n{fence}\nAfter code.\n".encode()
    assert outline(parse("setup.md", source)) == [
        (
            ("Setup",),
            [(2, f"{fence}bash"), (3, "# install it"), (4, "pip install x"), (5, fence), (6, "After code.")],
        ),
    ]


def test_markdown_fence_closes_only_on_matching_marker() -> None:
    source = b"# A\n````\n```\n# still code\n````\n# B\ntext\n"
    assert outline(parse("a.md", source)) == [
        (("A",), [(2, "````"), (3, "```"), (4, "# still code"), (5, "````")]),
        (("B",), [(7, "text")]),
    ]


def test_markdown_setext_headings_nest_like_atx() -> None:
    source = b"Guide\n=====\n\nWelcome.\n\nInstall\n-------\nRun the installer.\n\n### Linux\nUse apt.\n"
    document = parse("guide.markdown", source)
    assert outline(document) == [
        (("Guide",), [(4, "Welcome.")]),
        (("Guide", "Install"), [(8, "Run the installer.")]),
        (("Guide", "Install", "Linux"), [(11, "Use apt.")]),
    ]
    assert document.title == "Guide"


@pytest.mark.parametrize(
    "source",
    [
        b"# A\nIntro\n\n---\nafter rule\n",  # a rule after a blank line
        b"# A\nIntro\n- item\n---\nafter rule\n",  # a list item cannot be a setext heading
    ],
)
def test_markdown_dash_rule_that_is_not_setext_stays_body(source: bytes) -> None:
    document = parse("a.md", source)
    assert [section.heading_path for section in document.sections] == [("A",)]
    assert "---" in [line.text for line in document.sections[0].lines]


@pytest.mark.parametrize("line", [b"#hashtag is text", b"    # indented code", b"####### seven hashes"])
def test_markdown_lines_that_are_not_atx_headings_stay_body(line: bytes) -> None:
    assert outline(parse("a.md", b"# A\n" + line + b"\n")) == [(("A",), [(2, line.decode())])]


def test_markdown_front_matter_is_skipped_and_gives_fallback_title() -> None:
    source = b'---\ntitle: "Refund Policy"\nauthor: me\n---\nBody text.\n\n## Details\nMore.\n'
    document = parse("policy.md", source)
    assert outline(document) == [((), [(5, "Body text.")]), (("Details",), [(8, "More.")])]
    assert document.title == "Refund Policy"
