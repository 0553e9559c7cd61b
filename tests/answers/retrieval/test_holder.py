"""The process-wide index: built on first use, rebuilt once per corpus change, swapped without mixing versions."""
import gc
import threading

import pytest

import answers.pipeline.text.tokens as tokenize_module
import answers.retrieval.holder as index_module
from answers.pipeline.records import ChunkRecord
from answers.pipeline.retrieve.persist import INDEX_FORMAT
from answers.pipeline.text.tokens import TokenizerConfig, tokenize, tokenizer_fingerprint
from answers.retrieval.caller import CallerRetriever, max_rank_for
from answers.retrieval.holder import IndexHolder, IndexSnapshot
from corpus_admin.ingestion import update_source_details, withdraw_source
from corpus_admin.models import Source
from corpus_admin.selectors import chunk_records, served_sources
from corpus_admin.visibility import EVERYONE, PUBLIC_ONLY, WITH_PARTNER

REFUNDS = "# Refunds\n\nRefunds are issued within 30 days of purchase.\n"
UPLOADS = "# Uploads\n\nThe upload limit is 200 MB per file.\n"
FLOOR = "# Pricing floor\n\nNever discount below the pricing floor of 40 percent.\n"


FILLERS = {
    "shortcuts.md": "# Keyboard shortcuts\n\nPress the question mark key to see every shortcut.\n",
    "hours.md": "# Support hours\n\nSupport answers on weekdays from nine to five.\n",
    "mobile.md": "# Mobile apps\n\nThe phone app works offline after the first sync.\n",
}


def ingest_fillers(ingest) -> None:
    """Unrelated public documents: with BM25 Okapi a term in half of a two-document corpus has idf 0."""
    for name, text in FILLERS.items():
        ingest(name, text)


def hit_titles(snapshot: IndexSnapshot, question: str, audiences=EVERYONE) -> list[str]:
    hits = CallerRetriever(snapshot, max_rank_for(audiences)).search(tokenize(question), k=5)
    return [hit.record.source_title for hit in hits]


@pytest.fixture
def holder() -> IndexHolder:
    return IndexHolder(store_dir=None)


@pytest.mark.django_db
def test_first_use_builds_from_the_served_chunks(holder, ingest):
    ingest_fillers(ingest)
    ingest("refunds.md", REFUNDS, title="Refund policy")
    snapshot = holder.current()
    assert holder.builds == 1
    assert hit_titles(snapshot, "How are refunds issued?") == ["Refund policy"]
    assert holder.current() is snapshot  # unchanged corpus: same snapshot, no rebuild
    assert holder.builds == 1


@pytest.mark.django_db
def test_ingest_and_withdrawal_change_what_the_next_question_sees(holder, ingest):
    ingest_fillers(ingest)
    ingest("refunds.md", REFUNDS, title="Refund policy")
    before = holder.current()
    ingest("uploads.md", UPLOADS, title="Upload limits")
    after_ingest = holder.current()
    assert after_ingest.version > before.version
    assert hit_titles(after_ingest, "upload limit") == ["Upload limits"]
    withdraw_source(Source.objects.get(original_name="uploads.md"))
    after_withdrawal = holder.current()
    assert after_withdrawal.version > after_ingest.version
    assert hit_titles(after_withdrawal, "upload limit") == []
    assert hit_titles(after_ingest, "upload limit") == ["Upload limits"]  # the old snapshot is unchanged


def updating_holder(max_update_share: float = 1.0) -> IndexHolder:
    """A holder as the site's, updating the previous snapshot (these corpora are tiny: any share is "few")."""
    return IndexHolder(
        store_dir=None,
        read_sources=served_sources,
        read_source_records=lambda ids: chunk_records(source_ids=ids),
        max_update_share=max_update_share,
    )


def assert_same_as_a_fresh_build(snapshot: IndexSnapshot, questions: list[str]) -> None:
    fresh = IndexHolder(store_dir=None).current()
    assert dict(snapshot.records) == dict(fresh.records) and list(snapshot.records) == list(fresh.records)
    for question in questions:
        for audiences in (PUBLIC_ONLY, WITH_PARTNER, EVERYONE):
            assert hit_titles(snapshot, question, audiences) == hit_titles(fresh, question, audiences)


@pytest.mark.django_db
def test_an_upload_a_detail_change_and_a_withdrawal_update_the_snapshot_without_a_full_build(ingest):
    ingest_fillers(ingest)
    ingest("refunds.md", REFUNDS, title="Refund policy")
    holder = updating_holder()
    holder.current()
    questions = ["upload limit", "How are refunds issued?", "pricing floor", "Refund policy"]

    ingest("uploads.md", UPLOADS, title="Upload limits")
    assert hit_titles(holder.current(), "upload limit") == ["Upload limits"]
    ingest("floor.md", FLOOR, title="Pricing floor", audience="partner")
    update_source_details(Source.objects.get(original_name="refunds.md"), title="Refunds", audience="internal")
    updated = holder.current()
    assert hit_titles(updated, "How are refunds issued?", PUBLIC_ONLY) == []
    assert hit_titles(updated, "How are refunds issued?", EVERYONE) == ["Refunds"]
    assert_same_as_a_fresh_build(updated, questions)
    withdraw_source(Source.objects.get(original_name="uploads.md"))
    withdrawn = holder.current()

    assert hit_titles(withdrawn, "upload limit") == []
    assert_same_as_a_fresh_build(withdrawn, questions)
    assert (holder.builds, holder.updates) == (4, 3)


@pytest.mark.django_db
def test_a_new_version_of_a_document_replaces_its_chunks_in_an_update(ingest):
    ingest_fillers(ingest)
    ingest("uploads.md", UPLOADS, title="Upload limits")
    holder = updating_holder()
    holder.current()

    ingest("uploads.md", "# Uploads\n\nThe upload limit is 500 MB per file.\n", title="Upload limits")
    snapshot = holder.current()

    assert holder.updates == 1
    assert [r.text for r in snapshot.records.values() if r.source_title == "Upload limits"] == [
        "The upload limit is 500 MB per file."
    ]
    assert_same_as_a_fresh_build(snapshot, ["upload limit 500", "upload limit 200"])


@pytest.mark.django_db
def test_when_much_of_the_corpus_changed_the_snapshot_is_built_afresh(ingest):
    ingest("refunds.md", REFUNDS, title="Refund policy")
    holder = updating_holder(max_update_share=0.25)
    holder.current()

    ingest_fillers(ingest)  # three new sources against one served: more than a quarter of the corpus
    snapshot = holder.current()

    assert (holder.builds, holder.updates) == (2, 0)
    assert_same_as_a_fresh_build(snapshot, ["shortcut", "refunds"])


@pytest.mark.django_db
def test_each_build_freezes_what_lives_so_collections_skip_the_index(ingest, settings):
    ingest_fillers(ingest)
    settings.RAG_GC_FREEZE = True
    try:
        snapshot = updating_holder().current()

        assert gc.get_freeze_count() >= len(snapshot.records)
        assert not any(tracked is snapshot.records for tracked in gc.get_objects())  # frozen: out of the scans
    finally:
        gc.unfreeze()


@pytest.mark.django_db(transaction=True)
def test_background_rebuild_keeps_answering_from_the_old_snapshot_until_the_swap(ingest):
    holder = IndexHolder(store_dir=None, inline_below=0)  # always rebuild in the background
    ingest_fillers(ingest)
    ingest("refunds.md", REFUNDS, title="Refund policy")
    held = holder.current()
    ingest("uploads.md", UPLOADS, title="Upload limits")
    during = holder.current()  # notices the change, starts the rebuild, answers with what it has
    assert holder.wait_idle(timeout=30)
    swapped = holder.current()
    assert swapped is not held and swapped.version > held.version
    assert hit_titles(swapped, "upload limit") == ["Upload limits"]
    assert during in (held, swapped)
    # a question that took the old snapshot finishes on it
    assert hit_titles(held, "upload limit") == []
    assert hit_titles(held, "refunds issued") == ["Refund policy"]


@pytest.mark.django_db
def test_a_snapshot_is_marked_served_only_when_it_is_the_corpus_as_read_now(holder, ingest, monkeypatch):
    ingest_fillers(ingest)
    built, served = holder.current_checked()
    assert served and holder.current_checked() == (built, True)  # built now, then unchanged
    ingest("refunds.md", REFUNDS)
    assert holder.current_checked()[1]  # a small corpus is rebuilt in the calling thread
    background = IndexHolder(store_dir=None, inline_below=0)
    held, _ = background.current_checked()
    monkeypatch.setattr(background, "_start_background_rebuild", lambda: None)  # its rebuild not done yet
    ingest("uploads.md", UPLOADS)
    assert background.current_checked() == (held, False)


@pytest.mark.django_db(transaction=True)
def test_refresh_now_swaps_synchronously(ingest):
    holder = IndexHolder(store_dir=None, inline_below=0)
    ingest_fillers(ingest)
    ingest("refunds.md", REFUNDS, title="Refund policy")
    held = holder.current()
    withdraw_source(Source.objects.get(original_name="refunds.md"))
    fresh = holder.refresh_now()
    assert holder.snapshot is fresh
    assert hit_titles(fresh, "refunds issued") == []
    assert hit_titles(held, "refunds issued") == ["Refund policy"]


@pytest.mark.django_db
def test_each_caller_searches_only_its_tier(holder, ingest):
    ingest_fillers(ingest)
    ingest("refunds.md", REFUNDS, title="Refund policy")
    ingest("partner-refunds.md", "# Partner refunds\n\nPartner refunds are issued within 60 days.\n",
           audience="partner", title="Partner refunds")
    ingest("floor.md", FLOOR, audience="internal", title="Pricing floor")
    snapshot = holder.current()
    assert hit_titles(snapshot, "refunds issued", PUBLIC_ONLY) == ["Refund policy"]
    assert sorted(hit_titles(snapshot, "refunds issued", WITH_PARTNER)) == ["Partner refunds", "Refund policy"]
    assert hit_titles(snapshot, "pricing floor discount", WITH_PARTNER) == []
    assert hit_titles(snapshot, "pricing floor discount", EVERYONE) == ["Pricing floor"]


def test_audiences_map_to_nested_tiers():
    assert (max_rank_for(PUBLIC_ONLY), max_rank_for(WITH_PARTNER), max_rank_for(EVERYONE)) == (0, 1, 2)
    with pytest.raises(ValueError):
        max_rank_for(("public", "internal"))
    with pytest.raises(ValueError):
        max_rank_for(())


def record(chunk_id: str, text: str, audience: str = "public") -> ChunkRecord:
    return ChunkRecord(chunk_id, 1, "Title", "doc.md", audience, None, (), 1, 2, text, 5, chunk_id)


class FakeCorpus:
    """Stands in for the database: a stamp and the records, changed by tests."""

    def __init__(self, records: list[ChunkRecord]) -> None:
        self.version, self.records = 1, records

    def stamp(self) -> tuple[int, str]:
        return (self.version, "created")

    def change(self, records: list[ChunkRecord]) -> None:
        self.records, self.version = records, self.version + 1


def test_only_one_rebuild_runs_at_a_time():
    corpus = FakeCorpus([record("a-c01", "refunds are issued")])
    running, most, release = [0], [0], threading.Event()
    lock = threading.Lock()

    def slow_records():
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        try:
            if corpus.version > 1:
                release.wait(timeout=30)
            return list(corpus.records)
        finally:
            with lock:
                running[0] -= 1

    holder = IndexHolder(store_dir=None, read_stamp=corpus.stamp, read_records=slow_records, inline_below=0)
    first = holder.current()
    corpus.change([record("a-c01", "refunds are issued"), record("b-c01", "upload limit")])
    answers = [holder.current() for _ in range(5)]
    assert all(snapshot is first for snapshot in answers)  # the rebuild is still running
    assert holder.rebuilding
    release.set()
    assert holder.wait_idle(timeout=30)
    assert most[0] == 1
    assert holder.builds == 2  # one initial build, then exactly one rebuild for the five questions
    assert set(holder.current().records) == {"a-c01", "b-c01"}


def test_a_failed_background_rebuild_keeps_the_old_snapshot():
    corpus = FakeCorpus([record("a-c01", "refunds are issued")])

    def records():
        if corpus.version > 1:
            raise RuntimeError("database went away")
        return list(corpus.records)

    holder = IndexHolder(store_dir=None, read_stamp=corpus.stamp, read_records=records, inline_below=0)
    first = holder.current()
    corpus.change([])
    assert holder.current() is first
    assert holder.wait_idle(timeout=30)
    assert holder.current() is first  # and it does not retry on every question


def test_a_saved_index_is_loaded_instead_of_rebuilt(tmp_path, monkeypatch):
    corpus = FakeCorpus([record("a-c01", "refunds are issued"), record("b-c01", "upload limit", "internal")])
    built = IndexHolder(store_dir=tmp_path, read_stamp=corpus.stamp, read_records=lambda: corpus.records,
                        persist_from=0).current()
    saved = list(tmp_path.glob("*.npz"))
    assert len(saved) == 1 and "-v1-" in saved[0].name

    def no_tokenizing(*args, **kwargs):
        raise AssertionError("the saved index should have been loaded")

    monkeypatch.setattr(index_module, "tokenize", no_tokenizing)
    loaded = IndexHolder(store_dir=tmp_path, read_stamp=corpus.stamp, read_records=lambda: corpus.records,
                         persist_from=0).current()
    for max_rank in (0, 2):
        query = tokenize("refund upload limit")
        assert loaded.bm25.search(query, max_rank=max_rank, k=5) == built.bm25.search(query, max_rank=max_rank, k=5)


def test_a_corrupt_saved_index_is_rebuilt(tmp_path):
    corpus = FakeCorpus([record("a-c01", "refunds are issued")])
    def make() -> IndexHolder:
        return IndexHolder(
            store_dir=tmp_path, read_stamp=corpus.stamp, read_records=lambda: corpus.records, persist_from=0
        )

    make().current()
    (saved,) = tmp_path.glob("*.npz")
    saved.write_bytes(b"not an index")
    snapshot = make().current()
    assert [hit.chunk_id for hit in snapshot.bm25.search(["refund"], max_rank=0, k=3)] == ["a-c01"]


def test_same_version_with_other_content_is_not_loaded(tmp_path):
    """After a database reset a version number can come back naming other chunks: the content digest differs."""
    corpus = FakeCorpus([record("a-c01", "refunds are issued")])
    IndexHolder(store_dir=tmp_path, read_stamp=corpus.stamp, read_records=lambda: corpus.records,
                persist_from=0).current()
    other = FakeCorpus([record("a-c01", "upload limit")])
    snapshot = IndexHolder(store_dir=tmp_path, read_stamp=other.stamp, read_records=lambda: other.records,
                           persist_from=0).current()
    assert snapshot.bm25.search(["refund"], max_rank=0, k=3) == []
    assert [hit.chunk_id for hit in snapshot.bm25.search(["upload"], max_rank=0, k=3)] == ["a-c01"]


def test_an_index_saved_by_other_tokenizer_code_is_not_loaded(tmp_path, monkeypatch):
    """A changed stop list (or stemmer, or rule) changes every term: an index saved before it must be rebuilt."""
    corpus = FakeCorpus([record("a-c01", "refunds are issued within thirty days")])
    def make():
        return IndexHolder(store_dir=tmp_path, read_stamp=corpus.stamp, read_records=lambda: corpus.records,
                           persist_from=0).current()

    assert not make().bm25.has_term("are", max_rank=0)  # a stop word when it was saved
    monkeypatch.setattr(tokenize_module, "ENGLISH_STOP_WORDS", frozenset({"within"}))
    rebuilt = make()
    assert rebuilt.bm25.has_term("are", max_rank=0) and not rebuilt.bm25.has_term("within", max_rank=0)
    assert len(list(tmp_path.glob("*.npz"))) == 2


def test_a_saved_index_names_its_format_and_tokenizer(tmp_path):
    corpus = FakeCorpus([record("a-c01", "refunds are issued")])
    IndexHolder(store_dir=tmp_path, read_stamp=corpus.stamp, read_records=lambda: corpus.records,
                persist_from=0).current()
    (saved,) = tmp_path.glob("*.npz")
    assert f"-f{INDEX_FORMAT}-t{tokenizer_fingerprint(TokenizerConfig())}-" in saved.name


@pytest.mark.django_db
def test_current_index_is_the_process_wide_holders(ingest, monkeypatch):
    monkeypatch.setattr(index_module, "_holder", IndexHolder(store_dir=None))
    ingest_fillers(ingest)
    ingest("refunds.md", REFUNDS, title="Refund policy")
    ingest("floor.md", FLOOR, audience="internal", title="Pricing floor")
    assert index_module.current_index() is index_module.index_holder().snapshot
    assert hit_titles(index_module.current_index(), "pricing floor", PUBLIC_ONLY) == []
    assert hit_titles(index_module.current_index(), "pricing floor", EVERYONE) == ["Pricing floor"]
    assert index_module.refresh_now() is index_module.current_index()
