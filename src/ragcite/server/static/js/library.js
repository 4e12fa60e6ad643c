// ragcite web page, part 4 of 5: the document library: upload (a file button or drag and
// drop, with progress and each file's own error), the list with versions, status, dates and
// access groups, and delete (admin keys only; the API's refusal is shown as it is).
"use strict";

function toggleLibrary(show) {
  const panel = $("#library");
  const open = show ?? panel.hidden;
  panel.hidden = !open;
  $("#library-toggle").setAttribute("aria-expanded", String(open));
  if (open) loadDocuments();
}

async function loadDocuments() {
  const list = $("#doc-list");
  list.setAttribute("aria-busy", "true");
  try {
    const reply = await api("/documents");
    if (!reply.ok) {
      list.replaceChildren(el("p", { class: "form-error" }, `The documents could not be listed: ${await problemDetail(reply)}`));
      return;
    }
    const { documents } = await reply.json();
    if (scopeLoaded) fillScope(documents);
    list.replaceChildren(documents.length
      ? el("ul", { class: "doc-list" }, documents.map(documentRow))
      : el("p", { class: "hint" }, "No documents yet: upload one above."));
  } catch (error) {
    list.replaceChildren(el("p", { class: "form-error" }, `The server could not be reached (${error.message}).`));
  } finally {
    list.setAttribute("aria-busy", "false");
  }
}

function documentRow(doc) {
  const versions = doc.versions.map((v) => el("li", { class: "doc-version" },
    el("span", { class: "doc-version-label" }, versionLabel(v)), " ",
    el("span", { class: `doc-status doc-status-${v.status}` }, v.status),
    v.stale ? [" ", el("span", { class: "doc-status doc-status-stale", title: "Not re-verified for a while: check it is still current" }, "stale")] : null,
    el("span", { class: "doc-added" }, ` · added ${v.ingested_at.slice(0, 10)}`)));
  const remove = el("button", { type: "button", class: "link-button danger" }, "Delete");
  const message = el("p", { class: "doc-message", role: "status" });
  let armed = false;
  remove.addEventListener("click", async () => {
    if (!armed) {
      armed = true;
      remove.textContent = "Delete every version?";
      message.textContent = "Press again to delete. It is kept for audit but never searched again.";
      return;
    }
    remove.disabled = true;
    const reply = await api(`/documents/${encodeURIComponent(doc.document_id)}`, { method: "DELETE" });
    if (reply.ok) {
      message.textContent = `Deleted “${doc.title}”.`;
      await Promise.all([loadDocuments(), refreshCorpusStatus()]);
      $("#library-heading").focus();
      announce(`Deleted “${doc.title}”.`);
    } else {
      message.textContent = await problemDetail(reply);
      message.classList.add("form-error");
      remove.disabled = false;
      armed = false;
      remove.textContent = "Delete";
    }
  });
  const deleted = doc.status === "deleted";
  return el("li", { class: "doc", "data-document-id": doc.document_id },
    el("div", { class: "doc-main" },
      el("p", { class: "doc-title" }, doc.title, statusTag({ status: doc.status })),
      el("p", { class: "doc-meta" },
        [doc.document_id, doc.corpus !== "default" ? `corpus ${doc.corpus}` : null,
         doc.access.length ? `groups: ${doc.access.join(", ")}` : "readable by everyone"].filter(Boolean).join(" · ")),
      el("ul", { class: "doc-versions", "aria-label": `Versions of ${doc.title}` }, versions),
      message),
    deleted ? null : el("div", { class: "doc-actions" }, remove));
}

function announce(text) {
  $("#announcer").textContent = text;
}

// -- uploads ----------------------------------------------------------------------------------

function uploadFiles(files) {
  const list = $("#upload-list");
  const jobs = [...files].map((file) => {
    const bar = el("progress", { max: "100", value: "0", "aria-label": `Uploading ${file.name}` });
    const status = el("span", { class: "upload-status" }, "Waiting…");
    const row = el("li", { class: "upload" }, el("span", { class: "upload-name" }, file.name), bar, status);
    list.prepend(row);
    return { file, row, bar, status };
  });
  return jobs.reduce((chain, job) => chain.then(() => uploadOne(job)), Promise.resolve())
    .then(() => Promise.all([loadDocuments(), refreshCorpusStatus()]));
}

// One file with XMLHttpRequest (fetch reports no upload progress); a 401 asks for a key and retries.
function uploadOne(job) {
  const form = new FormData();
  form.append("file", job.file);
  const version = $("#upload-version").value.trim();
  const date = $("#upload-date").value;
  if (version) form.append("version", version);
  if (date) form.append("effective_date", date);
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/documents");
    const key = storedKey();
    if (key) request.setRequestHeader("Authorization", `Bearer ${key}`);
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) job.bar.value = Math.round((100 * event.loaded) / event.total);
      job.status.textContent = job.bar.value < 100 ? `${job.bar.value}%` : "Reading and indexing…";
    });
    request.addEventListener("load", async () => {
      if (request.status === 401) { await keyRefused(); resolve(uploadOne(job)); return; }
      let body = {};
      try { body = JSON.parse(request.responseText); } catch { body = {}; }
      job.bar.value = 100;
      if (request.status < 300) {
        const added = request.status === 201;
        job.status.textContent = added
          ? `Added as “${body.document.title}” ${versionLabel(body.document)} (${plural(body.chunks, "passage", "passages")}).`
          : "Already in the library: nothing changed.";
        job.row.classList.add("upload-done");
      } else {
        job.status.textContent = body.detail || `${request.status} ${request.statusText}`;
        job.row.classList.add("upload-failed");
      }
      resolve();
    });
    request.addEventListener("error", () => {
      job.status.textContent = "The server could not be reached.";
      job.row.classList.add("upload-failed");
      resolve();
    });
    job.status.textContent = "Uploading…";
    request.send(form);
  });
}

// -- the scope of a question: all documents, or the ones ticked ------------------------------

let scopeLoaded = false;

async function loadScope() {
  try {
    const reply = await api("/documents");
    if (!reply.ok) {
      $("#scope-list").replaceChildren(el("p", { class: "form-error" }, `The documents could not be listed: ${await problemDetail(reply)}`));
      return;
    }
    fillScope((await reply.json()).documents);
  } catch (error) {
    $("#scope-list").replaceChildren(el("p", { class: "form-error" }, `The server could not be reached (${error.message}).`));
  }
}

function fillScope(documents) {
  const ticked = new Set([...document.querySelectorAll("#scope-list input:checked")].map((input) => input.value));
  const live = documents.filter((d) => d.status !== "deleted");
  const corpora = [...new Set(live.map((d) => d.corpus))].sort();
  const box = (d) => el("label", { class: "check" },
    el("input", { type: "checkbox", value: d.document_id, "data-corpus": d.corpus, checked: ticked.has(d.document_id) }),
    ` ${d.title}`);
  let items;
  if (!live.length) items = [el("p", { class: "hint" }, "No documents yet.")];
  else if (corpora.length === 1) items = live.map(box);
  else {
    // Several corpora: a whole corpus may be chosen (documents added to it later count too).
    items = corpora.map((corpus) => el("div", { class: "scope-corpus", role: "group", "aria-label": `Corpus ${corpus}` },
      el("label", { class: "check scope-whole" },
        el("input", { type: "checkbox", value: `corpus:${corpus}`, "data-whole": corpus, checked: ticked.has(`corpus:${corpus}`) }),
        ` All of “${corpus}”`),
      live.filter((d) => d.corpus === corpus).map(box)));
  }
  $("#scope-list").replaceChildren(...items);
  scopeLoaded = true;
  updateScope();
}

// What the question is limited to: {corpora} when only whole corpora are ticked, else
// {document_ids}; null for everything.
function chosenScope() {
  const whole = [...document.querySelectorAll("#scope-list input[data-whole]:checked")].map((input) => input.dataset.whole);
  const docs = [...document.querySelectorAll("#scope-list input[data-corpus]:checked")];
  if (whole.length && docs.every((input) => whole.includes(input.dataset.corpus))) return { corpora: whole };
  const ids = docs.map((input) => input.value);
  return ids.length ? { document_ids: ids } : null;
}

function updateScope(event) {
  const whole = event && event.target.dataset && event.target.dataset.whole;
  if (whole) {  // a corpus box ticks or clears the documents in it
    document.querySelectorAll(`#scope-list input[data-corpus="${CSS.escape(whole)}"]`)
      .forEach((input) => { input.checked = event.target.checked; });
  } else if (event && event.target.dataset && event.target.dataset.corpus && !event.target.checked) {
    const all = document.querySelector(`#scope-list input[data-whole="${CSS.escape(event.target.dataset.corpus)}"]`);
    if (all) all.checked = false;  // no longer the whole corpus
  }
  const scope = chosenScope();
  $("#scope-summary").textContent = !scope ? "Search in: all documents"
    : scope.corpora ? `Search in: ${scope.corpora.length === 1 ? `the “${scope.corpora[0]}” corpus` : plural(scope.corpora.length, "corpus", "corpora")}`
    : `Search in: ${plural(scope.document_ids.length, "chosen document", "chosen documents")}`;
}

function wireLibrary() {
  $("#scope").addEventListener("toggle", () => { if ($("#scope").open && !scopeLoaded) loadScope(); });
  $("#scope-list").addEventListener("change", updateScope);
  $("#scope-clear").addEventListener("click", () => {
    document.querySelectorAll("#scope-list input:checked").forEach((input) => { input.checked = false; });
    updateScope();
  });
  $("#library-toggle").addEventListener("click", () => toggleLibrary());
  const input = $("#upload-input");
  input.addEventListener("change", () => { if (input.files.length) uploadFiles(input.files).then(() => { input.value = ""; }); });
  const zone = $("#drop-zone");
  zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("dragging"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("dragging");
    if (event.dataTransfer.files.length) uploadFiles(event.dataTransfer.files);
  });
}
