"""manage.py loadtest: loopback only, fragments read as the page reads them, and a real run against daphne."""
import asyncio
import contextlib
import io
import json
import random
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest
from django.core.management import CommandError, call_command

from answers.bench.load import (
    CEILING_ROUNDS,
    DEMO_QUESTIONS,
    AnswerTiming,
    Frame,
    LoadPlan,
    LoadReport,
    NotLoopback,
    ceiling_plans,
    ceiling_unreachable,
    loopback_target,
    merge_rounds,
    percentile,
    read_frame,
    run_with_ceiling,
    share_of_ceiling,
)
from answers.pipeline.events import AnswerDone, ChunkRef, SentenceVerified
from answers.present.fragments import render_event, render_notice, render_turn
from answers.testing.live_server import running_daphnes


def loadtest_alone(*args, **options) -> None:
    """manage.py loadtest without the ceiling run (these servers do not mount ws/echo/)."""
    call_command("loadtest", "--no-ceiling", *args, **options)


@pytest.mark.parametrize(
    ("url", "ws_url", "origin"),
    [
        ("http://127.0.0.1:8000", "ws://127.0.0.1:8000/ws/chat/", "http://127.0.0.1:8000"),
        ("http://127.0.0.2:9000/", "ws://127.0.0.2:9000/ws/chat/", "http://127.0.0.2:9000"),
        ("https://[::1]:8443", "wss://[::1]:8443/ws/chat/", "https://[::1]:8443"),
        ("http://localhost:8000", "ws://localhost:8000/ws/chat/", "http://localhost:8000"),
    ],
)
def test_loopback_urls_give_the_socket_and_the_origin_the_page_would_send(url, ws_url, origin):
    target = loopback_target(url)

    assert (target.ws_url, target.origin) == (ws_url, origin)


@pytest.mark.parametrize(
    "url", ["http://example.com", "http://10.0.0.5:8000", "http://0.0.0.0:8000", "ftp://127.0.0.1"]
)
def test_other_urls_are_refused(url):
    with pytest.raises(NotLoopback):
        loopback_target(url)


def test_command_refuses_a_remote_url_by_name():
    with pytest.raises(CommandError, match="example.com is not a loopback address"):
        loadtest_alone("--url", "http://example.com", stdout=io.StringIO())


def test_the_empty_notice_that_clears_old_ones_is_not_an_error():
    assert read_frame(render_notice("")) == Frame(events=())
    assert read_frame(render_notice("Please wait until the current answer has finished.")).notice == (
        "Please wait until the current answer has finished."
    )


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        (
            '<div id="answer-t1" hx-swap-oob="beforeend" data-event="sentence"><p data-event="sentence">A.</p></div>',
            Frame(("sentence", "sentence")),
        ),
        ('<p class="status status-answered" id="status-t1" data-event="done">End.</p>', Frame(("done",), "answered")),
        ('<p class="status status-refused" id="status-t1" data-event="done">End.</p>', Frame(("done",), "refused")),
        (
            '<div class="refusal" id="refusal-t1" data-event="refusal" data-kind="no_material"></div>',
            Frame(("refusal",)),
        ),
        ('<div class="error" id="error-t1" data-event="error">Cut off.</div>', Frame(())),
        ("<p>no event</p>", Frame(())),
    ],
)
def test_fragments_are_read_by_their_events(html, expected):
    assert read_frame(html) == expected


def test_one_frame_may_carry_a_whole_answer():
    turn = render_turn("t1", "How long?")
    answer = render_event("t1", SentenceVerified("Thirty days.", (ChunkRef(1, "trash-v1-c01", "Trash", None),)))
    done = render_event("t1", AnswerDone("answered", {}, {}, "extractive"))

    frame = read_frame(render_notice("") + turn + answer + done)

    assert (frame.events[0], frame.events[-1], frame.status, frame.notice) == ("turn", "done", "answered", "")
    assert "sentence" in frame.events


def test_clients_are_spread_over_the_workers_in_turn():
    first, second = loopback_target("http://127.0.0.1:8000"), loopback_target("http://127.0.0.1:8001")
    plan = LoadPlan(targets=(first, second), clients=3, questions=1)

    assert [plan.target(n) for n in range(3)] == [first, second, first]


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 101)]

    assert (percentile(values, 50), percentile(values, 95), percentile(values, 99)) == (50.0, 95.0, 99.0)
    assert percentile([], 95) is None


def test_demo_questions_are_distinct():
    assert len(set(DEMO_QUESTIONS)) == len(DEMO_QUESTIONS) >= 10


@pytest.fixture
def site_url(transactional_db, settings, monkeypatch) -> Iterator[str]:
    """A real daphne on the test database with the demo corpus and the default rate limits (20 and 60 a minute),
    whose limits count by a clock stopped in the middle of one minute, so a run never straddles two windows."""
    stopped = (time.time() // 60) * 60 + 30
    monkeypatch.setattr("answers.limits.rates.wall_clock", lambda: stopped)  # the forked server inherits it
    call_command("load_demo", stdout=io.StringIO())
    settings.RAG_RATE_LIMIT, settings.RAG_ADDRESS_RATE_LIMIT = 20, 60  # on: each client counts as its address
    with running_daphnes(1, on_timeout=pytest.fail) as (url,):
        yield url


def fresh_source() -> str:
    """A loopback address no other test or run used (counters may live in a Redis shared by several runs)."""
    return f"127.{random.randrange(1, 255)}.{random.randrange(256)}.1"


def test_small_load_against_a_real_server_answers_every_question(site_url):
    out = io.StringIO()

    with contextlib.suppress(SystemExit):  # exit status 1 on errors: the figures below say which
        loadtest_alone("--url", site_url, "--clients", "5", "--questions", "2", "--json", "--timeout", "20",
                     "--deadline", "60", "--source-address", fresh_source(), stdout=out)

    figures = json.loads(out.getvalue())
    assert {"first_sentence_p50_ms", "first_sentence_p95_ms", "done_p95_ms", "errors", "answers_per_s"} <= set(figures)
    assert figures["errors"] == 0, (figures["error_kinds"], figures["error_examples"])
    assert figures["answered"] == 10
    assert 0 < figures["first_sentence_p50_ms"] <= figures["first_sentence_p95_ms"] <= figures["done_p95_ms"]
    assert figures["answers_per_s"] > 0


def test_a_run_against_two_workers_answers_every_question(transactional_db, settings):
    call_command("load_demo", stdout=io.StringIO())
    out = io.StringIO()

    with running_daphnes(2, on_timeout=pytest.fail) as (one, other):
        loadtest_alone("--url", one, "--url", other, "--clients", "4", "--questions", "1", "--json",
                     stdout=out)

    figures = json.loads(out.getvalue())
    assert (figures["answered"], figures["errors"]) == (4, 0)
    assert figures["url"] == f"{one}/ {other}/"


def test_text_report_names_the_figures(site_url):
    out = io.StringIO()

    loadtest_alone("--url", site_url, "--clients", "2", "--questions", "1", "--source-address",
                 fresh_source(), stdout=out)

    assert "first verified sentence  p50" in out.getvalue()
    assert "answers/s" in out.getvalue()


def test_a_rate_limited_question_counts_as_an_error_and_fails_the_run(site_url):
    out = io.StringIO()

    with pytest.raises(SystemExit) as exit_:
        loadtest_alone("--url", site_url, "--clients", "1", "--questions", "21", "--json",
                     "--source-address", fresh_source(), stdout=out)

    figures = json.loads(out.getvalue())
    assert exit_.value.code == 1
    assert (figures["answered"], figures["errors"], figures["error_kinds"]) == (20, 1, {"notice": 1})
    assert "questions in the last minute" in figures["error_examples"][0]



def test_a_flooder_with_a_session_per_socket_is_stopped_by_its_address_limit(site_url):
    out = io.StringIO()

    with pytest.raises(SystemExit):  # refused questions are errors
        loadtest_alone("--url", site_url, "--mint-sessions", "--clients", "4", "--questions", "20", "--json",
                     "--source-address", fresh_source(), "--timeout", "20", "--deadline", "120", stdout=out)

    figures = json.loads(out.getvalue())
    # Each socket's page starts a session of its own (conversations and ratings need one), so each is a caller with
    # its own 20 a minute; all four still count against their one address, whose 60 a minute stop the rest.
    assert (figures["answered"], figures["error_kinds"]) == (60, {"notice": 20})
    assert "60 questions have been asked from your network address in the last minute" in figures["error_examples"][0]


def test_clients_from_distinct_source_addresses_are_distinct_visitors(site_url):
    out = io.StringIO()
    first = fresh_source()

    loadtest_alone("--url", site_url, "--clients", "4", "--questions", "20", "--json",
                 "--source-address", first, "--spread-addresses", "--timeout", "20", "--deadline", "120", stdout=out)

    figures = json.loads(out.getvalue())
    assert (figures["answered"], figures["errors"]) == (80, 0)  # one address would have had 20 answered


def test_source_addresses_must_stay_on_loopback():
    with pytest.raises(CommandError, match="leave 127.0.0.0/8"):
        loadtest_alone("--url", "http://127.0.0.1:1", "--clients", "3", "--spread-addresses",
                     "--source-address", "127.255.255.254", stdout=io.StringIO())


@pytest.mark.parametrize(
    ("answers", "ceiling", "share"),
    [(50.0, 100.0, 0.5), (123.4, 1000.0, 0.123), (80.0, 0.0, None)],
)
def test_share_of_ceiling_is_answers_per_second_over_the_ceilings(answers, ceiling, share):
    assert share_of_ceiling(answers, ceiling) == share


def test_the_ceiling_runs_the_answers_plan_against_the_echo_in_rounds():
    plan = LoadPlan(targets=(loopback_target("http://127.0.0.1:8000"),), clients=100, questions=5,
                    spread_sources=True, mint_sessions=True)

    rounds = ceiling_plans(plan)

    # The same clients, questions per connect and connect path: only the socket differs, never the questions.
    assert rounds == (replace(plan, echo=True),) * CEILING_ROUNDS
    assert {(r.clients, r.questions, r.source_of(99)) for r in rounds} == {(100, 5, "127.0.0.101")}


def report_of(plan: LoadPlan, answered: int, wall_s: float, asking_s: float, connects: int) -> LoadReport:
    """A report of `answered` answers and one failed question, as run_load writes it."""
    timings = (AnswerTiming("answered", 0.01, 0.02),) * answered + (AnswerTiming("timeout"),)
    return LoadReport(plan, timings, (0.015,) * connects, wall_s, asking_s)


def test_rounds_merge_into_their_timings_and_summed_times():
    plan = LoadPlan(targets=(loopback_target("http://127.0.0.1:8000"),), clients=2, questions=2, echo=True)
    first, second = report_of(plan, 3, 2.0, 1.5, 2), report_of(plan, 3, 4.0, 2.5, 2)

    merged = merge_rounds([first, second]).as_json()

    assert (merged["answered"], merged["errors"], merged["rounds"], merged["questions_per_client"]) == (6, 2, 2, 2)
    assert (merged["wall_s"], merged["asking_s"]) == (6.0, 4.0)
    assert (merged["answers_per_s"], merged["asking_answers_per_s"]) == (1.0, 1.5)  # 6 / 6 s and 6 / 4 s


def test_a_run_with_the_ceiling_asks_every_round_then_the_answers():
    plan = LoadPlan(targets=(loopback_target("http://127.0.0.1:8000"),), clients=2, questions=3)
    asked: list[LoadPlan] = []

    async def run(p: LoadPlan) -> LoadReport:
        asked.append(p)
        return report_of(p, 6, 1.0 if p.echo else 3.0, 0.5 if p.echo else 2.0, p.clients)

    figures = asyncio.run(run_with_ceiling(plan, run=run)).as_json()

    assert [p.echo for p in asked] == [True] * CEILING_ROUNDS + [False]
    assert {p.questions for p in asked} == {3}
    assert (figures["ceiling"]["answered"], figures["ceiling"]["wall_s"]) == (6 * CEILING_ROUNDS, CEILING_ROUNDS)
    assert figures["ceiling"]["answers_per_s"] == 6.0  # 60 over 10 s, one round's rate
    assert (figures["share_of_ceiling"], figures["asking_share_of_ceiling"]) == (0.333, 0.25)  # 2/6, 3/12


def test_a_ceiling_round_no_client_could_open_ends_the_run_before_the_answers():
    plan = LoadPlan(targets=(loopback_target("http://127.0.0.1:8000"),), clients=2, questions=1)
    asked: list[LoadPlan] = []

    async def run(p: LoadPlan) -> LoadReport:
        asked.append(p)
        return LoadReport(p, (AnswerTiming("connect"),) * 2, (), 0.1)

    report = asyncio.run(run_with_ceiling(plan, run=run))

    assert len(asked) == 1 and ceiling_unreachable(report.ceiling)


def test_a_ceiling_no_client_could_open_is_unreachable():
    plan = LoadPlan(targets=(loopback_target("http://127.0.0.1:8000"),), clients=2, questions=1)
    refused = LoadReport(plan, (AnswerTiming("connect"),) * 2, (), 1.0)
    answered = LoadReport(plan, (AnswerTiming("connect"), AnswerTiming("answered", 0.1, 0.1)), (), 1.0)

    assert (ceiling_unreachable(refused), ceiling_unreachable(answered)) == (True, False)


def test_an_echo_plan_opens_the_echo_socket():
    plan = LoadPlan(targets=(loopback_target("http://127.0.0.1:8000"),), clients=1, questions=1, echo=True)

    assert plan.ws_url(0) == "ws://127.0.0.1:8000/ws/echo/"


def echo_site(static_wrapper=None):
    """The site with ws/echo/ mounted, as workers started with RAG_LOADTEST_ECHO=1 serve it."""
    from channels.routing import ProtocolTypeRouter

    from answers.routing import websocket_urls
    from answers.services import choose_generator
    from rag_site import asgi

    return ProtocolTypeRouter({
        "http": asgi.application.application_mapping["http"],
        "websocket": asgi.websocket_application(websocket_urls(choose_generator, echo=True)),
    })


def test_a_run_measures_the_ceiling_and_the_answers_against_the_same_worker(transactional_db, settings):
    call_command("load_demo", stdout=io.StringIO())
    out = io.StringIO()

    with running_daphnes(1, application=echo_site, on_timeout=pytest.fail) as (url,):
        call_command("loadtest", "--url", url, "--clients", "3", "--questions", "1", "--json",
                     "--source-address", fresh_source(), stdout=out)

    figures = json.loads(out.getvalue())
    assert (figures["ceiling"]["answered"], figures["ceiling"]["errors"], figures["ceiling"]["rounds"]) == (30, 0, 10)
    assert figures["ceiling"]["questions_per_client"] == figures["answers"]["questions_per_client"] == 1
    assert (figures["answers"]["answered"], figures["answers"]["errors"]) == (3, 0)
    assert figures["share_of_ceiling"] == share_of_ceiling(
        figures["answers"]["answers_per_s"], figures["ceiling"]["answers_per_s"]
    )
    assert figures["share_of_ceiling"] > 0


def test_a_run_against_workers_without_the_echo_says_how_to_mount_it(site_url):
    with pytest.raises(CommandError, match="RAG_LOADTEST_ECHO=1"):
        call_command("loadtest", "--url", site_url, "--clients", "1", "--questions", "1",
                     "--source-address", fresh_source(), stdout=io.StringIO())
