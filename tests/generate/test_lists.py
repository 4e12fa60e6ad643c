"""A list the question asks for as a whole: `whole_list`."""

from __future__ import annotations

from ragcite.embed.base import Embedder
from ragcite.generate.extractive import ExtractiveGenerator
from ragcite.generate.lists import lead_ins, whole_list
from ragcite.text.sentences import split_sentences
from tests.generate.chunks import passage_chunk

LEAD_IN = "Bring the following:\n- a laptop.\n- your badge.\n\nParking is free."
HEADED = "- Devices must be locked.\n- Only portal software may be installed."


def test_the_lead_in_line_is_the_lists_title() -> None:
    chunk = passage_chunk("c1", LEAD_IN)
    assert whole_list("What should I bring on my first day?", chunk, 1) == [1, 2]
    assert whole_list("What should I bring on my first day?", chunk, 2) == [1, 2]


def test_the_section_heading_is_the_title_without_a_lead_in() -> None:
    chunk = passage_chunk("c1", HEADED, heading="Rules for company devices")
    assert whole_list("What are the rules for company devices?", chunk, 0) == [0, 1]


def test_a_question_about_one_item_or_a_sentence_outside_a_list_gets_none() -> None:
    headed = passage_chunk("c1", HEADED, heading="Company devices")
    assert whole_list("Can I install my own software?", headed, 1) == []
    assert whole_list("What should I bring?", passage_chunk("c2", LEAD_IN), 3) == []


def test_a_lead_in_that_answers_brings_its_list() -> None:
    """A sentence ending in ":" says its answer is the list below it, whatever the question."""
    text = (
        "Every expense above the limits below must be approved before the money is spent:\n\n"
        "- Up to $500: approved by your line manager.\n"
        "- Above $500: approved by your department head.\n\n"
        "Receipts are kept for seven years."
    )
    chunk = passage_chunk("c1", text, heading="Approval thresholds")
    assert whole_list("Who approves a $700 expense?", chunk, 0) == [1, 2]
    assert whole_list("How long are receipts kept?", chunk, 3) == []


def test_numbered_steps_are_a_list() -> None:
    text = "To request access:\n1. Open the portal.\n2. Choose the system.\n3. Submit the form."
    chunk = passage_chunk("c1", text, heading="Access requests")
    assert whole_list("How do I request access?", chunk, 0) == [1, 2, 3]
    assert whole_list("How do I request access?", chunk, 2) == [1, 2, 3]


def test_each_item_knows_the_lead_in_its_list_hangs_from() -> None:
    spans = split_sentences(LEAD_IN)
    assert lead_ins(LEAD_IN, spans) == [None, 0, 0, None]
    assert lead_ins(HEADED, split_sentences(HEADED)) == [None, None]


def test_lettered_and_indented_items_ending_on_semicolons_are_a_list(embedder: Embedder) -> None:
    """ "(a) take it as paid annual leave;" is an item of the list its lead-in introduces,
    indented as an emailed policy lays it out, and each item is a claim of the answer."""
    text = (
        "6.2 Where you cannot get in and the site is open, you can choose one\n"
        "    of the following for the missed time:\n"
        "      (a) take it as paid annual leave;\n"
        "      (b) make the time up later (see 6.3); or\n"
        "      (c) take it as unpaid leave.\n"
        "    If you do not tell us which option you want, the time is recorded\n"
        "    as unpaid leave."
    )
    chunk = passage_chunk("c1", text, heading="Missed time")
    assert whole_list("what are my options?", chunk, 0) == [1, 2, 3]
    asked = (
        "couldnt get in because our road was blocked but the site was open, what are my options?"
    )
    claims = [c.claim_text for c in ExtractiveGenerator(embedder).generate(asked, [chunk]).claims]
    assert "(a) take it as paid annual leave;" in claims
    assert "(c) take it as unpaid leave." in claims
