"""Verification cost per sentence (§5.6) over a corpus's chunks, with sentences a model could write about them.

Each chunk stands as block [1] of an answer, with the four chunks after it as blocks [2]-[5]. The sentences are
each stored sentence of block [1] (not an instruction, four words or more) as written, with a number changed, with
a name swapped for one from another chunk, with a negation put in, and cited to two blocks: true sentences and false
ones of each kind the verifier checks. The caches a worker keeps between answers are emptied before each answer,
so the figure counts reading every span afresh.
"""
import re
import statistics
import time
from collections.abc import Sequence

from answers.pipeline import bounds, clauses, contradictions, evidence, spans, verify
from answers.pipeline.config import PipelineConfig
from answers.pipeline.records import ChunkRecord
from answers.pipeline.text import synonyms
from answers.pipeline.text.claims import read_claims
from answers.pipeline.text.negating import reword_negations
from answers.pipeline.text.tokens import ENGLISH_STOP_WORDS
from answers.pipeline.types import Block
from answers.pipeline.verify import common_terms, verify_sentence

_BLOCKS = 5
_MIN_WORDS = 4
_NUMBER = re.compile(r"\d+")
_NAME = re.compile(r"(?<=\s)[A-Z][a-z]{3,}\b")


def bench_verify(records: Sequence[ChunkRecord], *, config: PipelineConfig) -> dict[str, float | int]:
    """Time verify_sentence on every written sentence; p50, p95, p99 and max in milliseconds (wall clock), p50 and p95
    of the thread's CPU time (what the verifier costs when the machine is shared), and how many passed."""
    names = sorted(
        {name for record in records for name in _NAME.findall(record.text) if name.lower() not in ENGLISH_STOP_WORDS}
    )
    timings: list[float] = []
    cpu: list[float] = []  # this thread's CPU time: the same work without the waits of a loaded machine
    shown = 0
    for i, record in enumerate(records):
        group = [record, *(records[(i + k) % len(records)] for k in range(1, _BLOCKS))]
        blocks = {n: Block(n, chunk, 1.0, chunk.text) for n, chunk in enumerate(group, start=1)}
        _clear_caches()
        common = common_terms(list(blocks.values()), config=config)
        for sentence in written_sentences(record, names=names):
            start, start_cpu = time.perf_counter(), time.thread_time()
            verdict = verify_sentence(sentence, blocks=blocks, config=config, common=common)
            timings.append((time.perf_counter() - start) * 1000)
            cpu.append((time.thread_time() - start_cpu) * 1000)
            shown += verdict.shown
    ordered = sorted(timings)
    return {
        "chunks": len(records),
        "sentences": len(timings),
        "shown": shown,
        "p50_ms": round(statistics.median(ordered), 3) if ordered else 0.0,
        "p95_ms": round(_percentile(ordered, 0.95), 3),
        "p99_ms": round(_percentile(ordered, 0.99), 3),
        "max_ms": round(ordered[-1], 3) if ordered else 0.0,
        "cpu_p50_ms": round(statistics.median(cpu), 3) if cpu else 0.0,
        "cpu_p95_ms": round(_percentile(sorted(cpu), 0.95), 3),
    }


def written_sentences(record: ChunkRecord, *, names: Sequence[str]) -> list[str]:
    """Sentences about a chunk as a model might write them: true, and false by number, name and negation."""
    written: list[str] = []
    for span in record.sentences:
        text = " ".join(record.text[span.start : span.end].split()).rstrip(".!?:")
        if span.instruction or len(text.split()) < _MIN_WORDS:
            continue
        written += [f"{text} [1].", f"{text} [1][2]."]
        if number := _NUMBER.search(text):
            written.append(f"{text[: number.start()]}{int(number.group()) + 1}{text[number.end() :]} [1].")
        if (name := _NAME.search(text)) and names:
            other = names[(names.index(name.group()) + 1) % len(names)] if name.group() in names else names[0]
            written.append(f"{text[: name.start()]}{other}{text[name.end() :]} [1].")
        words = text.split()
        written.append(" ".join([*words[:2], "not", *words[2:]]) + " [1].")
    return written


def _clear_caches() -> None:
    """Forget every text read for an earlier answer: its spans' claims, terms and evidence."""
    read_claims.cache_clear()
    spans._terms_of.cache_clear()
    spans._sentences_read.cache_clear()
    verify._terms_of.cache_clear()
    evidence._evidence_text.cache_clear()
    bounds._listed_terms.cache_clear()
    contradictions._places.cache_clear()
    clauses._clauses.cache_clear()
    reword_negations.cache_clear()
    synonyms.reword_phrases.cache_clear()
    synonyms._written_phrases.cache_clear()


def _percentile(ordered: list[float], share: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
