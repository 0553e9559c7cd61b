"""The replay set: citations named by words and resolved to this prompt's block numbers, sentences counted by label,
problems reported, and scripted answers run through Claude's path against the fake server."""
import datetime as dt
import json
from collections import Counter
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from answers.evaluation.replay import (
    FALSE_KINDS,
    LABELS,
    ReplayCase,
    ReplayError,
    ScriptedSentence,
    load_replay,
    parse_replay_case,
    resolve_sentence,
)
from answers.evaluation.replay_metrics import DEV, HELD_OUT, judge_replay
from answers.evaluation.replay_run import Replayer, run_replay
from answers.pipeline.events import ChunkRef, SentenceDropped, SentenceVerified
from answers.pipeline.generate.prompt import build_prompt
from answers.pipeline.records import ChunkRecord
from answers.pipeline.types import Block, SupportSpan
from answers.present.api import AnswerSummary
from answers.services import claude_settings, pipeline_config
from answers.testing.demo_answers import REFUSAL

ROOT = Path(__file__).resolve().parents[3]
DEMO_REPLAY = ROOT / "answers" / "evaluation" / "replay" / "demo.jsonl"
HERE = Path(__file__).parent
CORPUS = str(HERE / "corpus")
GOLDEN = str(HERE / "golden.jsonl")

TRASH = "Deleted files are kept in the trash for 30 days."
REFUNDS = "Refunds are processed within 5-7 business days."


def block(number: int, text: str) -> Block:
    record = ChunkRecord(
        chunk_id=f"chunk-{text[:6].lower()}", source_id=number, source_title=text.split()[0], original_name="a.md",
        audience="public", updated_on=dt.date(2025, 1, 20), heading_path=(), line_start=1, line_end=2, text=text,
        token_count=len(text.split()), fingerprint=text,
    )
    return Block(number=number, record=record, score=1.0, text=text)


def body(question: str, *texts: str) -> dict:
    """The request Claude's generator sends for these blocks, numbered 1.. in the order given."""
    prompt = build_prompt(question, tuple(block(n, text) for n, text in enumerate(texts, start=1)))
    return {"model": "m", "max_tokens": 100, "system": prompt.system,
            "messages": [{"role": "user", "content": prompt.user}]}


def case(*sentences: ScriptedSentence, question: str = "How long do refunds take?", held_out: bool = False,
         id: str = "refunds") -> ReplayCase:
    return ReplayCase(id=id, question=question, audience="public", held_out=held_out, sentences=sentences)


REFUND_TRUE = ScriptedSentence("A refund takes 5-7 business days [[processed within 5-7 business days]].", "true")
REFUND_SWAP = ScriptedSentence("A refund takes 30 days [[processed within 5-7]].", "number_swap", "5-7 days")


def test_citation_quote_resolves_to_whatever_number_its_block_got_in_this_prompt():
    replayer = Replayer([case(REFUND_TRUE)])
    first = "".join(replayer(body("How long do refunds take?", REFUNDS, TRASH)).pieces)
    again = Replayer([case(REFUND_TRUE)])
    second = "".join(again(body("How long do refunds take?", TRASH, "Office hours are nine to five.", REFUNDS)).pieces)

    assert first == "A refund takes 5-7 business days [1]."
    assert second == "A refund takes 5-7 business days [3]."
    assert replayer.streamed["refunds"][0].cited == (1,)


def test_second_request_of_a_case_is_answered_with_the_plain_refusal():
    replayer = Replayer([case(REFUND_TRUE)])
    replayer(body("How long do refunds take?", REFUNDS))

    assert replayer(body("How long do refunds take?", REFUNDS)).pieces == (REFUSAL,)


def test_quote_of_a_chunk_not_issued_is_a_problem_and_its_marker_is_left_out():
    resolved = resolve_sentence(REFUND_TRUE, {1: TRASH})

    assert resolved.text == "A refund takes 5-7 business days."
    assert resolved.problems == ("no issued block holds 'processed within 5-7 business days'",)


def test_quote_found_in_two_blocks_asks_for_more_words():
    sentence = ScriptedSentence("Kept for 30 days [[30 days]].", "true")

    resolved = resolve_sentence(sentence, {1: TRASH, 2: "Kept 30 days."})

    assert resolved.cited == () and "blocks 1, 2 all hold '30 days'" in resolved.problems[0]


def shown(text: str, chunk_id: str = "chunk-refund", quote: str = REFUNDS) -> SentenceVerified:
    return SentenceVerified(text, (ChunkRef(1, chunk_id, "Refunds", None, SupportSpan(0, len(quote), (1,), quote)),))


def summary_of(*events) -> AnswerSummary:
    summary = AnswerSummary("q")
    for event in events:
        summary.add(event)
    return summary


def test_outcomes_are_counted_by_label_and_part_and_only_the_dev_parts_wrong_ones_named():
    trash_true = ScriptedSentence("Trash keeps files 30 days [[kept in the trash for 30 days]].", "true")
    trash_negation = ScriptedSentence("Trash never keeps files [[kept in the trash]].", "negation")
    cases = [case(REFUND_TRUE, REFUND_SWAP), case(trash_true, trash_negation, question="Trash?", id="trash",
                                                  held_out=True)]
    replayer = Replayer(cases)
    replayer(body("How long do refunds take?", REFUNDS))
    replayer(body("Trash?", TRASH))
    summaries = [
        summary_of(shown("A refund takes 5-7 business days."), shown("A refund takes 30 days.")),
        summary_of(SentenceDropped("Trash keeps files 30 days.", ("[1] shares 0.10 of its terms",)),
                   SentenceDropped("Trash never keeps files.", ("[1] states no negation",))),
    ]

    run = judge_replay(cases, summaries, replayer.streamed, path="set.jsonl")

    dev = {c.label: (c.delivered, c.sentences) for c in run.counts(DEV)}
    held_out = {c.label: (c.delivered, c.sentences) for c in run.counts(HELD_OUT)}
    assert (dev["true"], dev["number_swap"], dev["negation"]) == ((1, 1), (1, 1), (0, 0))
    assert (held_out["true"], held_out["negation"]) == ((0, 1), (0, 1))
    assert run.floor_values()["max_replay_number_swap_delivered"] == 1
    assert run.floor_values()["min_replay_true_delivered"] == 1.0  # the floor judges the dev part only
    assert [(o.case_id, o.label, o.reasons) for o in run.wrong] == [("refunds", "number_swap", ())]
    assert run.held_out_wrong == 1  # the held-out true sentence dropped: counted, never named
    assert run.wrong[0].spans == (REFUNDS,) and run.problems == ()


def test_unissued_chunk_and_a_question_refused_before_generation_are_problems_never_counted():
    cases = [case(REFUND_TRUE), case(REFUND_TRUE, question="Trash?", id="never-asked")]
    replayer = Replayer(cases)
    replayer(body("How long do refunds take?", TRASH))

    run = judge_replay(cases, [summary_of(SentenceDropped("A refund takes 5-7 business days.", ("no citation",))),
                               summary_of()], replayer.streamed, path="set.jsonl")

    assert run.outcomes == ()
    assert run.problems == (
        "refunds: 'A refund takes 5-7 business days.': no issued block holds 'processed within 5-7 business days'",
        "never-asked: the model was never asked (the answer ended failed before generation)",
    )


@pytest.mark.parametrize(
    ("sentence", "error"),
    [
        ({"text": "Refunds take 5-7 days [[5-7]].", "label": "maybe"}, "'label' must be one of"),
        ({"text": "Refunds take 5-7 days.", "label": "true"}, "must end with its [[quote]] citations"),
        ({"text": "Refunds [[5-7]] take 5-7 days.", "label": "true"}, "must end with its [[quote]] citations"),
        ({"text": "Refunds are fast. They take 5-7 days [[5-7]].", "label": "true"}, "more than one sentence"),
    ],
)
def test_a_sentence_that_cannot_be_replayed_as_written_is_refused(sentence, error):
    raw = json.dumps({"id": "a", "question": "q?", "audience": "public", "held_out": False, "sentences": [sentence]})

    with pytest.raises(ValueError, match=error.replace("[", r"\[")):
        parse_replay_case(raw)


def test_replay_file_errors_name_the_line(tmp_path):
    path = tmp_path / "set.jsonl"
    line = {"id": "a", "question": "Q?", "audience": "public", "held_out": False,
            "sentences": [{"text": "A fact [[fact]].", "label": "true"}]}
    path.write_text(json.dumps(line) + "\n" + json.dumps({**line, "id": "b", "question": " Q? "}) + "\n")

    with pytest.raises(ReplayError, match=r"set.jsonl, line 2: question already used on line 1"):
        load_replay(path)


def test_demo_replay_set_is_large_and_balanced_and_every_false_sentence_says_what_the_document_states():
    cases = load_replay(DEMO_REPLAY)
    labels = Counter(s.label for c in cases for s in c.sentences)

    assert sum(labels.values()) >= 60 and labels["true"] / sum(labels.values()) >= 0.4
    assert all(labels[kind] >= 5 for kind in FALSE_KINDS), labels
    assert all(s.note for c in cases for s in c.sentences if not s.truth)


def test_spent_held_out_parts_are_dev_rows_that_name_the_commit_they_were_written_in():
    rows = [json.loads(line) for line in DEMO_REPLAY.read_text().splitlines() if line.strip()]

    assert not any(row.get("was_held_out") and row["held_out"] for row in rows)
    # b448dc2 .. 13fc4cd
    assert sum(bool(row.get("was_held_out")) for row in rows) == (
        18 + 24 + 24 + 27 + 29 + 26 + 34 + 37 + 35 + 58 + 48 + 52)
    # Each part written in a commit (ids, cases, sentences) was run once on merged main and is spent: 1967084 on
    # f9aa6a3, 0e8f959 on 0e8c9c6, 4f13135 on 520545e, ed44053 on 8542d04, 78a3d75 on 85c60a6, bcb4efb on bd1feba,
    # ca35242 on fde0d4b, 13fc4cd on ed92783.
    for commit, prefix, cases, sentences in SPENT_PARTS:
        spent = [row for row in rows if row.get("held_out_at") == commit]
        assert len(spent) == cases and sum(len(row["sentences"]) for row in spent) == sentences, commit
        assert prefix is None or all(row["id"].startswith(prefix) for row in spent), commit


SPENT_PARTS = (  # commit, id prefix (None: the first part had none), cases, sentences
    ("1967084", None, 29, 237),
    ("0e8f959", "h7-", 26, 240),
    ("4f13135", "h8-", 34, 305),
    ("ed44053", "h9-", 37, 307),
    ("78a3d75", "h10-", 35, 290),
    ("bcb4efb", "h11-", 58, 341),
    ("ca35242", "h12-", 48, 292),
    ("13fc4cd", "h13-", 52, 299),
)


def test_demo_replay_set_holds_out_a_fresh_part_of_25_cases_and_200_sentences_across_every_label():
    held_out = [c for c in load_replay(DEMO_REPLAY) if c.held_out]

    assert len(held_out) >= 25 and sum(len(c.sentences) for c in held_out) >= 200
    assert all(c.id.startswith("h14-") for c in held_out)  # the part written on branch fix/replay15
    assert {s.label for c in held_out for s in c.sentences} == set(LABELS)


TRASH_CASE = {"id": "trash", "question": "How long are deleted files kept in the trash?", "audience": "public",
              "held_out": False, "sentences": [
                  {"text": "Files you delete are kept in the trash for 30 days [[kept in the trash for 30 days]].",
                   "label": "true"},
                  {"text": "Deleted files are kept in the trash for 90 days [[kept in the trash for 30 days]].",
                   "label": "number_swap", "note": "30 days"}]}


def replay_file(tmp_path: Path, *cases: dict) -> str:
    path = tmp_path / "replay.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in cases))
    return str(path)


@pytest.mark.django_db(transaction=True)
def test_scripted_answer_goes_through_claudes_path_against_the_fake_server(ingest, filler):
    ingest("trash.md", "# Trash\n\nDeleted files are kept in the trash for 30 days.\n\nOwners can empty the trash.\n")
    cases = (parse_replay_case(json.dumps(TRASH_CASE)),)

    run = run_replay(cases, config=pipeline_config(), claude=claude_settings(), path="replay.jsonl")

    assert [(o.label, o.delivered) for o in run.outcomes] == [("true", True), ("number_swap", False)]
    assert run.outcomes[0].cited == ("trash-v1-c01",) and run.outcomes[0].spans == (
        "Deleted files are kept in the trash for 30 days.",
    )
    assert "90" in run.outcomes[1].reasons[0] and run.problems == ()


def evaluate(*args: str) -> str:
    out = StringIO()
    call_command("evaluate", "--golden", GOLDEN, "--corpus", CORPUS, *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_evaluate_replay_prints_and_writes_the_figures_and_fails_on_a_chunk_not_issued(tmp_path):
    unissued = {**TRASH_CASE, "id": "unissued", "question": "How long does a refund take to process?",
                "sentences": TRASH_CASE["sentences"][:1]}
    out = StringIO()

    with pytest.raises(CommandError, match=r"the replay could not judge 1 of its items \(see 'not judged'\)"):
        call_command("evaluate", "--golden", GOLDEN, "--corpus", CORPUS, "--replay",
                     replay_file(tmp_path, TRASH_CASE, unissued), "--json", str(tmp_path / "out.json"),
                     "--report", str(tmp_path / "report"), stdout=out)

    data = json.loads((tmp_path / "out.json").read_text())["replay"]
    assert data["counts"]["dev"]["true"] == {"sentences": 1, "delivered": 1}
    assert data["counts"]["all"]["number_swap"] == {"sentences": 1, "delivered": 0}
    assert data["problems"] == [
        "unissued: 'Files you delete are kept in the trash for 30 days.': no issued block holds "
        "'kept in the trash for 30 days'"
    ]
    assert "number_swap        0/1             0/0                  0/1" in out.getvalue()
    assert "## Replay of scripted model answers" in (tmp_path / "report" / "report.md").read_text()


@pytest.mark.django_db(transaction=True)
def test_replay_floor_is_checked_only_for_the_metrics_the_floor_file_names(tmp_path):
    swapped_label = {**TRASH_CASE, "sentences": [{**TRASH_CASE["sentences"][0], "label": "entity_swap", "note": "x"}]}
    floor = tmp_path / "floor.json"
    floor.write_text(json.dumps({"max_replay_number_swap_delivered": 0, "min_replay_true_delivered": 1.0}))

    evaluate("--replay", replay_file(tmp_path, TRASH_CASE), "--floor", str(floor))  # passes: 1/1 true, 0 swaps
    floor.write_text(json.dumps({"max_replay_number_swap_delivered": 0}))
    unchecked = evaluate("--replay", replay_file(tmp_path, swapped_label), "--floor", str(floor))
    floor.write_text(json.dumps({"max_replay_entity_swap_delivered": 0}))
    with pytest.raises(CommandError, match="replay_entity_swap_delivered is 1, over the floor 0"):
        evaluate("--replay", replay_file(tmp_path, swapped_label), "--floor", str(floor))

    assert "entity_swap        1/1" in unchecked


def test_replay_floor_without_a_replay_file_is_refused(tmp_path):
    floor = tmp_path / "floor.json"
    floor.write_text(json.dumps({"max_replay_negation_delivered": 0}))

    with pytest.raises(CommandError, match="max_replay_negation_delivered, which need --replay FILE"):
        call_command("evaluate", "--golden", GOLDEN, "--floor", str(floor), stdout=StringIO())


def test_replay_question_the_site_would_refuse_is_a_command_error_naming_the_line(tmp_path, settings):
    settings.RAG_MAX_QUESTION_CHARS = 20
    golden = tmp_path / "golden.jsonl"
    golden.write_text(json.dumps({"id": "g", "question": "Trash?", "audience": "public", "expect": "answered",
                                  "sources": [], "facts": []}) + "\n")
    path = replay_file(tmp_path, {**TRASH_CASE, "id": "short", "question": "Trash?"}, TRASH_CASE)

    with pytest.raises(CommandError, match=rf"{path}, line 2: The question is 45 characters long; the limit is 20"):
        call_command("evaluate", "--golden", str(golden), "--replay", path, stdout=StringIO())
