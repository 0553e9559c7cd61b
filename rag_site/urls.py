"""Top-level URLs: the admin, chunk pages, and the answers app."""
from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "rag_site administration"
admin.site.site_title = "rag_site admin"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("corpus_admin.urls")),
    path("", include("answers.urls")),
]
