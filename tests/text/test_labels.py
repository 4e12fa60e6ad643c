"""Labelled lines: a line that opens with "Label:" governs the sentences after it on the line."""

from __future__ import annotations

import pytest

from ragcite.text.labels import clause_title, label_of, labelled_by
from ragcite.text.sentences import split_sentences


@pytest.mark.parametrize(
    ("sentence", "label"),
    [
        ("Severity 2: a single system degraded.", "Severity 2"),
        ("**Tier A:** the fastest response.", "Tier A"),
        ("Step 3: Sign the form.", "Step 3"),
        ("Hybrid: Most employees may work remotely.", "Hybrid"),
        ("The meeting starts at 10:30 every day.", ""),
        ("10:30: stand-up.", ""),
        ("See https://example.org for details.", ""),
        ("Reports sent to the regulator for a breach of this kind: within 72 hours.", ""),
        ("Note. Something: else.", ""),
        ("No colon in this sentence.", ""),
    ],
)
def test_a_short_label_and_a_colon_open_a_labelled_sentence(sentence: str, label: str) -> None:
    assert label_of(sentence) == label


def _hangs(text: str) -> list[tuple[str, str | None]]:
    spans = split_sentences(text)
    sentences = [text[a:b] for a, b in spans]
    return [
        (s, None if i is None else sentences[i])
        for s, i in zip(sentences, labelled_by(text, spans), strict=True)
    ]


def test_the_sentences_after_a_label_on_its_line_hang_from_it() -> None:
    text = (
        "Severity 1: customer data exposed. The executive team is informed within 2 hours.\n"
        "Severity 2: a single system degraded. The incident manager responds within 4 hours. "
        "A review follows.\n"
        "Other rules apply to everyone. They are listed below."
    )
    assert _hangs(text) == [
        ("Severity 1: customer data exposed.", None),
        ("The executive team is informed within 2 hours.", "Severity 1: customer data exposed."),
        ("Severity 2: a single system degraded.", None),
        ("The incident manager responds within 4 hours.", "Severity 2: a single system degraded."),
        ("A review follows.", "Severity 2: a single system degraded."),
        ("Other rules apply to everyone.", None),
        ("They are listed below.", None),
    ]


def test_a_wrapped_line_and_a_list_item_keep_their_label() -> None:
    text = (
        "- Tier A: answered by a senior agent, who may\n"
        "  escalate at once. Calls are recorded.\n"
        "- Tier B: answered by the queue. Calls are not recorded."
    )
    hangs = dict(_hangs(text))
    assert hangs["Calls are recorded."] == (
        "Tier A: answered by a senior agent, who may\n  escalate at once."
    )
    assert hangs["Calls are not recorded."] == "Tier B: answered by the queue."


@pytest.mark.parametrize(
    ("sentence", "title"),
    [
        ("1.1 Hot Desk.", "Hot Desk"),
        ("3. Fees and Payment.", "Fees and Payment"),
        ("12.3 Termination.", "Termination"),
        ("1.1 hot desk.", ""),
        ("8.2 Dedicated Desk memberships have a minimum term of 3 months.", ""),
        ("Hot Desk.", "Hot Desk"),  # a list item's run-in title: two to four capitalised words
        ("Monthly Direct Debit.", "Monthly Direct Debit"),
        ("Passport.", ""),
        ("Bring your ID.", ""),
        ("e) Disturbance allowance.", "Disturbance allowance"),
        ("(b) Removal Costs.", "Removal Costs"),
        ("a) You must pay now.", ""),  # a lettered item that states, not a title
        ("iv) Temporary housing.", "Temporary housing"),
    ],
)
def test_a_numbered_clauses_title_is_its_own_sentence(sentence: str, title: str) -> None:
    assert clause_title(sentence) == title


def test_the_sentences_after_a_clause_title_on_its_line_hang_from_it() -> None:
    text = (
        "1.1 Hot Desk. Price: £189 per month. Use of any free desk.\n"
        "1.2 Dedicated Desk. Price: £295 per month."
    )
    assert labelled_by(text, split_sentences(text)) == [None, 0, 0, None, 3]


def test_the_sentence_after_a_list_items_run_in_title_hangs_from_it() -> None:
    text = (
        "You can pay in any of these ways:\n\n"
        "- Monthly Direct Debit. Customers paying this way receive a discount of £15.00 a year.\n"
        "- Quarterly payment by debit card, within 14 days of the bill date."
    )
    assert labelled_by(text, split_sentences(text)) == [None, None, 1, None]
