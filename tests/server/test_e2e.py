"""The web page in a real headless Chromium (Debian's), driven by Playwright, against a real
uvicorn server. Screenshots of each state go to test-artifacts/server/."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "server"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="needs Debian's chromium: apt-get install -y chromium"
)


@pytest.fixture(scope="module")
def page(live_server: str) -> Iterator[sync_api.Page]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        context = browser.new_context(viewport={"width": 1360, "height": 900})
        context.set_default_timeout(30_000)
        # Nothing may be loaded from anywhere but the server itself.
        outside: list[str] = []
        context.route(
            "**/*",
            lambda route: (
                route.continue_()
                if route.request.url.startswith(live_server)
                else (outside.append(route.request.url), route.abort())[-1]
            ),
        )
        tab = context.new_page()
        tab.goto(live_server)
        yield tab
        assert outside == []
        browser.close()


def ask(page: sync_api.Page, question: str) -> None:
    page.get_by_role("textbox", name="Ask a question about your documents").fill(question)
    page.get_by_role("button", name="Ask", exact=True).click()
    page.locator(".answer").wait_for()


def test_answer_citation_quote_and_source_viewer(page: sync_api.Page) -> None:
    expect = sync_api.expect
    page.screenshot(path=ARTIFACTS / "0-empty.png")
    ask(page, "How long do we keep customer PII, and does the EU differ from the US?")
    claims = page.locator(".claim")
    expect(claims.first).to_be_visible()
    assert claims.count() >= 2
    expect(page.locator("#key-panel")).to_be_hidden()  # an --open server never asks for a key
    expect(page.locator(".confidence-words .conf")).not_to_be_empty()
    expect(page.locator(".confidence-reason")).not_to_be_empty()
    page.screenshot(path=ARTIFACTS / "1-answer.png", full_page=True)

    # One numbered marker per source per claim; the numbered source list shows display
    # metadata rather than IDs.
    for i in range(claims.count()):
        ids = (
            claims.nth(i)
            .locator(".cite-wrap")
            .evaluate_all("els => els.map(e => e.dataset.chunkId)")
        )
        assert len(ids) == len(set(ids)) >= 1
    marker = page.locator(".cite").first
    expect(marker).to_have_text("1")
    expect(marker).to_have_attribute("aria-label", re.compile("Data Retention Policy"))
    first_source = page.locator(".sources .source").first
    expect(first_source).to_contain_text("Data Retention Policy")
    assert "c_" not in first_source.inner_text()

    marker.hover()
    quote = page.locator(".cite-wrap").first.locator(".quote")
    expect(quote).to_be_visible()
    assert len(quote.inner_text()) > 20
    page.screenshot(path=ARTIFACTS / "2-quote-on-hover.png")

    quoted = " ".join(quote.inner_text().split())
    page.locator(".cite-wrap").first.get_by_role("button", name="Show in the document").click()
    viewer = page.locator("#viewer")
    mark = viewer.locator("mark.quoted")
    expect(mark).to_be_visible()
    assert " ".join(mark.inner_text().split()) == quoted
    expect(viewer.locator("h2")).to_contain_text("Data Retention Policy")
    page.screenshot(path=ARTIFACTS / "3-source-viewer.png")

    page.keyboard.press("Escape")
    expect(viewer).to_be_hidden()
    expect(marker).to_be_focused()
    page.keyboard.press("Tab")  # keyboard focus on a marker also shows its quote
    page.keyboard.press("Shift+Tab")
    expect(page.locator(".cite-wrap").first.locator(".quote")).to_be_visible()


def test_paged_source_shows_its_page(page: sync_api.Page) -> None:
    expect = sync_api.expect
    ask(page, "How much parental leave does the primary caregiver get?")
    marker = page.locator(".cite").first
    expect(marker).to_have_attribute("aria-label", re.compile("Employee Handbook"))
    expect(page.locator(".sources .source").first).to_contain_text("page ")
    marker.click()  # a tap pins the quote open
    page.locator(".cite-wrap.open").get_by_role("button", name="Show in the document").click()
    expect(page.locator("#viewer-page")).to_contain_text("page")
    expect(page.locator("#viewer mark.quoted")).to_be_visible()
    expect(page.locator("#viewer .page-break").first).to_be_visible()
    page.screenshot(path=ARTIFACTS / "4-viewer-with-pages.png")
    page.keyboard.press("Escape")  # the viewer is modal: it closes before the next question
    expect(page.locator("#viewer")).to_be_hidden()


def test_unanswerable_question_shows_the_closest_material(page: sync_api.Page) -> None:
    expect = sync_api.expect
    ask(page, "What is the vesting schedule for employee stock options?")
    expect(page.locator(".not-found")).to_have_text(
        "I couldn't find this in the documents; closest material:"
    )
    nearest = page.locator(".nearest .source")
    expect(nearest.first).to_be_visible()
    assert nearest.count() >= 1
    expect(nearest.first.locator(".excerpt")).not_to_be_empty()
    page.screenshot(path=ARTIFACTS / "5-unanswerable.png", full_page=True)


def test_superseded_sources_are_marked_and_empty_question_is_explained(
    page: sync_api.Page,
) -> None:
    expect = sync_api.expect
    page.get_by_role("textbox", name="Ask a question about your documents").fill("")
    page.get_by_role("button", name="Ask", exact=True).click()
    expect(page.locator("#ask-error")).to_have_text("Type a question first.")
    page.evaluate("""() => {
        const item = sourceItem({chunk_id: 'c_x', display: 'Data Retention Policy v2019 → Backups',
          status: 'superseded', document_id: 'data-retention-policy', document_version: 1,
          char_start: 0, char_end: 10, page: null, url: null, document_date: '2019-01-01',
          chunk_text: 'Backups are kept for seven years.',
          scores: {composite_confidence: 0.5}}, true);
        document.querySelector('#result').replaceChildren(item);
    }""")
    expect(page.locator(".status-superseded")).to_have_text("Superseded")


def test_a_server_with_keys_asks_for_one_and_can_forget_it(
    page: sync_api.Page, keyed_server: tuple[str, dict[str, str]]
) -> None:
    """The page asks for a key on the first 401, keeps it for the tab, sends it as a Bearer
    header, asks again for a refused key, and forgets it on request. (The open server of
    the tests above never asks.)"""
    expect = sync_api.expect
    url, tokens = keyed_server
    browser = page.context.browser
    assert browser is not None
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    try:
        tab = context.new_page()
        tab.set_default_timeout(30_000)
        tab.goto(url)
        panel = tab.locator("#key-panel")
        expect(panel).to_be_hidden()
        tab.get_by_role("textbox", name="Ask a question about your documents").fill(
            "How long do we keep customer PII?"
        )
        tab.get_by_role("button", name="Ask", exact=True).click()
        expect(panel).to_be_visible()
        expect(tab.locator("#api-key")).to_be_focused()
        tab.screenshot(path=ARTIFACTS / "6-key-needed.png")
        key_box = tab.get_by_role("textbox", name="This server needs an API key")
        key_box.fill("rck_wrong")
        tab.get_by_role("button", name="Use key").click()
        expect(tab.locator("#key-error")).to_contain_text("refused")
        key_box.fill(tokens["reader"])
        tab.get_by_role("button", name="Use key").click()
        expect(panel).to_be_hidden()
        expect(tab.locator(".answer .claim").first).to_be_visible()
        stored = tab.evaluate("() => sessionStorage.getItem('ragcite.apiKey')")
        assert stored == tokens["reader"]
        forget = tab.get_by_role("button", name="Forget my API key")
        expect(forget).to_be_visible()
        forget.click()
        assert tab.evaluate("() => sessionStorage.getItem('ragcite.apiKey')") is None
        expect(forget).to_be_hidden()
    finally:
        context.close()
