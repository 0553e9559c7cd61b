"""Conversations in Chromium: the side panel (ask, start a new conversation, reopen the first with its answers),
an answer's permalink opened signed out (a public answer shows; one citing an internal passage is the 404 page),
and the copy button (the answer with its sources as plain text, read back from the clipboard)."""
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Locator, Page, expect

from answers.models import QuestionLog

ANSWER_SECONDS = 20
TRASH = "How long are deleted files kept in the trash?"
REFUNDS = "How long do refunds take?"
FLOOR = "Sales may not sell the Team plan below what price?"  # answered from the internal pricing floor
DOCS_DIR = Path(__file__).resolve().parent / "screenshots"


def open_chat(page: Page, url: str) -> None:
    with page.expect_websocket(lambda ws: urlsplit(ws.url).path == "/ws/chat/"):
        page.goto(url)
    expect(page.locator("#connection")).to_have_text("Connected.")


def ask(page: Page, question: str) -> Locator:
    turns = page.locator("#conversation section.turn")
    before = turns.count()
    page.locator("#question").fill(question)
    page.get_by_role("button", name="Ask").click()
    turn = turns.nth(before)
    expect(turn.locator('p.status[data-event="done"]')).to_be_visible(timeout=ANSWER_SECONDS * 1000)
    return turn


def test_the_side_panel_lists_conversations_and_reopens_the_first_with_its_answers(
    new_context: Callable[..., BrowserContext], live_server_url: str
) -> None:
    page = new_context(viewport={"width": 1200, "height": 900}).new_page()
    open_chat(page, f"{live_server_url}/")
    ask(page, TRASH)
    ask(page, "and for folders?")
    panel = page.locator("#conversation-list li")
    expect(panel).to_have_count(1)
    expect(panel.first).to_have_text(TRASH)

    page.get_by_role("link", name="New conversation").click()
    expect(page.locator("#connection")).to_have_text("Connected.")
    expect(page.locator("#conversation section.turn")).to_have_count(0)
    ask(page, REFUNDS)
    expect(panel).to_have_count(2)
    expect(panel.first).to_have_text(REFUNDS)  # the newest first

    page.get_by_role("link", name=TRASH).click()
    turns = page.locator("#conversation section.turn")
    expect(turns).to_have_count(2)
    expect(turns.nth(0).locator(".question")).to_have_text(TRASH)
    expect(turns.nth(0).locator(".answer .sentence").first).to_contain_text("30 days")
    expect(turns.nth(0).locator("a.cite").first).to_have_attribute("href", re.compile(r"^/chunks/[a-z0-9-]+/\?s=\d"))
    expect(page.locator("#conversation-list a[aria-current=page]")).to_have_text(TRASH)
    page.screenshot(path=str(DOCS_DIR / "screenshot-conversations.png"), full_page=True)

    ask(page, "and how do I restore them?")  # asked in the reopened conversation: still two in the panel
    expect(panel).to_have_count(2)
    assert QuestionLog.objects.filter(conversation__title=TRASH).count() == 3


def test_a_permalink_opened_signed_out_shows_a_public_answer_and_hides_an_internal_one(
    new_context: Callable[..., BrowserContext], live_server_url: str, log_in, staff_user: User
) -> None:
    staff = new_context(viewport={"width": 1100, "height": 800})
    log_in(staff, staff_user)
    page = staff.new_page()
    open_chat(page, f"{live_server_url}/")
    internal_turn = ask(page, FLOOR)
    expect(internal_turn.locator(".answer .sentence").first).to_contain_text("$9 per user")
    internal = internal_turn.locator("a.permalink").get_attribute("href")
    page.get_by_role("link", name="New conversation").click()
    expect(page.locator("#connection")).to_have_text("Connected.")
    public = ask(page, TRASH).locator("a.permalink").get_attribute("href")

    stranger = new_context(viewport={"width": 1100, "height": 800}).new_page()
    stranger.goto(f"{live_server_url}{public}")
    expect(stranger.locator(".question")).to_have_text(TRASH)
    expect(stranger.locator(".answer .sentence").first).to_contain_text("30 days")
    stranger.screenshot(path=str(DOCS_DIR / "screenshot-permalink.png"), full_page=True)

    response = stranger.goto(f"{live_server_url}{internal}")
    assert response is not None and response.status == 404
    expect(stranger.locator("h1")).to_have_text("Not found")
    assert "$9 per user" not in stranger.content() and FLOOR not in stranger.content()


def test_the_copy_button_copies_the_answer_with_its_sources_as_plain_text(
    new_context: Callable[..., BrowserContext], live_server_url: str
) -> None:
    context = new_context(viewport={"width": 1100, "height": 800})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server_url)
    page = context.new_page()
    open_chat(page, f"{live_server_url}/")
    turn = ask(page, TRASH)

    turn.get_by_role("button", name="Copy answer and sources").click()
    expect(turn.locator(".copy-state")).to_have_text("Copied.")
    copied = page.evaluate("navigator.clipboard.readText()")

    lines = copied.splitlines()
    assert lines[0] == TRASH
    assert any("30 days" in line and "[1]" in line for line in lines)
    assert "Sources:" in lines
    document, passage = lines[lines.index("Sources:") + 1: lines.index("Sources:") + 3]
    assert document == "Trash and file recovery (2024-02-14)"
    assert passage.startswith(f"  [1] {live_server_url}/chunks/trash-and-file-recovery-") and "30 days" in passage
    assert sum(line.startswith("Trash and file recovery") for line in lines) == 1  # each document once
    assert "<" not in copied and "cite-quote" not in copied  # text, not markup; the hover quotes are left out
    page.screenshot(path=str(DOCS_DIR / "screenshot-copy.png"))
