"""The extractive generator answers with the asker's case, not the organisation's: "If we
cancel …" is the clinic's act, "Cancellations with less than 24 hours' notice …" the
patient's (`ragcite.text.actors`). A lettered item's title ("e) Disturbance allowance.") is
quoted with the sentence it heads, never chosen alone.

Real MiniLM embedder and the shipped sentence-choice model, over chunks built here.
"""

from __future__ import annotations

from ragcite.embed.base import Embedder
from ragcite.generate.extractive import ExtractiveGenerator
from tests.generate.chunks import passage_chunk

CANCELLING = passage_chunk(
    "c_cancel0001",
    "Occasionally we may have to cancel your appointment, for example because of staff "
    "illness. If we cancel with less than 24 hours' notice, your next appointment will be "
    "charged at half price.",
    heading="If we cancel",
    title="Ashgrove Physiotherapy fees",
)
FEES = passage_chunk(
    "c_fees000002",
    "Cancellations with 24 hours' notice or more: no charge. Cancellations with less than 24 "
    "hours' notice: 50% of the appointment fee.",
    heading="Cancellation fees",
    title="Ashgrove Physiotherapy fees",
)
RELOCATION = passage_chunk(
    "c_reloc00003",
    "d) Temporary accommodation. Up to 8 weeks in a serviced flat.\n"
    "e) Disturbance allowance. A one-off payment of £1,500 towards incidental costs. This is "
    "paid through payroll in the month after you move and does not need receipts.",
    heading="What we pay",
    title="Relocation policy",
)


def _claims(embedder: Embedder, question: str, chunks: list) -> list[str]:  # type: ignore[type-arg]
    draft = ExtractiveGenerator(embedder).generate(question, chunks)
    assert draft.answerable
    return [claim.claim_text for claim in draft.claims]


def test_the_askers_case_comes_before_the_organisations(embedder: Embedder) -> None:
    question = "I need to cancel my physio appointment this morning. Will I be charged?"
    claims = _claims(embedder, question, [CANCELLING, FEES])
    assert any("50% of the appointment fee" in c for c in claims)


def test_a_lettered_items_title_is_quoted_with_what_it_heads(embedder: Embedder) -> None:
    question = "Do I need to keep receipts for the disturbance allowance?"
    claims = _claims(embedder, question, [RELOCATION])
    assert len(claims) > 1 and any("does not need receipts" in c for c in claims)


SPA = passage_chunk(
    "c_spa0000004",
    "Treatments can be booked by calling Spa Reception on 015394 41207 (open 8am to 8pm "
    "daily), by emailing spa@greystonemanor.co.uk, or online through the spa page of our "
    "website. Hotel residents may book treatments up to 8 weeks before their arrival date. "
    "Day guests who are not staying at the hotel may book up to 6 weeks in advance.\n\n"
    "We ask for a credit or debit card to secure every treatment booking.",
    heading="Booking a treatment",
    title="The Spa at Greystone Manor: Treatment Booking, Arrival and Cancellation Policy",
)


def test_the_askers_case_comes_before_the_negated_one(embedder: Embedder) -> None:
    """ "We're staying at the hotel" is the residents' case, not the day guests' who are
    "not staying at the hotel", though that sentence shares more of the question's words."""
    question = "We're staying at the hotel in August. How far ahead can we book our treatments?"
    draft = ExtractiveGenerator(embedder).generate(question, [SPA])
    assert draft.answerable and "8 weeks" in draft.claims[0].claim_text
