// ragcite web page, part 1 of 5: helpers, the API key, labels. Plain JavaScript over the JSON
// API; no framework, no build step, nothing from the internet. Every piece of document text is
// inserted with textContent, never as HTML. Files: core, answer, viewer, library, ask.
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
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

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
    await keyRefused();
  }
}

// After a 401: forget the stored key (if any) and wait until the person enters another.
function keyRefused() {
  const refused = Boolean(storedKey());
  forgetKey();
  return askForKey(refused ? "That key was refused (unknown or revoked); enter another." : "");
}

// The problem detail of a failed reply, or its status line.
async function problemDetail(reply) {
  const problem = await reply.json().catch(() => ({}));
  return problem.detail || `${reply.status} ${reply.statusText}`.trim();
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

// -- labels -------------------------------------------------------------------------------------

const LABELS = { HIGH: "High", MEDIUM: "Medium", LOW: "Low", VERY_LOW: "Very low" };
const RANK = { VERY_LOW: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };

function confidencePill(label) {
  return el("span", { class: `conf conf-${label}` }, LABELS[label] || label);
}

// The one version label: "v5 · 2024-02-01", or "2024-Q3 · 2024-07-01" for a named version
// (the API's version_label when it sends one).
function versionLabel(item) {
  if (item.version_label) return item.version_label;
  const version = item.document_version ?? item.version;
  const date = item.document_date ?? item.effective_date;
  if (version === null || version === undefined) return "";
  return date ? `v${version} · ${date}` : `v${version}`;
}

// The lifecycle mark: superseded, stale (when the store reports it) or deleted.
function statusTag(source) {
  if (source.stale) return el("span", { class: "status status-stale" }, "Stale");
  if (source.status && source.status !== "active") {
    const words = { superseded: "Superseded", deleted: "Deleted" };
    return el("span", { class: `status status-${source.status}` }, words[source.status] || source.status);
  }
  return null;
}

function refreshCorpusStatus() {
  return fetch("/healthz").then((r) => r.json()).then((h) => {
    $("#corpus-status").textContent = `${plural(h.documents, "document", "documents")} · ${plural(h.chunks, "passage", "passages")}`;
  }).catch(() => {});
}
