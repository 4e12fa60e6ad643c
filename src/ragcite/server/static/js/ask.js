// ragcite web page, part 5 of 5: asking over /ask/stream with stages and a cancel button, the
// question box's character counter, and the wiring of the whole page.
"use strict";

const MAX_QUESTION = 2000;
let running = null;  // the AbortController of the question being answered

async function ask(question) {
  const result = $("#result");
  showFormError("");
  closeViewer(false);
  running = new AbortController();
  $("#ask-button").disabled = true;
  $("#cancel-button").hidden = false;
  result.setAttribute("aria-busy", "true");
  const stages = el("ol", { class: "stages", "aria-label": "Progress" });
  result.replaceChildren(el("div", { class: "card pending" },
    questionEcho(question), stages,
    el("p", { class: "streamed-note", hidden: true }, "Verified so far; the confidence comes with the full answer."),
    el("p", { class: "prose streamed", hidden: true })));
  stage("search", "Searching the documents…");
  const body = { question };
  if ($("#include-older").checked) body.include_superseded = true;
  Object.assign(body, chosenScope() || {});
  try {
    const response = await api("/ask/stream", {
      method: "POST", signal: running.signal,
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(body),
    });
    if (!response.ok) {
      result.replaceChildren();
      showFormError(await problemDetail(response));
      return;
    }
    await readEvents(response, onEvent);
  } catch (error) {
    result.replaceChildren();
    if (error.name === "AbortError") {
      result.replaceChildren(el("div", { class: "card" }, el("p", { role: "status" }, "Cancelled. Ask again when you are ready.")));
    } else {
      showFormError(`The server could not be reached (${error.message}).`);
    }
  } finally {
    running = null;
    $("#ask-button").disabled = false;
    $("#cancel-button").hidden = true;
    result.setAttribute("aria-busy", "false");
  }
}

// One step of the progress list: earlier steps are marked done.
function stage(key, text) {
  const stages = $(".stages");
  if (!stages) return;
  let item = stages.querySelector(`[data-stage="${key}"]`);
  if (!item) {
    stages.querySelectorAll("li").forEach((li) => li.classList.add("done"));
    item = stages.appendChild(el("li", { "data-stage": key }));
  }
  item.textContent = text;
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
  if (event === "started") {
    streamed = { claims: [], checking: 0 };
  } else if (event === "stage") {
    onStage(data);
  } else if (event === "answer") {
    if (!streamed.checking) stage("write", "Writing the answer…");
  } else if (event === "claim") {
    // A claim that passed the gate (the server never sends one that failed); the final
    // response replaces these with the scored answer.
    streamed.claims.push(data);
    const of = streamed.checking ? ` of ${streamed.checking}` : "";
    stage("check", `Checking the quotes: ${streamed.claims.length}${of} ${streamed.claims.length === 1 && !of ? "claim" : "claims"} verified`);
    showStreamed();
  } else if (event === "response") {
    renderResponse(data);
    refreshCorpusStatus();
  } else if (event === "error") {
    $("#result").replaceChildren();
    showFormError(data.detail || "The question could not be answered.");
  }
}

// The claims verified so far, as prose with numbered markers.
function showStreamed() {
  const prose = $(".streamed");
  if (!prose) return;
  const numbers = numberSources(streamed.claims);
  prose.hidden = $(".streamed-note").hidden = !streamed.claims.length;
  prose.replaceChildren(...streamed.claims.map((c) => [claimSpan(c, numbers), " "]).flat());
}

// The pipeline's own stages: searching → 6 passages found → writing → checking 3 claims →
// 1 of 3 verified, 2 of 3… as each claim passes the gate.
function onStage({ stage: name, count }) {
  if (name === "searching") {
    stage("search", "Searching the documents…");
  } else if (name === "passages") {
    stage("search", count ? `Found ${plural(count, "passage", "passages")}` : "No passage found");
    if (count) stage("write", `Writing an answer from ${plural(count, "passage", "passages")}…`);
  } else if (name === "checking") {
    streamed.checking = count;
    streamed.claims = [];  // a retried draft is checked afresh: drop the earlier one's claims
    showStreamed();
    stage("check", `Checking ${plural(count, "claim", "claims")} against the quoted words…`);
  } else if (name === "verified") {
    stage("check", `Checking the quotes: ${count} of ${streamed.checking} claims verified`);
  }
}

function showFormError(message) {
  const box = $("#ask-error");
  box.textContent = message;
  box.hidden = !message;
}

// The counter under the question box; over the limit the question is not cut but refused.
function updateCounter() {
  const length = $("#question").value.length;
  const counter = $("#question-count");
  counter.textContent = `${length.toLocaleString("en")} / ${MAX_QUESTION.toLocaleString("en")} characters`;
  counter.classList.toggle("over", length > MAX_QUESTION);
}

function submitQuestion(event) {
  event.preventDefault();
  const question = $("#question").value.trim();
  if (!question) {
    showFormError("Type a question first.");
    $("#question").focus();
    return;
  }
  if (question.length > MAX_QUESTION) {
    showFormError(`The question is ${question.length.toLocaleString("en")} characters; the limit is ${MAX_QUESTION.toLocaleString("en")}. Shorten it and ask again.`);
    $("#question").focus();
    return;
  }
  ask(question);
}

document.addEventListener("DOMContentLoaded", () => {
  $("#key-form").addEventListener("submit", useKey);
  $("#forget-key").addEventListener("click", () => {
    forgetKey();
    $("#result").replaceChildren();
    closeViewer(false);
  });
  $("#forget-key").hidden = !storedKey();
  $("#ask-form").addEventListener("submit", submitQuestion);
  $("#question").addEventListener("input", updateCounter);
  $("#question").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) { event.preventDefault(); $("#ask-form").requestSubmit(); }
  });
  $("#cancel-button").addEventListener("click", () => { if (running) running.abort(); });
  updateCounter();
  wireViewer();
  wireLibrary();
  document.addEventListener("click", (event) => {
    if (!event.target.closest(".cite-wrap")) document.querySelectorAll(".cite-wrap.open").forEach((w) => w.hidePop());
  });
  refreshCorpusStatus();
  // Someone else may have added or deleted documents meanwhile.
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshCorpusStatus(); });
});
