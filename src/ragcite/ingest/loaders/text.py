"""Plain text (.txt): strict UTF-8, sections from numbered or capitalised heading lines, and
fixed-width or pipe tables and dot-leader price lists as rows with their headers
(`text_tables`, `leader_rows`)."""

from __future__ import annotations

from pathlib import Path

from ragcite.errors import IngestError
from ragcite.ingest.loaders.headings import find_heading_lines
from ragcite.ingest.loaders.leader_rows import leader_rows
from ragcite.ingest.loaders.text_tables import tables_in_text
from ragcite.ingest.types import ExtractedText
from ragcite.text.table_rows import is_table_row


def read_utf8(path: Path) -> str:
    """The file's text, decoded as strict UTF-8 (a BOM is allowed), newlines normalised."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = data[exc.start]
        raise IngestError(
            str(path),
            f"not UTF-8 text (invalid byte 0x{bad:02x} at offset {exc.start}); convert it to UTF-8",
        ) from exc
    return normalize_newlines(text)


def normalize_newlines(text: str) -> str:
    """CRLF and CR become LF; NUL characters are dropped."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")


def load_text(path: Path) -> ExtractedText:
    """Load a .txt file; headings are lines that stand alone between blank lines (a table's
    only row is no heading)."""
    text = leader_rows(tables_in_text(read_utf8(path)))
    sections = find_heading_lines(text, standalone="blank-lines")
    return ExtractedText(
        text=text, sections=tuple(s for s in sections if not is_table_row(s.heading))
    )
