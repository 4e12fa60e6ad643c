"""What a loader hands to the chunker, and what the chunker hands to the index."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date


@dataclass(frozen=True)
class PageSpan:
    """Page `page_number` (1-based) covers text[char_start:char_end]."""

    page_number: int
    char_start: int
    char_end: int


@dataclass(frozen=True)
class SectionSpan:
    """A heading whose section starts at text[char_start]; level 1 is the outermost."""

    heading: str
    level: int
    char_start: int


@dataclass(frozen=True)
class DocumentMetadata:
    """Metadata from front matter, a sidecar `<file>.meta.yaml`, the file itself or the caller."""

    title: str | None = None
    document_id: str | None = None
    url: str | None = None
    version: int | None = None
    effective_date: date | None = None
    access: tuple[str, ...] = ()
    # A free-text version name ("2024-Q3"); left out of repr, which fingerprints the
    # metadata of files stored before names existed (index/indexer.py).
    version_name: str | None = field(default=None, repr=False)

    def merged_over(self, base: DocumentMetadata) -> DocumentMetadata:
        """These values where set, else `base`'s (the version number and name together)."""
        mine = self.version is not None or self.version_name is not None
        return DocumentMetadata(
            title=self.title or base.title,
            document_id=self.document_id or base.document_id,
            url=self.url or base.url,
            version=self.version if mine else base.version,
            effective_date=self.effective_date or base.effective_date,
            access=self.access or base.access,
            version_name=self.version_name if mine else base.version_name,
        )


@dataclass(frozen=True)
class ExtractedText:
    """A document's extracted text with its page and section maps.

    Offsets everywhere in ragcite point into `text`; chunks are verbatim slices of it.
    """

    text: str
    pages: tuple[PageSpan, ...] = ()
    sections: tuple[SectionSpan, ...] = ()
    metadata: DocumentMetadata = field(default_factory=DocumentMetadata)


@dataclass(frozen=True)
class TextChunk:
    """A verbatim slice text[char_start:char_end] with its page and innermost section."""

    text: str
    char_start: int
    char_end: int
    page_number: int | None
    section_heading: str | None
