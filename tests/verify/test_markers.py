"""Citation markers are not part of what a claim says."""

from __future__ import annotations

import pytest

from ragcite.verify.markers import strip_citation_markers
from ragcite.verify.unattributed import unattributed_sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Backups are kept for 35 days [2].", "Backups are kept for 35 days."),
        ("Backups are kept for 35 days [2][3].", "Backups are kept for 35 days."),
        ("Backups are kept for 35 days [1, 3].", "Backups are kept for 35 days."),
        ("Backups are kept for 35 days [1-3].", "Backups are kept for 35 days."),
        ("Backups are kept for 35 days [doc-4].", "Backups are kept for 35 days."),
        ("Backups are kept for 35 days [Source 2].", "Backups are kept for 35 days."),
        ("Backups are kept [c_1a2b3c] for 35 days.", "Backups are kept for 35 days."),
        ("Backups are kept for 35 days [S2].", "Backups are kept for 35 days."),
        ("Backups are kept for 35 days (source 1).", "Backups are kept for 35 days."),
        (
            "Backups are kept for 35 days \u30103\u2020source\u3011.",
            "Backups are kept for 35 days.",
        ),
        ("Backups are kept for 35 days.^1", "Backups are kept for 35 days."),
        ("Backups are kept for 35 days.\u00b9", "Backups are kept for 35 days."),
    ],
)
def test_markers_are_removed(text: str, expected: str) -> None:
    assert strip_citation_markers(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The office is 40 m\u00b2 in size.",  # a unit, not a footnote
        "The statute [as amended in 2019] applies.",  # an editorial insertion
        "Keys rotate every 90 days; logs are kept for 1 year.",
        "Plain text without markers.",
        "Scores lie in [0, 1] and thresholds in [0.5, 0.9].",  # intervals
        "The area grows with r^2.",  # mathematics
        "Editors wrote [sic] there.",
    ],
)
def test_other_text_is_untouched(text: str) -> None:
    assert strip_citation_markers(text) == text


def test_marker_glued_to_a_full_stop_does_not_hide_the_next_sentence() -> None:
    found = unattributed_sentences(
        "Backups are kept for 35 days.[2] The fee is 40 dollars per month.",
        ["Backups are kept for 35 days."],
    )
    assert found == ["The fee is 40 dollars per month."]


def test_claims_with_markers_are_covered_by_their_sentences() -> None:
    answer = "Backups are kept for 35 days [2]. Keys rotate every 90 days [3]."
    claims = ["Backups are kept for 35 days.", "Keys rotate every 90 days [3]."]
    assert unattributed_sentences(answer, claims) == []
