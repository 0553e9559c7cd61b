"""A follow-up in Chromium against a real daphne: the page says which standalone question it answered."""
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

ANSWER_SECONDS = 20


def ask(page: Page, question: str, index: int):
    page.locator("#question").fill(question)
    page.get_by_role("button", name="Ask").click()
    turn = page.locator("#conversation section.turn").nth(index)
    expect(turn.locator('p.status[data-event="done"]')).to_be_visible(timeout=ANSWER_SECONDS * 1000)
    return turn


def test_a_follow_up_says_what_was_answered_above_its_answer(page: Page, live_server_url: str) -> None:
    with page.expect_websocket(lambda ws: urlsplit(ws.url).path == "/ws/chat/"):
        page.goto(f"{live_server_url}/")

    first = ask(page, "How long do refunds take?", 0)
    second = ask(page, "and for digital goods?", 1)

    expect(first.locator("p.resolved")).to_have_count(0)
    note = second.locator("p.resolved")
    expect(note).to_have_text("Answering: How long do refunds take for digital goods?")
    # The note stands between the question and the answer.
    assert second.evaluate(
        "turn => turn.querySelector('p.resolved').nextElementSibling === turn.querySelector('.answer')"
    )
