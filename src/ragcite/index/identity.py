"""Document identity: which document a file is, and when it may replace one.

A document's ID is the `document_id` its metadata declares (front matter, sidecar, caller),
else one derived from its path relative to the ingested folder, extension included:

    >>> document_id_for(Path("docs/HR/Leave Policy.md"), Path("docs"))
    'hr-leave-policy-md'
    >>> document_id_for(Path("docs/報告.md"), Path("docs"))
    '報告-md'

Derived IDs are lower-cased (NFKC, case-folded); letters, marks and digits of every script
are kept, and every run of anything else becomes one "-". So `policy.md` and `policy.txt`
differ, `報告.md` and `規則.md` differ, and an ID is readable in a URL. Two paths that differ
only in case or punctuation ("Leave Policy.md", "leave_policy.md") would share an ID: the
second is refused by the rule below, naming the first, never merged into it.

The rule (applied in `index.indexer.store_version`, inside the write transaction): a new file
becomes a new version of an existing document only when it declares that `document_id`, or
when it comes from the same source (the same file path re-ingested; for uploads the same
uploaded file name). Anything else is a `DocumentConflictError`.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path, PurePath

from ragcite.errors import DocumentConflictError
from ragcite.models import Document

_KEPT_CATEGORIES = ("L", "M", "N")


def document_id_for(path: Path, root: Path) -> str:
    """The derived ID of `path` ingested from the folder `root` (see the module docstring)."""
    relative = relative_source(path, root)
    folded = unicodedata.normalize("NFKC", relative).casefold()
    kept = "".join(ch if unicodedata.category(ch)[0] in _KEPT_CATEGORIES else " " for ch in folded)
    slug = "-".join(kept.split())
    # A name of symbols alone ("★★.md" has "md"; "★★" nothing) still gets an ID of its own.
    return slug or "file-" + hashlib.sha256(relative.encode()).hexdigest()[:12]


def legacy_document_id(path: Path, root: Path) -> str:
    """The ID ragcite derived before 0.x: ASCII only, the extension dropped. A re-ingest of
    a file stored under its legacy ID keeps that ID (see `Indexer`)."""
    stem = str(PurePath(relative_source(path, root)).with_suffix(""))
    return re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "document"


def relative_source(path: Path, root: Path) -> str:
    """`path` relative to `root` as a POSIX string; the file name when it lies elsewhere."""
    for candidate, base in ((path, root), (path.resolve(), root.resolve())):
        try:
            return candidate.relative_to(base).as_posix()
        except ValueError:
            continue
    return path.name


def check_may_replace(
    newest: Document, incoming: Document, *, declared: bool, shown: str | None = None
) -> None:
    """Refuse `incoming` as a new version of `newest`'s document unless it declared the ID
    or comes from the same source; `shown` names the incoming file in the error."""
    if declared or newest.source_uri == incoming.source_uri:
        return
    document_id = incoming.document_id
    raise DocumentConflictError(
        shown or shown_source(incoming.source_uri),
        f"the document ID '{document_id}' (derived from the file name) already belongs to "
        f"another document, from '{shown_source(newest.source_uri)}'; to make this file a new "
        f"version of it, declare document_id: {document_id} (front matter, a sidecar, "
        "--document-id or the upload's document_id field); to keep both, declare another "
        "document_id or rename the file",
    )


def shown_source(source_uri: str) -> str:
    """A source as it may be shown to anyone: the file name, never a server path."""
    return PurePath(source_uri.removeprefix(UPLOAD_SCHEME)).name or source_uri


UPLOAD_SCHEME = "upload:"


def upload_source(filename: str) -> str:
    """The source identity of an uploaded file: its name in the uploads namespace."""
    return UPLOAD_SCHEME + filename
