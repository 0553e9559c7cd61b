"""An answer as `manage.py ask` prints it: the verified sentences with [n], the cited sources, or the refusal."""
from collections.abc import Iterator
from typing import Any

from answers.generators.fallback import FALLBACK_NAME
from answers.present.fragments import GENERATOR_TEXT


def terminal_lines(data: dict[str, Any]) -> Iterator[str]:
    """The lines of one answer, from its /api/answer object."""
    refusal = data["refusal"]
    if refusal:
        yield f"Refused ({refusal['kind']}): {refusal['message']}"
        for side in refusal["sides"]:
            yield f"  - {side['statement']} ({side['source_title']}, {side['source_updated_on']}, {side['url']})"
            if side["quote"] and _one_line(side["quote"]) != _one_line(side["statement"]):
                yield f"    \"{_one_line(side['quote'])}\""
    for sentence in data["sentences"]:
        markers = "".join(f"[{c['n']}]" for c in sentence["citations"])
        yield f"{sentence['text']} {markers}"
        for citation in sentence["citations"]:  # what it stands on, unless that is the sentence itself (a quote)
            if citation["quote"] and _one_line(citation["quote"]) != _one_line(sentence["text"]):
                yield f"    [{citation['n']}] \"{_one_line(citation['quote'])}\""
    if data["error"]:
        yield f"Note: {data['error']}"
    cited = {c["n"] for s in data["sentences"] for c in s["citations"]}
    sources = [s for s in data["sources"] if s["n"] in cited]
    if sources:
        yield "\nSources:"
        for source in sources:
            yield f"  [{source['n']}] {source['source_title']} - {source['url']} ({source['source_updated_on']})"
    if data["generator"] == FALLBACK_NAME:
        yield f"({GENERATOR_TEXT[FALLBACK_NAME]})"
    yield f"\nstatus: {data['status']}"


def _one_line(text: str) -> str:
    """A quote on one line, as plain text: a span of two sentences may hold a line break, and a document may hold
    control characters that a terminal would act on."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())
