"""The golden sets over real manuals: large and varied enough to judge a reader, with the spent held-out third exactly
as drawn before the first run, the later held-out parts spent in turn, a fresh held-out part, and every source a page
the corpus keeps (and, once fetched, a page that exists)."""
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from answers.evaluation.corpora import CORPORA, DEFAULT_ROOT
from answers.evaluation.golden import load_golden
from answers.evaluation.split import held_out_ids
from corpus_admin.parsing import parse_document

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "answers" / "evaluation" / "golden"
CATEGORIES = {"field", "howto", "paraphrase", "unanswerable"}
REAL = sorted(CORPORA)


def cases_of(name: str):
    return load_golden(GOLDEN / CORPORA[name].golden)


def test_the_real_sets_hold_200_cases_a_quarter_of_them_unanswerable():
    every = [case for name in REAL for case in cases_of(name)]

    assert len(REAL) >= 3 and len(every) >= 200
    assert sum(case.category == "unanswerable" for case in every) >= len(every) / 4
    assert len({case.id for case in every}) == len(every)  # ids are unique across the sets too


@pytest.mark.parametrize("name", REAL)
def test_each_set_has_every_category_and_answers_only_where_a_fact_and_source_are_given(name):
    cases = cases_of(name)

    assert len(cases) >= 60
    assert set(Counter(case.category for case in cases)) == CATEGORIES
    for case in cases:
        if case.category == "unanswerable":
            assert case.expect in ("unsupported", "no_material") and not case.facts and not case.sources, case.id
        else:
            assert case.expect == "answered" and case.facts and case.sources, case.id
        assert case.audience == "public"


FIRST_DRAW = "2bd3f4f69e37aa3f18f0d001a5f99dea4fc5f2d8"  # the commit whose rows the seeded third was drawn from
# the fresh held-out parts written after the one before was spent, each run once and spent in turn, in order: the
# commit a part was written in and its cases in each set
SPENT_PARTS = (
    ("6a8fd0c", {"debian-handbook": 21, "python": 21, "postgresql": 21}),
    ("c56bfd8", {"debian-handbook": 21, "python": 21, "postgresql": 22}),
    ("b078dbc", {"debian-handbook": 22, "python": 22, "postgresql": 22}),
    ("12798ff", {"debian-handbook": 22, "python": 22, "postgresql": 23}),
    ("78888b7", {"debian-handbook": 22, "python": 23, "postgresql": 23}),
    ("d704f2d", {"debian-handbook": 22, "python": 23, "postgresql": 23}),
    ("a217d0f", {"debian-handbook": 22, "python": 23, "postgresql": 23}),
    ("a625688", {"debian-handbook": 22, "python": 23, "postgresql": 23}),
    ("8ee2a47", {"debian-handbook": 22, "python": 23, "postgresql": 23}),
)


def spent_at(name: str) -> dict[str, str]:
    """The id of each case that was held out once and, run and reported, moved to dev (`was_held_out`), with the
    commit of the held-out part it belonged to (`held_out_at`)."""
    lines = (GOLDEN / CORPORA[name].golden).read_text(encoding="utf-8").splitlines()
    rows = [data for data in map(json.loads, filter(str.strip, lines)) if data.get("was_held_out")]
    return {data["id"]: data["held_out_at"] for data in rows}


@pytest.mark.parametrize("name", REAL)
def test_the_spent_held_out_third_is_the_recorded_seeded_draw_over_the_first_rows(name):
    spent = spent_at(name)
    # the rows written before any run: the dev rows not of a later held-out part
    first = [case for case in cases_of(name) if not case.held_out and spent.get(case.id, FIRST_DRAW) == FIRST_DRAW]
    drawn = {case_id for case_id, at in spent.items() if at == FIRST_DRAW}

    assert drawn == held_out_ids(first)
    for category in CATEGORIES:
        of_category = [case for case in first if case.category == category]
        assert sum(case.id in drawn for case in of_category) == round(len(of_category) / 3)


@pytest.mark.parametrize("name", REAL)
def test_the_later_held_out_parts_were_run_once_and_are_now_dev(name):
    spent = spent_at(name)

    for commit, cases in SPENT_PARTS:
        part = [case for case in cases_of(name) if spent.get(case.id) == commit]
        assert len(part) == cases[name] and {case.category for case in part} == CATEGORIES, commit
        assert not any(case.held_out for case in part), commit
    # every spent case names a part it was in
    assert set(spent.values()) == {FIRST_DRAW, *(commit for commit, _ in SPENT_PARTS)}


@pytest.mark.parametrize("name", REAL)
def test_the_fresh_held_out_part_has_every_category_and_none_of_it_was_spent(name):
    held = [case for case in cases_of(name) if case.held_out]

    assert len(held) >= 15 and {case.category for case in held} == CATEGORIES
    assert not {case.id for case in held} & spent_at(name).keys()
    assert sum(case.category == "unanswerable" for case in held) >= len(held) / 5


@pytest.mark.parametrize("name", REAL)
def test_every_source_is_a_page_the_corpus_keeps(name):
    corpus = CORPORA[name]
    sources = {source for case in cases_of(name) for source in case.sources}

    assert sources and all(corpus.selects(source) for source in sources)
    docs = ROOT / DEFAULT_ROOT / name / "docs"
    if (docs.parent / ".fetched").exists():  # make eval-real fetched it: the pages must be there
        assert sorted(s for s in sources if not (docs / s).is_file()) == []


def test_the_ci_floor_can_only_catch_regressions():
    floor = json.loads((GOLDEN / "debian-handbook-floor.json").read_text())

    assert floor["max_unverified_delivered"] == 0
    assert 0 < floor["min_status_accuracy_with_facts"] <= floor["min_status_accuracy"] < 1


def display_text(path: Path) -> str:
    """A page as the site's text model shows it (headings and blocks), white space folded, case ignored."""
    document = parse_document(file_name=path.name, content=path.read_bytes(), max_bytes=50_000_000)
    parts = [
        text for section in document.sections for text in (*section.heading_path, *(b.text for b in section.blocks))
    ]
    return re.sub(r"\s+", " ", " ".join(parts)).casefold()


@pytest.mark.parametrize("name", REAL)
def test_every_fact_is_in_the_display_text_of_one_of_its_sources(name):
    docs = ROOT / DEFAULT_ROOT / name / "docs"
    if not (docs.parent / ".fetched").exists():
        pytest.skip(f"{name} is not fetched (make eval-real fetches it)")
    pages: dict[str, str] = {}
    missing = []
    for case in cases_of(name):
        texts = [pages.setdefault(source, display_text(docs / source)) for source in case.sources]
        missing += [
            (case.id, fact) for fact in case.facts
            if not any(re.sub(r"\s+", " ", alt).casefold() in text for alt in fact for text in texts)
        ]
    assert missing == []
