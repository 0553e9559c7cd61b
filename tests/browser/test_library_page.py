"""The library page in Chromium: the smallest check that the live server, its static files and its data work."""
from playwright.sync_api import Page, expect


def test_library_lists_the_demo_documents(page: Page, live_server_url: str) -> None:
    page.goto(f"{live_server_url}/library/")

    expect(page.get_by_role("heading", level=1)).to_have_text("Library")
    expect(page.get_by_role("link", name="Embed widget developer guide")).to_be_visible()
    expect(page.get_by_role("link", name="Lumora partner program guide")).to_have_count(0)
