"""A question whose gap follows a participle and its preposition ("known for", "used for")
is answered by the sentence that says the phrase and what comes after it
(`ragcite.generate.slot_fill`).

Real MiniLM embedder and the shipped sentence-choice model, over a chunk built here.
"""

from __future__ import annotations

from ragcite.embed.base import Embedder
from ragcite.generate.extractive import ExtractiveGenerator
from ragcite.generate.slot_fill import slot_phrase
from tests.generate.chunks import passage_chunk

VALLEY = passage_chunk(
    "c_valley0001",
    "Between the weir and Ambry, the Upper Ashburn flows through the Kelder Valley, a cutting "
    "which was created by glaciers. The rate of wear equalled the uplift of the land, so the "
    "river stayed at its old level while the hills rose. The valley is deep and is the "
    "stretch of the river which is known for its water mills and slate quarries.",
    heading="River",
    title="The River Ashburn",
)
BROOKS = passage_chunk(
    "c_brooks0002",
    "The name Ashburn, from here on, is used only for smaller brooks farther to the east, "
    "which together formed the main river in medieval times. Though they kept the name, "
    "these brooks no longer carry water from the river, but are used for watering the "
    "surrounding fields and meadows. From Ambry, the old east branch is called Crooked Ashburn.",
    heading="River",
    title="The River Ashburn",
)


def test_the_gap_after_a_participle_and_its_preposition_is_read() -> None:
    assert slot_phrase("What is the Kelder Valley known for?") == ("known", "for")
    assert slot_phrase("The old channels are used for what?") == ("used", "for")
    assert slot_phrase("Who is the warden responsible to?") == ("responsible", "to")
    assert slot_phrase("How long is the valley?") is None
    assert slot_phrase("What is the deposit for?") is None  # no participle: any sentence


def test_the_sentence_filling_the_gap_is_quoted(embedder: Embedder) -> None:
    """The sentence most like the question names the valley or says "used only for smaller
    brooks"; the one that fills the gap is one or two sentences on."""
    generator = ExtractiveGenerator(embedder)
    known = generator.generate("What is the Kelder Valley known for?", [VALLEY])
    assert any("water mills and slate quarries" in c.claim_text for c in known.claims)
    used = generator.generate("The smaller brooks are used for what?", [BROOKS])
    assert any("watering the surrounding fields" in c.claim_text for c in used.claims)
