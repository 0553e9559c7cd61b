from django.urls import path

from corpus_admin import views

urlpatterns = [
    path("chunks/<slug:chunk_id>/", views.chunk_detail, name="chunk-detail"),
    path("library/", views.library, name="library"),
]
