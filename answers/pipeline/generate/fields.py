"""The term a line of a reference page defines, as the text model stores definition lists, parameter lists and API
signatures: the term first, then its description on the same line.

- `shared_buffers (integer): Sets the amount of memory ...` (a definition list's term and its first paragraph);
- `cached_statements (int) – The number of statements ...` (a parameter list's item; "Parameters: " may lead);
- `json.dumps(obj, *, skipkeys=False, indent=None, ...): Serialize obj ...` (a signature, its name the term).

A description that goes on in the next lines (a second paragraph of the same definition) keeps its term until a line
defines another; a signature's name stays above the parameter items that follow it. A signature's `name=value`
parameters state their defaults: `parameter_defaults` reads them.
"""
import re
from dataclasses import dataclass

MAX_TERM_WORDS = 6
MAX_TERM_CHARS = 80
# "Parameters: x (int) – ...", "Raises: ...": a one- or two-word label before the term.
_LABEL = re.compile(r"^[A-Z][a-z]+(?: [a-z]+)?:\s+(?=\S+(?: \([^()]*\))? [–—] )")
_TERM = re.compile(r"^(?P<term>[^\s:–—][^\n]*?)(?::| [–—]) \S")
_SIGNATURE = re.compile(r"^(?:(?:class|exception|async|await|coroutine|abstractmethod|classmethod|staticmethod)\s+|@)*"
                        r"(?P<name>[A-Za-z_][\w.]*)\(")
_PARAMETER = re.compile(r"(?:^|[(,*]\s*)(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>'[^']*'|\"[^\"]*\"|[^,()\[\]]+)")
_SENTENCE_END = re.compile(r"[.!?]\s")
# A sentence that happens to hold a colon early ("If you do this: ..."), or a label ("Default: 1209600", "Note: ...",
# "Return type: int"): not a term; a label's line keeps the term above it.
_NOT_TERM = re.compile(
    r"^(?:(?:if|when|to|for|in|on|at|as|after|before|while|since|because|with|without|by|from|then|so|but|and|or|"
    r"this|that|these|those|there|here|it|you|we|they|see|e\.g|i\.e)\b)",
    re.I,
)
_LABEL_ONLY = re.compile(r"^[A-Z][a-z]+(?: [a-z]+)?$")
_CLAUSE = re.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|can|could|will|would|must|should|may|might|does|do|did)\b"
)


@dataclass(frozen=True)
class LineTerm:
    """What a line defines: its term's text ("" for none) and, for a signature, the parameters it lists."""

    term: str
    signature: str = ""  # the whole `name(...)` of a signature line


def line_term(line: str) -> LineTerm:
    """The term the line starts by defining, or an empty one."""
    signature = _signature(line)
    if signature:
        return LineTerm(signature.split("(", 1)[0].lstrip("@"), signature)
    rest = _LABEL.sub("", line, count=1)
    match = _TERM.match(rest)
    if match is None:
        return LineTerm("")
    term = match.group("term").strip()
    bare = re.sub(r"\([^()]*\)", " ", term)
    if (
        len(term) > MAX_TERM_CHARS
        or len(bare.split()) > MAX_TERM_WORDS
        or "," in bare
        or _SENTENCE_END.search(term + " ")
        or _NOT_TERM.match(term)
        or _LABEL_ONLY.match(term)
        or _CLAUSE.search(bare)
    ):
        return LineTerm("")
    return LineTerm(term)


def parameter_defaults(signature: str) -> dict[str, str]:
    """The parameters of a signature that have a default, with it: `f(a, b=1, *, c='x')` -> {"b": "1", "c": "'x'"}."""
    inner = signature[signature.find("(") + 1 : signature.rfind(")")]
    return {m.group("name"): m.group("value").strip() for m in _PARAMETER.finditer(inner)}


def _signature(line: str) -> str:
    """The `name(...)` a signature line starts with, its parentheses balanced and followed by ":" (or "-> type:")."""
    match = _SIGNATURE.match(line)
    if match is None:
        return ""
    depth = 0
    quote = ""
    for index in range(match.end() - 1, len(line)):
        char = line[index]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth == 0:
                after = line[index + 1 :]
                if re.match(r"\s*(?:->\s*[^:]{1,40})?:\s", after):
                    return line[match.start("name") : index + 1]
                return ""
    return ""
