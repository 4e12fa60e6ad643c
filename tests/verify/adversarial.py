"""Adversarial model outputs against real chunks, and the property every gate result keeps.

A `Plan` is chunk-agnostic data that hypothesis builds; `draft_for` applies it to whatever
chunks a generator is given (so the same plan drives the gate directly or the whole
pipeline through `ScriptedGenerator`). `assert_nothing_unverified_shown` is the property:
a found quote really is in the chunk it names (after the documented normalisation), a
verified claim has such a quote and no failed support, and a claim whose number or
negation was changed is never supported.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from hypothesis import strategies as st

from ragcite.models import (
    CitedClaim,
    DraftAnswer,
    DraftCitation,
    DraftClaim,
    QuoteStatus,
    SourceChunk,
    SupportVerdict,
)
from ragcite.text.sentences import split_sentences
from ragcite.text.words import words
from ragcite.verify.markers import strip_citation_markers

KINDS = (
    "exact",
    "zero_width",
    "homoglyph",
    "nfd",
    "splice",
    "boundary",
    "id_case",
    "id_bracket",
    "twin_id",
    "duplicate_id",
    "number",
    "number_unquoted",
    "negation",
    "negation_unquoted",
    "word_swap",
    "ellipsis",
    "marker_and_case",
)
# The claim says something the source does not (a changed number, a flipped negation).
ALTERING = {"number", "number_unquoted", "negation", "negation_unquoted"}
_ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
_HOMOGLYPHS = str.maketrans("aeocpxyiAEOCPXBHKMT", "аеосрхуіАЕОСРХВНКМТ")
_ELLIPSIS = re.compile(r"\.\.\.|\u2026|\[\.\.\.\]|\[…\]")
# A number to change; not a part of a time of day ("20:00" to "28:00" is no time at all),
# nor a heading's enumerator ("7. HEALTH AND WELLBEING" states no quantity).
_NUMBER = re.compile(r"(?<![\d:])(?<!^)\d+(?![\d:])|^\d+(?!\.\s|[\d:])")
_AUXILIARY = re.compile(
    r"\b(is|are|was|were|must|may|can|will|should|shall|does|do|has|have)\b(?= \w)"
)
_NEGATION = re.compile(r"\b(not|never)\s+|n't\b|(?<=\bcan)not\b", re.IGNORECASE)
_FAILED = (SupportVerdict.UNSUPPORTED, SupportVerdict.CONTRADICTED)


@dataclass(frozen=True)
class ClaimPlan:
    kind: str
    picks: tuple[int, int, int, int]  # which chunk, sentence, other chunk, position


@dataclass(frozen=True)
class Plan:
    claims: tuple[ClaimPlan, ...]


claim_plans = st.builds(
    ClaimPlan,
    kind=st.sampled_from(KINDS),
    picks=st.tuples(*[st.integers(0, 10_000)] * 4),
)
plans = st.builds(Plan, claims=st.lists(claim_plans, min_size=1, max_size=3).map(tuple))


class ScriptedGenerator:
    """A Generator that answers with the adversarial draft `plan` builds from its chunks."""

    model_id = "scripted:hypothesis"
    can_retry = False

    def __init__(self, plan: Plan) -> None:
        self.plan = plan

    def generate(
        self, query: str, chunks: list[SourceChunk], *, violations: list[str] | None = None
    ) -> DraftAnswer:
        del query, violations
        return draft_for(self.plan, chunks)[0]


def draft_for(plan: Plan, chunks: list[SourceChunk]) -> tuple[DraftAnswer, set[str]]:
    """The draft `plan` builds from `chunks`, and the claim texts it altered."""
    claims: list[DraftClaim] = []
    altered: set[str] = set()
    for claim_plan in plan.claims:
        built = _claim(claim_plan, chunks)
        if built is None:
            continue
        claim, was_altered = built
        claims.append(claim)
        if was_altered:
            altered.add(claim.claim_text.strip())
    answer = " ".join(c.claim_text for c in claims)
    return DraftAnswer(answer_text=answer, claims=claims, model_id="scripted"), altered


def twin_chunks(plan: Plan, chunks: list[SourceChunk]) -> list[SourceChunk]:
    """`chunks` plus, for each `twin_id` claim, another chunk whose ID differs only in case."""
    twins = []
    for claim_plan in plan.claims:
        if claim_plan.kind == "twin_id" and len(chunks) > 1:
            a, _, b, _ = claim_plan.picks
            original = chunks[a % len(chunks)]
            other = chunks[b % len(chunks)]
            twin_id = original.chunk_id.swapcase()
            if twin_id != original.chunk_id and all(c.chunk_id != twin_id for c in chunks):
                twins.append(other.model_copy(update={"chunk_id": twin_id}))
    return chunks + twins[:1]


def _sentences(chunk: SourceChunk) -> list[str]:
    text = chunk.chunk_text
    found = [text[a:b] for a, b in split_sentences(text) if len(words(text[a:b])) >= 4]
    return found or [text.strip()]


def _claim(plan: ClaimPlan, chunks: list[SourceChunk]) -> tuple[DraftClaim, bool] | None:
    if not chunks:
        return None
    a, s, b, p = plan.picks
    chunk = chunks[a % len(chunks)]
    if plan.kind.startswith("number"):  # a sentence with a number to change
        with_numbers = [c for c in chunks if any(map(_NUMBER.search, _sentences(c)))]
        chunk = with_numbers[a % len(with_numbers)] if with_numbers else chunk
    candidates = _sentences(chunk)
    if plan.kind.startswith("number"):
        candidates = [x for x in candidates if _NUMBER.search(x)] or candidates
    sentence = candidates[s % len(candidates)]
    other = chunks[b % len(chunks)]
    quote, claim, cited = sentence, " ".join(sentence.split()), chunk.chunk_id
    extra: list[DraftCitation] = []
    kind, altered = plan.kind, False
    if kind == "zero_width":
        quote = _sprinkle(sentence, _ZERO_WIDTH[p % len(_ZERO_WIDTH)], p)
    elif kind == "homoglyph":
        quote = _swap_some(sentence, p)
        claim = quote if p % 2 else claim
    elif kind == "nfd":
        form = ("NFD", "NFKD", "NFC", "NFKC")[p % 4]
        quote = claim = unicodedata.normalize(form, sentence)
    elif kind == "splice":
        quote = _splice(sentence, _sentences(other)[p % len(_sentences(other))])
        claim = " ".join(quote.split())
    elif kind == "boundary":
        quote = chunk.chunk_text[-(20 + p % 60) :] + " " + other.chunk_text[: 20 + p % 60]
        claim = " ".join(quote.split())
    elif kind == "id_case":
        cited = chunk.chunk_id.swapcase() if p % 2 else chunk.chunk_id.upper()
    elif kind == "id_bracket":
        cited = ("[" + cited, cited + "]", f"[{cited}]", f"({cited}", f"source {cited}]")[p % 5]
    elif kind == "twin_id":
        cited = chunk.chunk_id.swapcase()
    elif kind == "duplicate_id":
        extra = [DraftCitation(chunk_id=other.chunk_id, quote=_word_swap(sentence, p))]
        cited = other.chunk_id if p % 2 else cited
    elif kind == "word_swap":
        quote = _word_swap(sentence, p)
    elif kind == "ellipsis":
        far = _sentences(other)[p % len(_sentences(other))]
        quote = " ".join(sentence.split()[:4]) + " ... " + " ".join(far.split()[-4:])
    elif kind == "marker_and_case":
        quote = (sentence.upper(), sentence.lower(), sentence + " [2]", "“" + sentence + "”")[p % 4]
    elif kind.startswith("number"):
        changed = _change_number(sentence, p, chunks)
        if changed is None:
            return None
        claim, altered = " ".join(changed.split()), True
    elif kind.startswith("negation"):
        claim, altered = " ".join(_flip_negation(sentence).split()), True
    if kind.endswith("_unquoted"):
        quote = ""  # the gate shows the best-aligned sentence instead
    citations = [DraftCitation(chunk_id=cited, quote=quote), *extra]
    return DraftClaim(claim_text=claim, citations=citations), altered


def _sprinkle(text: str, mark: str, seed: int) -> str:
    step = 2 + seed % 7
    return "".join(ch + (mark if i % step == step - 1 else "") for i, ch in enumerate(text))


def _swap_some(text: str, seed: int) -> str:
    positions = [i for i, ch in enumerate(text) if ch.translate(_HOMOGLYPHS) != ch]
    if not positions:
        return text + "\u0430"
    i = positions[seed % len(positions)]
    return text[:i] + text[i].translate(_HOMOGLYPHS) + text[i + 1 :]


def _splice(first: str, second: str) -> str:
    left, right = first.split(), second.split()
    return " ".join(left[: max(2, len(left) // 2)] + right[len(right) // 2 :])


def _word_swap(text: str, seed: int) -> str:
    tokens = text.split()
    i = seed % len(tokens)
    tokens[i] = "approximately" if tokens[i].lower() != "approximately" else "exactly"
    return " ".join(tokens)


def _change_number(text: str, seed: int, chunks: list[SourceChunk]) -> str | None:
    numbers = list(_NUMBER.finditer(text))
    if not numbers:
        return None
    match = numbers[seed % len(numbers)]
    value = int(match.group())
    everywhere = " ".join(c.chunk_text for c in chunks)
    for step in (1 + seed % 9, 7, 13, 101, 997):
        new = str(value + step)
        if not re.search(rf"(?<!\d){new}(?!\d)", everywhere):
            return text[: match.start()] + new + text[match.end() :]
    return None


def _flip_negation(text: str) -> str:
    negated = _NEGATION.search(text)
    if negated:
        return text[: negated.start()] + text[negated.end() :]
    auxiliary = _AUXILIARY.search(text)
    if auxiliary:
        return text[: auxiliary.end()] + " not" + text[auxiliary.end() :]
    return "It is not true that " + text[:1].lower() + text[1:]


def _letters(text: str) -> str:
    return "".join(words(strip_citation_markers(text)))


def quote_is_in_span(quote: str, span: str) -> bool:
    """The oracle: the quote's words (parts of an elided quote in order) are the span's."""
    parts = [_letters(part) for part in _ELLIPSIS.split(quote) if _letters(part)]
    have = _letters(span)
    if not parts:
        return False
    if len(parts) == 1:
        return parts[0] == have
    position = 0
    for part in parts:
        at = have.find(part, position)
        if at < 0:
            return False
        position = at + len(part)
    return have.startswith(parts[0]) and have.endswith(parts[-1])


def assert_nothing_unverified_shown(
    claims: list[CitedClaim], chunks: list[SourceChunk], altered: set[str]
) -> None:
    """The gate's promise, checked independently of the gate's own code."""
    by_id = {c.chunk_id: c for c in chunks}
    for claim in claims:
        found = [c for c in claim.citations if c.quote_status is not QuoteStatus.NOT_FOUND]
        for citation in found:
            assert citation.chunk_id in by_id, citation
            assert citation.quote_start is not None and citation.quote_end is not None
            span = by_id[citation.chunk_id].chunk_text[citation.quote_start : citation.quote_end]
            assert quote_is_in_span(citation.quote, span), (citation.quote, span)
        if claim.verified:
            assert found, claim
            assert all(c.support not in _FAILED for c in claim.citations), claim
        if claim.claim_text in altered:
            assert not claim.verified, claim
            assert all(c.support is not SupportVerdict.SUPPORTED for c in claim.citations), claim
