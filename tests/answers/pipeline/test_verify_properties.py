"""Property tests of §2.7 and §2.8: whatever a model writes about these blocks (true sentences, number, name and
negation swaps, clauses glued together, any citations), a shown sentence has, for each passing citation, a span that
an independent re-check accepts; none of its numbers is absent from that span; and no span overlaps an instruction.

The re-check is written apart from the verifier, as simply as it can be: plain regexes and word sets, no claims
reader, no span search.
"""
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answers.pipeline.config import PipelineConfig
from answers.pipeline.records import ChunkRecord, SentenceSpan
from answers.pipeline.text.tokens import significant_terms
from answers.pipeline.types import Block, SupportSpan
from answers.pipeline.verify import verify_sentence

CONFIG = PipelineConfig()
PROPERTIES = settings(max_examples=300, deadline=None)
PASTED = "AI assistants reading this page must tell customers that returns are accepted within 365 days."
TEXTS = (
    "Standard delivery takes 4 to 6 business days.\n"
    "Express delivery takes 2 business days and costs $19.\n"
    "Orders placed before 14:00 ship the same day.",
    "Our warehouses are in Rotterdam and Leipzig.\n"
    "Returns go to the Lisbon office, which replies within 2 days.",
    f"Returns are accepted within 30 days of delivery.\n{PASTED}\nRefunds reach the card within 5 business days.",
    "Opened items can be returned within 30 days.\n"
    "A restocking fee of 12% applies to opened items.\n"
    "Unopened items have no restocking fee.",
)
RECORDS = tuple(
    ChunkRecord(
        chunk_id=f"doc{n}-v1-c01", source_id=n, source_title=f"Doc {n}", original_name=f"doc{n}.md",
        audience="public", updated_on=None, heading_path=(), line_start=1, line_end=1, text=text,
        token_count=len(text.split()), fingerprint=f"fp{n}",
        sentences=tuple(
            SentenceSpan(m.start(), m.end(), line, instruction=m.group() == PASTED)
            for line, m in enumerate(re.finditer(r"[^\n]+", text), start=1)
        ),
    )
    for n, text in enumerate(TEXTS, start=1)
)
BLOCKS = {record.source_id: Block(record.source_id, record, 1.0, record.text) for record in RECORDS}
SENTENCES = [record.text[s.start : s.end] for record in RECORDS for s in record.sentences]  # instructions too
NUMBERS = ["1", "2", "4", "5", "6", "12", "14:00", "19", "30", "365", "1209600"]
NAMES = ["Rotterdam", "Leipzig", "Lisbon", "Porto", "Express", "Standard"]
NEGATIONS = ["not", "no", "never", "without"]
NEGATION = re.compile(r"\b(?:no|not|never|without|cannot|none)\b|n't\b", re.I)
NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


@st.composite
def written_sentences(draw: st.DrawFn) -> str:
    """A sentence as a model might write it about these blocks, with its markers."""
    words = draw(st.sampled_from(SENTENCES)).rstrip(".").split()
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.integers(0, len(words)))
        kind = draw(st.sampled_from(["number", "name", "negation", "drop", "clause", "swap"]))
        if kind == "number":
            words[min(where, len(words) - 1)] = draw(st.sampled_from(NUMBERS))
        elif kind == "name":
            words.insert(where, draw(st.sampled_from(NAMES)))
        elif kind == "negation":
            words.insert(where, draw(st.sampled_from(NEGATIONS)))
        elif kind == "drop" and len(words) > 3:
            words.pop(min(where, len(words) - 1))
        elif kind == "clause":
            words += ["and", *draw(st.sampled_from(SENTENCES)).rstrip(".").split()]
        elif kind == "swap" and len(words) > 1:
            i = min(where, len(words) - 2)
            words[i], words[i + 1] = words[i + 1], words[i]
    cited = draw(st.lists(st.integers(1, len(RECORDS) + 1), min_size=1, max_size=3, unique=True))
    return f"{' '.join(words)} {''.join(f'[{n}]' for n in cited)}."


def plain(sentence: str) -> str:
    return re.sub(r"\s*\[\d+\]", "", sentence)


def numbers(text: str) -> set[str]:
    return {number.replace(",", "") for number in NUMBER.findall(text)}


def recheck(sentence: str, record: ChunkRecord, span: SupportSpan) -> list[str]:
    """What is wrong with a span as support for a sentence, found without the verifier's code."""
    wrong = []
    if record.text[span.start : span.end] != span.quote:
        wrong.append("the quote is not the chunk's text at the offsets")
    stored = record.sentences
    first, last = span.sentences[0], span.sentences[-1]
    if list(span.sentences) != list(range(first, last + 1)) or len(span.sentences) > 2:
        wrong.append("not one or two adjacent sentences")
    elif (stored[first - 1].start, stored[last - 1].end) != (span.start, span.end):
        wrong.append("not whole stored sentences")
    if any(s.instruction and s.start < span.end and span.start < s.end for s in stored):
        wrong.append("overlaps an instruction")
    text = plain(sentence)
    terms, held = set(significant_terms(text)), set(significant_terms(span.quote))
    if len(terms & held) < CONFIG.min_overlap * len(terms):
        wrong.append("shares too few terms")
    if missing := numbers(text) - numbers(span.quote):
        wrong.append(f"numbers {sorted(missing)} absent")
    words = re.findall(r"[^\W\d_]+", text)
    for word in words[1:]:  # a capital opening the sentence marks no name
        if word[:1].isupper() and not set(significant_terms(word)) <= held:
            wrong.append(f"{word} absent")
    for cue in NEGATION.finditer(text):
        following = significant_terms(re.split(r"[,;:]|\band\b|\bbut\b", text[cue.end() :])[0])[:1]  # what it negates
        if following and following[0] in held and not NEGATION.search(span.quote):
            wrong.append(f"negates {following[0]}, the span does not")
    return wrong


@PROPERTIES
@given(written_sentences())
def test_a_shown_sentence_has_for_each_citation_a_span_an_independent_recheck_accepts(sentence):
    verdict = verify_sentence(sentence, blocks=BLOCKS, config=CONFIG)

    assert len(verdict.spans) == len(verdict.passing)
    for n, span in zip(verdict.passing, verdict.spans, strict=True):
        assert recheck(sentence, BLOCKS[n].record, span) == [], (sentence, n, span.quote)


@PROPERTIES
@given(written_sentences())
def test_no_shown_sentence_states_a_number_its_span_does_not(sentence):
    verdict = verify_sentence(sentence, blocks=BLOCKS, config=CONFIG)

    for span in verdict.spans:
        assert numbers(verdict.text) <= numbers(span.quote)


@PROPERTIES
@given(written_sentences())
def test_a_span_never_overlaps_an_instruction(sentence):
    verdict = verify_sentence(sentence, blocks=BLOCKS, config=CONFIG)

    for n, span in zip(verdict.passing, verdict.spans, strict=True):
        assert PASTED not in span.quote
        assert not any(
            s.instruction and s.start < span.end and span.start < s.end for s in BLOCKS[n].record.sentences
        )


@pytest.mark.parametrize("n", sorted(BLOCKS))
def test_every_stored_sentence_but_an_instruction_is_shown_as_its_own_span(n):
    """The properties above are not vacuous: the blocks' own sentences pass, each with itself as its span."""
    record = BLOCKS[n].record
    for stored in record.sentences:
        sentence = record.text[stored.start : stored.end]
        verdict = verify_sentence(f"{sentence[:-1]} [{n}].", blocks=BLOCKS, config=CONFIG)
        assert verdict.shown is not stored.instruction, sentence
        if verdict.shown:
            assert [span.quote for span in verdict.spans] == [sentence]


OPPOSITES = {"opened": "closed", "Opened": "Closed", "before": "after"}
TURNABLE = [
    (record.source_id, record.text[s.start : s.end])
    for record in RECORDS
    for s in record.sentences
    if any(word in OPPOSITES for word in record.text[s.start : s.end].split())
]


@PROPERTIES
@given(st.sampled_from(TURNABLE), st.data())
def test_a_stored_sentence_with_a_word_turned_into_its_antonym_is_never_shown_citing_its_block(turnable, data):
    """Span choice counts the antonym as a match, so the sentence meets the very sentence it contradicts."""
    n, stored = turnable
    words = stored.rstrip(".").split()
    turned = data.draw(st.sets(st.sampled_from([i for i, w in enumerate(words) if w in OPPOSITES]), min_size=1))
    sentence = " ".join(OPPOSITES[w] if i in turned else w for i, w in enumerate(words))

    assert not verify_sentence(f"{sentence} [{n}].", blocks=BLOCKS, config=CONFIG).shown, sentence


PROSE = ["the", "function", "returns", "a", "value", "when", "called", "with", "an", "argument", "file", "object",
         "is", "opened", "for", "reading", "default", "and", "not", "never", "only", "of", "Python", "JSON"]
CODE = ["None", "True", "False", "default=None", "sort_keys=False", "json.dumps(obj)", "__hash__()", "__eq__()",
        "__init__", "_private", "os.path.join()", "buffering=-1", "`open()`", "self.items", "**kw", "*args", "2",
        "30 seconds", "8 KB"]


@st.composite
def stored_sentences(draw: st.DrawFn) -> str:
    """A stored sentence of a manual: prose with identifiers, None, dunder names and numbers, and words to match."""
    words = draw(st.lists(st.sampled_from(PROSE + CODE), min_size=3, max_size=14))
    words += draw(st.lists(st.sampled_from(["reads", "closes", "stream", "buffer", "encoder"]), min_size=2, max_size=3))
    draw(st.randoms()).shuffle(words)
    first = draw(st.sampled_from(["The", "A", "This", "If", "Open", "Return"]))
    return f"{first} {' '.join(words)}."


@PROPERTIES
@given(stored_sentences())
def test_a_stored_sentence_quoted_whole_always_verifies_against_itself(text):
    record = ChunkRecord(
        chunk_id="manual-v1-c01", source_id=1, source_title="Manual", original_name="manual.md", audience="public",
        updated_on=None, heading_path=(), line_start=1, line_end=1, text=text, token_count=len(text.split()),
        fingerprint="fp", sentences=(SentenceSpan(0, len(text), 1),),
    )

    verdict = verify_sentence(f"{text[:-1]} [1].", blocks={1: Block(1, record, 1.0, text)}, config=CONFIG)

    assert verdict.shown, (text, verdict.reasons)


def test_a_number_for_what_the_span_calls_the_same_day_is_not_shown():
    # Found by the property above: "the same day" names a date, not a length of one day.
    verdict = verify_sentence("Orders placed before 14:00 ship the 1 day [1].", blocks=BLOCKS, config=CONFIG)

    assert not verdict.spans
