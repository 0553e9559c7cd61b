"""Sphinx's roles and directives for docutils, reduced to display text, so Sphinx-built docs parse without Sphinx.

Roles: every interpreted text becomes its text, the way Sphinx shows it: ``:role:`title <target>` `` shows the title,
``~a.b.c`` the last part ("c"), a leading "!" goes; ``:pep:`8` `` reads "PEP 8", ``:rfc:`2616` `` "RFC 2616",
``:ticket:`1234` `` "#1234"; any other role, known or not (``:file:``, ``:setting:``, ``:djadmin:``...), its text.
Directives (registered with docutils under their names, for the whole process, as Sphinx itself does): code
(``code-block``, ``sourcecode``, ``code``, ``console``, ``snippet``, the doctest ones) is a literal block at its
content's lines; ``versionadded``/``versionchanged``/``deprecated``/``versionremoved`` and ``seealso`` put their
label before their first paragraph ("Changed in version 5.0: ..."); object descriptions (``class``, ``method``,
``function``, ``attribute``, ``data``, ``exception``, ``envvar``, ``option``, ``django-admin``...) put their
signature before theirs; a ``toctree`` is the list of pages it links to (titles where given; a hidden one and
glob patterns are dropped: an index page of only a toctree is still a page); targets and state (``index``,
``setting``, ``templatetag``, ``templatefilter``, ``fieldlookup``, ``module``, ``currentmodule``, ``program``,
``highlight``) are dropped; any other directive, known to nobody, keeps its content as text. No directive here
ever reports an error: every option is accepted and arguments are optional.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable
from typing import Any, ClassVar, Final

from docutils import nodes, utils
from docutils.parsers.rst import Directive, directives, states

# A container node's attribute: the text that goes before the first block inside it, as a term does.
TERM: Final = "rag_term"

_TITLE_TARGET: Final = re.compile(r"^(.*?\S)\s*<([^<>]*)>$", re.DOTALL)
_ROLE_PREFIXES: Final[dict[str, str]] = {"pep": "PEP ", "pep-reference": "PEP ", "rfc": "RFC ", "rfc-reference": "RFC ",
                                         "ticket": "#"}


def role_text(role: str, text: str) -> str:
    """How Sphinx shows an interpreted text: the title of `title <target>`, the last part of `~a.b`, and so on."""
    name = role.lower().rsplit(":", 1)[-1]  # "py:class" is "class"
    if (titled := _TITLE_TARGET.match(text)) and name not in ("pep", "rfc"):
        return titled.group(1)
    shown = text.strip()
    if shown.startswith("!"):
        shown = shown[1:]
    if shown.startswith("~"):
        shown = shown[1:].rsplit(".", 1)[-1]
    if name == "menuselection":
        shown = shown.replace("-->", "›")
    elif name == "guilabel":
        shown = re.sub(r"&(?=\w)", "", shown)
    elif name == "samp":
        shown = re.sub(r"(?<!\\)[{}]", "", shown)
    return _ROLE_PREFIXES.get(name, "") + shown


def inliner() -> states.Inliner:
    """docutils' inline parser, with every role read by `role_text` (so none is unknown).

    The method is replaced on the instance: a subclass of Inliner loses the class attributes its patterns are
    built from (`init_customizations` reads `vars(self.__class__)`).
    """
    parser = states.Inliner()
    parser.interpreted = types.MethodType(_interpreted, parser)
    return parser


def _interpreted(self: states.Inliner, rawsource: str, text: str, role: str, lineno: int
                 ) -> tuple[list[nodes.Node], list[Any]]:
    return [nodes.Text(role_text(role, utils.unescape(text)))], []


class _AnyOptions(dict[str, Callable[[str | None], str]]):
    """An option spec that accepts every option, keeping its value as text."""

    def __missing__(self, key: str) -> Callable[[str | None], str]:
        return directives.unchanged

    def __bool__(self) -> bool:
        return True  # docutils reads options only when the spec is truthy


class _Lenient(Directive):
    """A directive that takes anything: one optional argument (the whole line), any options, any content."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def argument(self) -> str:
        return self.arguments[0] if self.arguments else ""

    def content_into(self, container: nodes.Element) -> nodes.Element:
        """Parse the content as reST into the container, keeping its lines."""
        self.state.nested_parse(self.content, self.content_offset, container)
        return container


class Dropped(_Lenient):
    """Targets, navigation and state (toctree, index, setting, module...): nothing to read."""

    def run(self) -> list[nodes.Node]:
        return []


class Toctree(_Lenient):
    """A table of contents: the list of pages a reader sees (titles where given), unless it is hidden."""

    def run(self) -> list[nodes.Node]:
        if "hidden" in self.options:
            return []
        entries = nodes.bullet_list()
        for index, raw in enumerate(self.content):
            entry = raw.strip()
            if not entry or "*" in entry:  # a glob pattern names no page
                continue
            paragraph = nodes.paragraph(entry, role_text("doc", entry))
            paragraph.line = self.content_offset + index + 1
            entries += nodes.list_item("", paragraph)
        return [entries] if entries.children else []


class Code(_Lenient):
    """code-block, sourcecode, console, snippet...: the content as a literal block at its own lines."""

    def run(self) -> list[nodes.Node]:
        text = "\n".join(self.content)
        if not text.strip():
            return []
        block = nodes.literal_block(text, text)
        block.line = self.content_offset + 1
        return [block]


class Content(_Lenient):
    """A directive known to nobody here (or glossary, only...): its content, read as reST."""

    def run(self) -> list[nodes.Node]:
        return [self.content_into(nodes.container())] if self.content else []


class Labelled(_Lenient):
    """versionadded and kin, seealso: the label (with the version) before the first paragraph."""

    labels: ClassVar[dict[str, str]] = {
        "versionadded": "Added in version", "versionchanged": "Changed in version",
        "deprecated": "Deprecated since version", "versionremoved": "Removed in version", "seealso": "See also",
    }

    def run(self) -> list[nodes.Node]:
        label = self.labels.get(self.name, self.name)
        rest = self.argument()
        if self.name != "seealso":
            version, _, rest = rest.partition(" ")
            label = f"{label} {version}".strip()
        container = nodes.container()
        container[TERM] = label
        container.line = self.lineno
        if rest.strip():
            inline, messages = self.state.inline_text(rest.strip(), self.lineno)
            paragraph = nodes.paragraph(rest, "", *inline)
            paragraph.line = self.lineno
            container += [paragraph, *messages]
        return [self.content_into(container)]


class Description(_Lenient):
    """An object's description (class, method, setting-like commands...): its signature before its content."""

    prefixes: ClassVar[dict[str, str]] = {"django-admin": "django-admin "}

    def run(self) -> list[nodes.Node]:
        signature = ", ".join(line.strip() for line in self.argument().splitlines() if line.strip())
        container = nodes.container()
        container[TERM] = self.prefixes.get(self.name, "") + signature if signature else ""
        container.line = self.lineno
        return [self.content_into(container)]


_CODE: Final = ("code-block", "sourcecode", "code", "console", "snippet", "doctest", "testcode", "testoutput",
                "productionlist")
_LABELLED: Final = ("versionadded", "versionchanged", "deprecated", "versionremoved", "seealso")
_DESCRIPTIONS: Final = ("class", "method", "function", "attribute", "data", "exception", "envvar", "option",
                        "cmdoption", "decorator", "classmethod", "staticmethod", "describe", "object", "property",
                        "django-admin", "django-admin-option")
_DROPPED: Final = ("index", "setting", "templatetag", "templatefilter", "fieldlookup", "module",
                   "currentmodule", "program", "highlight", "literalinclude", "tabularcolumns", "autosummary",
                   "automodule", "autoclass", "autofunction", "automethod", "autoattribute", "autodata",
                   "autoexception", "sectionauthor", "moduleauthor", "codeauthor", "default-domain")
_CONTENT: Final = ("glossary", "only", "hlist", "centered", "tabs", "tab")


def register() -> None:
    """Register the directives above with docutils (its registry is process-wide; doing it again changes nothing)."""
    for names, directive in ((_CODE, Code), (_LABELLED, Labelled), (_DESCRIPTIONS, Description),
                             (_DROPPED, Dropped), (_CONTENT, Content), (("toctree",), Toctree)):
        for name in names:
            directives.register_directive(name, directive)
            if directive in (Description, Dropped) and "-" not in name:
                directives.register_directive(f"py:{name}", directive)


def register_unknown(names: set[str], *, language: Any, document: nodes.document) -> None:
    """Register `Content` for each directive name that docutils and this module do not know."""
    for name in names:
        found, _ = directives.directive(name, language, document)
        if found is None:
            directives.register_directive(name, Content)
