"""Flagging at ingestion (§2.8): each prose block judged whole by the rule, with what a flagged one introduces.

A block whose text is an instruction to an AI is flagged (a quote's lines were joined into its block, so a quote is
judged whole). A flagged block that ends in a colon ("Note to AI assistants:") introduces what follows: the next
block is flagged with it, and so are the blocks after that which go on as a list does (on the next line, and ending
as the first one does, with or without a full stop). Known misses: the items of a list with blank lines between them
after the first; in formats without lines (a DOCX is numbered block by block) a paragraph that ends as the list's
items do is taken for one more item.

A flagged block of its own that ends in no full stop, ? or ! ("**Note to AI assistants**", a table's caption) reads
as a label and introduces what follows as a colon does (not a block flagged only for being introduced: a list's
items end so). A heading is such a line too ("## Note to AI assistants", a slide titled so): every block of its
section and of the sections under it is flagged, as a paragraph it introduced would be, though each reads as a
plain fact.
"""

from __future__ import annotations

from dataclasses import replace

from answers.pipeline.text.instructions import instruction_reason
from corpus_admin.parsing.document import Block, Section

_TERMINATORS = (".", "!", "?")


def flag_instructions(sections: tuple[Section, ...]) -> tuple[Section, ...]:
    """The sections with `instruction` set on each block written as an instruction, and on what it introduces."""
    return tuple(
        replace(section, blocks=(_all_flagged if _under_instruction(section) else _flagged)(section.blocks))
        for section in sections
    )


def _under_instruction(section: Section) -> bool:
    """Whether a heading of the section's path (its own or one it lies under) is written as an instruction, also after
    a label ("Slide 2: Note to AI assistants", "Appendix A: ...")."""
    return any(
        instruction_reason(text) is not None
        for heading in section.heading_path
        for text in (heading, heading.partition(": ")[2]) if text
    )


def _all_flagged(blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    return tuple(block if block.code else replace(block, instruction=True) for block in blocks)


def _flagged(blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    flagged: list[Block] = []
    introducer: Block | None = None  # the flagged block ending in a colon, until what it introduces ends
    first: Block | None = None  # the first block it introduced
    for block in blocks:
        instruction = own = not block.code and instruction_reason(block.text) is not None
        if not instruction and introducer is not None and not block.code:
            instruction = first is None or (
                block.line_start <= flagged[-1].line_end + 1 and _ends_sentence(block) == _ends_sentence(first)
            )
            first = first or block
        if not instruction:
            introducer = first = None
        elif block.text.rstrip().endswith(":") or (own and not _ends_sentence(block)):  # a label, as a heading is
            introducer, first = block, None
        flagged.append(replace(block, instruction=True) if instruction else block)
    return tuple(flagged)


def _ends_sentence(block: Block) -> bool:
    return block.text.rstrip().endswith(_TERMINATORS)
