// ragcite web page: plain JavaScript over the JSON API (POST /ask/stream, GET /documents/{id}/text).
// Every piece of document text is inserted with textContent, never as HTML.
"use strict";

const $ = (selector) => document.querySelector(selector);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// -- the API key ------------------------------------------------------------------------------
// A server that needs a key answers 401; the page then asks for one, keeps it in this tab's
// session storage only, and sends it as a Bearer header. A server started with --open never
// answers 401, so the page never asks.

const KEY_STORAGE = "ragcite.apiKey";
let keyWaiters = [];

function storedKey() {
  return sessionStorage.getItem(KEY_STORAGE);
}

function withKey(options = {}) {
  const headers = new Headers(options.headers || {});
  const key = storedKey();
  if (key) headers.set("Authorization", `Bearer ${key}`);
  return { ...options, headers };
}

async function api(url, options = {}) {
  for (;;) {
    const reply = await fetch(url, withKey(options));
    if (reply.status !== 401) return reply;
    const refused = Boolean(storedKey());
    forgetKey();
    await askForKey(refused ? "That key was refused (unknown or revoked); enter another." : "");
  }
}

function askForKey(message) {
  const error = $("#key-error");
  error.textContent = message;
  error.hidden = !message;
  $("#key-panel").hidden = false;
  $("#api-key").focus();
  return new Promise((resolve) => keyWaiters.push(resolve));
}

function useKey(event) {
  event.preventDefault();
  const key = $("#api-key").value.trim();
  if (!key) {
    const error = $("#key-error");
    error.textContent = "Paste your API key first.";
    error.hidden = false;
    return;
  }
  sessionStorage.setItem(KEY_STORAGE, key);
  $("#api-key").value = "";
  $("#key-panel").hidden = true;
  $("#forget-key").hidden = false;
  const waiting = keyWaiters;
  keyWaiters = [];
  waiting.forEach((resolve) => resolve());
}

function forgetKey() {
  sessionStorage.removeItem(KEY_STORAGE);
  textCache.clear();
  $("#forget-key").hidden = true;
}

const LABELS = { HIGH: "High", MEDIUM: "Medium", LOW: "Low", VERY_LOW: "Very low" };

function confidencePill(label, value, what) {
  const text = `${LABELS[label] || label} · ${Number(value).toFixed(2)}`;
  return el("span", { class: `conf conf-${label}`, title: `${what} confidence`,
                      "aria-label": `${what} confidence: ${LABELS[label] || label}, ${Number(value).toFixed(2)}` }, text);
}

// The slot for lifecycle marks: superseded (now) and stale (when the store reports it).
function statusTag(source) {
  if (source.stale) return el("span", { class: "status status-stale" }, "Stale");
  if (source.status && source.status !== "active") {
    return el("span", { class: `status status-${source.status}` },
              source.status === "superseded" ? "Superseded" : source.status);
  }
  return null;
}

// -- asking ----------------------------------------------------------------------------------

let currentQuery = "";
let markerCounter = 0;

async function ask(question) {
  const result = $("#result");
  const button = $("#ask-button");
  showFormError("");
  closeViewer(false);
  currentQuery = question;
  button.disabled = true;
  result.setAttribute("aria-busy", "true");
  result.replaceChildren(el("div", { class: "card" },
    el("p", { class: "question-echo" }, question),
    el("p", { class: "progress", id: "progress" }, "Searching the documents and checking every quote…")));
  try {
    const response = await api("/ask/stream", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify({ question }),
    });
    if (!response.ok) {
      const problem = await response.json().catch(() => ({ detail: response.statusText }));
      result.replaceChildren();
      showFormError(problem.detail || "The question could not be answered.");
      return;
    }
    await readEvents(response, (event, data) => onEvent(event, data));
  } catch (error) {
    result.replaceChildren();
    showFormError(`The server could not be reached (${error.message}).`);
  } finally {
    button.disabled = false;
    result.setAttribute("aria-busy", "false");
  }
}

async function readEvents(response, handle) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      if (data.length) handle(event, JSON.parse(data.join("\n")));
    }
  }
}

let streamed = null;

function onEvent(event, data) {
  const result = $("#result");
  if (event === "started") {
    streamed = { answer: "", claims: el("ol", { class: "claims" }) };
  } else if (event === "answer") {
    streamed.answer += data.text;
  } else if (event === "claim") {
    const progress = $("#progress");
    if (progress) progress.textContent = "Verified claims arriving…";
    if (!streamed.claims.isConnected) result.firstChild.append(streamed.claims);
    streamed.claims.append(claimItem(data));
  } else if (event === "response") {
    renderResponse(data);
  } else if (event === "error") {
    result.replaceChildren();
    showFormError(data.detail || "The question could not be answered.");
  }
}

function showFormError(message) {
  const box = $("#ask-error");
  box.textContent = message;
  box.hidden = !message;
}

// -- rendering an answer ----------------------------------------------------------------------

function renderResponse(data) {
  const result = $("#result");
  const cards = [];
  if (data.warnings.length && data.answerable) cards.push(warningBanner(data.warnings));
  if (data.answerable) {
    cards.push(el("div", { class: "card answer" },
      el("div", { class: "answer-head" },
        el("h2", {}, "Answer"),
        el("span", { class: "answer-confidence" }, "Answer confidence ",
           confidencePill(data.confidence_label, data.overall_confidence, "Answer"))),
      el("p", { class: "question-echo" }, data.query),
      el("ol", { class: "claims" }, data.claims.map(claimItem)),
      feedbackRow(data)));
    cards.push(sourcesCard("Sources", data.sources, false));
  } else {
    cards.push(el("div", { class: "card answer unanswerable" },
      el("h2", {}, "No answer in the documents"),
      el("p", { class: "question-echo" }, data.query),
      el("p", { class: "not-found" }, data.answer),
      data.sources.length
        ? el("ol", { class: "sources nearest" }, data.sources.map((s) => sourceItem(s, true)))
        : el("p", {}, "Nothing in the documents came close."),
      feedbackRow(data)));
  }
  result.replaceChildren(...cards);
}

function warningBanner(warnings) {
  return el("div", { class: "banner", role: "note", "aria-label": "Warnings" },
    el("strong", {}, warnings.length === 1 ? "Please note" : `Please note (${warnings.length})`),
    el("ul", {}, warnings.map((w) => el("li", { "data-code": w.code }, w.message))));
}

function claimItem(claim) {
  // One marker per source per claim: citations are deduplicated by chunk ID.
  const seen = new Set();
  const markers = [];
  for (const citation of claim.citations) {
    if (seen.has(citation.chunk_id)) continue;
    seen.add(citation.chunk_id);
    markers.push(citationMarker(citation));
  }
  return el("li", { class: "claim", "data-verified": String(claim.verified) },
    el("span", { class: "claim-text" }, claim.text), " ",
    markers, confidencePill(claim.confidence_label, claim.confidence, "Claim"));
}

function citationMarker(citation) {
  const id = `pop-${++markerCounter}`;
  const wrap = el("span", { class: "cite-wrap", "data-chunk-id": citation.chunk_id });
  const marker = el("button", {
      type: "button", class: "cite", "aria-expanded": "false", "aria-controls": id,
      "aria-label": `Source: ${citation.display}. Show the quote.`,
    },
    statusTag(citation) ? el("span", { class: "cite-status", title: "Superseded source" }) : null,
    el("span", { class: "cite-label" }, citation.display));
  const open = el("button", { type: "button", class: "link-button open-source" }, "Show in the document");
  const pop = el("span", { class: "pop", id, role: "group", "aria-label": "Quoted source" },
    el("span", { class: "pop-card" },
      el("p", { class: "pop-source" }, citation.display, statusTag(citation)),
      el("blockquote", { class: "quote" }, citation.quote),
      el("p", { class: "pop-meta" }, citationFacts(citation)),
      open));
  marker.addEventListener("click", () => {
    wrap.classList.remove("dismissed");
    setOpen(wrap, !wrap.classList.contains("open"));
  });
  marker.addEventListener("mouseenter", () => alignPopover(wrap));
  marker.addEventListener("focus", () => alignPopover(wrap));
  wrap.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { setOpen(wrap, false); marker.focus(); wrap.classList.add("dismissed"); }
  });
  const undismiss = () => wrap.classList.remove("dismissed");
  wrap.addEventListener("mouseleave", undismiss);
  wrap.addEventListener("focusout", undismiss);
  open.addEventListener("click", () => {
    setOpen(wrap, false);
    openViewer({ documentId: citation.document_id, version: citation.document_version,
                 span: citation.document_span, display: citation.display, status: citation.status,
                 page: citation.page, section: citation.section, returnFocus: marker });
  });
  wrap.append(marker, pop);
  return wrap;
}

function citationFacts(citation) {
  const facts = [`quote ${citation.quote_status.replace("_", " ")}`];
  if (citation.support && citation.support !== "unchecked") facts.push(`support ${citation.support}`);
  if (citation.chunk_confidence !== null) facts.push(`source confidence ${citation.chunk_confidence.toFixed(2)}`);
  return facts.join(" · ");
}

function setOpen(wrap, open) {
  document.querySelectorAll(".cite-wrap.open").forEach((w) => {
    if (w !== wrap) { w.classList.remove("open"); w.querySelector(".cite").setAttribute("aria-expanded", "false"); }
  });
  wrap.classList.toggle("open", open);
  wrap.querySelector(".cite").setAttribute("aria-expanded", String(open));
  if (open) alignPopover(wrap);
}

function alignPopover(wrap) {
  const pop = wrap.querySelector(".pop");
  pop.classList.remove("align-right");
  const room = window.innerWidth - wrap.getBoundingClientRect().left;
  if (room < Math.min(480, window.innerWidth * 0.86) + 16) pop.classList.add("align-right");
}

function sourcesCard(title, sources, nearest) {
  return el("div", { class: "card" }, el("h2", {}, title),
    el("ol", { class: "sources" }, sources.map((s) => sourceItem(s, nearest))));
}

function sourceItem(source, nearest) {
  const excerpt = nearest ? el("blockquote", { class: "quote" }, excerptOf(source.chunk_text)) : null;
  const open = el("button", { type: "button", class: "link-button open-source" }, "Show in the document");
  open.addEventListener("click", () => openViewer({
    documentId: source.document_id, version: source.document_version,
    span: [source.char_start, source.char_end], display: source.display, status: source.status,
    page: source.page, section: source.section, returnFocus: open }));
  const meta = [`source confidence ${source.scores.composite_confidence.toFixed(2)}`];
  if (source.document_date) meta.push(`effective ${source.document_date}`);
  return el("li", { class: "source", "data-chunk-id": source.chunk_id },
    el("p", { class: "source-title" }, source.display, statusTag(source)),
    el("p", { class: "source-meta" }, meta.join(" · ")),
    excerpt,
    el("div", { class: "source-actions" }, open,
       source.url ? el("a", { href: source.url, rel: "noopener noreferrer" }, "Original") : null));
}

function excerptOf(text) {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= 320) return flat;
  const cut = flat.lastIndexOf(" ", 320);
  return `${flat.slice(0, cut > 200 ? cut : 320)} …`;
}

function feedbackRow(data) {
  const row = el("div", { class: "feedback", role: "group", "aria-label": "Feedback on this answer" },
    el("span", {}, "Was this answer helpful?"));
  const send = (rating) => async () => {
    const reply = await api("/feedback", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ query: data.query, rating, response: data }),
    });
    row.replaceChildren(el("span", { role: "status" },
      reply.ok ? "Thank you: your feedback was recorded." : "Your feedback could not be recorded."));
  };
  row.append(el("button", { type: "button", onclick: send("helpful") }, "Yes"),
             el("button", { type: "button", onclick: send("not_helpful") }, "No"));
  return row;
}

// -- the source viewer ---------------------------------------------------------------------

const textCache = new Map();
let viewerReturnFocus = null;

async function documentText(documentId, version) {
  const key = `${documentId}@${version}`;
  if (!textCache.has(key)) {
    const reply = await api(`/documents/${encodeURIComponent(documentId)}/text?version=${version}`);
    if (!reply.ok) throw new Error((await reply.json()).detail || reply.statusText);
    textCache.set(key, await reply.json());
  }
  return textCache.get(key);
}

async function openViewer({ documentId, version, span, display, status, page, section, returnFocus }) {
  viewerReturnFocus = returnFocus || null;
  const viewer = $("#viewer");
  $(".workspace").classList.add("with-viewer");
  viewer.hidden = false;
  $("#viewer-title").textContent = display;
  $("#viewer-meta").textContent = "Loading the document…";
  $("#viewer-page").textContent = "";
  $("#viewer-text").replaceChildren();
  let doc;
  try {
    doc = await documentText(documentId, version);
  } catch (error) {
    $("#viewer-meta").textContent = `The document could not be loaded: ${error.message}`;
    return;
  }
  const d = doc.document;
  $("#viewer-title").replaceChildren(...[d.title, statusTag({ status: status || d.status })].filter(Boolean));
  const meta = [`Version ${d.version}`];
  if (d.effective_date) meta.push(`effective ${d.effective_date}`);
  if (d.status !== "active") meta.push(d.superseded_by ? `superseded by version ${d.superseded_by}` : d.status);
  $("#viewer-meta").textContent = meta.join(" · ");
  const where = [];
  if (doc.pages.length) where.push(`page ${pageAt(doc.pages, span ? span[0] : 0) || page || "?"} of ${doc.pages.length}`);
  if (section) where.push(`section “${section}”`);
  $("#viewer-page").textContent = `Quoted passage highlighted${where.length ? ": " + where.join(", ") : ""}`;
  const body = $("#viewer-text");
  body.replaceChildren(...documentNodes(doc.text, doc.pages, span));
  $("#viewer-title").focus({ preventScroll: true });
  const mark = body.querySelector("mark");
  // Scroll the document, not the page, so the viewer's header stays in view.
  body.scrollTop = mark ? Math.max(0, mark.offsetTop - body.clientHeight / 3) : 0;
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
    if (starts.has(from)) nodes.push(el("span", { class: "page-break", role: "separator" }, `Page ${starts.get(from)}`));
    const piece = text.slice(from, to);
    if (span && from >= span[0] && to <= span[1]) nodes.push(el("mark", { class: "quoted" }, piece));
    else nodes.push(document.createTextNode(piece));
  }
  return nodes;
}

function closeViewer(restoreFocus = true) {
  const viewer = $("#viewer");
  if (viewer.hidden) return;
  viewer.hidden = true;
  $(".workspace").classList.remove("with-viewer");
  if (restoreFocus && viewerReturnFocus && viewerReturnFocus.isConnected) viewerReturnFocus.focus();
}

// -- wiring ---------------------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", () => {
  $("#key-form").addEventListener("submit", useKey);
  $("#forget-key").addEventListener("click", () => {
    forgetKey();
    $("#result").replaceChildren();
    closeViewer(false);
  });
  $("#forget-key").hidden = !storedKey();
  $("#ask-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const question = $("#question").value.trim();
    if (!question) {
      showFormError("Type a question first.");
      $("#question").focus();
      return;
    }
    ask(question);
  });
  $("#viewer-close").addEventListener("click", () => closeViewer());
  $("#viewer").addEventListener("keydown", (event) => { if (event.key === "Escape") closeViewer(); });
  document.addEventListener("click", (event) => {
    if (!event.target.closest(".cite-wrap")) document.querySelectorAll(".cite-wrap.open").forEach((w) => setOpen(w, false));
  });
  fetch("/healthz").then((r) => r.json()).then((h) => {
    $("#corpus-status").textContent = `${h.documents} documents · ${h.chunks} passages`;
  }).catch(() => {});
});
