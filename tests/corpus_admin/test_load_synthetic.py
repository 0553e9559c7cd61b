"""manage.py load_synthetic: N served chunks of pseudo-words in one corpus change, idempotent, replaceable."""
import io
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from answers.pipeline.text.tokens import TokenizerConfig, tokenize
from answers.retrieval.holder import refresh_now
from corpus_admin.corpus_state import corpus_stamp
from corpus_admin.management.commands.load_synthetic import pseudo_words, synthetic_chunks
from corpus_admin.models import Chunk, Source, SourceStatus

DEMO_DIR = Path(__file__).resolve().parents[2] / "corpus_admin" / "demo" / "documents"


def load(*args: str) -> str:
    out = io.StringIO()
    call_command("load_synthetic", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.django_db
def test_loads_n_served_public_chunks_of_80_to_250_words_in_one_corpus_change():
    before = corpus_stamp()[0]

    output = load("--chunks", "40", "--seed", "7")

    source = Source.objects.get(slug="synthetic-s7-n40")
    chunks = list(Chunk.objects.current().filter(source=source).order_by("ordinal"))
    assert (source.status, source.audience, source.version) == (SourceStatus.READY, "public", 1)
    assert [c.chunk_id for c in chunks[:2]] == ["synthetic-s7-n40-v1-c01", "synthetic-s7-n40-v1-c02"]
    assert len(chunks) == 40
    assert all(80 <= len(c.text.split()) <= 250 for c in chunks)
    assert all(c.token_count > 0 and len(c.fingerprint) == 32 for c in chunks)
    assert corpus_stamp()[0] == before + 1
    assert "40 chunks" in output


@pytest.mark.django_db
def test_the_index_serves_the_synthetic_chunks():
    load("--chunks", "30")

    snapshot = refresh_now()

    assert sum(chunk_id.startswith("synthetic-s13-n30-") for chunk_id in snapshot.records) == 30


@pytest.mark.django_db
def test_running_again_changes_nothing():
    load("--chunks", "20")
    version = corpus_stamp()[0]

    output = load("--chunks", "20")

    assert "nothing to do" in output
    assert corpus_stamp()[0] == version
    assert Chunk.objects.filter(source__slug="synthetic-s13-n20").count() == 20


@pytest.mark.django_db
def test_another_synthetic_source_needs_replace_which_withdraws_the_old_one():
    load("--chunks", "20")

    with pytest.raises(CommandError, match="--replace"):
        load("--chunks", "25")
    load("--chunks", "25", "--replace")

    assert Source.objects.get(slug="synthetic-s13-n20").status == SourceStatus.WITHDRAWN
    assert not Chunk.objects.current().filter(source__slug="synthetic-s13-n20").exists()
    assert Chunk.objects.current().filter(source__slug="synthetic-s13-n25").count() == 25


@pytest.mark.django_db
def test_a_withdrawn_synthetic_source_comes_back_as_its_next_version():
    load("--chunks", "20")
    load("--chunks", "21", "--replace")

    load("--chunks", "20", "--replace")

    source = Source.objects.get(slug="synthetic-s13-n20")
    assert (source.status, source.version) == (SourceStatus.READY, 2)
    assert Chunk.objects.current().filter(source=source, version=2).count() == 20


def test_same_seed_same_text_and_another_seed_other_text():
    first = [c.text for c in synthetic_chunks(chunks=5, seed=1)]

    assert first == [c.text for c in synthetic_chunks(chunks=5, seed=1)]
    assert first != [c.text for c in synthetic_chunks(chunks=5, seed=2)]


def test_pseudo_words_are_pronounceable_and_never_a_demo_corpus_word():
    vocabulary = pseudo_words()
    config = TokenizerConfig()
    demo_text = " ".join(p.read_text(encoding="utf-8") for p in DEMO_DIR.iterdir() if p.suffix != ".pdf")
    demo_terms = set(tokenize(demo_text, config))

    assert len(set(vocabulary)) == len(vocabulary) == 20_000
    assert all(re.fullmatch(r"([bdfgklmnprstvz][aeiou]){3}", word) for word in vocabulary)
    assert not {term for word in vocabulary for term in tokenize(word, config)} & demo_terms


def test_zero_chunks_is_refused():
    with pytest.raises(CommandError, match="at least 1"):
        load("--chunks", "0")


def test_token_counts_summed_from_pieces_equal_tiktoken_on_whole_chunks():
    from corpus_admin.tokens import count_tokens

    chunks = list(synthetic_chunks(chunks=300, seed=5))
    assert all(chunk.token_count == count_tokens(chunk.text) for chunk in chunks)
