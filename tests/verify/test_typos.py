"""A misspelt question word is read as the passage's word; a real word never is."""

from __future__ import annotations

from ragcite.embed.cached import CachedEmbedder
from ragcite.verify.subject import missing_subject
from ragcite.verify.typos import name_typo_of, one_edit_apart, typo_of, vocabulary

from ..generate.chunks import passage_chunk


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
