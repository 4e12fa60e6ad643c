"""A hostile-file corpus, generated into a folder at test time (nothing binary committed).

Each entry: file name -> what must happen ("added" with text that must be kept, or
"failed" with words its one-line error must contain).
"""

from __future__ import annotations

import io
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

import docx
from fpdf import FPDF
from pypdf import PdfWriter

MiB = 1024 * 1024
GOOD_TEXT = "Staff receive 25 days of paid annual leave per calendar year."
DEEP_LEVELS = 3_000


@dataclass(frozen=True)
class Expected:
    status: str  # "added" | "failed" | "skipped"
    words: tuple[str, ...] = ()  # in the error line, or (deep HTML) in the stored text


def _pdf(text: str | None) -> bytes:
    pdf = FPDF()
    pdf.add_page()
    if text:
        pdf.set_font("Helvetica", size=12)
        pdf.multi_cell(0, 8, text)
    return bytes(pdf.output())


def _encrypted_pdf() -> bytes:
    writer = PdfWriter(clone_from=io.BytesIO(_pdf("Secret salary bands for 2025.")))
    writer.encrypt(user_password="hunter2", owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _zip_bomb_docx() -> bytes:
    """A valid-looking DOCX whose document part unpacks 1 GiB of zeros (about 1 MB packed)."""
    real = io.BytesIO()
    docx.Document().save(real)
    out = io.BytesIO()
    with (
        zipfile.ZipFile(real) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bomb,
    ):
        for item in source.infolist():
            if item.filename != "word/document.xml":
                bomb.writestr(item, source.read(item))
        with bomb.open("word/document.xml", "w", force_zip64=True) as part:
            block = b"\0" * MiB
            for _ in range(1024):
                part.write(block)
    return out.getvalue()


def _big_part_docx(size: int) -> bytes:
    """A DOCX with a 300 MiB part of random-ish bytes: over the unpacked-size limit."""
    real = io.BytesIO()
    docx.Document().save(real)
    out = io.BytesIO()
    with (
        zipfile.ZipFile(real) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as package,
    ):
        for item in source.infolist():
            package.writestr(item, source.read(item))
        info = zipfile.ZipInfo("word/media/huge.bin")
        with package.open(info, "w", force_zip64=True) as part:
            block = os.urandom(MiB)
            for _ in range(size // MiB):
                part.write(block)
    return out.getvalue()


def _deep_html() -> str:
    opening = "".join(f"<div><p>Clause {i} applies at level {i}.</p>" for i in range(DEEP_LEVELS))
    return f"<html><head><title>Deep</title></head><body>{opening}{'</div>' * DEEP_LEVELS}"


def _wide_table(columns: int) -> str:
    header = "  ".join(f"Column {i}" for i in range(columns))
    rule = "  ".join("-" * len(f"Column {i}") for i in range(columns))
    row = "  ".join(f"v{i}".ljust(len(f"Column {i}")) for i in range(columns))
    return f"{GOOD_TEXT}\n\n{header}\n{rule}\n" + f"{row}\n" * 20


def build(folder: Path, *, big_part_bytes: int = 300 * MiB) -> dict[str, Expected]:
    """Write the corpus into `folder`; return what each file must come to."""
    folder.mkdir(parents=True, exist_ok=True)
    files: dict[str, tuple[bytes | str, Expected]] = {
        "good.md": (f"# Leave\n\n{GOOD_TEXT}\n", Expected("added")),
        "corrupt.pdf": (
            b"%PDF-1.7\n1 0 obj <<>> garbage",
            Expected("failed", ("not a readable PDF",)),
        ),
        "encrypted.pdf": (_encrypted_pdf(), Expected("failed", ("encrypted",))),
        "empty.pdf": (b"", Expected("failed", ("not a readable PDF",))),
        "no-text.pdf": (_pdf(None), Expected("failed", ("no text could be extracted",))),
        "binary.md": (os.urandom(4096) + b"\xff\xfe", Expected("failed", ("not UTF-8",))),
        "binary.txt": (b"\x89PNG\r\n\x1a\n" + os.urandom(2048), Expected("failed", ("not UTF-8",))),
        "latin1.txt": ("Café policy: naïve".encode("latin-1"), Expected("failed", ("not UTF-8",))),
        "deep.html": (
            _deep_html(),
            Expected("added", ("Clause 0 applies", f"Clause {DEEP_LEVELS - 1} applies")),
        ),
        "bomb.docx": (_zip_bomb_docx(), Expected("failed", ("ingest.max_unpacked_bytes",))),
        "huge-part.docx": (
            _big_part_docx(big_part_bytes),
            Expected("failed", ("ingest.max_unpacked_bytes",)),
        ),
        "huge-line.md": (
            ("Leave policy clause. " * 50_000).strip(),  # 1 MB on one line
            Expected("added", ("Leave policy clause.",)),
        ),
        # A plain-text "rule" 1 MB long that is not one, and a table 5,000 columns wide:
        # the table reader is linear in both.
        "dashes.txt": (
            f"{GOOD_TEXT}\n{'- ' * 500_000}x\nPlan  Users\n{'-' * 1_000_000}x\n",
            Expected("added"),
        ),
        "wide-table.txt": (_wide_table(5_000), Expected("added")),
    }
    expected: dict[str, Expected] = {}
    for name, (content, outcome) in files.items():
        path = folder / name
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)
        expected[name] = outcome
    os.symlink(folder, folder / "loop")
    expected["loop"] = Expected("skipped", ("symlink loop",))
    return expected
