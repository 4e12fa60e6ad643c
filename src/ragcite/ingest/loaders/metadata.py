"""Document metadata from YAML mappings (front matter, sidecar files) and from file names."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any

import yaml

from ragcite.errors import IngestError, InputError
from ragcite.ingest.types import DocumentMetadata
from ragcite.ingest.versions import VersionInput, parse_version

SIDECAR_SUFFIX = ".meta.yaml"
_KNOWN_KEYS = ("title", "document_id", "url", "version", "effective_date", "access")


def sidecar_path(path: Path) -> Path:
    """`policy.pdf` -> `policy.pdf.meta.yaml` next to it."""
    return path.with_name(path.name + SIDECAR_SUFFIX)


def read_sidecar(path: Path) -> DocumentMetadata:
    """Metadata from the document's sidecar file, or empty metadata if there is none."""
    sidecar = sidecar_path(path)
    if not sidecar.is_file():
        return DocumentMetadata()
    try:
        raw = sidecar.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise IngestError(str(sidecar), f"cannot read metadata sidecar: {exc}") from exc
    return parse_metadata_yaml(raw, source=str(sidecar), what="metadata sidecar")


def parse_metadata_yaml(raw: str, *, source: str, what: str) -> DocumentMetadata:
    """Parse a YAML mapping of metadata keys; `source` names the file in errors."""
    try:
        data = yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        detail = " ".join(str(exc).split())
        raise IngestError(source, f"{what} is not valid YAML: {detail}") from exc
    if data is None:
        return DocumentMetadata()
    if not isinstance(data, Mapping):
        raise IngestError(
            source, f"{what} must be a YAML mapping of keys ({', '.join(_KNOWN_KEYS)})"
        )
    return metadata_from_mapping(data, source=source)


def metadata_from_mapping(data: Mapping[Any, Any], *, source: str) -> DocumentMetadata:
    """Validated metadata from a mapping; unknown keys are ignored."""
    version = _version(data.get("version"), source)
    return DocumentMetadata(
        title=_optional_text(data, "title", source),
        document_id=_optional_text(data, "document_id", source),
        url=_optional_text(data, "url", source),
        version=version.number,
        effective_date=_effective_date(data.get("effective_date"), source)
        or _as_date(data.get("date")),
        access=_access(data.get("access"), source),
        version_name=version.name,
    )


def title_from_filename(path: Path) -> str:
    """`data-retention_policy.md` -> `Data Retention Policy`."""
    stem = path.stem
    words = [w for w in re.split(r"[\s_\-]+", stem) if w]
    return " ".join(w[:1].upper() + w[1:] for w in words) or path.name


def _optional_text(data: Mapping[Any, Any], key: str, source: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise IngestError(source, f"metadata key '{key}' must be text, got {value!r}")
    text = str(value).strip()
    return text or None


def _version(value: object, source: str) -> VersionInput:
    """A whole number from 1 up, or a version name ("2024-Q3", "Rev B")."""
    if value is None:
        return VersionInput()
    if isinstance(value, bool) or not isinstance(value, str | int | float | date):
        raise IngestError(
            source, f"metadata key 'version' must be a number or a name, got {value!r}"
        )
    try:
        return parse_version(str(value), what="metadata key 'version'")
    except InputError as exc:
        raise IngestError(source, str(exc)) from None


def _effective_date(value: object, source: str) -> date | None:
    if value is None:
        return None
    found = _as_date(value)
    if found is None:
        raise IngestError(
            source, f"metadata key 'effective_date' must be a date YYYY-MM-DD, got {value!r}"
        )
    return found


def _as_date(value: object) -> date | None:
    """A YAML date or datetime, or text in ISO form; None for anything else. Also reads the
    `date` most Markdown front matter carries (Hugo, Jekyll, Obsidian) as the effective date
    when `effective_date` is absent: free text there ("Spring 2024") is not ours to reject."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            return None
    return None


def _access(value: object, source: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not all(
        isinstance(item, str) and item.strip() for item in value
    ):
        raise IngestError(
            source, f"metadata key 'access' must be a list of group names, got {value!r}"
        )
    return tuple(item.strip() for item in value)
