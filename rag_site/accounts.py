"""Signing in and out for every user (partners included), on Django's auth views, with failed attempts limited.

Failed sign-ins are counted per address and per username in the site's shared counters, so every worker adds up; the
admin's own sign-in page (`admin_sign_in`) counts in the same ones.
"""
import contextlib
import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from asgiref.sync import async_to_sync
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.functional import lazy
from django.views.decorators.debug import sensitive_post_parameters
from redis.exceptions import RedisError

from answers.limits.counters import shared_counters
from answers.outages import ServiceUnavailable
from corpus_admin.models import Audience
from corpus_admin.visibility import audiences_for

WINDOW_S = 15 * 60

CALLER_SEES = {
    Audience.INTERNAL.value: "internal documents included",
    Audience.PARTNER.value: "partner documents included",
}


def caller_sees(user: AbstractBaseUser | AnonymousUser) -> str:
    """What the header says a signed-in caller's answers draw on, from the one visibility function."""
    audiences = audiences_for(user)
    return next((text for audience, text in CALLER_SEES.items() if audience in audiences), "public documents")


def caller(request: HttpRequest) -> dict[str, object]:
    """Context processor: `caller_sees` for the header, read only by a page that shows it (not the admin's)."""
    return {"caller_sees": lazy(caller_sees, str)(request.user)}


@dataclass(frozen=True)
class SignInAttempt:
    """One sign-in attempt's counters: its address's and its username's failures in the current window."""

    address_key: str
    username_key: str | None
    retry_after_s: int

    @classmethod
    def of(cls, *, address: str, username: str, now: float) -> "SignInAttempt":
        """The counter keys of an attempt from `address` for `username` at `now`."""
        window = int(now // WINDOW_S)
        # Hashed: whatever was typed as a username (a password, sometimes) is not written into Redis.
        name = hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32] if username.strip() else None
        return cls(
            address_key=f"rag:signin:address:{address}:{window}",
            username_key=f"rag:signin:username:{name}:{window}" if name else None,
            retry_after_s=max(1, math.ceil((window + 1) * WINDOW_S - now)),
        )

    @property
    def keys(self) -> list[str]:
        """The counters this attempt counts in."""
        return [self.address_key, self.username_key] if self.username_key else [self.address_key]

    async def admit(self, limit: int) -> bool:
        """Count this attempt as failed; False when its address or username was already at the limit."""
        counts = await shared_counters().count_rate([(key, limit) for key in self.keys], ttl_s=WINDOW_S * 2)
        return all(count <= limit for count in counts)

    async def succeeded(self) -> None:
        """Take the count back: a sign-in that succeeded was no failure."""
        # Counted before the password is checked, so parallel guesses cannot all slip in under the limit.
        await shared_counters().uncount_rate(self.keys)


def too_many_message(attempt: SignInAttempt) -> str:
    """What a sign-in over the limit is told."""
    minutes = math.ceil(attempt.retry_after_s / 60)
    return f"Too many sign-in attempts; try again in {minutes} minute{'s' if minutes != 1 else ''}."


UNREACHABLE = "The site cannot sign you in right now; please try again shortly."


class SignInView(auth_views.LoginView):
    """Django's sign-in, refused with 429 once an address or a username has too many failed attempts."""

    template_name = "rag_site/sign_in.html"
    clock: Callable[[], float] = staticmethod(time.time)
    attempt: SignInAttempt | None = None

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        limit = settings.RAG_LOGIN_RATE_LIMIT
        if limit <= 0:
            return super().post(request, *args, **kwargs)
        attempt = SignInAttempt.of(
            address=request.META.get("REMOTE_ADDR") or "unknown",
            username=request.POST.get("username", ""),
            now=self.clock(),
        )
        try:
            admitted = async_to_sync(attempt.admit)(limit)
        except (RedisError, OSError, ServiceUnavailable):
            # Without the counters nothing would limit guessing: refuse rather than check passwords unlimited.
            return self.refused(UNREACHABLE, status=503)
        if not admitted:
            return self.refused(too_many_message(attempt), status=429, retry_after_s=attempt.retry_after_s)
        self.attempt = attempt
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        if self.attempt is not None:
            # If this fails, the failure stays counted until its window ends; the caller is signed in all the same.
            with contextlib.suppress(RedisError, OSError, ServiceUnavailable):
                async_to_sync(self.attempt.succeeded)()
        return super().form_valid(form)

    def refused(self, message: str, *, status: int, retry_after_s: int = 0) -> HttpResponse:
        """The form again, unbound (so no password is checked), with why it was refused."""
        form = self.get_form_class()(self.request, initial={"username": self.request.POST.get("username", "")})
        response = self.render_to_response(self.get_context_data(form=form, refusal=message), status=status)
        if retry_after_s:
            response["Retry-After"] = str(retry_after_s)
        return response


@sensitive_post_parameters()  # as LoginView: a password never reaches an error report
def admin_sign_in(request: HttpRequest) -> HttpResponse:
    """The admin's sign-in page (`admin.site.login`), its attempts counted and refused as SignInView's, in the same
    counters: the staff's passwords are the ones most worth guessing."""
    limit = settings.RAG_LOGIN_RATE_LIMIT
    if request.method != "POST" or limit <= 0:
        return admin.site.login(request)
    attempt = SignInAttempt.of(address=request.META.get("REMOTE_ADDR") or "unknown",
                               username=request.POST.get("username", ""), now=SignInView.clock())
    try:
        admitted = async_to_sync(attempt.admit)(limit)
    except (RedisError, OSError, ServiceUnavailable):
        return _admin_refused(request, UNREACHABLE, status=503)
    if not admitted:
        return _admin_refused(request, too_many_message(attempt), status=429, retry_after_s=attempt.retry_after_s)
    response = admin.site.login(request)
    if isinstance(response, HttpResponseRedirect) and request.user.is_authenticated:  # signed in: no failure
        with contextlib.suppress(RedisError, OSError, ServiceUnavailable):
            async_to_sync(attempt.succeeded)()
    return response


def _admin_refused(request: HttpRequest, message: str, *, status: int, retry_after_s: int = 0) -> HttpResponse:
    """The admin's sign-in form again, unbound (no password checked), under why it was refused."""
    form = AdminAuthenticationForm(request, initial={"username": request.POST.get("username", "")})
    context = {**admin.site.each_context(request), "title": "Log in", "subtitle": None, "form": form,
               "refusal": message, "app_path": request.get_full_path(), "username": request.user.get_username(),
               REDIRECT_FIELD_NAME: reverse("admin:index")}
    response = TemplateResponse(request, "admin/rag_site/login.html", context, status=status).render()
    add_never_cache_headers(response)
    if retry_after_s:
        response["Retry-After"] = str(retry_after_s)
    return response
