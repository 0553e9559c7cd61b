"""Signing in and out in Chromium: a partner signs in at the site's page, reads a partner answer, and signs out."""
import re
from urllib.parse import urlsplit

from django.contrib.auth.models import User
from playwright.sync_api import ConsoleMessage, Locator, Page, expect

ANSWER_SECONDS = 20
PARTNER_QUESTION = "What is the partner tracking code?"  # answered from partner-portal.html (partner)
PARTNER_CANARY = "CANARY-PARTNER-7Q2"

# Collects CSP violations from the first byte of each page, before any page script runs.
RECORD_CSP_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`);
});
"""


def is_chat_socket(ws) -> bool:
    return urlsplit(ws.url).path == "/ws/chat/"


def ask(page: Page, question: str) -> Locator:
    """Ask in the chat and return the question's turn once its end marker arrived."""
    turns = page.locator("#conversation section.turn")
    before = turns.count()
    page.locator("#question").fill(question)
    page.get_by_role("button", name="Ask").click()
    turn = turns.nth(before)
    expect(turn.locator("h2.question")).to_have_text(question, timeout=ANSWER_SECONDS * 1000)
    expect(turn.locator('p.status[data-event="done"]')).to_be_visible(timeout=ANSWER_SECONDS * 1000)
    return turn


def test_partner_signs_in_at_the_page_reads_the_partner_answer_and_signs_out(
    page: Page, live_server_url: str, partner_user: User
) -> None:
    console_errors: list[str] = []
    page.on("console", lambda message: _keep_error(console_errors, message))
    page.add_init_script(RECORD_CSP_VIOLATIONS)
    header = page.locator("header.site-header")

    page.goto(f"{live_server_url}/library/")
    expect(header).not_to_contain_text("Signed in")
    header.get_by_role("link", name="Sign in").click()

    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/library/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    assert page.evaluate("() => window.__cspViolations") == []
    page.get_by_label("Username").fill("pat-partner")
    page.get_by_label("Password").fill("pw-partner-123")
    page.get_by_role("button", name="Sign in").click()

    expect(page).to_have_url(re.compile(r"/library/$"))  # `next` was followed
    expect(header).to_contain_text("Signed in as pat-partner, partner documents included")
    expect(page.get_by_role("link", name="Lumora partner program guide")).to_be_visible()
    with page.expect_websocket(is_chat_socket):
        header.get_by_role("link", name="Ask").click()
    expect(header).to_contain_text("Signed in as pat-partner, partner documents included")
    turn = ask(page, PARTNER_QUESTION)
    expect(turn.locator("p.sentence")).to_contain_text([re.compile(PARTNER_CANARY)])

    with page.expect_websocket(is_chat_socket):
        header.get_by_role("button", name="Sign out").click()

    expect(page).to_have_url(re.compile(r"/$"))
    expect(header.get_by_role("link", name="Sign in")).to_be_visible()
    expect(header).not_to_contain_text("Signed in")
    turn = ask(page, PARTNER_QUESTION)
    expect(turn.locator("p.sentence")).to_have_count(0)
    assert PARTNER_CANARY not in page.content()
    page.goto(f"{live_server_url}/library/")
    expect(page.get_by_role("link", name="Lumora partner program guide")).to_have_count(0)
    assert page.evaluate("() => window.__cspViolations") == []
    assert [text for text in console_errors if "Content Security Policy" in text] == []


def test_wrong_password_keeps_the_visitor_signed_out_with_the_forms_message(
    page: Page, live_server_url: str, partner_user: User
) -> None:
    page.goto(f"{live_server_url}/accounts/login/")
    page.get_by_label("Username").fill("pat-partner")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Sign in").click()

    expect(page.get_by_role("alert")).to_contain_text("Please enter a correct username and password.")
    expect(page.locator("header.site-header")).not_to_contain_text("Signed in")


def _keep_error(errors: list[str], message: ConsoleMessage) -> None:
    if message.type == "error":
        errors.append(message.text)
