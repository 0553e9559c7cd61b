"""Sign-in and sign-out for every user: Django's auth views, the header naming the caller, and the attempt limit."""
import asyncio
import random
import re

import pytest
from django.http import HttpResponse
from django.test import Client

from corpus_admin.models import Chunk

pytestmark = pytest.mark.django_db

CANARY = "CANARY-PARTNER-K9"
PARTNER_QUESTION = "What is the partner kiosk code?"
WRONG_LOGIN = "Please enter a correct username and password. Note that both fields may be case-sensitive."
REFUSED = "Too many sign-in attempts; try again in 14 minutes."
WINDOW_START = 900.0 * 1_900_000  # a fixed 15-minute window; each test freezes the clock a minute into its own


@pytest.fixture
def partner_corpus(ingest, filler) -> None:
    ingest("partner-kiosk.md", f"# Partner kiosk\n\nThe partner kiosk code is {CANARY}.\n", audience="partner")


@pytest.fixture
def frozen_window(monkeypatch) -> None:
    """A window of the attempt counters no other run used (they may live in a Redis shared with other runs)."""
    from rag_site.accounts import SignInView

    now = WINDOW_START + 900.0 * random.randrange(1, 10**9) + 60.0
    monkeypatch.setattr(SignInView, "clock", staticmethod(lambda: now))


def fresh_address() -> str:
    """An address of the documentation range that no other test signs in from."""
    return f"2001:db8::{random.randrange(1, 2**16):x}:{random.randrange(1, 2**16):x}:{random.randrange(1, 2**16):x}"


def browser(address: str | None = None) -> Client:
    """A client that checks CSRF tokens, as a browser's requests are checked."""
    return Client(enforce_csrf_checks=True, REMOTE_ADDR=address or fresh_address())


def sign_in(client: Client, username: str, password: str, **fields: str) -> HttpResponse:
    """Open the sign-in page, then post the form with its CSRF token."""
    client.get("/accounts/login/")
    data = {"username": username, "password": password, "csrfmiddlewaretoken": client.cookies["csrftoken"].value}
    return client.post("/accounts/login/", {**data, **fields})


def sign_out(client: Client) -> HttpResponse:
    return client.post("/accounts/logout/", {"csrfmiddlewaretoken": client.cookies["csrftoken"].value})


def ask(client: Client, question: str) -> str:
    """POST /api/answer as the README says a session caller must: with the csrftoken cookie in X-CSRFToken."""
    token = client.cookies["csrftoken"].value if "csrftoken" in client.cookies else ""
    response = client.post(
        "/api/answer", {"question": question}, content_type="application/json", headers={"X-CSRFToken": token}
    )
    assert response.status_code == 200, response.content
    return response.json()["answer"]


def header(page: HttpResponse) -> str:
    match = re.search(r'<header class="site-header">(.*?)</header>', page.content.decode(), re.DOTALL)
    assert match, "the page has no site header"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match[1])).strip()


def test_sign_in_page_is_a_site_page_with_a_csrf_protected_form():
    response = browser().get("/accounts/login/")
    page = response.content.decode()

    assert response.status_code == 200
    assert re.search(r'<form method="post" action="/accounts/login/"', page)
    assert 'name="csrfmiddlewaretoken"' in page and 'name="username"' in page and 'type="password"' in page
    assert '<header class="site-header">' in page and "/static/css/site.css" in page
    assert "style=" not in page and "<script" not in page and "<style" not in page  # the CSP allows neither
    assert "no-store" in response["Cache-Control"]


def test_partner_signs_in_with_a_password_and_is_sent_home_with_a_new_session(partner_user):
    client = browser()
    client.session.save()  # an anonymous session from before (the chat page itself starts none)
    anonymous_session = client.cookies["sessionid"].value

    response = sign_in(client, "pat-partner", "pw-partner-123")

    assert response.status_code == 302 and response["Location"] == "/"
    assert client.cookies["sessionid"].value != anonymous_session
    assert client.session["_auth_user_id"] == str(partner_user.pk)


def test_signed_in_partner_reads_partner_answers_and_signing_out_ends_that(partner_corpus, partner_user):
    client = browser()
    sign_in(client, "pat-partner", "pw-partner-123")
    assert CANARY in ask(client, PARTNER_QUESTION)

    response = sign_out(client)

    assert response.status_code == 302 and response["Location"] == "/"
    assert "_auth_user_id" not in client.session
    assert CANARY not in ask(client, PARTNER_QUESTION)
    assert header(client.get("/")) == "rag_site Ask Library Sign in"


def test_get_of_the_sign_out_address_does_not_sign_out(partner_user):
    client = browser()
    sign_in(client, "pat-partner", "pw-partner-123")

    response = client.get("/accounts/logout/")

    assert response.status_code == 405
    assert client.session["_auth_user_id"] == str(partner_user.pk)
    assert "Signed in as pat-partner" in header(client.get("/"))


@pytest.mark.parametrize(
    ("who", "shown"),
    [
        ("anonymous", "rag_site Ask Library Sign in"),
        ("plain_user", "rag_site Ask Library Signed in as sam-signed-in, public documents Sign out"),
        ("partner_user", "rag_site Ask Library Signed in as pat-partner, partner documents included Sign out"),
        ("staff_user", "rag_site Ask Library Admin Signed in as sue-staff, internal documents included Sign out"),
    ],
)
@pytest.mark.parametrize("path", ["/", "/library/", "chunk page"])
def test_every_page_header_names_the_caller_and_what_they_see(request, partner_corpus, who, shown, path):
    client = browser()
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    if path == "chunk page":
        path = Chunk.objects.get(source__original_name="office.md").get_absolute_url()

    response = client.get(path)

    assert header(response) == shown
    page = response.content.decode()
    if who == "anonymous":
        assert re.search(rf'<a href="/accounts/login/\?next={re.escape(path)}">Sign in</a>', page)
    else:
        assert re.search(r'<form method="post" action="/accounts/logout/" class="sign-out">', page)


@pytest.mark.parametrize("path", ["/", "/library/", "public chunk", "missing chunk", "/accounts/login/"])
def test_pages_naming_the_caller_are_kept_out_of_shared_caches(partner_corpus, partner_user, path):
    client = browser()
    client.force_login(partner_user)
    if path == "public chunk":
        path = Chunk.objects.get(source__original_name="office.md").get_absolute_url()
    elif path == "missing chunk":
        path = "/chunks/no-such-passage-v1-c01/"

    response = client.get(path)

    assert "Signed in as pat-partner" in header(response)
    assert re.search(r"\b(private|no-store)\b", response["Cache-Control"]), response["Cache-Control"]


def test_wrong_password_shows_the_form_error_and_starts_no_session(partner_user):
    client = browser()

    response = sign_in(client, "pat-partner", "not-the-password")

    assert response.status_code == 200 and WRONG_LOGIN in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert header(response) == "rag_site Ask Library Sign in"


def test_unknown_username_gets_the_same_answer_as_a_wrong_password(partner_user):
    known = sign_in(browser(), "pat-partner", "not-the-password")
    unknown = sign_in(browser(), "nobody-by-this-name", "not-the-password")

    def errors(response: HttpResponse) -> list[str]:
        return re.findall(r'<p class="error" role="alert">(.*?)</p>', response.content.decode(), re.DOTALL)

    assert (known.status_code, errors(known)) == (unknown.status_code, errors(unknown)) == (200, [WRONG_LOGIN])


def test_eleventh_failed_sign_in_for_a_username_is_refused_from_another_address_too(
    frozen_window, partner_user, settings
):
    settings.RAG_LOGIN_RATE_LIMIT = 10
    client = browser()
    failures = [sign_in(client, "pat-partner", f"guess-{n}").status_code for n in range(10)]

    eleventh = sign_in(client, "pat-partner", "guess-10")
    elsewhere = browser()
    with_the_password = sign_in(elsewhere, "pat-partner", "pw-partner-123")

    assert failures == [200] * 10
    for refused in (eleventh, with_the_password):
        assert refused.status_code == 429 and refused["Retry-After"] == "840"
        assert REFUSED in refused.content.decode() and WRONG_LOGIN not in refused.content.decode()
    assert "_auth_user_id" not in elsewhere.session


def test_failed_sign_ins_from_one_address_are_limited_whatever_the_username(frozen_window, partner_user, settings):
    settings.RAG_LOGIN_RATE_LIMIT = 3
    client = browser()
    failures = [sign_in(client, f"nobody-{n}", "guess").status_code for n in range(3)]

    unknown = sign_in(client, "nobody-else", "guess")
    known = sign_in(client, "pat-partner", "pw-partner-123")

    assert failures == [200] * 3
    assert unknown.status_code == known.status_code == 429  # the same refusal, known username or not
    assert REFUSED in unknown.content.decode() and REFUSED in known.content.decode()
    assert "_auth_user_id" not in client.session


def test_successful_sign_ins_are_not_counted_as_failed_attempts(frozen_window, partner_user, settings):
    settings.RAG_LOGIN_RATE_LIMIT = 2
    client = browser()
    signed_in = [sign_in(client, "pat-partner", "pw-partner-123").status_code for _ in range(4)]

    failures = [sign_in(client, "pat-partner", "guess").status_code for _ in range(3)]

    assert signed_in == [302] * 4
    assert failures == [200, 200, 429]


@pytest.mark.asyncio
async def test_guesses_sent_at_once_cannot_slip_under_the_limit():
    from rag_site.accounts import SignInAttempt

    address, now = fresh_address(), WINDOW_START + 900.0 * random.randrange(1, 10**9)
    attempts = [SignInAttempt.of(address=address, username=f"someone-{n}", now=now) for n in range(20)]

    admitted = await asyncio.gather(*(attempt.admit(5) for attempt in attempts))

    assert admitted.count(True) == 5  # each is counted before its password would be checked


def test_sign_in_is_refused_while_the_attempt_counters_cannot_be_reached(partner_user, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    client = browser()

    response = sign_in(client, "pat-partner", "pw-partner-123")

    assert response.status_code == 503 and "cannot sign you in right now" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("next_url", ["https://evil.example/", "//evil.example/", "http://testserver.evil.example/"])
def test_next_pointing_at_another_host_is_not_followed(partner_user, next_url):
    client = browser()
    page = client.get("/accounts/login/", {"next": next_url}).content.decode()

    response = sign_in(client, "pat-partner", "pw-partner-123", next=next_url)

    assert "evil.example" not in page
    assert response.status_code == 302 and response["Location"] == "/"


def test_next_on_this_site_is_followed(partner_user):
    response = sign_in(browser(), "pat-partner", "pw-partner-123", next="/library/")

    assert response.status_code == 302 and response["Location"] == "/library/"


def test_the_admin_keeps_its_own_sign_in_page():
    response = browser().get("/admin/")

    assert response.status_code == 302 and response["Location"] == "/admin/login/?next=/admin/"


def admin_sign_in(client: Client, username: str, password: str) -> HttpResponse:
    """Open the admin's sign-in page, then post its form with its CSRF token."""
    client.get("/admin/login/?next=/admin/")
    data = {"username": username, "password": password, "next": "/admin/"}
    return client.post("/admin/login/?next=/admin/", {**data, "csrfmiddlewaretoken": client.cookies["csrftoken"].value})


def test_failed_sign_ins_on_the_admins_page_are_limited_too(frozen_window, staff_user, settings):
    # Before, /admin/login/ was Django's own view: a staff password could be guessed there without end.
    settings.RAG_LOGIN_RATE_LIMIT = 3
    client = browser()
    failures = [admin_sign_in(client, "sue-staff", f"guess-{n}").status_code for n in range(3)]

    with_the_password = admin_sign_in(client, "sue-staff", "pw-staff-123")

    assert failures == [200] * 3
    assert with_the_password.status_code == 429 and with_the_password["Retry-After"] == "840"
    assert REFUSED in with_the_password.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_site_and_the_admin_count_failed_sign_ins_together(frozen_window, staff_user, settings):
    settings.RAG_LOGIN_RATE_LIMIT = 3
    client = browser()
    on_the_site = [sign_in(client, "sue-staff", f"guess-{n}").status_code for n in range(2)]

    on_the_admin = [admin_sign_in(browser(), "sue-staff", f"guess-{n}").status_code for n in range(2, 4)]

    assert on_the_site == [200, 200] and on_the_admin == [200, 429]  # the same username's counter


def test_staff_sign_in_on_the_admins_page_is_not_counted_and_opens_the_admin(frozen_window, staff_user, settings):
    settings.RAG_LOGIN_RATE_LIMIT = 1
    client = browser()
    signed_in = [admin_sign_in(client, "sue-staff", "pw-staff-123") for _ in range(3)]

    failures = [admin_sign_in(browser(), "sue-staff", "guess").status_code for _ in range(2)]

    assert [(r.status_code, r["Location"]) for r in signed_in] == [(302, "/admin/")] * 3
    assert failures == [200, 429]
