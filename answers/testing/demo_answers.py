"""The fake server's demo answers: parse the evidence blocks and question of a prompt, answer from them."""
import re
from typing import Any

_HEADER = re.compile(r"^\[(\d+)\][^\n]*$", re.M)
_OPEN = re.compile(r"<\s*untrusted_document\s*>", re.I)
_CLOSE = re.compile(r"<\s*/\s*untrusted_document\s*>", re.I)
_QUESTION = re.compile(r"^Question:[ \t]*(.*?)(?:\n[ \t]*\n|\Z)", re.M | re.S)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
_STOPWORDS = frozenset(
    "a about after all an and any are as at be been before but by can could did do does for from had has have how "  # noqa: SIM905 (a word list reads best as one string)
    "i if in into is it its may me my no not of on or our should so than that the their them then there these they "
    "this those to too under up us was we were what when where which who whom why will with would you your".split()
)
REFUSAL = "The documents do not answer this question."


def parse_blocks(text: str) -> dict[int, str]:
    """The numbered evidence blocks: each `[n] ...` header line, then the text inside the next delimiters."""
    blocks: dict[int, str] = {}
    headers = list(_HEADER.finditer(text))
    for index, header in enumerate(headers):
        opening = _OPEN.search(text, header.end())
        if opening is None:
            continue
        # A header-like line inside a document's text is followed by the next real header before any delimiter.
        following = headers[index + 1].start() if index + 1 < len(headers) else len(text)
        if following < opening.start():
            continue
        closing = _CLOSE.search(text, opening.end())
        if closing is not None:
            blocks.setdefault(int(header.group(1)), text[opening.end() : closing.start()].strip())
    return blocks


def parse_question(text: str) -> str:
    """The text after the last `Question:` line, up to the end of its paragraph."""
    matches = _QUESTION.findall(text)
    return " ".join(matches[-1].split()) if matches else ""


def _answer(blocks: dict[int, str], question: str) -> str:
    asked = _words(question)
    scored = sorted(
        ((len(asked & _words(sentence)), -position, number, sentence)
         for position, (number, sentence) in enumerate(_sentences(blocks))),
        reverse=True,
    )
    chosen = [entry for entry in scored[:1] if entry[0] >= 2]
    if chosen and re.search(r"\band\b", question, re.I):
        chosen += [entry for entry in scored if entry[0] >= 2 and entry[2] != chosen[0][2]][:1]
    if not chosen:
        return REFUSAL
    return " ".join(_with_marker(sentence, number) for _, _, number, sentence in chosen)


def _sentences(blocks: dict[int, str]) -> list[tuple[int, str]]:
    """Each block's sentences (a line break also ends one), verbatim, with their block numbers."""
    return [
        (number, piece.strip())
        for number, text in blocks.items()
        for piece in _SENTENCE_END.split(text)
        if piece.strip()
    ]


def _with_marker(sentence: str, number: int) -> str:
    """The sentence without list or heading marks, its marker before the full stop: `... days [2].`"""
    return f"{sentence.lstrip('#*->• ').rstrip('.!?;:, ')} [{number}]."


def _words(text: str) -> set[str]:
    words = (word for word in _WORD.findall(text.lower()) if word not in _STOPWORDS)
    return {word[:-1] if len(word) > 3 and word.endswith("s") else word for word in words}


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def last_user_text(body: dict[str, Any]) -> str:
    users = [m for m in body.get("messages", []) if isinstance(m, dict) and m.get("role") == "user"]
    return text_of(users[-1].get("content")) if users else ""


def system_text(body: dict[str, Any]) -> str:
    return text_of(body.get("system", ""))


def is_compression(body: dict[str, Any]) -> bool:
    """Whether the request is the small model's compression call."""
    return bool(re.search(r"compress|keep only", system_text(body), re.I))


def demo_answer(body: dict[str, Any]) -> str:
    """The demo text for a request: the relevant sentences for compression, else a cited answer."""
    user = last_user_text(body)
    blocks = parse_blocks(user)
    question = parse_question(user)
    if is_compression(body):
        return " ".join(sentence for _, sentence in _sentences(blocks) if _words(sentence) & _words(question))
    return _answer(blocks, question)
