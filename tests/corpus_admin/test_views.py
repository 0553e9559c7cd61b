"""Chunk pages: facts shown, escaping, banners, and the visibility matrix of §3."""
import pytest
from django.contrib.auth.models import User

from corpus_admin.ingestion import withdraw_source
from corpus_admin.models import Chunk, Source

pytestmark = pytest.mark.django_db

DOC = "# Limits\n\n## Uploads\n\nThe upload limit is 200 MB.\n\n## Sharing\n\nShare links expire after 7 days.\n"


@pytest.fixture
def three_audiences(ingest):
    ingest("public-doc.md", "# Public\n\nPublic text says hello.", audience="public")
    ingest("partner-doc.md", "# Partner\n\nPartner text says CANARY-PARTNER.", audience="partner")
    ingest("internal-doc.md", "# Internal\n\nInternal text says CANARY-INTERNAL.", audience="internal")


def _login(client, user: User | None) -> None:
    if user is not None:
        client.force_login(user)


@pytest.mark.parametrize(
    ("caller", "visible"),
    [
        ("anonymous", {"public"}),
        ("plain_user", {"public"}),
        ("partner_user", {"public", "partner"}),
        ("staff_user", {"public", "partner", "internal"}),
    ],
)
def test_chunk_page_visibility_matrix(client, request, three_audiences, caller, visible):
    _login(client, None if caller == "anonymous" else request.getfixturevalue(caller))
    missing = client.get("/chunks/no-such-chunk-v1-c01/")

    for audience in ("public", "partner", "internal"):
        response = client.get(f"/chunks/{audience}-doc-v1-c01/")
        if audience in visible:
            assert response.status_code == 200
        else:
            assert response.status_code == 404
            assert response.content == missing.content
            assert b"CANARY" not in response.content


def test_deactivated_user_sees_only_public(client, three_audiences, staff_user):
    staff_user.is_active = False
    staff_user.save()
    client.force_login(staff_user)

    assert client.get("/chunks/internal-doc-v1-c01/").status_code == 404


def test_chunk_page_shows_source_heading_lines_date_and_text(client, ingest):
    import datetime as dt

    ingest("limits.md", DOC, title="Limits guide", date=dt.date(2025, 9, 15))

    response = client.get("/chunks/limits-v1-c01/")

    page = response.content.decode()
    assert response.status_code == 200
    facts = ("Limits guide", "limits.md", "§ Limits › Uploads", "<dt>Lines</dt><dd>5</dd>", "2025-09-15",
             "The upload limit is 200 MB.")
    for fact in facts:
        assert fact in page
    assert 'href="/chunks/limits-v1-c02/"' in page


def test_html_in_a_document_is_escaped_on_the_page(client, ingest):
    ingest("widget.md", "# Widget\n\nPaste <script>alert('x')</script> and <img src=x onerror=alert(1)> here.")

    page = client.get("/chunks/widget-v1-c01/").content.decode()

    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page


def test_superseded_chunk_still_opens_with_banner_linking_current(client, ingest):
    ingest("limits.md", DOC)
    ingest("limits.md", DOC.replace("200 MB", "250 MB"))

    old = client.get("/chunks/limits-v1-c01/").content.decode()

    assert "superseded by version 2" in old
    assert 'href="/chunks/limits-v2-c01/"' in old
    assert "200 MB" in old


def test_withdrawn_chunk_still_opens_and_says_so(client, ingest):
    ingest("limits.md", DOC)
    withdraw_source(Source.objects.get())

    page = client.get("/chunks/limits-v1-c01/").content.decode()

    assert "has been withdrawn" in page


def test_restricted_chunk_pages_are_not_cached(client, three_audiences, staff_user):
    client.force_login(staff_user)

    internal = client.get("/chunks/internal-doc-v1-c01/")

    assert "no-store" in internal["Cache-Control"]


def test_library_lists_only_visible_sources(client, three_audiences, partner_user):
    client.force_login(partner_user)

    page = client.get("/library/").content.decode()

    assert "Public" in page and "Partner" in page and "Internal" not in page
    assert Chunk.objects.count() == 3


def test_library_links_each_source_to_its_served_first_passage_in_one_query(
    client, ingest, django_assert_max_num_queries
):
    ingest("trash.md", "# Trash\n\nDeleted files stay in the trash for 30 days.")
    ingest("trash.md", "# Trash\n\nDeleted files stay in the trash for 60 days.")
    for n in range(5):
        ingest(f"note-{n}.md", f"# Note {n}\n\nNote number {n} says hello.")

    with django_assert_max_num_queries(3):  # not one more per source
        page = client.get("/library/").content.decode()

    assert 'href="/chunks/trash-v2-c01/"' in page and "trash-v1-c01" not in page
    assert all(f'href="/chunks/note-{n}-v1-c01/"' in page for n in range(5))
