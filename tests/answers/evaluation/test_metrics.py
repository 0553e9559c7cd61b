"""Judging answers and the metrics over cases, on observations built by hand."""
import pytest

from answers.evaluation.golden import GoldenCase
from answers.evaluation.metrics import Delivered, Observation, fact_found, judge_case, percentile, summarise
from answers.evaluation.recheck import CitedChunk

CHUNKS = {
    "a-c1": CitedChunk("a-c1", "Refunds are processed within 5-7 business days.", "public", "a.md"),
    "b-c1": CitedChunk("b-c1", "Deleted files are kept in the trash for 30 days.", "public", "b.md"),
    "p-c1": CitedChunk("p-c1", "Partners receive a 20% reseller discount.", "partner", "p.md"),
}


def case(id, expect="answered", *, sources=(), facts=(), forbid=(), audience="public") -> GoldenCase:
    return GoldenCase(id, f"question {id}", audience, expect, tuple(sources), tuple(facts), tuple(forbid))


def seen(status="answered", refusal="", sentences=(), retrieved=(), latency=10.0) -> Observation:
    return Observation(status, refusal, tuple(Delivered(t, tuple(c)) for t, c in sentences), tuple(retrieved), latency)


REFUND = ("Refunds are processed within 5-7 business days.", ["a-c1"])
TRASH = ("Deleted files are kept in the trash for 30 days.", ["b-c1"])


@pytest.mark.parametrize(
    ("observation", "kind"),
    [
        (seen("answered"), "answered"),
        (seen("incomplete"), "answered"),
        (seen("refused", "conflict"), "conflict"),
        (seen("failed"), "failed"),
    ],
)
def test_actual_kind_of_an_observation(observation, kind):
    assert observation.kind == kind


def test_judge_case_checks_sources_citations_facts_and_forbidden_text():
    golden = case("c", sources=["a.md"], facts=[("5-7 BUSINESS days",), ("ten days", "5-7")], forbid=["trash"])
    result = judge_case(golden, seen(sentences=[REFUND, TRASH], retrieved=["b-c1", "a-c1"]), chunks=CHUNKS)

    assert result.ok and result.retrieval_hit is True
    assert result.citations == (("a-c1", "a.md"), ("b-c1", "b.md"))
    assert result.correct_citations == 1
    assert result.facts_found == (True, True)
    assert result.forbidden_found == ("trash",)
    assert result.unverified == ()


def test_sentence_citing_a_chunk_hidden_from_the_case_audience_counts_as_unverified():
    partner_only = ("Partners receive a 20% reseller discount.", ["p-c1"])
    result = judge_case(case("c"), seen(sentences=[partner_only]), chunks=CHUNKS)

    assert result.unverified == ((partner_only[0], ("cites p-c1, which public may not see",)),)


def test_summary_metrics_match_hand_computed_values():
    results = [
        # answered right, cites the expected source, finds 1 of 2 facts, retrieval hit
        judge_case(case("r1", sources=["a.md"], facts=[("5-7",), ("refund form",)]),
                   seen(sentences=[REFUND], retrieved=["a-c1"], latency=10), chunks=CHUNKS),
        # answered right, but cites the wrong source; the expected one was not retrieved
        judge_case(case("r2", sources=["a.md"], facts=[("30 days",)]),
                   seen(sentences=[TRASH], retrieved=["b-c1"], latency=30), chunks=CHUNKS),
        # expected an answer, got no_material: no citation, fact missed, retrieval hit
        judge_case(case("r3", sources=["b.md"], facts=[("30 days",)]),
                   seen("refused", "no_material", retrieved=["b-c1"], latency=20), chunks=CHUNKS),
        # expected unsupported, answered: its citation is wrong (no source is right)
        judge_case(case("r4", "unsupported"), seen(sentences=[REFUND], latency=40), chunks=CHUNKS),
    ]

    m = summarise(results, k=8)

    assert m.status_accuracy == 2 / 4
    assert m.errors == ("r3", "r4")
    assert m.confusion["answered"] == {"answered": 2, "no_material": 1, "conflict": 0, "unsupported": 0, "failed": 0}
    assert m.confusion["unsupported"]["answered"] == 1
    assert (m.retrieval_hits, m.retrieval_cases, m.recall_at_k) == (2, 3, 2 / 3)
    assert (m.citations_correct, m.citations_total, m.citation_precision) == (1, 3, 1 / 3)
    assert (m.cited_cases, m.answer_cases, m.citation_recall) == (1, 3, 1 / 3)
    assert (m.facts_found, m.facts_total, m.fact_recall) == (2, 4, 2 / 4)
    assert (m.sentences_delivered, m.unverified_delivered) == (3, 0)
    assert (m.latency_p50_ms, m.latency_p95_ms) == (20, 40)


def test_ratios_without_anything_to_count_are_none():
    m = summarise([judge_case(case("n", "no_material"), seen("refused", "no_material"), chunks=CHUNKS)], k=8)

    assert m.recall_at_k is None and m.citation_precision is None and m.citation_recall is None
    assert m.fact_recall is None and m.status_accuracy == 1.0


@pytest.mark.parametrize(
    ("values", "p", "expected"),
    [
        ([5.0], 95, 5.0),
        ([1, 2, 3, 4], 50, 2),
        ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95, 10),
        (list(range(1, 21)), 95, 19),
        ([3, 1, 2], 50, 2),
        ([], 50, 0.0),
    ],
)
def test_percentile_is_nearest_rank(values, p, expected):
    assert percentile(values, p) == expected


@pytest.mark.parametrize(
    ("alternatives", "answer", "found"),
    [
        (("30 days",), "Kept for 30  DAYS.", True),
        (("5-7", "five to seven"), "Five to seven business days.", True),
        (("Frankfurt",), "Oregon only.", False),
    ],
)
def test_fact_found_ignores_case_and_white_space(alternatives, answer, found):
    assert fact_found(alternatives, answer) is found


@pytest.mark.parametrize(
    ("alternatives", "answer", "found"),
    [
        (("cached_statements=128",), "cached_statements (int) – The number of statements that sqlite3 should "
         "internally cache for this connection. By default, 128 statements.", True),
        (("frozen=False",), "frozen: If true (the default is False), assigning to fields will generate an exception.",
         True),
        (("exist_ok=False",), "If exist_ok is False (the default), a FileExistsError is raised.", True),
        (("mode='r'",), "mode is an optional string. It defaults to 'r' which means open for reading.", True),
        (("timeout=5.0",), "timeout: how long to wait. The default is 5.0 seconds.", True),
        # the value without the parameter, another parameter's default, or a default two sentences on: not the fact
        (("cached_statements=128",), "By default, 128 statements.", False),
        (("maxsize=128",), "typed: if true, types are cached apart. The default is 128 bytes.", False),
        (("maxsize=128",), "maxsize sets the size. It is an int. Other text. By default, 128 entries.", False),
        (("timeout=5.0",), "timeout: how long to wait. The default is 5.05 seconds.", False),
        (("timeout=5",), "timeout: how long to wait. The default is 5.0 seconds.", False),
        (("sort_keys=False",), "sort_keys: a non-default False value is rare.", False),
    ],
)
def test_a_signature_default_is_found_where_the_answer_states_that_parameters_default_in_words(
    alternatives, answer, found
):
    assert fact_found(alternatives, answer) is found


@pytest.mark.parametrize(
    ("golden", "retrieved", "issued", "state"),
    [
        (case("c", sources=["a.md"], facts=[("5-7",)]), ["b-c1"], ["b-c1"], "not retrieved"),
        (case("c", sources=["a.md"], facts=[("5-7",)]), ["b-c1", "a-c1"], ["b-c1"], "retrieved, not issued"),
        (case("c", sources=["a.md"], facts=[("ten days",)]), ["a-c1"], ["a-c1"], "source issued, passage not"),
        (case("c", sources=["a.md"], facts=[("5-7",)]), ["b-c1", "a-c1"], ["b-c1", "a-c1"], "issued"),
        (case("c", sources=["a.md"]), ["a-c1"], ["a-c1"], "issued"),
        (case("c", "unsupported"), ["a-c1"], ["a-c1"], ""),
    ],
)
def test_retrieval_state_says_where_the_expected_source_stood_for_the_reader(golden, retrieved, issued, state):
    observed = seen("refused", "unsupported", retrieved=retrieved)
    observed = Observation(observed.status, observed.refusal, (), observed.retrieved, 1.0, issued=tuple(issued))

    assert judge_case(golden, observed, chunks=CHUNKS).retrieval == state
