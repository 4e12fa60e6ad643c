from __future__ import annotations

import pytest

from ragcite.models import QuoteStatus
from ragcite.text.chunk_ids import resolve_chunk_id
from ragcite.verify.quotes import locate_quote

TEXT = (
    "Customer records are kept for three (3) years after account closure.\n\n"
    "In the EU \u2014 under the GDPR \u2014 the period is 12 months. "
    "Staff must use the \u201cSecure Delete\u201d tool."
)


@pytest.mark.parametrize(
    ("quote", "status"),
    [
        ("kept for three (3) years", QuoteStatus.EXACT),
        ("  customer records ARE\n kept for three (3) years ", QuoteStatus.NORMALIZED),
        ("In the EU - under the GDPR - the period is 12 months.", QuoteStatus.NORMALIZED),
        ('staff must use the "secure delete" tool', QuoteStatus.NORMALIZED),
        ("Customer records are kept for three 3 years", QuoteStatus.FUZZY),
        ("Customer records are kept ... the period is 12 months", QuoteStatus.FUZZY),
        ("kept for three (3) years [2]", QuoteStatus.NORMALIZED),
        ("the period is 12 months.[4][5]", QuoteStatus.NORMALIZED),
        ("Customer records are kept for three 3 years [doc-1]", QuoteStatus.FUZZY),
        ("Customer records are kept for five years [2]", QuoteStatus.NOT_FOUND),
        ("Customer records are kept for five years", QuoteStatus.NOT_FOUND),
        ("Client files are retained for three years", QuoteStatus.NOT_FOUND),
        ("", QuoteStatus.NOT_FOUND),
        ("...", QuoteStatus.NOT_FOUND),
    ],
)
def test_quote_status(quote: str, status: QuoteStatus) -> None:
    assert locate_quote(quote, TEXT).status is status


def test_span_points_at_the_original_text() -> None:
    match = locate_quote("in the eu - under the gdpr - the period is 12 months", TEXT)
    assert match.start is not None and match.end is not None
    assert TEXT[match.start : match.end] == (
        "In the EU \u2014 under the GDPR \u2014 the period is 12 months"
    )


def test_words_are_strict_even_when_elided() -> None:
    assert not locate_quote("Customer records ... 24 months", TEXT).found


@pytest.mark.parametrize(
    ("cited", "expected"),
    [
        ("c_ab12", "c_ab12"),
        ("[c_ab12]", "c_ab12"),
        ("'C_AB12'", "c_ab12"),
        ("chunk c_ab12", "c_ab12"),
        ("c_zz99", None),
        ("", None),
    ],
)
def test_cited_ids_resolve_only_to_retrieved_ones(cited: str, expected: str | None) -> None:
    assert resolve_chunk_id(cited, ["c_ab12", "c_cd34"]) == expected


def test_ambiguous_ids_are_not_guessed() -> None:
    assert resolve_chunk_id("[x1]", ["X1", "x1 "]) is None


def test_a_marker_the_source_itself_holds_is_matched_exactly() -> None:
    source = "Backups are kept for 35 days [2] in a second region."
    match = locate_quote("kept for 35 days [2]", source)
    assert match.status is QuoteStatus.EXACT
    assert match.start is not None and source[match.start : match.end] == "kept for 35 days [2]"


# Text as PDF extraction leaves it: a word broken across lines, a soft hyphen, a ligature.
PDF_TEXT = (
    "Data reten-\ntion is reviewed an\u00adnually by the \ufb01nance team. A well-\nknown rule."
)


@pytest.mark.parametrize(
    ("quote", "status", "span"),
    [
        (
            "Data retention is reviewed annually",
            QuoteStatus.NORMALIZED,
            "Data reten-\ntion is reviewed an\u00adnually",
        ),
        (
            "reviewed annually by the finance team",
            QuoteStatus.NORMALIZED,
            "reviewed an\u00adnually by the \ufb01nance team",
        ),
        ("A well-known rule", QuoteStatus.FUZZY, "A well-\nknown rule"),
        ("reviewed annually by the legal team", QuoteStatus.NOT_FOUND, None),
    ],
)
def test_pdf_artefacts_do_not_hide_a_quote(
    quote: str, status: QuoteStatus, span: str | None
) -> None:
    match = locate_quote(quote, PDF_TEXT)
    assert match.status is status
    if span is not None:
        assert match.start is not None and match.end is not None
        assert PDF_TEXT[match.start : match.end] == span
