"""The demo golden set in the repo: well-formed, broad, and naming only documents of the demo corpus."""
import json
from pathlib import Path

from answers.evaluation.golden import AUDIENCES, KINDS, load_golden
from corpus_admin.parsing import SUPPORTED

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "answers" / "evaluation" / "golden"
DOCUMENTS = ROOT / "corpus_admin" / "demo" / "documents"


def test_demo_golden_set_covers_every_kind_and_audience():
    cases = load_golden(GOLDEN / "demo.jsonl")

    assert len(cases) >= 55
    assert {c.expect for c in cases} == set(KINDS)
    assert {c.audience for c in cases} == set(AUDIENCES)
    assert sum(len(c.facts) > 1 for c in cases) >= 3
    assert sum(c.expect == "no_material" and not c.sources for c in cases) >= 6


def test_demo_golden_sources_are_demo_documents_and_no_fact_repeats_the_injection():
    documents = {p.name for p in DOCUMENTS.iterdir() if p.suffix in SUPPORTED}
    cases = load_golden(GOLDEN / "demo.jsonl")

    assert {source for c in cases for source in c.sources} <= documents
    assert not [c.id for c in cases for fact in c.facts for text in fact if "free forever" in text.lower()]


def test_floor_keeps_unverified_sentences_at_zero():
    floor = json.loads((GOLDEN / "floor.json").read_text())

    assert floor["max_unverified_delivered"] == 0
    assert 0 < floor["min_status_accuracy"] <= 1
