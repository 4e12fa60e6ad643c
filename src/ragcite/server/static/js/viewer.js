// ragcite web page, part 3 of 5: the source viewer, a modal dialog (<dialog>: a backdrop,
// focus kept inside, Esc closes) showing the document with the quoted span highlighted.
"use strict";

const textCache = new Map();
let viewerReturnFocus = null;

async function documentText(documentId, version) {
  const key = `${documentId}@${version}`;
  if (!textCache.has(key)) {
    const reply = await api(`/documents/${encodeURIComponent(documentId)}/text?version=${version}`);
    if (!reply.ok) throw new Error(await problemDetail(reply));
    textCache.set(key, await reply.json());
  }
  return textCache.get(key);
}

async function openViewer({ documentId, version, span, display, status, page, section, returnFocus }) {
  viewerReturnFocus = returnFocus || null;
  const viewer = $("#viewer");
  $("#viewer-title").textContent = display;
  $("#viewer-meta").textContent = "Loading the document…";
  $("#viewer-page").textContent = "";
  $("#viewer-text").replaceChildren();
  if (!viewer.open) viewer.showModal();
  $("#viewer-title").focus({ preventScroll: true });
  let doc;
  try {
    doc = await documentText(documentId, version);
  } catch (error) {
    $("#viewer-meta").textContent = `The document could not be loaded: ${error.message}`;
    return;
  }
  const d = doc.document;
  $("#viewer-title").replaceChildren(...[d.title, statusTag({ status: status || d.status })].filter(Boolean));
  const meta = [versionLabel(d)];
  if (d.status === "superseded") meta.push(d.superseded_by ? `superseded by v${d.superseded_by}` : "superseded");
  else if (d.status !== "active") meta.push(d.status);
  $("#viewer-meta").textContent = meta.join(" · ");
  const where = [];
  if (doc.pages.length) where.push(`page ${pageAt(doc.pages, span ? span[0] : 0) || page || "?"} of ${doc.pages.length}`);
  if (section) where.push(`section “${section}”`);
  $("#viewer-page").textContent = `Quoted passage highlighted${where.length ? ": " + where.join(", ") : ""}`;
  const body = $("#viewer-text");
  const text = doc.pages.length ? reflow(doc.text) : doc.text;
  body.replaceChildren(...documentNodes(text, doc.pages, span));
  const mark = body.querySelector("mark");
  // Scroll the document, not the page, so the viewer's header stays in view.
  body.scrollTop = mark ? Math.max(0, mark.offsetTop - body.clientHeight / 3) : 0;
}

// PDF text keeps the hard line breaks of the printed page: join the lines of a paragraph.
// A line break stays where the line before is short (a heading) or ends a sentence and the
// next starts a list item, a capital after a short line, or a blank line. Same length, so
// offsets into the text still hold.
function reflow(text) {
  const lines = text.split("\n");
  let out = lines[0];
  for (let i = 1; i < lines.length; i++) {
    const [before, next] = [lines[i - 1], lines[i]];
    const join = before.trim().length >= 45 && next.trim() !== "" && !/^\s|^[•\-–*]\s|^\d+[.)]\s/.test(next)
      && (/^[a-z(]/.test(next) || !/[.!?:]$/.test(before.trim()));
    out += (join ? " " : "\n") + next;
  }
  return out;
}

function pageAt(pages, offset) {
  const found = pages.find((p) => offset >= p.char_start && offset < p.char_end);
  return found ? found.page : null;
}

// The document text cut at page starts and at the quoted span, the span wrapped in <mark>.
function documentNodes(text, pages, span) {
  const cuts = new Set([0, text.length]);
  for (const p of pages) cuts.add(Math.min(p.char_start, text.length));
  if (span) { cuts.add(span[0]); cuts.add(span[1]); }
  const points = [...cuts].sort((a, b) => a - b);
  const starts = new Map(pages.map((p) => [p.char_start, p.page]));
  const nodes = [];
  for (let i = 0; i < points.length - 1; i++) {
    const [from, to] = [points[i], points[i + 1]];
    if (starts.has(from)) nodes.push(el("span", { class: "page-break", role: "separator", "aria-label": `Page ${starts.get(from)}` }, `Page ${starts.get(from)}`));
    const piece = text.slice(from, to);
    if (span && from >= span[0] && to <= span[1]) nodes.push(el("mark", { class: "quoted" }, piece));
    else nodes.push(document.createTextNode(piece));
  }
  return nodes;
}

function closeViewer(restoreFocus = true) {
  const viewer = $("#viewer");
  if (!viewer.open) return;
  if (!restoreFocus) viewerReturnFocus = null;
  viewer.close();
}

function wireViewer() {
  const viewer = $("#viewer");
  $("#viewer-close").addEventListener("click", () => closeViewer());
  viewer.addEventListener("close", () => {
    if (viewerReturnFocus && viewerReturnFocus.isConnected) viewerReturnFocus.focus();
    viewerReturnFocus = null;
  });
  // Tab and Shift+Tab cycle inside the dialog (the browser would let focus leave the page).
  viewer.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const focusable = [...viewer.querySelectorAll("button, [href], [tabindex='0']")].filter((e) => !e.disabled && e.offsetParent);
    if (!focusable.length) return;
    const [first, last] = [focusable[0], focusable[focusable.length - 1]];
    const at = document.activeElement;
    if (event.shiftKey && (at === first || !viewer.contains(at) || at === $("#viewer-title"))) { event.preventDefault(); last.focus(); }
    else if (!event.shiftKey && at === last) { event.preventDefault(); first.focus(); }
  });
  // A click on the backdrop (outside the dialog's box) closes it.
  viewer.addEventListener("click", (event) => {
    if (event.target !== viewer) return;
    const box = viewer.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) closeViewer();
  });
}
