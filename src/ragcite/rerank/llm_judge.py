"""An LLM as the reranker: one short prompt per chunk, "how well does it answer, 0 to 10?".

`complete(prompt) -> text` is any model call (`ragcite.llm.complete`). Replies are
read leniently: "8", "8/10", "Score: 7.5", "**9**", "I'd say 6 out of 10", "85%", or a
plain yes/no; a decimal no larger than 1 ("0.5", "1.0") is taken as already on a 0–1
scale, as small models often answer that way. A reply with no readable verdict (or an
empty reply, or a refusal) never fails the question: that chunk keeps its vector
similarity as its score, as on the fast path. Errors reaching the model (server down,
key rejected) are raised as they are.

    >>> reranker = LLMJudgeReranker(build_completion("local:smollm2", max_tokens=MAX_TOKENS))
    >>> reranker.score("How long is parental leave?", chunks)
    [0.9, 0.1, ...]
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ragcite.errors import UnusableOutputError
from ragcite.models import SourceChunk
from ragcite.rerank.base import passage_text

PROMPT = """Rate how well the passage answers the question, from 0 (unrelated) to 10 \
(answers it fully). Reply with the number only.

Question: {query}

Passage:
{passage}

Rating (0-10):"""
MAX_TOKENS = 10

_OUT_OF_TEN = re.compile(r"(\d+(?:\.\d+)?)\s*(?:/|out\s+of)\s*10\b", re.IGNORECASE)
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%")
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?!\w)")
# The scale itself, echoed back ("Rating (0-10): 8"), is not a rating.
_SCALE = re.compile(r"\b0\s*(?:-|–|to)\s*10\b", re.IGNORECASE)
_YES = re.compile(r"^\W*(yes|relevant)\b", re.IGNORECASE)
_NO = re.compile(r"^\W*(no|not relevant|irrelevant)\b", re.IGNORECASE)


class LLMJudgeReranker:
    """Scores each chunk by asking a language model to rate its relevance."""

    def __init__(
        self,
        complete: Callable[[str], str],
        *,
        name: str = "llm-judge",
        max_passage_chars: int = 1500,
    ) -> None:
        if max_passage_chars < 100:
            raise ValueError(f"max_passage_chars must be >= 100, but got {max_passage_chars}")
        self.complete = complete
        self.name = name
        self.max_passage_chars = max_passage_chars

    def score(self, query: str, chunks: list[SourceChunk]) -> list[float]:
        return [self._score_one(query, chunk) for chunk in chunks]

    def _score_one(self, query: str, chunk: SourceChunk) -> float:
        passage = passage_text(chunk)[: self.max_passage_chars]
        try:
            reply = self.complete(PROMPT.format(query=query, passage=passage))
        except UnusableOutputError:  # an empty reply or a refusal: no verdict
            reply = ""
        rating = parse_rating(reply)
        return rating if rating is not None else chunk.vector_similarity_score


def parse_rating(reply: str) -> float | None:
    """A 0–10 rating (or yes/no) in `reply` as a score in [0, 1]; None when there is none.

    >>> parse_rating("Rating: 7/10"), parse_rating("Yes."), parse_rating("hmm")
    (0.7, 1.0, None)
    """
    text = _SCALE.sub(" ", reply.replace("*", " ")).strip()
    match = _OUT_OF_TEN.search(text)
    if match and float(match.group(1)) <= 10:
        return float(match.group(1)) / 10
    match = _PERCENT.search(text)
    if match and float(match.group(1)) <= 100:
        return float(match.group(1)) / 100
    for number in _NUMBER.findall(text):
        if "." in number and float(number) <= 1:
            return float(number)
        if float(number) <= 10:
            return float(number) / 10
    if _NO.search(text):
        return 0.0
    if _YES.search(text):
        return 1.0
    return None
