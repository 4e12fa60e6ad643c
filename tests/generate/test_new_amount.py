"""A how-much question answered by a sentence that only repeats the asker's own amount gets
the next sentence naming another (`ragcite.generate.new_amount`).

Real MiniLM embedder and the shipped sentence-choice model, over a chunk built here.
"""

from __future__ import annotations

from ragcite.embed.base import Embedder
from ragcite.generate.extractive import ExtractiveGenerator
from ragcite.generate.new_amount import money_amounts
from tests.generate.chunks import passage_chunk

EXAMPLE = passage_chunk(
    "c_loan000001",
    "Representative example. Borrow £2,000 over 24 months on a Standard Loan at 1.5% per "
    "month (19.6% APR representative). You would make 24 monthly repayments of £99.84. "
    "Total amount repayable: £2,396.16. Total interest: £396.16.",
    heading="Worked example",
    title="Loans guide",
)


def test_money_amounts_are_read_in_any_form() -> None:
    assert money_amounts("Borrow £2,000, or 500 pounds, or GBP 30.") == {2000.0, 500.0, 30.0}
    assert money_amounts("over 24 months at 1.5%") == set()


def test_the_amount_asked_for_joins_the_askers_own(embedder: Embedder) -> None:
    asked = "how much would my monthly payments be if I borrowed 2000 pounds over two years?"
    draft = ExtractiveGenerator(embedder).generate(asked, [EXAMPLE])
    assert any("£99.84" in c.claim_text for c in draft.claims)
