"""Property tests: arbitrary text and markers never crash the sentence buffer, the marker parser or the verifier,
and never put a sentence on screen that fails re-verification (§2 promises 1 and 2)."""
import asyncio
import itertools
import re
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answers.pipeline.answer import answer_events
from answers.pipeline.config import PipelineConfig
from answers.pipeline.events import AnswerDone, BlocksIssued, SentenceVerified
from answers.pipeline.records import ChunkRecord
from answers.pipeline.text.sentences import MARKER, SentenceBuffer, parse_markers
from answers.pipeline.types import Block, Retrieved
from answers.pipeline.verify import common_terms, verify_sentence
from answers.testing.scripted import ScriptedGenerator

CONFIG = PipelineConfig()
FUZZ = settings(max_examples=150, deadline=None)
TEXTS = (
    "Refunds are processed within 5-7 business days after the request is approved.",
    "Deleted files stay in the trash for 30 days before they are removed for good.",
    "The Team plan costs $12 per user per month, e.g. for Dr. Rivera's team.",
    "The service keeps 99.9% uptime; version v2.5 fixed the sync of files up to 2.5 GB.",
    "Share links expire after 7 days unless an owner changes the expiry.",
)
RECORDS = tuple(
    ChunkRecord(
        chunk_id=f"doc{n}-v1-c01", source_id=n, source_title=f"Doc {n}", original_name=f"doc{n}.md",
        audience="public", updated_on=None, heading_path=(), line_start=1, line_end=1, text=text,
        token_count=len(text.split()), fingerprint=f"fp{n}",
    )
    for n, text in enumerate(TEXTS, start=1)
)

WORDS = sorted({word.strip(".,;'s") for text in TEXTS for word in text.split()} | {"support", "Monday", "the"})
NUMBERS = ["2.5", "5-7", "$12", "99.9%", "30", "7", "12", "1,000", "3.", "0"]
ABBREVIATIONS = ["e.g.", "i.e.", "Dr.", "v2.5", "etc.", "U.S.", "J.", "example.com"]
MARKERS = ["[1]", "[2]", "[3]", "[5]", "[8]", "[1, 2]", "[2][3]", "[]", "[x]", "[12345]", "[1,", "]", "[", "[ 1]"]
PUNCTUATION = [".", "!", "?", ",", ";", ":", "...", '"', "'", ")", "(", "*", "-"]
BREAKS = ["\n", "\n\n", " \n ", "\t"]

# A marker inside marker-like brackets: "[1 [3], 2]" is not a marker until [3] is taken out.
nested_markers = st.tuples(
    st.sampled_from(["1", "2", "1,", "12"]), st.sampled_from(MARKERS), st.sampled_from([",", ", 2", "", ".", " "])
).map(lambda parts: f"[{parts[0]} {parts[1]}{parts[2]}]")

# A run of words from one block with a marker: cites the right block about one time in five, so sentences pass.
claims = st.tuples(
    st.sampled_from(TEXTS), st.integers(min_value=0, max_value=6), st.integers(min_value=2, max_value=14),
    st.sampled_from(MARKERS[:5]), st.sampled_from([".", "!", "", ". ", "\n\n"]),
).map(lambda parts: " ".join(parts[0].split()[parts[1] : parts[1] + parts[2]]) + f" {parts[3]}{parts[4]}")

pieces = st.one_of(
    nested_markers,
    st.sampled_from(WORDS),
    st.sampled_from(NUMBERS),
    st.sampled_from(ABBREVIATIONS),
    st.sampled_from(MARKERS),
    st.sampled_from(PUNCTUATION),
    st.sampled_from(BREAKS),
    st.text(alphabet="[]0123456789, .", max_size=6),  # marker debris: "[1 [3], 2]", "[1[2]]"
    st.text(max_size=4),
)
answers_text = st.lists(
    st.one_of(claims, st.tuples(pieces, st.sampled_from([" ", "", " ", "  "])).map("".join)), max_size=30
).map("".join)


def squeeze(text: str) -> str:
    return "".join(text.split())


def cut(text: str, positions: Sequence[int]) -> list[str]:
    points = sorted({p % (len(text) + 1) for p in positions})
    bounds = [0, *points, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


def stream(deltas: Sequence[str]) -> tuple[list[str], str]:
    buffer = SentenceBuffer()
    sentences = [sentence for delta in deltas for sentence in buffer.feed(delta)]
    rest, tail = buffer.flush()
    return sentences + rest, tail


class FixedRetriever:
    """Every chunk matches every question: the blocks are the same whatever the generator writes."""

    def search(self, terms: Sequence[str], *, k: int) -> list[Retrieved]:
        return [Retrieved(record, 5.0) for record in RECORDS[:k]]

    def has_term(self, term: str) -> bool:
        return True

    def document_frequencies(self, terms: Sequence[str]) -> tuple[dict[str, int], int]:
        return dict.fromkeys(terms, len(RECORDS)), len(RECORDS)


def answer(deltas: Sequence[str]) -> tuple[list, tuple[Block, ...]]:
    generator = ScriptedGenerator(list(deltas), regenerates=False)

    async def collect() -> list:
        events = answer_events("When are refunds processed?", retriever=FixedRetriever(), generator=generator,
                               config=CONFIG)
        return [event async for event in events]

    return asyncio.run(collect()), generator.requests[0].blocks if generator.requests else ()


# --- the sentence buffer -------------------------------------------------------------------------------------


@FUZZ
@given(text=answers_text)
def test_buffer_neither_loses_nor_invents_text(text):
    sentences, tail = stream([text])

    # Released pieces appear in order; whatever lies between them is a wordless fragment ("." or "[1].").
    squeezed, position = squeeze(text), 0
    for piece in [*map(squeeze, sentences), squeeze(tail)]:
        found = squeezed.find(piece, position)
        assert found != -1, piece
        assert not re.search(r"\w", MARKER.sub("", squeezed[position:found]))
        position = found + len(piece)
    assert not re.search(r"\w", MARKER.sub("", squeezed[position:]))


@FUZZ
@given(text=answers_text, positions=st.lists(st.integers(min_value=0, max_value=400), max_size=12))
def test_buffer_releases_the_same_sentences_however_the_stream_is_cut(text, positions):
    assert stream(cut(text, positions)) == stream([text])


@FUZZ
@given(text=answers_text, positions=st.lists(st.integers(min_value=0, max_value=400), max_size=12))
def test_every_delta_of_a_stream_can_be_fed_without_error(text, positions):
    buffer = SentenceBuffer()
    for delta in cut(text, positions):
        assert all(sentence.strip() for sentence in buffer.feed(delta))
    buffer.flush()


# --- the marker parser ---------------------------------------------------------------------------------------


@FUZZ
@given(sentence=answers_text)
def test_parsed_sentence_text_holds_no_marker(sentence):
    marked = parse_markers(sentence)

    assert MARKER.search(marked.text) is None
    assert marked.text == marked.text.strip()
    assert len(set(marked.cited)) == len(marked.cited)


# --- the verifier -------------------------------------------------------------------------------------------


@FUZZ
@given(sentence=answers_text)
def test_verifier_passes_only_issued_blocks_the_sentence_cites(sentence):
    issued = {n: Block(number=n, record=record, score=1.0, text=record.text) for n, record in enumerate(RECORDS, 1)}

    verdict = verify_sentence(sentence, blocks=issued, config=CONFIG)

    assert set(verdict.passing) <= set(parse_markers(sentence).cited) & set(issued)
    assert verdict.shown or verdict.reasons


# --- the verifier, through the whole answer ------------------------------------------------------------------


@FUZZ
@given(text=answers_text, positions=st.lists(st.integers(min_value=0, max_value=400), max_size=8))
def test_every_shown_sentence_re_verifies_against_the_issued_blocks(text, positions):
    events, blocks = answer(cut(text, positions))

    assert isinstance(events[0], BlocksIssued) and isinstance(events[-1], AnswerDone)
    issued = {block.number: block for block in blocks}
    common = common_terms(blocks, config=CONFIG)
    for event in events:
        if not isinstance(event, SentenceVerified):
            continue
        assert event.citations and MARKER.search(event.text) is None
        for citation in event.citations:
            assert citation.chunk_id == issued[citation.n].record.chunk_id
        markers = "".join(f"[{citation.n}]" for citation in event.citations)
        verdict = verify_sentence(f"{event.text} {markers}", blocks=issued, config=CONFIG, common=common)
        assert verdict.passing == tuple(citation.n for citation in event.citations), verdict.reasons


def test_fuzz_harness_shows_a_sentence_that_cites_its_block():
    events, blocks = answer(["Refunds are processed within 5-7 ", "business days [", "1]. Trash [9]."])

    shown = [event for event in events if isinstance(event, SentenceVerified)]
    assert [(event.text, [c.n for c in event.citations]) for event in shown] == [
        ("Refunds are processed within 5-7 business days.", [1])
    ]


# --- what the properties found (fixed in answers/pipeline/text/sentences.py) --------------------------------------


@pytest.mark.parametrize("sentence", ["Refunds take 5-7 days [5 [1], 7].", "[1 [3], 2]", "[1 [2][3] ,2]"])
def test_marker_revealed_by_stripping_an_inner_marker_is_stripped_too(sentence):
    assert MARKER.search(parse_markers(sentence).text) is None


def test_shown_sentence_never_carries_a_marker_the_verifier_did_not_check():
    events, _ = answer(["Refunds are processed within 5-7 business days [5 [1], 7]."])

    shown = [event.text for event in events if isinstance(event, SentenceVerified)]
    assert shown == ["Refunds are processed within 5-7 business days."]


def test_second_marker_after_the_full_stop_stays_with_its_sentence_when_the_stream_is_cut_inside_it():
    assert stream(["Refunds were approved. [1][", "2] Trash is emptied daily [2]."]) == (
        ["Refunds were approved. [1][2]", "Trash is emptied daily [2]."],
        "",
    )
