"""An FAQ's questions: the question on a line of its own that each sentence answers."""

from __future__ import annotations

from ragcite.text.faq import answered_questions
from ragcite.text.sentences import split_sentences

FAQ = (
    "Procurement FAQ\n\n"
    "Can I buy software with my corporate card?\n"
    "No. Software must always be purchased through the IT portal.\n\n"
    "What happens if an invoice arrives without a purchase order?\n"
    "The invoice is returned to the supplier unpaid.\n"
    "The supplier must resend it.\n\n"
    "Suppliers are paid within 30 days."
)


def _answers(text: str) -> list[tuple[str, str | None]]:
    spans = split_sentences(text)
    return [
        (text[a:b], None if q is None else text[slice(*spans[q])])
        for (a, b), q in zip(spans, answered_questions(text, spans), strict=True)
    ]


def test_each_answer_sentence_knows_its_question_until_a_blank_line() -> None:
    card = "Can I buy software with my corporate card?"
    invoice = "What happens if an invoice arrives without a purchase order?"
    assert _answers(FAQ) == [
        ("Procurement FAQ", None),
        (card, None),
        ("No.", card),
        ("Software must always be purchased through the IT portal.", card),
        (invoice, None),
        ("The invoice is returned to the supplier unpaid.", invoice),
        ("The supplier must resend it.", invoice),
        ("Suppliers are paid within 30 days.", None),
    ]


def test_a_bold_question_line_in_plain_text_is_its_own_sentence() -> None:
    text = "**Are shipping costs refunded?**\nOnly if the item arrived damaged."
    assert _answers(text) == [
        ("**Are shipping costs refunded?**", None),
        ("Only if the item arrived damaged.", "**Are shipping costs refunded?**"),
    ]


def test_a_question_inside_a_paragraph_is_not_an_faq_question() -> None:
    text = "Why does this matter? Because records are evidence. They are kept for 7 years."
    assert [q for _, q in _answers(text)] == [None, None, None]


def test_the_answer_may_follow_a_blank_line_and_ends_at_the_next_one() -> None:
    text = "How long are refunds?\n\nRefunds take 5 days.\n\nShipping is free."
    assert [q for _, q in _answers(text)] == [
        None,
        "How long are refunds?",
        None,
    ]
