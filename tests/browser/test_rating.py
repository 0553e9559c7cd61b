"""Rating an answer in Chromium: Helpful after an answer, the state shown, changed by keyboard to Not helpful with a
comment; staff then read it in the admin's gaps and activity pages."""
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, ConsoleMessage, Locator, Page, expect

from answers.models import Rating

ANSWER_SECONDS = 20
TRASH = "How long are deleted files kept in the trash?"
OFF_TOPIC = "What is the capital of France?"
DOCS_DIR = Path(__file__).resolve().parent / "screenshots"
HOSTILE_COMMENT = '<img src=x onerror="alert(1)"> the trash page says folders too'

RECORD_CSP_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`);
});
"""


def open_chat(page: Page, base_url: str, errors: list[str]) -> None:
    page.add_init_script(RECORD_CSP_VIOLATIONS)
    page.on("console", lambda message: _keep_error(errors, message))
    with page.expect_websocket(lambda ws: urlsplit(ws.url).path == "/ws/chat/"):
        page.goto(f"{base_url}/")
    expect(page.locator("#ask-form")).to_be_visible()


def ask(page: Page, question: str) -> Locator:
    turns = page.locator("#conversation section.turn")
    before = turns.count()
    page.locator("#question").fill(question)
    page.get_by_role("button", name="Ask").click()
    turn = turns.nth(before)
    expect(turn.locator('p.status[data-event="done"]')).to_be_visible(timeout=ANSWER_SECONDS * 1000)
    return turn


def _keep_error(errors: list[str], message: ConsoleMessage) -> None:
    if message.type == "error":
        errors.append(message.text)


def test_a_signed_in_user_marks_an_answer_helpful_then_changes_it_by_keyboard(
    new_context: Callable[..., BrowserContext], live_server_url: str, log_in, plain_user: User
) -> None:
    context = new_context(viewport={"width": 1100, "height": 800})
    log_in(context, plain_user)
    page = context.new_page()
    errors: list[str] = []
    open_chat(page, live_server_url, errors)

    turn = ask(page, TRASH)
    rating = turn.locator("form.rating")
    expect(rating.get_by_role("group", name="Was this answer helpful?")).to_be_visible()
    rating.get_by_role("button", name="Helpful", exact=True).click()

    state = rating.locator(".rating-state")
    expect(state).to_have_text("Thanks: marked helpful. Change")
    change = state.get_by_role("button", name="Change")
    expect(change).to_be_focused()
    expect(rating.get_by_role("button", name="Helpful", exact=True)).to_be_hidden()
    assert [(r.user, r.helpful) for r in Rating.objects.all()] == [(plain_user, True)]
    DOCS_DIR.mkdir(exist_ok=True)
    page.screenshot(path=DOCS_DIR / "screenshot-rating.png", full_page=True, animations="disabled")

    page.keyboard.press("Enter")  # Change, focused
    not_helpful = rating.get_by_role("button", name="Not helpful")
    expect(rating.get_by_role("button", name="Helpful", exact=True)).to_be_focused()
    expect(rating.get_by_role("button", name="Helpful", exact=True)).to_have_attribute("aria-pressed", "true")
    rating.get_by_text("Add a comment").click()
    rating.get_by_label(re.compile("Comment")).fill(HOSTILE_COMMENT)
    not_helpful.focus()
    page.keyboard.press("Enter")

    expect(state).to_have_text("Thanks: marked not helpful. Change")
    assert [(r.helpful, r.comment) for r in Rating.objects.all()] == [(False, HOSTILE_COMMENT)]
    assert page.evaluate("() => window.__cspViolations") == [] and errors == []
    assert (DOCS_DIR / "screenshot-rating.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_anonymous_visitor_rates_with_the_session_the_chat_page_starts(page: Page, live_server_url: str) -> None:
    errors: list[str] = []
    open_chat(page, live_server_url, errors)

    turn = ask(page, TRASH)
    turn.locator("form.rating").get_by_role("button", name="Helpful", exact=True).click()

    expect(turn.locator(".rating-state")).to_contain_text("marked helpful")
    rating = Rating.objects.get()
    assert rating.user is None and rating.session_key and rating.helpful


def test_staff_read_the_gaps_and_the_activity_plot(
    new_context: Callable[..., BrowserContext], live_server_url: str, log_in, admin_user: User
) -> None:
    context = new_context(viewport={"width": 1100, "height": 900})
    log_in(context, admin_user)
    page = context.new_page()
    errors: list[str] = []
    open_chat(page, live_server_url, errors)
    for question in (TRASH, OFF_TOPIC, "capital of France?"):
        ask(page, question)

    page.goto(f"{live_server_url}/admin/answers/gaps/")
    row = page.locator("#gaps tbody tr")
    expect(row).to_have_count(1)
    expect(row.first).to_contain_text("capital of France?")
    expect(row.first).to_contain_text("no_material 2")
    page.goto(f"{live_server_url}/admin/answers/activity/")
    expect(page.get_by_role("img", name="Questions per day, last 28 days")).to_be_visible()
    page.screenshot(path=DOCS_DIR / "screenshot-activity.png", full_page=True, animations="disabled")
    assert page.evaluate("() => window.__cspViolations") == []
