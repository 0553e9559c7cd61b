"""manage.py load_synthetic --chunks N [--seed S] [--replace]: a public source of N synthetic chunks, for scale tests.

The text is pseudo-words (pronounceable, never English: three consonant-vowel syllables) drawn with Zipfian
frequencies by the generator the retrieval benchmark uses too (`corpus_admin.synthetic`), 80-250 words a chunk in
sentences of 6-16 words. No chunk answers a demo question, so the demo answers stay what they are while the index
grows. Chunks are bulk-inserted in batches and the corpus version moves in the same transaction, as an ingest does.
"""
import hashlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from io import TextIOBase
from typing import TextIO

import numpy as np
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone
from tqdm import tqdm

from corpus_admin.chunking import fingerprint_text
from corpus_admin.corpus_state import corpus_version_bump
from corpus_admin.ingestion import withdraw_source
from corpus_admin.models import Audience, Chunk, Source, SourceStatus
from corpus_admin.synthetic import synthetic_corpus
from corpus_admin.tokens import count_tokens
from corpus_admin.versions import chunk_id_for

MEDIA_TYPE = "text/x-rag-synthetic"  # marks the sources this command owns
VOCABULARY = 20_000
CONSONANTS = "bdfgklmnprstvz"
VOWELS = "aeiou"
WORDS_PER_LINE = (6, 16)
BATCH = 2000
ENGLISH = {"manage", "materi", "safari"}  # real words (or stems) of the demo corpus that the syllables also make


def pseudo_words(count: int = VOCABULARY) -> list[str]:
    """A fixed vocabulary of pronounceable non-words such as "kotira", the same on every machine."""
    syllables = [c + v for c in CONSONANTS for v in VOWELS]
    words = ["".join(parts) for parts in itertools.product(syllables, repeat=3)]
    order = np.random.default_rng(20261130).permutation(len(words))  # fixed: independent of --seed
    return [word for word in (words[i] for i in order) if word not in ENGLISH][:count]


@dataclass(frozen=True)
class SyntheticChunk:
    """One chunk's text and its line range in the imagined file."""

    text: str
    line_start: int
    line_end: int
    token_count: int


class PieceCounter(dict[str, int]):
    """cl100k_base token counts of pre-token pieces, each counted once by tiktoken and then remembered.

    cl100k_base splits text into pieces by its regular expression and encodes each piece alone, so a text's count
    is the sum of its pieces' counts. A synthetic chunk's pieces are its capitalised first words, " word" for the
    others and ".\n" or "." at each sentence's end: a few thousand distinct pieces for a million chunks.
    """

    def __missing__(self, piece: str) -> int:
        count = self[piece] = count_tokens(piece)
        return count


def synthetic_chunks(*, chunks: int, seed: int) -> Iterator[SyntheticChunk]:
    """The chunks of one (chunks, seed) pair: the same text every time."""
    vocabulary = pseudo_words()
    corpus = synthetic_corpus(chunks=chunks, queries=0, seed=seed, vocabulary=VOCABULARY)
    rng = np.random.default_rng(seed + 1)
    pieces = PieceCounter()
    spaced = [" " + word for word in vocabulary]
    line = 1
    for tokens in corpus.docs:
        ranks = [int(token[1:]) for token in tokens]  # "w<rank>" -> the rank's pseudo-word
        sentences = []
        count = 0
        while ranks:
            take = int(rng.integers(WORDS_PER_LINE[0], WORDS_PER_LINE[1] + 1))
            sentence, ranks = ranks[:take], ranks[take:]
            first = vocabulary[sentence[0]].capitalize()
            sentences.append(first + "".join(spaced[rank] for rank in sentence[1:]) + ".")
            count += pieces[first] + sum(pieces[spaced[rank]] for rank in sentence[1:])
            count += pieces[".\n" if ranks else "."]
        yield SyntheticChunk("\n".join(sentences), line, line + len(sentences) - 1, count)
        line += len(sentences)


def synthetic_names(*, chunks: int, seed: int) -> tuple[str, str, str]:
    """Slug, file name and title of the source for (chunks, seed)."""
    slug = f"synthetic-s{seed}-n{chunks}"
    return slug, f"{slug}.txt", f"Synthetic corpus ({chunks:,} chunks, seed {seed})"


def load_synthetic(
    *, chunks: int, seed: int, replace: bool, progress: TextIO | TextIOBase | None = None
) -> tuple[Source, bool]:
    """Serve the synthetic source for (chunks, seed); returns it and whether anything changed.

    Already served: nothing to do. Another synthetic source served: refused unless `replace`, which withdraws it in
    the same transaction.
    """
    slug, file_name, title = synthetic_names(chunks=chunks, seed=seed)
    served = Source.objects.filter(media_type=MEDIA_TYPE).exclude(status=SourceStatus.WITHDRAWN)
    same = served.filter(slug=slug).first()
    if same is not None:
        return same, False
    others = list(served)
    if others and not replace:
        names = ", ".join(source.original_name for source in others)
        raise CommandError(f"A synthetic source is already served ({names}); pass --replace to withdraw it.")
    with transaction.atomic():
        for other in others:
            withdraw_source(other)
        source = Source.objects.filter(slug=slug).first() or Source.objects.create(
            slug=slug, path=file_name, original_name=file_name, title=title, audience=Audience.PUBLIC,
            media_type=MEDIA_TYPE,
        )
        version = source.version + 1
        digest = hashlib.sha256()
        rows = synthetic_chunks(chunks=chunks, seed=seed)
        with tqdm(total=chunks, desc="Inserting", unit="chunk", file=progress, disable=progress is None) as bar:
            for first in range(0, chunks, BATCH):
                batch = list(itertools.islice(rows, BATCH))
                for piece in batch:
                    digest.update(piece.text.encode("utf-8") + b"\x00")
                Chunk.objects.bulk_create(
                    [
                        Chunk(
                            chunk_id=chunk_id_for(slug, version, first + i + 1),
                            source=source,
                            version=version,
                            ordinal=first + i + 1,
                            heading_path=[],
                            line_start=piece.line_start,
                            line_end=piece.line_end,
                            text=piece.text,
                            token_count=piece.token_count,
                            fingerprint=fingerprint_text(piece.text),
                            audience=source.audience,
                        )
                        for i, piece in enumerate(batch)
                    ]
                )
                bar.update(len(batch))
        Source.objects.filter(pk=source.pk).update(
            version=version,
            sha256=digest.hexdigest(),
            status=SourceStatus.READY,
            last_error="",
            updated_on=timezone.localdate(),
            changed_at=timezone.now(),
        )
        corpus_version_bump()
    source.refresh_from_db()
    return source, True


class Command(BaseCommand):
    help = "Serve a public source of N synthetic chunks (pseudo-words, 80-250 each) for scale tests; idempotent."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--chunks", type=int, required=True, help="How many chunks (at least 1).")
        parser.add_argument("--seed", type=int, default=13, help="Seed of the text (13).")
        parser.add_argument(
            "--replace", action="store_true", help="Withdraw a synthetic source of other chunks or seed first."
        )

    def handle(self, *args, **options) -> None:
        if options["chunks"] < 1:
            raise CommandError("--chunks must be at least 1.")
        started = timezone.now()
        source, changed = load_synthetic(
            chunks=options["chunks"], seed=options["seed"], replace=options["replace"],
            progress=self.stderr if options["verbosity"] >= 1 else None,
        )
        if not changed:
            self.stdout.write(f"{source.original_name}: already served (version {source.version}); nothing to do.")
            return
        seconds = (timezone.now() - started).total_seconds()
        self.stdout.write(
            f"{source.original_name}: version {source.version} with {options['chunks']:,} chunks "
            f"in {seconds:.1f} s ({options['chunks'] / max(seconds, 1e-9):,.0f} chunks/s)."
        )
