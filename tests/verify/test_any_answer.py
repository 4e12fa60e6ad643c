"""Verifying answers from any system against their source texts (real support checker)."""

from __future__ import annotations

import pytest

from ragcite.embed.base import Embedder
from ragcite.errors import InputError
from ragcite.models import CitedResponse, DraftAnswer, DraftCitation, DraftClaim
from ragcite.verify.any_answer import verify_citations
from ragcite.verify.support import SupportChecker, default_support_checker

SOURCES = [
    {
        "chunk_id": "leave",
        "title": "Employee Handbook",
        "section": "Parental leave",
        "page": 4,
        "text": "Primary caregivers receive 16 weeks of fully paid parental leave. Secondary "
        "caregivers receive 6 weeks.",
    },
    {
        "source_id": "backups",
        "text": "Full system backups are kept for 35 days before they are overwritten.",
    },
]


@pytest.fixture(scope="module")
def checker(embedder: Embedder) -> SupportChecker:
    return default_support_checker(embedder)


def test_simple_shape_quotes_only() -> None:
    report = verify_citations(
        {
            "citations": [
                {"source_id": "leave", "quote": "16 weeks of fully paid parental leave"},
                {"source_id": "backups", "quote": "kept for 35 days"},
            ]
        },
        SOURCES,
    )
    assert report["all_verified"] and not report["support_checked"]
    first = report["citations"][0]
    assert first["verified"] and first["quote_status"] == "exact"
    start, end = first["quote_span"]
    assert SOURCES[0]["text"][start:end] == "16 weeks of fully paid parental leave"  # type: ignore[index]
    assert first["support"] == "unchecked"


def test_every_failure_is_reported_per_citation(checker: SupportChecker) -> None:
    answer = {
        "answer_text": "Primary caregivers get 16 weeks of paid leave. Backups are kept for 90 "
        "days. Contractors get 4 weeks of leave under the 2023 policy.",
        "claims": [
            {
                "claim_text": "Primary caregivers get 16 weeks of paid leave.",
                "citations": [
                    {"chunk_id": "[LEAVE]", "quote": "Primary caregivers receive 16 weeks"},
                    {"chunk_id": "backups", "quote": "Secondary caregivers receive 6 weeks"},
                    {"chunk_id": "nowhere", "quote": "16 weeks"},
                ],
            },
            {
                "claim_text": "Backups are kept for 90 days.",
                "citations": [
                    {"chunk_id": "backups", "quote": "backups are retained for ninety days"}
                ],
            },
        ],
    }
    report = verify_citations(answer, SOURCES, support_checker=checker)
    good, repointed, unknown = report["claims"][0]["citations"]
    assert good["verified"] and good["found_in"] == "leave" and good["support"] != "unchecked"
    assert not repointed["verified"] and repointed["found_in"] == "leave"
    assert any("not in backups" in p for p in repointed["problems"])
    assert not unknown["verified"] and "not a retrieved source" in unknown["problems"][0]
    paraphrase = report["claims"][1]
    assert not paraphrase["verified"]
    assert paraphrase["citations"][0]["quote_status"] == "not_found"
    assert report["unattributed_sentences"] == [
        "Contractors get 4 weeks of leave under the 2023 policy."
    ]
    assert not report["all_verified"]
    codes = {w["code"] for w in report["warnings"]}
    assert {
        "hallucinated_chunk_id",
        "quote_repointed",
        "quote_not_found",
        "unattributed_sentence",
    } <= codes


def test_support_verdict_decides_a_real_quote(checker: SupportChecker) -> None:
    report = verify_citations(
        {
            "claims": [
                {
                    "claim_text": "Full system backups are kept for 90 days.",
                    "citations": [
                        {"chunk_id": "backups", "quote": "Full system backups are kept for 35 days"}
                    ],
                }
            ]
        },
        SOURCES,
        support_checker=checker,
    )
    citation = report["citations"][0]
    assert citation["quote_status"] == "exact"
    assert citation["support_score"] is not None
    failed = citation["support"] in ("contradicted", "unsupported")
    assert citation["verified"] is not failed and report["all_verified"] is not failed


def test_our_own_models_are_accepted(checker: SupportChecker) -> None:
    draft = DraftAnswer(
        answer_text="Backups are kept for 35 days.",
        claims=[
            DraftClaim(
                claim_text="Backups are kept for 35 days.",
                citations=[DraftCitation(chunk_id="backups", quote="kept for 35 days")],
            )
        ],
    )
    assert verify_citations(draft, SOURCES, support_checker=checker)["all_verified"]
    response = CitedResponse(
        query="q",
        answer_text="",
        answerable=True,
        cited_claims=[
            {
                "claim_text": "Backups are kept for 35 days.",  # type: ignore[list-item]
                "source_chunk_ids": ["backups"],
                "citations": [{"chunk_id": "backups", "quote": "kept for 35 days"}],
            }
        ],
    )
    report = verify_citations(response, {"chunks": SOURCES}, support_checker=checker)
    assert report["all_verified"]


@pytest.mark.parametrize(
    ("answer", "sources", "message"),
    [
        ([], SOURCES, "must be a JSON object"),
        ({"claims": "x"}, SOURCES, "neither claims nor citations"),
        ({"citations": []}, [{"text": "no id"}], "source 1 needs an id"),
        ({"citations": []}, [{"id": "a", "text": "x"}, {"id": "a", "text": "y"}], "share an id"),
    ],
)
def test_malformed_input(answer: object, sources: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        verify_citations(answer, sources)  # type: ignore[arg-type]


def test_nothing_cited_is_not_all_verified() -> None:
    assert not verify_citations({"citations": []}, SOURCES)["all_verified"]
