"""Sentences outside the best one's neighbourhood that join it: the best sentence of another
passage that covers more of the question (`other_chunk`), and a sentence more relevant than
the best one holding a question word the chosen ones lack (`closer_in_words`). A sentence
of the other case than the asker's (`Candidate.other_case`) never joins.
"""

from __future__ import annotations

from ragcite.generate.joining import NEIGHBOUR_NEW_WORDS, Candidate, rank
from ragcite.generate.sentence_choice import stems
from ragcite.models import SourceChunk
from ragcite.text.table_rows import is_table_row
from ragcite.text.words import content_stems

# The best sentence of another passage joins when it ranks within this margin of the best
# and covers at least `NEIGHBOUR_NEW_WORDS` of the question's words the chosen ones lack
# (held-out SQuAD: 2 more answers, 0.03 more claims per question; no demo answer changed).
_OTHER_CHUNK_MARGIN = 0.1
# A sentence more relevant than the best one joins it only when the choice model gives it
# at least this probability of holding the answer (`closer_in_words`): "Northwind matches
# 100% of your contributions …" (0.06) does not answer "Does Northwind match employee
# donations?", "… do not use the lifts …" (0.12) answers "Can I take the lift …?".
_CLOSER_CHOICE = 0.1
# … and a sentence less relevant than the best one only when it is this close in relevance
# ("Is my partner allowed to drive my company car?": 0.557 against 0.587).
_CLOSE_SCORE = 0.04


def other_chunk(
    query: str, chosen: list[Candidate], candidates: list[Candidate]
) -> Candidate | None:
    """The best sentence outside the best one's passage, when it ranks within
    `_OTHER_CHUNK_MARGIN` of the best and covers at least `NEIGHBOUR_NEW_WORDS` of the
    question's words that the chosen sentences lack: the question may be about two passages,
    or the best passage may only resemble it."""
    best = chosen[0]
    if is_table_row(best.text):
        return None
    others = [
        c
        for c in candidates
        if c.chunk_rank != best.chunk_rank and not is_table_row(c.text) and not c.other_case
    ]
    if not others:
        return None
    other = max(others, key=rank)
    said = set().union(*(stems(c.text) for c in chosen))
    new = (stems(query) & stems(other.text)) - said
    close = rank(best) - rank(other) < _OTHER_CHUNK_MARGIN
    return other if close and len(new) >= NEIGHBOUR_NEW_WORDS and other not in chosen else None


def closer_in_words(
    query: str, chosen: list[Candidate], candidates: list[Candidate], passage: SourceChunk
) -> Candidate | None:
    """The sentence more relevant to the question than the best one, when it holds a
    question word that neither a chosen sentence nor the best one's title and heading
    hold ("Can I take the lift during a fire
    alarm?": the choice model prefers "The fire alarm is tested every Wednesday …", and the
    more relevant "Leave by the nearest exit, do not use the lifts, …" is what answers),
    unless the choice model all but rules it out (`_CLOSER_CHOICE`)."""
    best = chosen[0]
    if is_table_row(best.text):
        return None
    closer = [
        c for c in candidates
        if c.score > best.score - _CLOSE_SCORE
        and c.choice >= _CLOSER_CHOICE and c not in chosen and not is_table_row(c.text)
        and not c.other_case
    ]  # fmt: skip
    if not closer:
        return None
    heading = " ".join(x for x in (passage.document_title, passage.section_heading) if x)
    said = set().union(content_stems(heading), *(content_stems(c.text) for c in chosen))
    asked = content_stems(query) - said
    saying = [c for c in closer if asked & content_stems(c.text)]
    return max(saying, key=lambda c: c.score) if saying else None
