"""A list answer in Chromium: a document's numbered steps, quoted, are shown as one numbered list of escaped text
(the document's own HTML stays text), kept so by the permalink, and copied as "1." items."""
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from answers.testing.fake_anthropic import FakeAnthropic, Script, computed
from tests.browser.test_conversations import ask, open_chat

DOCS_DIR = Path(__file__).resolve().parent / "screenshots"
HOW_TO = (
    "# Resetting your account password\n\n"
    "You can reset your password yourself, in three steps.\n\n"
    "1. To reset your password, open the account settings page.\n"
    "2. Choose the <b>security</b> section of the account settings.\n"
    "3. Click the reset password button and confirm the reset.\n"
)
QUESTION = "How do I reset my password?"
STEPS = [
    "To reset your password, open the account settings page.",
    "Choose the <b>security</b> section of the account settings.",
    "Click the reset password button and confirm the reset.",
]


def test_quoted_steps_are_a_numbered_list_in_the_chat_the_permalink_and_the_copy(
    new_context: Callable[..., BrowserContext], live_server_url: str, ingest
) -> None:
    ingest("account-recovery.md", HOW_TO)
    context = new_context(viewport={"width": 1100, "height": 800})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server_url)
    page = context.new_page()
    open_chat(page, f"{live_server_url}/")

    turn = ask(page, QUESTION)

    items = turn.locator(".answer > ol.answer-list > li.answer-item")
    expect(items).to_have_count(3)
    for item, step in zip(items.all(), STEPS, strict=True):
        expect(item.locator(".sentence")).to_contain_text(step)  # "<b>" is shown as text, never as markup
    expect(turn.locator(".answer b")).to_have_count(0)
    page.screenshot(path=str(DOCS_DIR / "screenshot-list-answer.png"))

    turn.get_by_role("button", name="Copy answer and sources").click()
    expect(turn.locator(".copy-state")).to_have_text("Copied.")
    lines = page.evaluate("navigator.clipboard.readText()").splitlines()
    numbered = [line for line in lines if line[:3] in ("1. ", "2. ", "3. ")]
    assert [line.split(" [")[0] for line in numbered] == [f"{n}. {step}" for n, step in enumerate(STEPS, start=1)]

    permalink = turn.locator("a.permalink").get_attribute("href")
    stranger = new_context(viewport={"width": 1100, "height": 800}).new_page()
    stranger.goto(f"{live_server_url}{permalink}")
    expect(stranger.locator(".answer > ol.answer-list > li.answer-item")).to_have_count(3)
    expect(stranger.locator(".answer b")).to_have_count(0)


MARKDOWN = (
    "## Resetting\n"
    "1. To reset your password, open the **account settings** page [1]. "
    "Then choose the `security` section of the account settings [1].\n"
    "2. Click the reset password button and confirm the reset [1]\n"
)


@pytest.fixture
def markdown_claude(settings) -> Iterator[FakeAnthropic]:
    """The model path against the local fake API answering in Markdown; set up before the server forks."""
    with FakeAnthropic(default=computed(lambda body: Script((MARKDOWN,)))) as server:
        settings.ANTHROPIC_API_KEY, settings.ANTHROPIC_BASE_URL, settings.RAG_FALLBACK = "fake-key", server.url, ""
        yield server


def test_a_model_answer_in_markdown_is_a_numbered_list_without_markup(
    markdown_claude: FakeAnthropic, ingest, new_context: Callable[..., BrowserContext], live_server_url: str
) -> None:
    ingest("account-recovery.md", HOW_TO)
    page = new_context(viewport={"width": 1100, "height": 800}).new_page()
    open_chat(page, f"{live_server_url}/")

    turn = ask(page, QUESTION)

    items = turn.locator(".answer > ol.answer-list > li.answer-item")
    expect(items).to_have_count(2)
    expect(items.nth(0).locator(".sentence")).to_have_count(2)  # one item's two sentences, appended as they came
    expect(items.nth(0)).to_contain_text("open the account settings page.")
    expect(items.nth(1)).to_contain_text("Click the reset password button and confirm the reset")
    answer = turn.locator(".answer").inner_text()
    assert "**" not in answer and "`" not in answer and "#" not in answer and "Resetting" not in answer
    expect(turn.locator('[data-event="done"]')).to_have_attribute("data-generator", "claude")
