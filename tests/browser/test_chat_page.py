"""The chat page in Chromium against a real daphne: streamed, cited answers, refusals, and text that stays text."""
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, ConsoleMessage, Locator, Page, expect

from answers.testing.fake_anthropic import FakeAnthropic
from corpus_admin.models import Chunk

ANSWER_SECONDS = 20
TWO_FACTS = "What do the Team and Business plans cost per user per month?"
TRASH = "How long are deleted files kept in the trash?"
OFF_TOPIC = "What is the capital of France?"
CONFLICT = "What is the upload limit for a single file in the web app?"
WIDGET = "How fast does the embed widget load?"
PARTNER_DISCOUNT = "What discount do partners get?"
HOSTILE_FILE = "embed-widget-developer-guide.md"
SCRIPT_TEXT = "<script>alert('xss')</script>"
HOSTILE_LITERALS = (SCRIPT_TEXT, '<img src=x onerror="alert(1)">', '<div hx-get="/admin/" hx-trigger="load">')
HOSTILE_QUESTION = " ".join(HOSTILE_LITERALS)
DOCS_DIR = Path(__file__).resolve().parent / "screenshots"
# A citation's link: the cited passage, its span's sentences highlighted and scrolled to (only integers).
CITED_HREF = re.compile(r"^/chunks/[\w-]+/\?s=(\d+)(-\d+)?#s-(\d+)$")
SIDE_HREF = re.compile(r"^/chunks/[\w-]+/(\?s=\d+(-\d+)?#s-\d+)?$")  # a conflict side's span is optional

# Records, in the page, each sentence and end marker as it is added, with the number of the mutation batch (one
# per DOM task, so one per websocket message) that added it. Runs through the DevTools protocol, so the page's
# Content-Security-Policy (no unsafe-eval) does not apply to it.
RECORD_ARRIVALS = """() => {
  window.__arrivals = [];
  const seen = new WeakSet();  // an element added inside another added in the same batch counts once
  let batch = 0;
  new MutationObserver((records) => {
    batch += 1;
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== Node.ELEMENT_NODE) continue;
        const found = [node, ...node.querySelectorAll("*")];
        for (const el of found) {
          if (seen.has(el)) continue;
          seen.add(el);
          if (el.matches("p.sentence")) window.__arrivals.push({kind: "sentence", batch});
          if (el.matches('[data-event="done"]')) window.__arrivals.push({kind: "done", batch});
        }
      }
    }
  }).observe(document.body, {childList: true, subtree: true});
}"""

# Collects CSP violations from the first byte of each page, before any page script runs.
RECORD_CSP_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`);
});
"""


@dataclass
class Chat:
    """The chat page of one browser tab, and what its console reported."""

    page: Page
    base_url: str
    console_errors: list[str] = field(default_factory=list)

    def open(self) -> None:
        """Load the chat page and wait for the page to open its websocket."""
        with self.page.expect_websocket(lambda ws: urlsplit(ws.url).path == "/ws/chat/"):
            self.page.goto(f"{self.base_url}/")
        expect(self.page.locator("#ask-form")).to_be_visible()

    def turns(self) -> Locator:
        return self.page.locator("#conversation section.turn")

    def ask(self, question: str) -> Locator:
        """Ask with the form's button and return the question's turn once its end marker arrived."""
        before = self.turns().count()
        self.page.locator("#question").fill(question)
        self.page.get_by_role("button", name="Ask").click()
        turn = self.turns().nth(before)
        expect(turn.locator("h2.question")).to_have_text(question, timeout=ANSWER_SECONDS * 1000)
        expect(turn.locator('p.status[data-event="done"]')).to_be_visible(timeout=ANSWER_SECONDS * 1000)
        return turn

    def csp_violations(self) -> list[str]:
        """CSP violations the console and the page's `securitypolicyviolation` events reported."""
        reported = [text for text in self.console_errors if "Content Security Policy" in text]
        return reported + self.page.evaluate("() => window.__cspViolations || []")


@pytest.fixture
def open_chat(live_server_url: str) -> Callable[[Page], Chat]:
    """Open the chat page in a tab, collecting its console errors and CSP violations."""

    def _open_chat(page: Page) -> Chat:
        chat = Chat(page, live_server_url)
        page.add_init_script(RECORD_CSP_VIOLATIONS)
        page.on("console", lambda message: _keep_error(chat.console_errors, message))
        chat.open()
        return chat

    return _open_chat


def _keep_error(errors: list[str], message: ConsoleMessage) -> None:
    if message.type == "error":
        errors.append(message.text)


@pytest.fixture
def chat(page: Page, open_chat: Callable[[Page], Chat]) -> Chat:
    return open_chat(page)


def chunk_of(link: Locator) -> Chunk:
    """The chunk a link points to, read from its /chunks/<id>/ address."""
    href = link.get_attribute("href") or ""
    match = re.fullmatch(r"/chunks/([\w-]+)/", urlsplit(href).path)
    assert match, f"not a chunk link: {href!r}"
    return Chunk.objects.select_related("source").get(chunk_id=match[1])


def test_two_fact_answer_streams_cited_sentences_one_by_one(chat: Chat) -> None:
    chat.page.evaluate(RECORD_ARRIVALS)

    turn = chat.ask(TWO_FACTS)

    sentences = turn.locator("p.sentence")
    assert sentences.count() >= 2
    for i in range(sentences.count()):
        href = sentences.nth(i).locator("a.cite").first.get_attribute("href") or ""
        cited = CITED_HREF.fullmatch(href)
        assert cited and cited[1] == cited[3], f"not a link to the cited sentences, scrolled to the first: {href!r}"
    answer = turn.locator("div.answer").inner_text()
    assert "$12" in answer and "$25" in answer, answer
    expect(turn.locator('p.status[data-event="done"]')).to_have_class(re.compile(r"\bstatus-answered\b"))
    expect(turn.locator('[data-event="error"], [data-event="refusal"]')).to_have_count(0)

    arrivals = chat.page.evaluate("() => window.__arrivals")
    sentence_batches = [a["batch"] for a in arrivals if a["kind"] == "sentence"]
    done_batches = [a["batch"] for a in arrivals if a["kind"] == "done"]
    assert len(sentence_batches) == sentences.count(), arrivals
    assert sentence_batches == sorted(set(sentence_batches)), f"sentences were not added one at a time: {arrivals}"
    assert done_batches and done_batches[0] > sentence_batches[-1], f"the end marker came before a sentence: {arrivals}"
    assert chat.csp_violations() == []


def test_citation_numbers_match_the_numbered_sources(chat: Chat) -> None:
    turn = chat.ask(TWO_FACTS)

    documents = turn.locator("ol.sources > li.source-document")
    assert documents.count() >= 1
    titles = [documents.nth(i).locator(".source-title").inner_text() for i in range(documents.count())]
    assert len(titles) == len(set(titles)), f"a document is named more than once: {titles}"  # each once
    for i in range(documents.count()):
        expect(documents.nth(i).locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-\d{2}-\d{2}$"))
        assert documents.nth(i).locator('li.passage a[href^="/chunks/"]').count() >= 1
    cites = turn.locator("p.sentence a.cite")
    for i in range(cites.count()):
        n = int(cites.nth(i).inner_text().strip("[]"))
        cited_page = urlsplit(cites.nth(i).get_attribute("href") or "").path
        assert cited_page == turn.locator(f'li.passage[value="{n}"] a').get_attribute("href")


def test_citation_opens_the_cited_passage_with_its_source_and_date(chat: Chat) -> None:
    turn = chat.ask(TWO_FACTS)
    cite = turn.locator("p.sentence a.cite").first
    chunk = chunk_of(cite)

    cite.click()

    assert chunk.source.original_name == "pricing-plans.html"
    expect(chat.page).to_have_url(re.compile(rf"/chunks/{re.escape(chunk.chunk_id)}/\?s=[\d-]+#s-\d+$"))
    expect(chat.page.get_by_role("heading", level=1)).to_have_text(chunk.source.title)
    updated = chat.page.locator("dl.chunk-facts time")
    expect(updated).to_have_attribute("datetime", chunk.source.updated_on.isoformat())
    expect(updated).to_be_visible()


def test_off_topic_question_is_refused_with_a_next_step(chat: Chat) -> None:
    turn = chat.ask(OFF_TOPIC)

    refusal = turn.locator('div.refusal.refusal-no_material[data-event="refusal"]')
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text(re.compile(r"rephras", re.I))
    expect(refusal).to_contain_text(re.compile(r"uploaded", re.I))
    expect(turn.locator("p.sentence")).to_have_count(0)
    expect(turn.locator('p.status[data-event="done"]')).to_have_class(re.compile(r"\bstatus-refused\b"))
    assert chat.csp_violations() == []


def test_conflicting_sources_are_shown_newest_first_with_links(chat: Chat) -> None:
    turn = chat.ask(CONFLICT)

    refusal = turn.locator("div.refusal.refusal-conflict")
    expect(refusal).to_be_visible()
    sides = refusal.locator("ul.conflict-sides > li")
    expect(sides).to_have_count(2)
    assert [sides.nth(i).locator("time").get_attribute("datetime") for i in range(2)] == ["2025-09-15", "2024-03-01"]
    expect(sides.nth(0)).to_contain_text("200 MB")
    expect(sides.nth(1)).to_contain_text("100 MB")
    files = [chunk_of(sides.nth(i).locator('a[href^="/chunks/"]')).source.original_name for i in range(2)]
    assert files == ["web-app-release-notes-5-0.html", "upload-limits-2024.txt"]
    for i in range(2):  # the passage, its span's sentences highlighted when the side has one
        expect(sides.nth(i).locator("a")).to_have_attribute("href", SIDE_HREF)
    expect(turn.locator("p.sentence")).to_have_count(0)
    assert chat.csp_violations() == []


def test_hostile_text_in_documents_and_questions_stays_inert(
    page: Page, live_server_url: str, open_chat: Callable[[Page], Chat]
) -> None:
    dialogs: list[str] = []
    requests: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.on("request", lambda request: requests.append(request.url))
    page.on("websocket", lambda ws: requests.append(ws.url))
    passages = (
        Chunk.objects.filter(source__original_name=HOSTILE_FILE).order_by("ordinal").values_list("chunk_id", "text")
    )
    assert any(SCRIPT_TEXT in text for _, text in passages)

    for chunk_id, stored in passages:
        page.goto(f"{live_server_url}/chunks/{chunk_id}/")
        expect(page.get_by_role("heading", level=1)).to_have_text("Embed widget developer guide")
        shown = page.locator("div.chunk-text")
        expect(shown.locator("script, img, [hx-get], [onerror]")).to_have_count(0)
        for literal in HOSTILE_LITERALS:
            if literal in stored:
                assert literal in shown.inner_text(), f"{literal} is not shown as text on {chunk_id}"
        if SCRIPT_TEXT in stored:
            expect(page.get_by_text(SCRIPT_TEXT).first).to_be_visible()

    chat = open_chat(page)
    answered = chat.ask(WIDGET)
    expect(answered.locator("p.sentence")).to_contain_text(["The embed widget loads in under 300 milliseconds."])
    echoed = chat.ask(HOSTILE_QUESTION)
    expect(echoed.locator("h2.question")).to_have_text(HOSTILE_QUESTION)
    expect(page.locator("#conversation").locator("script, img, [hx-get], [onerror]")).to_have_count(0)
    page.wait_for_timeout(300)  # long enough for an hx-trigger="load" request or an onerror to have fired

    assert dialogs == []
    assert [url for url in requests if urlsplit(url).path.startswith("/admin")] == []
    assert [url for url in requests if urlsplit(url).hostname != "127.0.0.1"] == []


def test_enter_asks_and_shift_enter_breaks_the_line(chat: Chat) -> None:
    page = chat.page
    for _ in range(20):
        if page.evaluate("() => document.activeElement && document.activeElement.id") == "question":
            break
        page.keyboard.press("Tab")
    expect(page.locator("#question")).to_be_focused()

    page.keyboard.type("How long are deleted files kept")
    page.keyboard.press("Shift+Enter")
    page.keyboard.type("in the trash?")
    expect(page.locator("#question")).to_have_value("How long are deleted files kept\nin the trash?")
    expect(chat.turns()).to_have_count(0)

    page.keyboard.press("Enter")

    turn = chat.turns().first
    expect(turn.locator("h2.question")).to_have_text(re.compile(r"How long are deleted files kept\s+in the trash\?"))
    expect(turn.locator('p.status[data-event="done"]')).to_be_visible(timeout=ANSWER_SECONDS * 1000)
    expect(turn.locator("p.sentence")).to_contain_text(["Deleted files are kept in the trash for 30 days."])
    assert chat.csp_violations() == []


def test_earlier_questions_stay_on_the_page(chat: Chat) -> None:
    chat.ask(TRASH)
    chat.ask(OFF_TOPIC)

    expect(chat.turns()).to_have_count(2)
    expect(chat.turns().locator("h2.question")).to_have_text([TRASH, OFF_TOPIC])
    expect(chat.turns().nth(0).locator("p.sentence")).to_contain_text(["kept in the trash for 30 days"])
    expect(chat.turns().nth(1).locator(".refusal-no_material")).to_be_visible()
    assert chat.csp_violations() == []


def test_partner_answer_is_shown_to_partners_only(
    chat: Chat,
    new_context: Callable[..., BrowserContext],
    open_chat: Callable[[Page], Chat],
    log_in: Callable[[BrowserContext, User], None],
    partner_user: User,
) -> None:
    chat.ask(PARTNER_DISCOUNT)
    body = chat.page.locator("body").inner_text()
    assert "20%" not in body and "CANARY" not in body, body
    assert "20%" not in chat.page.content()
    assert "CANARY" not in chat.page.content()

    partner_context = new_context()
    log_in(partner_context, partner_user)
    partner = open_chat(partner_context.new_page())
    turn = partner.ask(PARTNER_DISCOUNT)

    expect(turn.locator("p.sentence")).to_contain_text([re.compile("20%")])
    assert chat.csp_violations() == [] and partner.csp_violations() == []


def test_answer_screenshots_for_the_readme(
    new_context: Callable[..., BrowserContext], open_chat: Callable[[Page], Chat]
) -> None:
    chat = open_chat(new_context(viewport={"width": 1100, "height": 800}).new_page())
    chat.ask(TWO_FACTS)
    DOCS_DIR.mkdir(exist_ok=True)

    chat.page.screenshot(path=DOCS_DIR / "screenshot-answer.png", full_page=True, animations="disabled")
    chat.page.set_viewport_size({"width": 390, "height": 844})
    chat.page.screenshot(path=DOCS_DIR / "screenshot-phone.png", full_page=True, animations="disabled")

    assert chat.page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), "scrolls sideways"
    for name in ("screenshot-answer.png", "screenshot-phone.png"):
        assert (DOCS_DIR / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert chat.csp_violations() == []


def test_asking_and_following_a_citation_raise_no_csp_violations(chat: Chat) -> None:
    turn = chat.ask(TRASH)
    assert chat.csp_violations() == []

    turn.locator("a.cite").first.click()
    expect(chat.page.locator("dl.chunk-facts")).to_be_visible()

    assert chat.csp_violations() == []


@pytest.fixture
def fake_claude(settings) -> Iterator[FakeAnthropic]:
    """The model path against the local fake API; set up before the server forks, so the server inherits it."""
    with FakeAnthropic() as server:
        settings.ANTHROPIC_API_KEY = "fake-key"
        settings.ANTHROPIC_BASE_URL = server.url
        yield server


def test_claude_path_answer_arrives_verified_and_screenshot_for_the_readme(
    fake_claude: FakeAnthropic, new_context: Callable[..., BrowserContext], open_chat: Callable[[Page], Chat]
) -> None:
    chat = open_chat(new_context(viewport={"width": 1100, "height": 700}).new_page())

    turn = chat.ask(TRASH)

    expect(turn.locator("p.sentence")).to_have_text([re.compile(r"Deleted files are kept in the trash for 30 days\.")])
    expect(turn.locator('[data-event="done"]')).to_have_attribute("data-generator", "claude")
    assert fake_claude.requests and "<untrusted_document>" in fake_claude.requests[0]["messages"][0]["content"]
    DOCS_DIR.mkdir(exist_ok=True)
    chat.page.screenshot(path=DOCS_DIR / "screenshot-claude.png", full_page=True, animations="disabled")


def test_csp_blocks_script_that_escaping_would_have_missed(chat: Chat) -> None:
    chat.ask(TRASH)

    # As if a fragment had slipped through unescaped: inline script, an event handler and an eval'd hx-on.
    chat.page.evaluate(
        """() => {
          const answer = document.querySelector("#conversation .answer");
          answer.insertAdjacentHTML("beforeend", '<img src="/static/css/site.css#x" onerror="window.__pwned = 1">');
          const script = document.createElement("script");
          script.textContent = "window.__pwned = 2";
          document.body.appendChild(script);
        }"""
    )
    chat.page.wait_for_timeout(300)

    assert chat.page.evaluate("() => window.__pwned") is None
    violations = chat.csp_violations()
    assert any("script-src" in v for v in violations), violations


def test_signing_out_and_going_back_shows_no_restricted_answer(
    new_context: Callable[..., BrowserContext], open_chat: Callable[[Page], Chat], log_in, partner_user: User
) -> None:
    context = new_context()
    log_in(context, partner_user)
    chat = open_chat(context.new_page())
    turn = chat.ask(PARTNER_DISCOUNT)
    expect(turn.locator("p.sentence")).to_contain_text([re.compile("20%")])

    chat.page.goto(f"{chat.base_url}/library/")
    context.clear_cookies()  # signed out: the session cookie is gone
    chat.page.go_back()
    chat.page.wait_for_load_state()

    assert "20%" not in chat.page.content()
    assert "CANARY" not in chat.page.content()


def quote_of(cite: Locator) -> Locator:
    """The tooltip a citation is described by (its aria-describedby)."""
    described_by = cite.get_attribute("aria-describedby")
    assert described_by, "the citation is described by nothing"
    return cite.page.locator(f"#{described_by}")


def shown_words(text: str) -> str:
    return " ".join(text.split())


def test_pointing_at_a_citation_shows_its_quote_and_following_it_highlights_those_words(
    new_context: Callable[..., BrowserContext], open_chat: Callable[[Page], Chat]
) -> None:
    chat = open_chat(new_context(viewport={"width": 1100, "height": 800}).new_page())
    turn = chat.ask(TRASH)
    cite = turn.locator("p.sentence a.cite").first
    quote = quote_of(cite)
    expect(quote).to_be_hidden()

    cite.hover()

    expect(quote).to_be_visible()
    expect(quote.locator(".cite-words")).to_contain_text("30 days")
    words = shown_words(quote.locator(".cite-words").inner_text())
    DOCS_DIR.mkdir(exist_ok=True)
    chat.page.screenshot(path=DOCS_DIR / "screenshot-citation-quote.png", full_page=True, animations="disabled")
    chat.page.set_viewport_size({"width": 390, "height": 844})
    cite.hover()
    expect(quote).to_be_visible()
    assert chat.page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), "scrolls sideways"
    chat.page.mouse.move(0, 0)
    expect(quote).to_be_hidden()

    cite.click()

    expect(chat.page).to_have_url(re.compile(r"/chunks/[\w-]+/\?s=\d+(-\d+)?#s-\d+$"))
    expect(chat.page.locator("#cited-notice")).to_contain_text("Highlighted: the words this answer cites")
    marked = chat.page.locator(".chunk-text .sentence-cited mark")
    expect(marked.first).to_be_visible()
    expect(marked.first).to_be_in_viewport()
    assert shown_words(" ".join(marked.all_inner_texts())) == words
    chat.page.screenshot(path=DOCS_DIR / "screenshot-citation-highlight.png", animations="disabled")
    assert chat.csp_violations() == []


def test_a_citation_focused_from_the_keyboard_shows_its_quote_until_escape(chat: Chat) -> None:
    turn = chat.ask(TRASH)
    cite = turn.locator("p.sentence a.cite").first
    quote = quote_of(cite)
    page = chat.page
    page.locator("body").focus()
    for _ in range(30):
        if page.evaluate("() => document.activeElement.matches('p.sentence a.cite')"):
            break
        page.keyboard.press("Tab")
    expect(cite).to_be_focused()

    expect(quote).to_be_visible()
    expect(quote).to_contain_text("30 days")
    expect(cite).to_have_accessible_description(re.compile(r"30 days"))

    page.keyboard.press("Escape")
    expect(quote).to_be_hidden()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    expect(cite).to_be_focused()
    expect(quote).to_be_visible()


def test_a_quote_shows_as_text_even_with_scripts_off(
    new_context: Callable[..., BrowserContext], open_chat: Callable[[Page], Chat], live_server_url: str
) -> None:
    chat = open_chat(new_context().new_page())
    turn = chat.ask(TRASH)
    href = turn.locator("p.sentence a.cite").first.get_attribute("href")

    plain = new_context(java_script_enabled=False).new_page()
    plain.goto(f"{live_server_url}{href}")

    expect(plain.locator(".chunk-text .sentence-cited mark").first).to_be_visible()
    expect(plain.locator("#cited-notice")).to_be_visible()
