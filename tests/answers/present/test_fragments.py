"""The chat's fragments: each [n] is described by its escaped quote and links to its highlighted sentences; the
follow-up note above the answer."""
from html.parser import HTMLParser

from answers.pipeline.events import (
    AnswerRefused,
    BlocksIssued,
    ChunkRef,
    ConflictSide,
    QuestionResolved,
    SentenceVerified,
)
from answers.pipeline.types import SupportSpan
from answers.present.fragments import render_event

HOSTILE = """<script>alert('x')</script> & <img src=x onerror="alert(1)"> costs $19."""
SPAN = SupportSpan(0, len(HOSTILE), (3, 4), HOSTILE)


class Elements(HTMLParser):
    """Every start tag of a fragment with its attributes, in order."""

    def __init__(self, fragment: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(fragment)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def find(self, tag: str, **attrs: str) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if t == tag and all(a.get(k) == v for k, v in attrs.items())]


def sentence(position: int = 1, span: SupportSpan | None = SPAN) -> str:
    cited = ChunkRef(1, "pricing-v1-c02", "Pricing", None, span=span)
    return render_event("t1", SentenceVerified("Standard costs $19.", (cited,)), position=position)


def test_a_quote_from_a_document_is_escaped_in_the_fragment():
    fragment = sentence()

    assert "<script" not in fragment and "<img" not in fragment
    assert ("&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &lt;img src=x onerror=&quot;alert(1)&quot;&gt;"
            " costs $19.") in fragment
    assert Elements(fragment).find("script") == [] and Elements(fragment).find("img") == []


def test_the_citation_is_described_by_its_quote_and_links_to_its_sentences():
    elements = Elements(sentence())

    (link,) = elements.find("a", **{"class": "cite"})
    assert link["href"] == "/chunks/pricing-v1-c02/?s=3-4#s-3"
    (tooltip,) = elements.find("span", id=link["aria-describedby"])
    assert tooltip["role"] == "tooltip" and tooltip["class"] == "cite-quote"


def test_the_sources_list_keeps_linking_the_whole_passage():
    (source,) = Elements(sentence()).find("li", id="cite-t1-1")

    assert 'href="/chunks/pricing-v1-c02/"' in sentence() and source["class"].split() == ["passage", "cited"]


def test_two_sentences_citing_the_same_block_describe_it_with_different_ids():
    first, second = (Elements(sentence(position)).find("a", **{"class": "cite"})[0] for position in (1, 2))

    assert first["aria-describedby"] != second["aria-describedby"]


def test_a_citation_without_a_span_links_the_plain_page_and_shows_only_its_source():
    fragment = sentence(span=None)

    (link,) = Elements(fragment).find("a", **{"class": "cite"})
    assert link["href"] == "/chunks/pricing-v1-c02/"
    assert "cite-words" not in fragment and '<span class="cite-source">Pricing</span>' in fragment


def test_a_conflict_side_shows_its_escaped_quote_and_links_to_its_sentences():
    sides = (ConflictSide("Standard costs $19.", ChunkRef(1, "pricing-v1-c02", "Pricing", None, span=SPAN)),
             ConflictSide("Standard costs $25.", ChunkRef(2, "old-v1-c01", "Old prices", None)))

    fragment = render_event("t1", AnswerRefused("conflict", "The documents disagree.", sides))

    links = [a["href"] for a in Elements(fragment).find("a")]
    assert links == ["/chunks/pricing-v1-c02/?s=3-4#s-3", "/chunks/old-v1-c01/"]
    assert "In the passage: <q>&lt;script&gt;alert(" in fragment and "<script" not in fragment


def test_a_resolved_follow_up_says_what_is_answered_above_the_answer_escaped():
    fragment = render_event("t1", QuestionResolved("and <b>it</b>?", "How long do <script>x</script> refunds take?"))

    assert 'hx-swap-oob="beforebegin:#answer-t1"' in fragment
    assert 'id="resolved-t1"' in fragment and 'data-event="resolved"' in fragment
    assert "Answering: <q>How long do &lt;script&gt;x&lt;/script&gt; refunds take?</q>" in fragment
    assert "<script>" not in fragment


def test_the_sources_list_names_each_document_once_with_its_passages_under_it():
    blocks = (ChunkRef(1, "pricing-v1-c02", "<b>Pricing</b>", None), ChunkRef(2, "trash-v1-c01", "Trash", None),
              ChunkRef(3, "pricing-v1-c05", "<b>Pricing</b>", None))

    fragment = render_event("t1", BlocksIssued(blocks, 100))

    elements = Elements(fragment)
    assert len(elements.find("li", **{"class": "source-document"})) == 2
    assert fragment.count("&lt;b&gt;Pricing&lt;/b&gt;") == 1 and "<b>" not in fragment
    assert [li["id"] for li in elements.find("li", **{"class": "passage"})] == ["cite-t1-1", "cite-t1-3", "cite-t1-2"]
