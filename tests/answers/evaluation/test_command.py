"""manage.py evaluate end to end on a small hand-made corpus whose answers are known."""
import json
import shutil
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from answers.management.commands.evaluate import Command as Evaluate
from answers.models import QuestionLog
from answers.retrieval.holder import current_index
from answers.testing.scripted import ScriptedGenerator
from corpus_admin.corpus_state import corpus_stamp
from corpus_admin.models import Chunk, Source

pytestmark = pytest.mark.django_db(transaction=True)

HERE = Path(__file__).parent
CORPUS = str(HERE / "corpus")
GOLDEN = str(HERE / "golden.jsonl")


def evaluate(*args: str) -> str:
    out = StringIO()
    call_command("evaluate", "--golden", GOLDEN, "--corpus", CORPUS, *args, stdout=out)
    return out.getvalue()


@pytest.fixture(scope="module")
def _runs() -> dict[tuple[str, ...], tuple[str, Path]]:
    return {}


@pytest.fixture
def evaluate_once(_runs, tmp_path_factory) -> Callable[..., tuple[str, Path]]:
    """evaluate on the hand-made corpus with these arguments ("{out}": a folder of the run's own), run by the first
    test that asks and read by the others: (its output, that folder). Tests that change nothing share a run."""

    def run(*args: str) -> tuple[str, Path]:
        if args not in _runs:
            folder = tmp_path_factory.mktemp("evaluate")
            _runs[args] = (evaluate(*(arg.format(out=folder) for arg in args)), folder)
        return _runs[args]

    return run


def test_metrics_on_the_hand_made_corpus_match_hand_computed_values(evaluate_once):
    output, folder = evaluate_once("--json", "{out}/out.json")
    data = json.loads((folder / "out.json").read_text())

    # 8 cases; only refund-expected-refused (expected unsupported) came back answered.
    assert data["status_accuracy"] == 7 / 8
    assert data["confusion"]["answered"] == {
        "answered": 4, "no_material": 0, "conflict": 0, "unsupported": 0, "failed": 0
    }
    assert data["confusion"]["no_material"]["no_material"] == 2 and data["confusion"]["conflict"]["conflict"] == 1
    assert data["confusion"]["unsupported"]["answered"] == 1
    # 5 cases list sources; trash-wrong-source expects garden.md, which shares no word with its question.
    assert data["recall_at_k"] == 4 / 5
    # 5 citations: refunds, trash, discount right; trash for garden.md and the one in a case with no source wrong.
    assert data["citation_precision"] == 3 / 5
    # 4 cases expect an answer with sources; trash-wrong-source cites none of its sources.
    assert data["citation_recall"] == 3 / 4
    # 5 facts; "permanently erased" is not in the trash answer ("30 DAYS" matches whatever the case).
    assert data["fact_recall"] == 4 / 5
    assert data["unverified_delivered"] == 0 and data["forbidden_delivered"] == 0
    assert 0 < data["latency_p50_ms"] <= data["latency_p95_ms"]
    cases = {case["id"]: case for case in data["cases"]}
    assert cases["trash-days"]["facts_found"] == [True, False]
    assert cases["upload-conflict"]["actual"] == "conflict"
    assert data["ingest"]["failed"] == [["empty.md", "empty.md: the file is empty"]]
    assert "refund-expected-refused  unsupported  answered     ✗" in output
    assert "Status accuracy                 0.875 (7/8)" in output
    assert "9 files ingested, 1 failed, 1 skipped" in output


def test_throwaway_run_leaves_the_site_database_and_index_untouched(ingest, filler):
    ingest("site-only.md", "# Site\n\nThe site kettle boils water in 90 seconds.\n")
    call_command("ask", "How fast does the site kettle boil water?", stdout=StringIO())
    name, test_settings = connection.settings_dict["NAME"], dict(connection.settings_dict["TEST"])

    def state():
        return (
            sorted(Source.objects.values_list("original_name", "version", "sha256", "updated_on")),
            sorted(Chunk.objects.values_list("chunk_id", "superseded_at")),
            sorted(QuestionLog.objects.values_list("pk", "question")),
            corpus_stamp(),
        )

    before = state()
    evaluate()

    assert state() == before
    assert (connection.settings_dict["NAME"], connection.settings_dict["TEST"]) == (name, test_settings)
    served = set(current_index().records)
    assert served == set(Chunk.objects.values_list("chunk_id", flat=True))
    assert "refunds-v1-c01" not in served
    answer = StringIO()
    call_command("ask", "How fast does the site kettle boil water?", "--json", stdout=answer)
    assert json.loads(answer.getvalue())["citations"] == ["site-only-v1-c01"]


def test_report_shows_a_hostile_question_escaped(evaluate_once):
    _, folder = evaluate_once("--report", "{out}/report", "--sweep", "--json", "{out}/out.json")
    report = folder / "report"
    html = (report / "report.html").read_text()

    assert "&lt;script&gt;alert(1)&lt;/script&gt;{{ x }}{% now &#x27;Y&#x27; %}" in html
    assert "<script" not in html
    assert html.count("<svg") == 4  # one plot per swept threshold
    assert "refund-expected-refused" in (report / "known_misses.md").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in (report / "report.md").read_text()


def test_sweep_reports_every_value_and_the_known_misses(evaluate_once):
    output, folder = evaluate_once("--report", "{out}/report", "--sweep", "--json", "{out}/out.json")
    sweep = json.loads((folder / "out.json").read_text())["sweep"]

    assert [p["value"] for p in sweep["coverage"]] == [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    assert [p["value"] for p in sweep["score"]] == [0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0]
    configured = [p for p in sweep["coverage"] if p["configured"]]
    assert len(configured) == 1 and configured[0]["flips"] == [] and configured[0]["status_accuracy"] == 7 / 8
    assert "Sweep of RAG_MIN_COVERAGE" in output and "Sweep of RAG_MIN_SCORE" in output
    assert "refund-expected-refused: expected unsupported, got answered" in output


def test_floors_fail_the_run_after_writing_the_results(tmp_path):
    with pytest.raises(CommandError, match="status accuracy 0.875 is under the floor 0.9") as error:
        evaluate("--min-status-accuracy", "0.9", "--json", str(tmp_path / "out.json"))

    assert error.value.returncode == 1
    assert (tmp_path / "out.json").exists()
    floor = tmp_path / "floor.json"
    floor.write_text(json.dumps({"min_status_accuracy": 0.875, "max_unverified_delivered": 0}))
    evaluate("--floor", str(floor), "--fail-on-unverified")


def test_held_out_and_tuning_parts_are_reported_apart_and_facts_count_in_the_strict_accuracy(tmp_path):
    golden = tmp_path / "golden.jsonl"
    held = {"trash-days", "refund-expected-refused"}  # one answered without all its facts, one answered wrongly
    lines = [json.loads(line) for line in Path(GOLDEN).read_text().splitlines() if line.strip()]
    golden.write_text("".join(json.dumps({**c, "held_out": c["id"] in held}) + "\n" for c in lines))
    out = StringIO()
    call_command("evaluate", "--golden", str(golden), "--corpus", CORPUS, "--json", str(tmp_path / "o.json"),
                 "--report", str(tmp_path / "report"), stdout=out)
    data = json.loads((tmp_path / "o.json").read_text())
    output = out.getvalue()

    assert data["status_accuracy_with_facts"] == 6 / 8  # trash-days lacks "permanently erased"
    assert data["parts"]["tuning"]["status_accuracy"] == 1 and data["parts"]["tuning"]["cases"] == 6
    assert data["parts"]["held-out"]["status_accuracy"] == 1 / 2
    assert data["parts"]["held-out"]["status_accuracy_with_facts"] == 0
    assert {c["id"] for c in data["cases"] if c["held_out"]} == held
    assert "Tuning part (6 cases):" in output and "Held-out part (2 cases):" in output
    assert "Status accuracy with facts      0.000 (0/2)" in output
    assert "## Held-out part" in (tmp_path / "report" / "report.md").read_text()
    with pytest.raises(CommandError, match="status accuracy with facts 0.750 is under the floor 0.8"):
        evaluate("--floor", str(write_floor(tmp_path, min_status_accuracy_with_facts=0.8)))


def test_the_floor_judges_the_tuning_part_and_never_a_held_out_case(tmp_path):
    golden = tmp_path / "golden.jsonl"
    lines = [json.loads(line) for line in Path(GOLDEN).read_text().splitlines() if line.strip()]
    held = {"refund-expected-refused"}
    golden.write_text("".join(json.dumps({**c, "held_out": c["id"] in held}) + "\n" for c in lines))
    floor = write_floor(tmp_path, min_status_accuracy=1.0, max_unverified_delivered=0)

    # refund-expected-refused, answered where a refusal is expected, is the one miss of the 8 cases: held out, the
    # tuning part's 7/7 meets the floor; in the tuning part, 7/8 does not
    call_command("evaluate", "--golden", str(golden), "--corpus", CORPUS, "--floor", str(floor), stdout=StringIO())
    with pytest.raises(CommandError, match="status accuracy 0.875 is under the floor 1.0"):
        evaluate("--floor", str(floor))


def test_held_out_misses_are_counted_and_never_named(tmp_path):
    golden = tmp_path / "golden.jsonl"
    held = {"trash-days", "refund-expected-refused"}  # refund-expected-refused is answered: a miss
    lines = [json.loads(line) for line in Path(GOLDEN).read_text().splitlines() if line.strip()]
    golden.write_text("".join(json.dumps({**c, "held_out": c["id"] in held}) + "\n" for c in lines))
    out = StringIO()
    call_command("evaluate", "--golden", str(golden), "--corpus", CORPUS, "--json", str(tmp_path / "o.json"),
                 "--report", str(tmp_path / "report"), "--sweep", stdout=out)
    output = out.getvalue()
    data = json.loads((tmp_path / "o.json").read_text())
    written = "".join((tmp_path / "report" / name).read_text() for name in ("report.md", "known_misses.md",
                                                                             "report.html"))

    assert "Held-out part: 1 of 2 cases missed" in output and "Held-out part: 1 of 2 cases missed" in written
    assert "Known misses of the tuning part: none." in output
    for case_id in held:
        assert case_id not in output and case_id not in written
    assert data["known_misses"] == [] and data["held_out_misses"] == {"misses": 1, "cases": 2}


def test_a_set_without_held_out_cases_reports_no_parts(evaluate_once):
    output, folder = evaluate_once("--json", "{out}/out.json")

    assert json.loads((folder / "out.json").read_text())["parts"] == {}
    assert "Held-out part" not in output


def write_floor(tmp_path, **floor) -> Path:
    path = tmp_path / "floor.json"
    path.write_text(json.dumps(floor))
    return path


# The pipeline's verifier accepts this sentence; the evaluation's independent re-check does not.
TALKATIVE = ScriptedGenerator(
    always=[
        "Refunds processed within business days, because these very same ones should again further once here, "
        "ourselves doing [1]. "
    ],
    name="talkative", regenerates=False,
)


def test_unverified_sentence_fails_the_run_when_asked():
    out = StringIO()

    with pytest.raises(CommandError, match="unverified sentences were delivered") as error:
        call_command(Evaluate(make_generator=TALKATIVE), "--golden", GOLDEN, "--corpus", CORPUS,
                     "--fail-on-unverified", stdout=out)

    assert error.value.returncode == 1
    assert "unverified: Refunds processed within business days" in out.getvalue()


def test_malformed_golden_line_is_a_command_error_naming_the_line(tmp_path):
    golden = tmp_path / "bad.jsonl"
    good = (HERE / "golden.jsonl").read_text().splitlines()[0]
    golden.write_text(f"{good}\n{{\"id\": \"x\", \"question\": \"q\"}}\n")

    with pytest.raises(CommandError, match=rf"{golden}, line 2: missing fields audience, expect, sources, facts"):
        call_command("evaluate", "--golden", str(golden), stdout=StringIO())


def test_golden_question_the_site_would_refuse_is_a_command_error_naming_the_line(tmp_path, settings):
    settings.RAG_MAX_QUESTION_CHARS = 20
    golden = tmp_path / "long.jsonl"
    case = {"id": "x", "question": "How long do refunds take to arrive?", "audience": "public",
            "expect": "answered", "sources": [], "facts": []}
    golden.write_text(json.dumps({**case, "id": "ok", "question": "Refunds?"}) + "\n" + json.dumps(case) + "\n")

    with pytest.raises(CommandError, match=rf"{golden}, line 2: The question is 35 characters long; the limit is 20"):
        call_command("evaluate", "--golden", str(golden), stdout=StringIO())


def test_evaluation_of_the_site_database_stays_out_of_the_conversation_log(ingest, filler, tmp_path):
    ingest("kettle.md", "# Kettle\n\nThe office kettle boils water in 90 seconds.\n")
    golden = tmp_path / "golden.jsonl"
    golden.write_text(json.dumps({
        "id": "kettle", "question": "How fast does the office kettle boil water?", "audience": "public",
        "expect": "answered", "sources": ["kettle.md"], "facts": ["90 seconds"],
    }) + "\n")
    out = StringIO()

    call_command("evaluate", "--golden", str(golden), "--min-status-accuracy", "1", stdout=out)

    assert "kettle  answered     answered     ok  facts 1/1" in out.getvalue()
    assert not QuestionLog.objects.exists()


def test_golden_sources_name_documents_by_their_path_in_the_corpus_and_a_shared_bare_name_stops_the_run(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus, ignore=shutil.ignore_patterns("audiences.json", "refunds.md", "trash.md"))
    for folder, document in (("billing", "refunds.md"), ("trash", "trash.md")):  # two index.md, in two folders
        (corpus / folder).mkdir()
        shutil.copy(Path(CORPUS) / document, corpus / folder / "index.md")
    case = {"id": "refund", "question": "How long does a refund take to process?", "audience": "public",
            "expect": "answered", "sources": ["billing/index.md"], "facts": ["5-7 business days"]}
    golden = tmp_path / "golden.jsonl"
    golden.write_text(json.dumps(case) + "\n")
    out = StringIO()

    call_command("evaluate", "--golden", str(golden), "--corpus", str(corpus), "--json", str(tmp_path / "o.json"),
                 stdout=out)

    data = json.loads((tmp_path / "o.json").read_text())
    assert (data["recall_at_k"], data["citation_precision"]) == (1.0, 1.0)
    golden.write_text(json.dumps({**case, "sources": ["index.md"]}) + "\n")
    ambiguous = r"line 1: source 'index.md' names 2 documents \(billing/index.md, trash/index.md\): name it by its path"
    with pytest.raises(CommandError, match=ambiguous):
        call_command("evaluate", "--golden", str(golden), "--corpus", str(corpus), stdout=StringIO())
