"""The admin: upload through the real form, list columns, actions."""
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from corpus_admin.models import Chunk, Source, SourceStatus

pytestmark = pytest.mark.django_db


def _messages(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def _upload(client, *files, audience="public", document_date=""):
    return client.post(
        "/admin/corpus_admin/source/upload/",
        {"files": list(files), "audience": audience, "document_date": document_date, "title": ""},
        follow=True,
    )


def test_admin_uploads_several_files_in_one_form(client, admin_user):
    client.force_login(admin_user)

    response = _upload(
        client,
        SimpleUploadedFile("trash.md", b"# Trash\n\nDeleted files stay in the trash for 30 days."),
        SimpleUploadedFile("backup.txt", b"Backups run every 6 hours."),
        audience="partner",
        document_date="2025-05-01",
    )

    assert response.status_code == 200
    assert "trash.md: added version 1 with 1 chunks." in _messages(response)
    assert "backup.txt: added version 1 with 1 chunks." in _messages(response)
    assert set(Source.objects.values_list("audience", flat=True)) == {"partner"}
    assert Chunk.objects.count() == 2


def test_admin_upload_failure_appears_as_message_and_stores_nothing(client, admin_user):
    client.force_login(admin_user)

    response = _upload(client, SimpleUploadedFile("deck.pptx", b"PK\x03\x04zip"))

    assert "deck.pptx: not a PowerPoint presentation (.pptx) (the content is not a zip archive)" in _messages(response)
    assert not Source.objects.exists()


def test_changelist_shows_status_version_and_chunk_count(client, admin_user, ingest):
    ingest("trash.md", "# Trash\n\nDeleted files stay in the trash for 30 days.")
    client.force_login(admin_user)

    page = client.get("/admin/corpus_admin/source/").content.decode()

    assert "trash.md" in page and "Ready" in page
    assert '<td class="field-version">1</td>' in page and '<td class="field-served_chunks">1</td>' in page


def test_change_page_links_to_each_chunk_page(client, admin_user, ingest):
    ingest("trash.md", "# Trash\n\nDeleted files stay in the trash for 30 days.")
    client.force_login(admin_user)

    page = client.get(f"/admin/corpus_admin/source/{Source.objects.get().pk}/change/").content.decode()

    assert 'href="/chunks/trash-v1-c01/"' in page


def test_withdraw_action(client, admin_user, ingest):
    ingest("trash.md", "# Trash\n\nDeleted files stay in the trash for 30 days.")
    client.force_login(admin_user)
    source = Source.objects.get()

    client.post(
        "/admin/corpus_admin/source/",
        {"action": "withdraw_selected", "_selected_action": [source.pk]},
        follow=True,
    )

    assert Source.objects.get().status == SourceStatus.WITHDRAWN


def test_reingest_action_makes_a_new_version_from_the_stored_upload(client, admin_user, ingest):
    ingest("trash.md", "# Trash\n\nDeleted files stay in the trash for 30 days.")
    client.force_login(admin_user)

    response = client.post(
        "/admin/corpus_admin/source/",
        {"action": "reingest_selected", "_selected_action": [Source.objects.get().pk]},
        follow=True,
    )

    assert "trash.md: updated to version 2 with 1 chunks." in _messages(response)
    assert Chunk.objects.current().get().chunk_id == "trash-v2-c01"


def test_changing_audience_in_admin_moves_corpus_version(client, admin_user, ingest):
    from corpus_admin.corpus_state import corpus_stamp

    ingest("trash.md", "# Trash\n\nDeleted files stay in the trash for 30 days.")
    client.force_login(admin_user)
    source = Source.objects.get()
    before = corpus_stamp()[0]

    client.post(
        f"/admin/corpus_admin/source/{source.pk}/change/",
        {"title": source.title, "audience": "internal", "updated_on": "2025-01-01",
         "chunks-TOTAL_FORMS": "0", "chunks-INITIAL_FORMS": "0"},
    )

    assert Source.objects.get().audience == "internal"
    assert corpus_stamp()[0] == before + 1


def test_a_new_version_uploaded_with_the_form_as_it_comes_keeps_its_audience(client, admin_user, ingest):
    ingest("floor.md", "# Floor\n\nNever discount below 40 percent.", audience="internal")
    client.force_login(admin_user)

    response = _upload(client, SimpleUploadedFile("floor.md", b"# Floor\n\nNever discount below 35 percent."),
                       audience="")

    assert "floor.md: updated to version 2 with 1 chunks." in _messages(response)
    assert Source.objects.get().audience == "internal"


def test_a_new_file_uploaded_without_an_audience_is_public(client, admin_user):
    client.force_login(admin_user)

    _upload(client, SimpleUploadedFile("trash.md", b"# Trash\n\nDeleted files stay in the trash for 30 days."),
            audience="")

    assert Source.objects.get().audience == "public"


def test_staff_who_may_only_view_sources_cannot_withdraw_them(client, staff_user, ingest):
    from django.contrib.auth.models import Permission

    ingest("trash.md", "# Trash\n\nDeleted files stay in the trash for 30 days.")
    staff_user.user_permissions.add(Permission.objects.get(codename="view_source"))
    client.force_login(staff_user)
    source = Source.objects.get()

    page = client.get("/admin/corpus_admin/source/").content.decode()
    client.post("/admin/corpus_admin/source/", {"action": "withdraw_selected", "_selected_action": [source.pk]})

    assert "withdraw_selected" not in page
    assert Source.objects.get().status == SourceStatus.READY


def test_change_page_links_to_every_chunk_of_the_source(client, admin_user, ingest):
    ingest("trash.md", "# Trash\n\nDeleted files stay in the trash for 30 days.")
    client.force_login(admin_user)
    source = Source.objects.get()

    page = client.get(f"/admin/corpus_admin/source/{source.pk}/change/").content.decode()
    listing = client.get(f"/admin/corpus_admin/chunk/?source__id__exact={source.pk}").content.decode()

    assert f'href="/admin/corpus_admin/chunk/?source__id__exact={source.pk}"' in page
    assert "trash-v1-c01" in listing


def test_admin_upload_refuses_a_second_file_with_the_same_name_and_ingests_the_first(client, admin_user):
    client.force_login(admin_user)

    response = _upload(
        client,
        SimpleUploadedFile("faq.md", b"# FAQ\n\nThe free trial lasts 14 days."),
        SimpleUploadedFile("faq.md", b"# FAQ\n\nThe free trial lasts 30 days."),
    )

    assert _messages(response) == [
        "faq.md: added version 1 with 1 chunks.",
        "faq.md (file 2): same file name as faq.md (file 1); file names must be unique",
    ]
    source = Source.objects.get()
    assert source.version == 1 and "14 days" in source.chunks.get().text
