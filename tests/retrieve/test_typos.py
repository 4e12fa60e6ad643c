"""A misspelt question word is read as the passage's word, and retrieved again in its
spelling; a real word never is."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from ragcite.config import load_settings
from ragcite.embed.cached import CachedEmbedder
from ragcite.pipeline import Ragcite
from ragcite.retrieve.spelled_out import retrieve_spelled_out
from ragcite.retrieve.typos import (
    correct_typos,
    name_typo_of,
    one_edit_apart,
    typo_of,
    vocabulary,
)
from ragcite.verify.subject import missing_subject
from tests.generate.chunks import passage_chunk
from tests.verified_quotes import verified_claims


def test_one_edit_is_a_letter_added_dropped_changed_or_two_swapped() -> None:
    assert one_edit_apart("anual", "annual")  # dropped
    assert one_edit_apart("annual", "anual")  # added
    assert one_edit_apart("encrypton", "encryption")
    assert one_edit_apart("recieve", "receive")  # swapped
    assert one_edit_apart("leeve", "leave")  # changed
    assert not one_edit_apart("leave", "leave")
    assert not one_edit_apart("anl", "annual")
    assert not one_edit_apart("recieved", "receive")  # two edits


def test_only_a_word_the_vocabulary_does_not_know_is_a_typo() -> None:
    assert {"annual", "price", "prize", "leave"} <= vocabulary()
    assert typo_of("anual", ["annual"])
    assert not typo_of("prize", ["price"])  # a changed word, not a typo
    assert not typo_of("anual", ["leave"])
    assert not typo_of("lve", ["live"])  # too short to tell


def test_the_subject_check_reads_through_a_typo_not_a_changed_word(
    embedder: CachedEmbedder,
) -> None:
    text = "Full-time employees are entitled to 25 days of paid annual leave per year."
    chunk = passage_chunk(
        "c1", text, heading="Leave", document_id="handbook", title="Employee Handbook"
    )
    quotes = [(text, chunk)]
    typo = "how many days of anual leave do i get"
    assert missing_subject(typo, quotes, [chunk], embedder) == []
    changed = "how many days of sabbatical leave do i get"
    assert missing_subject(changed, quotes, [chunk], embedder) == ["sabbatical"]
    # A name one letter from a word of the passage is another name, not a typo.
    named = "how many days of Anual leave do i get"
    assert missing_subject(named, quotes, [chunk], embedder) == ["anual"]


def test_a_long_name_one_letter_off_is_the_passages_name() -> None:
    assert name_typo_of("hatmanis", ["hartmanis", "stearns"])
    assert not name_typo_of("jon", ["joan"])  # a short name may be someone else
    assert not name_typo_of("hanson", ["hansen"])
    assert not name_typo_of("hatmanis", ["stearns"])


def test_the_subject_check_reads_through_a_misspelt_name(embedder: CachedEmbedder) -> None:
    text = (
        "The seminal paper by Juris Hartmanis and Richard Stearns, On the computational "
        "complexity of algorithms, was published in 1965."
    )
    chunk = passage_chunk("c1", text, heading="History", document_id="cc", title="Complexity")
    quotes = [(text, chunk)]
    misspelt = "In what year was Hatmanis and Stearns' seminal paper published?"
    assert missing_subject(misspelt, quotes, [chunk], embedder) == []
    other = "In what year was Karp and Stearns' seminal paper published?"
    assert missing_subject(other, quotes, [chunk], embedder) == ["karp"]


def test_a_misspelt_question_word_is_written_as_the_passages_write_it() -> None:
    passages = ["The balance is due six weeks before your event.", "Pay the balance by card."]
    assert (
        correct_typos("what if we miss the balence payment?", passages)
        == "what if we miss the balance payment?"
    )
    # a real word, a contraction typed without its apostrophe, a name, a word they use
    assert correct_typos("is the prize list out", ["See the price list."]) == (
        "is the prize list out"
    )
    assert correct_typos("what if i dont go", ["It is done."]) == "what if i dont go"
    assert correct_typos("is Balence open", passages) == "is Balence open"
    assert correct_typos("balence or balance", passages) == "balance or balance"
    # two passage words equally near and as frequent: neither is chosen
    assert correct_typos("the hend", ["the hand", "the herd"]) == "the hend"
    # another form of the word, or a first letter changed, is no slip of the keys
    assert correct_typos("can I pay by cheque", ["We do not accept cheques."]) == (
        "can I pay by cheque"
    )
    assert correct_typos("a pro rata refund", ["Your data is kept."]) == "a pro rata refund"
    assert correct_typos("if my manager approves it", ["approved by a manager"]) == (
        "if my manager approves it"
    )


def test_a_question_with_a_typo_is_retrieved_again_in_the_passages_spelling(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "wedding-flowers.md").write_text(
        "# Payment\n\nA booking fee of £150 secures your date. The balance is due six weeks "
        "before your event. If it is still unpaid 14 days after the reminder, we may treat "
        "the booking as cancelled.\n\n# Delivery\n\nWe deliver within 30 miles of Ludlow. "
        "Delivery on a Sunday is not available.\n",
        encoding="utf-8",
    )
    rag = Ragcite.open(
        load_settings(store_path=tmp_path / "s.db", overrides={"cache.enabled": False})
    )
    try:
        assert rag.ingest([folder]).added == 1
        asked = "what happens if we miss the balence payment deadline?"
        retrieved = partial(rag.retriever.retrieve, k=5, filters=None)
        query, _ = retrieve_spelled_out(lambda q: retrieved(q), asked)
        assert query == "what happens if we miss the balance payment deadline?"
        response = rag.ask(asked)
        assert response.query == asked  # the user's own words are kept
        assert any("treat the booking as cancelled" in c for c in verified_claims(response))
    finally:
        rag.close()
