"""Replaying scripted answers through the real model path: ClaudeGenerator and the anthropic SDK against the local
fake Anthropic server, which reads each request's prompt, resolves the scripted citations to its block numbers and
streams the answer as server-sent events; the questions are asked through the site's own entry point."""
import dataclasses
import re
import threading
from collections.abc import Sequence
from typing import Any

from answers.evaluation.replay import ReplayCase, Resolved, question_key, resolve_sentence
from answers.evaluation.replay_metrics import ReplayRun, judge_replay
from answers.evaluation.runner import ask_cases
from answers.generators.claude import ClaudeGenerator, ClaudeSettings
from answers.pipeline.config import PipelineConfig
from answers.testing.demo_answers import REFUSAL, last_user_text, parse_blocks, parse_question
from answers.testing.fake_anthropic import FakeAnthropic, Script, computed

_WORD = re.compile(r"\S+\s*")


class Replayer:
    """The fake server's answer to each request: the scripted answer of the case whose question the prompt asks,
    its citations resolved to the prompt's block numbers, streamed word by word.

    The first request of a case gets its script; a second one (the regeneration after nothing passed) gets the
    plain refusal, so each scripted sentence is judged once. What was streamed for each case is kept in `streamed`.
    """

    def __init__(self, cases: Sequence[ReplayCase]) -> None:
        self.cases = {question_key(case.question): case for case in cases}
        self.streamed: dict[str, tuple[Resolved, ...]] = {}
        self.unknown: list[str] = []
        self._lock = threading.Lock()  # the fake serves each request on a thread of its own

    def __call__(self, body: dict[str, Any]) -> Script:
        user = last_user_text(body)
        question = parse_question(user)
        case = self.cases.get(question)
        with self._lock:
            if case is None:
                self.unknown.append(question)
                return Script((REFUSAL,))
            if case.id in self.streamed:
                return Script((REFUSAL,))
            blocks = parse_blocks(user)
            resolved = tuple(resolve_sentence(sentence, blocks) for sentence in case.sentences)
            self.streamed[case.id] = resolved
        return Script(tuple(_WORD.findall(" ".join(item.text for item in resolved))))


def run_replay(
    cases: Sequence[ReplayCase], *, config: PipelineConfig, claude: ClaudeSettings, path: str = ""
) -> ReplayRun:
    """Ask every case through ClaudeGenerator against a fake server that replays the scripts, and judge each sentence.

    Compression is off (the script answers the answer request; what compression keeps is another evaluation).
    """
    replayer = Replayer(cases)
    with FakeAnthropic(default=computed(replayer)) as fake:
        settings = dataclasses.replace(claude, api_key="replay", base_url=fake.url, compress=False)
        answers = ask_cases(cases, config=config, make_generator=lambda _config: ClaudeGenerator(settings))
    run = judge_replay(cases, [summary for summary, _ in answers], replayer.streamed, path=path)
    if replayer.unknown:
        extra = tuple(f"a prompt asked {question!r}, which no case asks" for question in replayer.unknown)
        run = dataclasses.replace(run, problems=run.problems + extra)
    return run
