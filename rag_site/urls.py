"""Top-level URLs: the admin, signing in and out, chunk pages, and the answers app."""
from django.contrib import admin
from django.contrib.auth.views import LogoutView
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.utils.cache import patch_cache_control
from django.views import defaults

from rag_site.accounts import SignInView, admin_sign_in

admin.site.site_header = "rag_site administration"
admin.site.site_title = "rag_site admin"

urlpatterns = [
    path("admin/answers/", include("answers.admin_insight")),  # the gaps and activity pages, before the admin's own
    path("admin/login/", admin_sign_in, name="admin-sign-in"),  # the admin's own sign-in, with the site's attempt limit
    path("admin/", admin.site.urls),
    path("accounts/login/", SignInView.as_view(), name="login"),
    path("accounts/logout/", LogoutView.as_view(), name="logout"),
    path("", include("corpus_admin.urls")),
    path("", include("answers.urls")),
]


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 page, kept out of shared caches: its header names the caller."""
    response = defaults.page_not_found(request, exception)
    patch_cache_control(response, private=True)
    return response


handler404 = page_not_found
