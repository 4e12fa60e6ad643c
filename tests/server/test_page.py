"""The web page at desktop (1280×900) and phone (390×844) sizes in Debian's Chromium: prose
answers with numbered markers, the quote popover inside the viewport, the viewer as a modal
dialog, the document library, progress and cancel, the question counter, dark mode, and an
axe-core scan of every state (zero serious or critical violations). Screenshots of each state
go to test-artifacts/page/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_e2e import CHROMIUM, LAUNCH_ARGS

sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
axe_sync = pytest.importorskip(
    "axe_playwright_python.sync_playwright", reason="pip install axe-playwright-python"
)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "page"
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
PII = "How long do we keep customer PII, and does the EU differ from the US?"
QUESTION_BOX = "Ask a question about your documents"

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="needs Debian's chromium: apt-get install -y chromium"
)
expect = sync_api.expect


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield launched
        launched.close()


class Tab:
    """A page at one size that may load nothing but the server, scanned with axe-core."""

    def __init__(self, browser: sync_api.Browser, url: str, size: str, **options: Any) -> None:
        self.size = size
        self.outside: list[str] = []
        self.context = browser.new_context(viewport=SIZES[size], **options)
        self.context.set_default_timeout(30_000)
        self.context.route("**/*", self._only_the_server(url))
        self.page = self.context.new_page()
        self.page.goto(url)

    def _only_the_server(self, url: str) -> Any:
        def route(request_route: sync_api.Route) -> None:
            if request_route.request.url.startswith(url):
                request_route.continue_()
            else:
                self.outside.append(request_route.request.url)
                request_route.abort()

        return route

    def check(self, state: str) -> None:
        """Screenshot `state` and assert axe-core finds no serious or critical violation."""
        self.page.screenshot(path=ARTIFACTS / f"{self.size}-{state}.png")
        results = axe_sync.Axe().run(self.page)
        bad = [
            f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert bad == [], f"{self.size} {state}: {bad}"

    def close(self) -> None:
        self.context.close()
        assert self.outside == []


@pytest.fixture(params=list(SIZES))
def tab(
    request: pytest.FixtureRequest, browser: sync_api.Browser, live_server: str
) -> Iterator[Tab]:
    opened = Tab(browser, live_server, request.param)
    yield opened
    opened.close()


def ask(page: sync_api.Page, question: str) -> None:
    page.get_by_role("textbox", name=QUESTION_BOX).fill(question)
    page.get_by_role("button", name="Ask", exact=True).click()
    page.locator(".answer").wait_for()


def inside_viewport(page: sync_api.Page, box: dict[str, float] | None) -> bool:
    size = page.viewport_size
    assert box is not None and size is not None
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"] + 0.5
        and box["y"] + box["height"] <= size["height"] + 0.5
    )


def test_answer_reads_as_prose_with_numbered_sources(tab: Tab) -> None:
    page = tab.page
    tab.check("0-empty")
    ask(page, PII)
    prose = page.locator(".answer .prose")
    markers = prose.locator(".cite")
    expect(markers.first).to_be_visible()
    texts = markers.all_inner_texts()
    assert all(re.fullmatch(r"\d+", t) for t in texts), texts
    numbers = sorted({int(t) for t in texts})
    assert numbers == list(range(1, len(numbers) + 1))
    sources = page.locator(".sources.numbered .source")
    assert sources.count() == len(numbers)
    first = sources.first
    expect(first.locator(".source-title")).to_contain_text("Data Retention Policy")
    expect(first.locator(".source-meta")).to_contain_text(
        re.compile(r"v\d+ · \d{4}-\d\d-\d\d · § ")
    )
    # Confidence in words; the number only on demand.
    expect(page.locator(".confidence-reason")).to_have_text(
        re.compile(
            r"^\d+ exact quotes?, (all supported by their sources|supported by its source)\.$"
        )
    )
    scores = page.locator(".scores p")
    expect(scores).to_be_hidden()
    page.get_by_text("Show the scores").click()
    expect(scores).to_contain_text(re.compile(r"Answer 0\.\d\d"))
    # A verified, exact, supported answer raises no alarm.
    expect(page.locator(".banner")).to_have_count(0)
    expect(page.locator(".claim-doubt")).to_have_count(0)
    tab.check("1-answer")
    page.screenshot(path=ARTIFACTS / f"{tab.size}-1-answer-full.png", full_page=True)


def test_the_quote_popover_stays_inside_the_viewport(tab: Tab) -> None:
    page = tab.page
    ask(page, PII)
    markers = page.locator(".answer .cite")
    for i in range(markers.count()):
        marker = markers.nth(i)
        box = marker.bounding_box()
        assert box is not None
        # The marker's tap target is at least 44 px: points 21 px from its centre hit it.
        centre_x, centre_y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        for dx, dy in ((0, -21), (0, 21), (-21, 0), (21, 0)):
            hit = page.evaluate(
                """([x, y]) => {
                    const e = document.elementFromPoint(x, y);
                    return e?.closest('.cite')?.textContent ?? e?.outerHTML.slice(0, 60);
                }""",
                [centre_x + dx, centre_y + dy],
            )
            assert hit == marker.inner_text(), (tab.size, i, dx, dy, hit)
        expect(marker).to_have_attribute("aria-expanded", "false")
        marker.click()
        expect(marker).to_have_attribute("aria-expanded", "true")
        pop = page.locator(f"#{marker.get_attribute('aria-controls')}")
        expect(pop).to_have_attribute("role", "dialog")
        expect(pop.locator(".quote")).to_be_visible()
        assert inside_viewport(page, pop.bounding_box()), (tab.size, i, pop.bounding_box())
        if tab.size == "phone":  # a bottom sheet
            box = pop.bounding_box()
            assert box is not None and abs(box["y"] + box["height"] - 844) < 2
        if i == 0:
            tab.check("2-quote")
        page.keyboard.press("Escape")
        expect(marker).to_have_attribute("aria-expanded", "false")
        expect(pop).to_be_hidden()


def test_the_viewer_is_a_modal_dialog(tab: Tab) -> None:
    page = tab.page
    ask(page, "How much parental leave does the primary caregiver get?")
    marker = page.locator(".answer .cite").first
    marker.click()
    page.locator(".cite-wrap.open").get_by_role("button", name="Show in the document").click()
    viewer = page.get_by_role("dialog", name=re.compile("Employee Handbook"))
    expect(viewer).to_be_visible()
    expect(viewer).to_have_attribute("aria-modal", "true")
    expect(viewer.locator("mark.quoted")).to_be_visible()
    expect(viewer.locator("#viewer-meta")).to_have_text(re.compile(r"^v\d+ · \d{4}-\d\d-\d\d"))
    expect(viewer.locator(".page-break").first).to_have_text(re.compile(r"Page \d+"))
    # PDF text is reflowed: the quoted sentence runs on without a hard line break.
    assert "\n" not in viewer.locator("mark.quoted").inner_text()
    assert inside_viewport(page, viewer.bounding_box())
    backdrop = page.evaluate(
        "() => getComputedStyle(document.querySelector('#viewer'), '::backdrop').backgroundColor"
    )
    assert backdrop.startswith("rgba(")
    for _ in range(6):  # focus stays inside the dialog
        page.keyboard.press("Tab")
        assert page.evaluate(
            "() => document.querySelector('#viewer').contains(document.activeElement)"
        )
    tab.check("3-viewer")
    page.keyboard.press("Escape")
    expect(viewer).to_be_hidden()
    expect(marker).to_be_focused()


def test_closest_material_is_not_styled_as_a_verified_quote(tab: Tab) -> None:
    page = tab.page
    ask(page, "What is the vesting schedule for employee stock options?")
    excerpt = page.locator(".nearest .excerpt").first
    expect(excerpt).to_be_visible()
    near = excerpt.evaluate("e => getComputedStyle(e).backgroundColor")
    page.evaluate(
        "() => document.body.append("
        "Object.assign(document.createElement('mark'), {className: 'quoted', id: 'probe'}))"
    )
    verified = page.locator("#probe").evaluate("e => getComputedStyle(e).backgroundColor")
    page.evaluate("() => document.querySelector('#probe').remove()")
    assert near != verified
    tab.check("4-unanswerable")


def _contrast(page: sync_api.Page, selector: str) -> float:
    return float(
        page.evaluate(
            """(selector) => {
            const lum = (css) => {
              const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
                v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
              return 0.2126 * r + 0.7152 * g + 0.0722 * b;
            };
            const box = document.querySelector(selector);
            const style = getComputedStyle(box);
            const [a, b] = [lum(style.borderTopColor), lum(style.backgroundColor)];
            return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        }""",
            selector,
        )
    )


def test_question_counter_blocks_an_over_long_question(tab: Tab) -> None:
    page = tab.page
    box = page.get_by_role("textbox", name=QUESTION_BOX)
    box.fill("x" * 2500)
    expect(page.locator("#question-count")).to_have_text("2,500 / 2,000 characters")
    page.get_by_role("button", name="Ask", exact=True).click()
    expect(page.locator("#ask-error")).to_contain_text("the limit is 2,000")
    assert len(box.input_value()) == 2500  # never cut silently
    expect(page.locator("#result")).to_be_empty()
    assert _contrast(page, "#question") >= 3.0
    tab.check("5-too-long")
    # A long question is echoed clamped to three lines.
    ask(page, PII + " " + "Please answer in detail and mention every exception. " * 12)
    echo = page.locator(".answer .question-echo")
    line = float(echo.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
    assert (echo.bounding_box() or {"height": 999})["height"] <= 3 * line + 2


def test_progress_stages_cancel_and_older_versions(tab: Tab) -> None:
    page = tab.page
    # Hold the answer back for a while, as a slow model would.
    page.evaluate("""() => {
        window.realFetch = window.fetch;
        window.fetch = (url, options) => url !== "/ask/stream" ? window.realFetch(url, options)
          : new Promise((resolve, reject) => {
              const timer = setTimeout(() => resolve(window.realFetch(url, options)), 4000);
              options.signal.addEventListener("abort", () => {
                clearTimeout(timer); reject(new DOMException("cancelled", "AbortError")); });
            });
    }""")
    page.get_by_role("textbox", name=QUESTION_BOX).fill(PII)
    page.get_by_role("button", name="Ask", exact=True).click()
    expect(page.locator(".stages li").first).to_have_text("Searching the documents…")
    cancel = page.get_by_role("button", name="Cancel")
    expect(cancel).to_be_visible()
    tab.check("6-waiting")
    cancel.click()
    expect(page.locator("#result")).to_contain_text("Cancelled.")
    expect(cancel).to_be_hidden()
    page.evaluate("() => { window.fetch = window.realFetch; }")

    # Every text the progress list is given, as the stream's stages arrive (recorded as
    # set, so texts replaced within one frame count too).
    page.evaluate("""() => {
        window.stagesSeen = [];
        const shown = window.stage;
        window.stage = (key, text) => { window.stagesSeen.push(text); shown(key, text); };
    }""")
    page.get_by_label("Include older versions").check()
    fresh = f"{PII} ({tab.size})"  # not answered before, so not from the answer cache
    page.get_by_role("textbox", name=QUESTION_BOX).fill(fresh)
    with page.expect_request("**/ask/stream") as sent:
        page.get_by_role("button", name="Ask", exact=True).click()
    assert sent.value.post_data_json == {"question": fresh, "include_superseded": True}
    page.locator(".answer").wait_for()
    expect(page.locator(".answer .cite").first).to_be_visible()
    seen = page.evaluate("() => window.stagesSeen")
    assert seen[0] == "Searching the documents…", seen
    assert any(re.fullmatch(r"Found \d+ passages", s) for s in seen), seen
    assert any(re.fullmatch(r"Checking \d+ claims? against the quoted words…", s) for s in seen)


def test_ask_within_chosen_documents_and_report_a_wrong_citation(tab: Tab) -> None:
    page = tab.page
    page.get_by_text("Search in: all documents").click()
    page.get_by_role("checkbox", name="Data Retention Policy").check()
    expect(page.locator("#scope-summary")).to_have_text("Search in: 1 chosen document")
    tab.check("14-scope")
    with page.expect_request("**/ask/stream") as sent:
        ask(page, PII)
    assert sent.value.post_data_json == {"question": PII, "document_ids": ["data-retention-policy"]}
    titles = page.locator(".sources.numbered .source-title").all_inner_texts()
    assert titles and all("Data Retention Policy" in t for t in titles), titles

    marker = page.locator(".answer .cite").first
    marker.click()
    pop = page.locator(".cite-wrap.open .pop")
    with page.expect_request("**/feedback") as reported:
        pop.get_by_role("button", name="Wrong citation?").click()
    sent_report = reported.value.post_data_json
    assert sent_report["rating"] == "wrong_citation"
    assert sent_report["question"] == PII
    assert sent_report["chunk_id"] == marker.locator("xpath=..").get_attribute("data-chunk-id")
    expect(pop.get_by_role("status")).to_have_text("Reported: thank you.")
    tab.check("15-reported")
    page.get_by_role("button", name="Search all documents").click()
    expect(page.locator("#scope-summary")).to_have_text("Search in: all documents")


def test_ask_within_a_chosen_corpus(tab: Tab, live_server: str) -> None:
    page = tab.page
    added = page.request.post(
        f"{live_server}/documents",
        multipart={
            "file": {
                "name": f"rail-{tab.size}.md",
                "mimeType": "text/markdown",
                "buffer": f"# Rail {tab.size}\n\nTrain journeys go second class.\n".encode(),
            },
            "corpus": "travel",
        },
    )
    assert added.status in (200, 201), added.text()
    page.get_by_text("Search in: all documents").click()
    whole = page.get_by_role("checkbox", name="All of “travel”")
    whole.check()
    expect(page.locator("#scope-summary")).to_have_text("Search in: the “travel” corpus")
    group = page.get_by_role("group", name="Corpus travel")
    mine = group.get_by_role("checkbox", name=f"Rail {tab.size}", exact=True)
    expect(mine).to_be_checked()
    tab.check("16-corpus-scope")
    question = "Which class are train journeys booked in?"
    with page.expect_request("**/ask/stream") as sent:
        ask(page, question)
    assert sent.value.post_data_json == {"question": question, "corpora": ["travel"]}
    titles = page.locator(".sources .source-title").all_inner_texts()
    assert titles and all("Rail " in t for t in titles), titles
    # Unticking one document of the corpus turns the corpus into a list of documents.
    mine.uncheck()
    expect(whole).not_to_be_checked()


# The stream as the server sends it, but held before the answer text (as a slow model
# would hold it) until `window.release()`; Cancel ends the wait like a real one.
HOLD_BEFORE_THE_ANSWER = """() => {
    window.realFetch = window.realFetch || window.fetch;
    window.fetch = async (url, options) => {
      const response = await window.realFetch(url, options);
      if (url !== "/ask/stream" || !response.ok) return response;
      const gate = new Promise((resolve, reject) => {
        window.release = resolve;
        options.signal.addEventListener("abort",
          () => reject(new DOMException("cancelled", "AbortError")));
      });
      const decoder = new TextDecoder(), encoder = new TextEncoder();
      let buffer = "";
      const body = response.body.pipeThrough(new TransformStream({
        async transform(chunk, controller) {
          buffer += decoder.decode(chunk, { stream: true });
          let end;
          while ((end = buffer.indexOf("\\n\\n")) >= 0) {
            const block = buffer.slice(0, end + 2);
            buffer = buffer.slice(end + 2);
            if (/^event: (answer|response)$/m.test(block)) await gate;
            controller.enqueue(encoder.encode(block));
          }
        },
      }));
      return new Response(body, { status: response.status, headers: response.headers });
    };
}"""


def test_verified_claims_show_as_they_pass_the_gate(tab: Tab) -> None:
    page = tab.page
    page.evaluate(HOLD_BEFORE_THE_ANSWER)
    fresh = f"{PII} (as verified, {tab.size})"  # not answered before: the gate runs now
    page.get_by_role("textbox", name=QUESTION_BOX).fill(fresh)
    page.get_by_role("button", name="Ask", exact=True).click()
    streamed = page.locator(".pending .streamed")
    expect(streamed.locator(".claim").first).to_be_visible()
    expect(page.locator(".streamed-note")).to_have_text(
        "Verified so far; the confidence comes with the full answer."
    )
    expect(page.locator(".stages li").last).to_have_text(
        re.compile(r"^Checking the quotes: \d+ of \d+ claims? verified$")
    )
    expect(page.locator(".answer")).to_have_count(0)  # the answer itself is still to come
    expect(page.get_by_role("button", name="Cancel")).to_be_visible()
    arrived = streamed.locator(".claim").evaluate_all(
        "claims => claims.map(c => c.firstChild.textContent)"
    )
    markers = streamed.locator(".cite").all_inner_texts()
    assert markers and all(re.fullmatch(r"\d+", m) for m in markers), markers
    assert streamed.locator(".claim-doubt").count() == 0  # only claims that passed
    streamed.locator(".cite").first.focus()
    expect(streamed.locator(".cite-wrap.open .pop-meta")).to_contain_text(
        "Claim confidence: with the full answer."
    )
    expect(streamed.locator(".cite-wrap.open .quote")).not_to_be_empty()
    tab.check("7-claims-arriving")
    page.keyboard.press("Escape")
    page.evaluate("() => window.release()")
    page.locator(".answer").wait_for()
    expect(page.locator(".pending")).to_have_count(0)
    final = page.locator(".answer .prose .claim").evaluate_all(
        "claims => claims.map(c => c.firstChild.textContent)"
    )
    assert arrived == final[: len(arrived)], (arrived, final)
    expect(page.locator(".confidence-reason")).not_to_be_empty()

    # Cancel while verified claims are showing: the wait ends, nothing of it stays.
    page.evaluate(HOLD_BEFORE_THE_ANSWER)
    page.get_by_role("textbox", name=QUESTION_BOX).fill(f"{fresh} (cancelled)")
    page.get_by_role("button", name="Ask", exact=True).click()
    expect(streamed.locator(".claim").first).to_be_visible()
    page.get_by_role("button", name="Cancel").click()
    expect(page.locator("#result")).to_contain_text("Cancelled.")
    expect(page.locator(".streamed")).to_have_count(0)
    expect(page.get_by_role("button", name="Ask", exact=True)).to_be_enabled()
    page.evaluate("() => { window.fetch = window.realFetch; }")


def test_dark_mode_and_offline_docs(browser: sync_api.Browser, live_server: str) -> None:
    dark = Tab(browser, live_server, "desktop", color_scheme="dark")
    try:
        background = dark.page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(20, 24, 31)"
        assert _contrast(dark.page, "#question") >= 3.0
        ask(dark.page, PII)
        dark.check("8-dark")
        dark.page.locator(".answer .cite").first.click()
        dark.page.get_by_text("Search in: all documents").click()
        dark.page.get_by_role("button", name="Documents", exact=True).click()
        expect(dark.page.locator(".doc-status-stale").first).to_be_visible()
        dark.check("8-dark-library-and-quote")
        icon = dark.page.evaluate("() => document.querySelector('link[rel=icon]').href")
        assert icon.endswith("/static/favicon.svg")
        dark.page.goto(f"{live_server}/docs")
        expect(dark.page.locator(".swagger-ui .info .title")).to_contain_text("ragcite")
        dark.page.screenshot(path=ARTIFACTS / "desktop-9-docs.png")
    finally:
        dark.close()  # asserts nothing was fetched from outside the server


def _count(page: sync_api.Page) -> int:
    expect(page.locator("#corpus-status")).to_contain_text("documents")
    return int(page.locator("#corpus-status").inner_text().split()[0])


def test_document_library_upload_list_and_delete(tab: Tab) -> None:
    page = tab.page
    before = _count(page)
    toggle = page.get_by_role("button", name="Documents")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    docs = page.locator(".doc-list > .doc")
    expect(docs.first).to_be_visible()
    expect(page.locator(".doc-status-superseded").first).to_be_visible()
    expect(page.locator(".doc-status-active").first).to_be_visible()
    expect(page.locator(".doc-status-stale").first).to_be_visible()  # demo policies from 2024
    expect(page.locator(".doc-version-label").first).to_have_text(
        re.compile(r"^v\d+( · \d{4}-\d\d-\d\d)?$")
    )
    expect(page.locator(".doc-meta").first).to_contain_text(
        re.compile("groups: |readable by everyone")
    )
    tab.check("10-library")

    name = f"{tab.size}-travel.md"
    page.locator("#upload-input").set_input_files(
        [
            {
                "name": name,
                "mimeType": "text/markdown",
                "buffer": f"# Travel {tab.size}\n\nTrains: second class.\n".encode(),
            },
            {"name": "notes.xyz", "mimeType": "application/octet-stream", "buffer": b"\x00\x01"},
        ]
    )
    uploads = page.locator(".upload")
    expect(page.locator(".upload-done .upload-status")).to_contain_text("Added as")
    failed = page.locator(".upload-failed .upload-status")
    expect(failed).to_contain_text(".xyz")  # the server's problem detail, naming the file type
    assert uploads.count() == 2
    expect(page.locator("#corpus-status")).to_contain_text(f"{before + 1} documents")
    tab.check("11-uploaded")

    # Drag and drop
    page.evaluate(
        """(name) => {
        const data = new DataTransfer();
        const text = "# Parking\\n\\nStaff park on level 2.\\n";
        data.items.add(new File([text], name, {type: "text/markdown"}));
        const drop = new DragEvent('drop', {dataTransfer: data, bubbles: true});
        document.querySelector('#drop-zone').dispatchEvent(drop);
    }""",
        f"{tab.size}-parking.md",
    )
    expect(page.locator(".upload-done")).to_have_count(2)
    expect(page.locator("#corpus-status")).to_contain_text(f"{before + 2} documents")

    row = page.locator(f".doc[data-document-id^='{tab.size}-parking']")
    expect(row).to_be_visible()
    delete = row.get_by_role("button", name="Delete")
    delete.click()
    expect(row.get_by_role("button", name="Delete every version?")).to_be_visible()
    row.get_by_role("button", name="Delete every version?").click()
    expect(page.locator("#announcer")).to_contain_text("Deleted")
    expect(page.locator("#corpus-status")).to_contain_text(f"{before + 1} documents")
    deleted = page.locator(f".doc[data-document-id^='{tab.size}-parking']")
    expect(deleted.locator(".doc-status-deleted")).to_be_visible()
    expect(deleted.get_by_role("button")).to_have_count(0)
    tab.check("12-deleted")


def test_upload_with_a_version_name(tab: Tab) -> None:
    page = tab.page
    page.get_by_role("button", name="Documents").click()
    page.get_by_text("Version and date (optional)").click()
    page.get_by_label("Version", exact=True).fill("2024-Q3")
    page.get_by_label("Effective date").fill("2024-07-01")
    name = f"{tab.size}-pump-plan.md"
    page.locator("#upload-input").set_input_files(
        [
            {
                "name": name,
                "mimeType": "text/markdown",
                "buffer": f"# Pump plan {tab.size}\n\nThe pump is serviced monthly.\n".encode(),
            }
        ]
    )
    done = page.locator(".upload-done .upload-status")
    expect(done).to_contain_text(f"Added as “Pump plan {tab.size}” 2024-Q3 · 2024-07-01")
    row = page.locator(f".doc[data-document-id^='{tab.size}-pump-plan']")
    expect(row.locator(".doc-version-label")).to_have_text("2024-Q3 · 2024-07-01")
    tab.check("17-version-name")
    # A version name the server refuses comes back naming the input.
    page.get_by_label("Version", exact=True).fill("Rev\tB")
    page.locator("#upload-input").set_input_files(
        [{"name": f"{tab.size}-other.md", "mimeType": "text/markdown", "buffer": b"# O\n\nX.\n"}]
    )
    expect(page.locator(".upload-failed .upload-status")).to_contain_text(
        "holds control characters"
    )


def test_a_reader_key_sees_the_api_refusal(
    browser: sync_api.Browser, keyed_server: tuple[str, dict[str, str]]
) -> None:
    url, tokens = keyed_server
    reader = Tab(browser, url, "phone")
    page = reader.page
    try:
        page.get_by_role("button", name="Documents").click()
        page.get_by_role("textbox", name="This server needs an API key").fill(tokens["reader"])
        page.get_by_role("button", name="Use key").click()
        row = page.locator(".doc-list > .doc").first
        expect(row).to_be_visible()
        row.get_by_role("button", name="Delete").click()
        row.get_by_role("button", name="Delete every version?").click()
        expect(row.locator(".doc-message")).to_contain_text("admin key")
        page.locator("#upload-input").set_input_files(
            [{"name": "x.md", "mimeType": "text/markdown", "buffer": b"# X\n\nText.\n"}]
        )
        expect(page.locator(".upload-failed .upload-status")).to_contain_text("admin key")
        reader.check("13-reader-refused")
    finally:
        reader.close()
