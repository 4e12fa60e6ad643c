"""A version as people write it: a number keeps its place in the order, a name is kept."""

from __future__ import annotations

import pytest

from ragcite.errors import IngestError, InputError
from ragcite.ingest.loaders.metadata import metadata_from_mapping
from ragcite.ingest.types import DocumentMetadata
from ragcite.ingest.versions import VersionInput, parse_version


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5", VersionInput(number=5)),
        (" v2025 ", VersionInput(number=2025)),
        ("V 3", VersionInput(number=3)),
        ("2024-Q3", VersionInput(name="2024-Q3")),
        ("  Rev B ", VersionInput(name="Rev B")),
        ("2.1-draft", VersionInput(name="2.1-draft")),
        ("Überarbeitung 2", VersionInput(name="Überarbeitung 2")),
        ("x" * 64, VersionInput(name="x" * 64)),
    ],
)
def test_numbers_and_names(text: str, expected: VersionInput) -> None:
    assert parse_version(text) == expected


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", "version is empty"),
        ("  ", "version is empty"),
        ("y" * 65, "is 65 characters long; a version name may have at most 64"),
        ("Rev\nB", "'Rev\\nB' holds control characters"),
        ("A\u200bB", "holds control characters"),
        ("0", "'0' is not a version number: numbers start at 1"),
    ],
)
def test_bad_versions_are_refused_naming_them(text: str, said: str) -> None:
    with pytest.raises(InputError) as raised:
        parse_version(text)
    assert said in str(raised.value)


def test_front_matter_takes_a_number_or_a_name() -> None:
    named = metadata_from_mapping({"version": "Rev B"}, source="a.md")
    assert (named.version, named.version_name) == (None, "Rev B")
    numbered = metadata_from_mapping({"version": 4}, source="a.md")
    assert (numbered.version, numbered.version_name) == (4, None)
    with pytest.raises(IngestError, match=r"a\.md: metadata key 'version' '0' is not a version"):
        metadata_from_mapping({"version": 0}, source="a.md")


def test_the_callers_version_wins_number_and_name_together() -> None:
    caller = DocumentMetadata(version_name="2024-Q3")
    assert caller.merged_over(DocumentMetadata(version=7)).version is None
    assert DocumentMetadata().merged_over(caller).version_name == "2024-Q3"
    # left out of repr, which fingerprints the caller's metadata of files stored before
    assert repr(caller) == repr(DocumentMetadata())
