// ragcite web page, part 2 of 5: an answer as prose with numbered source markers, the quote
// popover, confidence in words and the numbered source list.
"use strict";

// Warnings worth a banner: something in the answer may be wrong. The rest (scores that read
// low, a retry that succeeded) are notes, shown quietly.
const RISKS = new Set(["contradicted_claim", "unsupported_claim", "quote_not_found",
  "hallucinated_chunk_id", "claim_dropped", "partial_attribution", "unattributed_sentence",
  "superseded_source", "generation_failed", "degraded_to_sources"]);

let popCounter = 0;

// Numbers for sources in the order the answer first cites them: chunk ID → {n, citation}.
function numberSources(claims) {
  const numbers = new Map();
  for (const claim of claims) {
    for (const citation of claim.citations) {
      if (!numbers.has(citation.chunk_id)) numbers.set(citation.chunk_id, { n: numbers.size + 1, citation });
    }
  }
  return numbers;
}

// The label the page shows: never higher than the weakest claim's.
function shownLabel(data) {
  let label = data.confidence_label;
  for (const claim of data.claims) {
    if (RANK[claim.confidence_label] < RANK[label]) label = claim.confidence_label;
  }
  return label;
}

// Why, in words; the API's confidence_reason, else the same reckoning from the claims.
function confidenceReason(data) {
  if (data.confidence_reason) return data.confidence_reason;
  const citations = data.claims.flatMap((c) => c.citations);
  const loose = citations.filter((c) => !["exact", "normalized"].includes(c.quote_status)).length;
  const doubtful = data.claims.filter((c) => c.citations.some((x) => ["partial", "unsupported", "contradicted"].includes(x.support))).length;
  if (doubtful) return `${plural(doubtful, "claim's", "claims'")} support is uncertain.`;
  if (loose) return `${plural(loose, "quote matches", "quotes match")} only approximately.`;
  return `${plural(citations.length, "exact quote", "exact quotes")}, all supported by their sources.`;
}

let currentQuestion = "";

function renderResponse(data) {
  currentQuestion = data.query;
  const result = $("#result");
  result.replaceChildren(...(data.answerable ? answerCards(data) : unanswerableCards(data)));
}

function answerCards(data) {
  const numbers = numberSources(data.claims);
  const label = shownLabel(data);
  const scores = data.claims.map((c, i) => `claim ${i + 1}: ${Number(c.confidence).toFixed(2)}`);
  const risks = data.warnings.filter((w) => RISKS.has(w.code));
  const notes = data.warnings.filter((w) => !RISKS.has(w.code));
  const sources = [...numbers.entries()].map(([chunkId, { n, citation }]) => {
    const source = data.sources.find((s) => s.chunk_id === chunkId);
    return sourceItem(source || citationAsSource(citation), false, n);
  });
  return [
    risks.length ? warningBanner(risks) : null,
    el("article", { class: "card answer", "aria-labelledby": "answer-title" },
      el("h2", { id: "answer-title" }, "Answer"),
      questionEcho(data.query),
      el("p", { class: "prose" }, data.claims.map((claim) => [claimSpan(claim, numbers), " "])),
      el("div", { class: `confidence confidence-${label}` },
        el("p", { class: "confidence-words" }, "Confidence: ", confidencePill(label), " ",
           el("span", { class: "confidence-reason" }, confidenceReason(data))),
        el("details", { class: "scores" }, el("summary", {}, "Show the scores"),
           el("p", {}, `Answer ${Number(data.overall_confidence).toFixed(2)} (${LABELS[data.confidence_label]})`
              + (scores.length ? `; ${scores.join(", ")}` : "") + ". Scores run from 0 to 1."))),
      notes.length ? el("details", { class: "notes" }, el("summary", {}, `Notes (${notes.length})`),
        el("ul", {}, notes.map((w) => el("li", { "data-code": w.code }, w.message)))) : null,
      feedbackRow(data)),
    el("section", { class: "card", "aria-labelledby": "sources-title" },
      el("h2", { id: "sources-title" }, "Sources"),
      el("ol", { class: "sources numbered" }, sources)),
  ].filter(Boolean);
}

function unanswerableCards(data) {
  return [el("article", { class: "card answer unanswerable", "aria-labelledby": "answer-title" },
    el("h2", { id: "answer-title" }, "No answer in the documents"),
    questionEcho(data.query),
    el("p", { class: "not-found" }, data.answer),
    data.sources.length
      ? el("ol", { class: "sources nearest", "aria-label": "Closest material (not an answer)" },
           data.sources.map((s) => sourceItem(s, true)))
      : el("p", {}, "Nothing in the documents came close."),
    feedbackRow(data))];
}

function questionEcho(query) {
  return el("p", { class: "question-echo", title: query.length > 200 ? query : null },
            query.length > 300 ? `${query.slice(0, 297)}…` : query);
}

function citationAsSource(c) {
  return { chunk_id: c.chunk_id, display: c.display, title: c.title, section: c.section, page: c.page,
    url: c.url, document_id: c.document_id, document_version: c.document_version,
    version_label: c.version_label, document_date: c.document_date, status: c.status,
    char_start: c.document_span ? c.document_span[0] : 0, char_end: c.document_span ? c.document_span[1] : 0 };
}

// One claim: its words, then one marker per source (deduplicated), numbered answer-wide.
function claimSpan(claim, numbers) {
  const seen = new Set();
  const markers = [];
  for (const citation of claim.citations) {
    if (seen.has(citation.chunk_id)) continue;
    seen.add(citation.chunk_id);
    const n = numbers.has(citation.chunk_id) ? numbers.get(citation.chunk_id).n : numbers.size + 1;
    markers.push(citationMarker(citation, n, claim));
  }
  const trusted = claim.verified && claim.citations.every((c) => ["exact", "normalized"].includes(c.quote_status)
    && ["supported", "unchecked"].includes(c.support));
  return el("span", { class: `claim${trusted ? "" : " claim-doubt"}`, "data-verified": String(claim.verified) },
    claim.text.trim(), trusted ? null : el("span", { class: "visually-hidden" }, " (check this claim)"), markers);
}

function citationMarker(citation, n, claim) {
  const id = `pop-${++popCounter}`;
  const title = citation.title || citation.display;
  const wrap = el("span", { class: "cite-wrap", "data-chunk-id": citation.chunk_id, "data-n": String(n) });
  const marker = el("button", {
    type: "button", class: `cite${citation.status && citation.status !== "active" ? " cite-old" : ""}`,
    "aria-expanded": "false", "aria-controls": id,
    "aria-label": `Source ${n}: ${title}. Show the quote.`,
  }, String(n));
  const open = el("button", { type: "button", class: "link-button open-source" }, "Show in the document");
  const close = el("button", { type: "button", class: "icon-button pop-close", "aria-label": "Close the quote" }, "×");
  const pop = el("span", { class: "pop", id, role: "dialog", "aria-label": `Source ${n}: quoted words` },
    el("span", { class: "pop-card" },
      el("span", { class: "pop-head" },
        el("span", { class: "pop-source" }, el("span", { class: "pop-n" }, `[${n}]`), " ", title, statusTag(citation)),
        close),
      el("span", { class: "pop-where" }, whereText(citation)),
      el("blockquote", { class: "quote" }, citation.quote),
      el("span", { class: "pop-meta" }, citationFacts(citation, claim)),
      el("span", { class: "pop-actions" }, open, wrongCitation(citation, claim))));
  const state = { hover: false, focus: false, pinned: false, dismissed: false };
  const update = () => {
    const shown = !state.dismissed && (state.hover || state.focus || state.pinned);
    if (shown) document.querySelectorAll(".cite-wrap.open").forEach((w) => { if (w !== wrap) w.hidePop(); });
    wrap.classList.toggle("open", shown);
    marker.setAttribute("aria-expanded", String(shown));
    if (shown) placePopover(wrap);
  };
  wrap.hidePop = () => { Object.assign(state, { hover: false, focus: false, pinned: false }); update(); };
  marker.addEventListener("click", () => {
    Object.assign(state, state.pinned ? { pinned: false, dismissed: true } : { pinned: true, dismissed: false });
    update();
  });
  wrap.addEventListener("mouseenter", () => { if (!coarsePointer()) { state.hover = true; update(); } });
  wrap.addEventListener("mouseleave", () => { state.hover = false; state.dismissed = false; update(); });
  wrap.addEventListener("focusin", () => { state.focus = true; update(); });
  wrap.addEventListener("focusout", (event) => {
    if (wrap.contains(event.relatedTarget)) return;
    Object.assign(state, { focus: false, dismissed: false });
    if (event.relatedTarget) state.pinned = false;
    update();
  });
  wrap.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    Object.assign(state, { pinned: false, dismissed: true });
    marker.focus();
    update();
  });
  close.addEventListener("click", () => { Object.assign(state, { pinned: false, dismissed: true }); marker.focus(); update(); });
  open.addEventListener("click", () => {
    wrap.hidePop();
    openViewer({ documentId: citation.document_id, version: citation.document_version,
                 span: citation.document_span, display: citation.title || citation.display, status: citation.status,
                 page: citation.page, section: citation.section, returnFocus: marker });
  });
  wrap.append(marker, pop);
  return wrap;
}

const coarsePointer = () => window.matchMedia("(hover: none)").matches;

function whereText(item) {
  return [versionLabel(item), item.section ? `§ ${item.section}` : null,
          item.page ? `page ${item.page}` : null].filter(Boolean).join(" · ");
}

function citationFacts(citation, claim) {
  const quote = { exact: "Exact quote", normalized: "Exact quote (spacing differs)",
                  fuzzy: "Approximate quote", not_found: "Quote not found" }[citation.quote_status] || citation.quote_status;
  const support = { supported: "supported by the source", partial: "partly supported",
                    unsupported: "not supported by the source", contradicted: "contradicted by the source",
                    unchecked: "support not checked" }[citation.support] || citation.support;
  const why = claim.confidence_reason ? ` ${claim.confidence_reason}` : "";
  if (claim.confidence_label == null) return `${quote}, ${support}. Claim confidence: with the full answer.`;
  return `${quote}, ${support}. Claim confidence: ${LABELS[claim.confidence_label] || claim.confidence_label} (${Number(claim.confidence).toFixed(2)}).${why}`;
}

// "Wrong citation?": tells the server (the feedback API) that this source does not back
// this claim; the button becomes a short thank-you.
function wrongCitation(citation, claim) {
  const report = el("button", { type: "button", class: "link-button quiet report" }, "Wrong citation?");
  report.addEventListener("click", async () => {
    report.disabled = true;
    const question = (typeof currentQuestion === "string" && currentQuestion) || claim.text;
    const reply = await api("/feedback", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ question, rating: "wrong_citation", chunk_id: citation.chunk_id,
                             claim_text: claim.text }),
    }).catch(() => null);
    const said = reply && reply.ok ? "Reported: thank you." : "The report could not be sent.";
    report.replaceWith(el("span", { class: "report-done", role: "status" }, said));
  });
  return report;
}

// Keep the popover inside the viewport: a bottom sheet on narrow screens (CSS), else shifted
// sideways so it never starts or ends off-screen.
function placePopover(wrap) {
  const pop = wrap.querySelector(".pop");
  pop.style.left = "";
  if (window.innerWidth <= 640) return;
  const width = Math.min(480, window.innerWidth - 32);
  const left = wrap.getBoundingClientRect().left;
  let shift = 0;
  if (left + width > window.innerWidth - 16) shift = window.innerWidth - 16 - width - left;
  if (left + shift < 16) shift = 16 - left;
  pop.style.left = `${shift}px`;
}

function warningBanner(warnings) {
  return el("div", { class: "banner", role: "note", "aria-label": "Warnings" },
    el("strong", {}, warnings.length === 1 ? "Check this answer" : `Check this answer (${warnings.length})`),
    el("ul", {}, warnings.map((w) => el("li", { "data-code": w.code }, w.message))));
}

// A source in the numbered list, or (nearest) closest material for an unanswerable question.
function sourceItem(source, nearest, n) {
  const open = el("button", { type: "button", class: "link-button open-source" }, "Show in the document");
  open.addEventListener("click", () => openViewer({
    documentId: source.document_id, version: source.document_version,
    span: [source.char_start, source.char_end], display: source.title || source.display, status: source.status,
    page: source.page, section: source.section, returnFocus: open }));
  const title = source.title || source.display;
  const facts = [versionLabel(source), source.section ? `§ ${source.section}` : null,
                 source.page ? `page ${source.page}` : null].filter(Boolean);
  return el("li", { class: "source", "data-chunk-id": source.chunk_id, "data-n": n ? String(n) : null },
    n ? el("span", { class: "source-n", "aria-hidden": "true" }, String(n)) : null,
    el("div", { class: "source-body" },
      el("p", { class: "source-title" }, n ? el("span", { class: "visually-hidden" }, `Source ${n}: `) : null, title, statusTag(source)),
      el("p", { class: "source-meta" }, facts.join(" · ")),
      nearest && source.chunk_text ? el("blockquote", { class: "excerpt" }, excerptOf(source.chunk_text)) : null,
      el("div", { class: "source-actions" }, open,
         source.url ? el("a", { href: source.url, rel: "noopener noreferrer" }, "Original") : null)));
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
