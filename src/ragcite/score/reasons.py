"""Confidence in words: why a claim or an answer has its label.

The score stage fills `confidence_reason` on every claim and answer with these, so a
reader sees what the number rests on ("3 exact quotes, all supported by their sources",
"1 claim's support is uncertain", "no passage answers the question").

    >>> claim_reason(claim, ConfidenceLabel.HIGH)                      # doctest: +SKIP
    'Exact quote, supported by its source.'
"""

from __future__ import annotations

from ragcite.models import Citation, CitedClaim, ConfidenceLabel, QuoteStatus, SupportVerdict

NO_ANSWER_REASON = "No passage in the documents answers the question."

_QUOTE_WORDS = {
    QuoteStatus.EXACT: "exact quote",
    QuoteStatus.NORMALIZED: "exact quote (up to spacing and punctuation)",
    QuoteStatus.FUZZY: "quote that matches its source only approximately",
    QuoteStatus.NOT_FOUND: "quote not found in the cited source",
}
_SUPPORT_WORDS = {
    SupportVerdict.SUPPORTED: "supported by its source",
    SupportVerdict.PARTIAL: "its support is uncertain (the source says only part of it)",
    SupportVerdict.UNSUPPORTED: "not supported by its source",
    SupportVerdict.CONTRADICTED: "contradicted by its source",
    SupportVerdict.UNCHECKED: "support not checked",
}
_SEVERITY = {
    SupportVerdict.CONTRADICTED: 0,
    SupportVerdict.UNSUPPORTED: 1,
    SupportVerdict.PARTIAL: 2,
    SupportVerdict.UNCHECKED: 3,
    SupportVerdict.SUPPORTED: 4,
}
_RANK = {
    ConfidenceLabel.VERY_LOW: 0,
    ConfidenceLabel.LOW: 1,
    ConfidenceLabel.MEDIUM: 2,
    ConfidenceLabel.HIGH: 3,
}
_QUOTE_RANK = {
    QuoteStatus.NOT_FOUND: 0,
    QuoteStatus.FUZZY: 1,
    QuoteStatus.NORMALIZED: 2,
    QuoteStatus.EXACT: 3,
}


def _weakest(claim: CitedClaim) -> Citation | None:
    return min(
        claim.citations,
        key=lambda c: (_SEVERITY[c.support], _QUOTE_RANK[c.quote_status]),
        default=None,
    )


def lifted_words(confidence: float) -> str:
    """Why a label reads MEDIUM when its number is below the band: the quote's words are
    verified, whether they answer the question is less sure.

    >>> lifted_words(0.41).endswith("answer the question only about 41% of the time")
    True
    """
    return (
        "MEDIUM for its verified words, though quotes scored like it answer the question "
        f"only about {round(confidence * 100)}% of the time"
    )


def claim_reason(claim: CitedClaim, label: ConfidenceLabel, lifted: float | None = None) -> str:
    """One claim's label in words, from its weakest citation; `lifted` is the claim's
    confidence when its label was raised to MEDIUM (an exact, supported quote).

    >>> from ragcite.models import Citation
    >>> c = CitedClaim(claim_text="x", citations=[Citation(chunk_id="c", quote="x",
    ...     quote_status=QuoteStatus.EXACT, support=SupportVerdict.SUPPORTED)])
    >>> claim_reason(c, ConfidenceLabel.MEDIUM)
    'Exact quote, supported by its source.'
    """
    cited = _weakest(claim)
    if cited is None:
        return "The claim cites no source."
    quote = _QUOTE_WORDS[cited.quote_status]
    text = f"{quote[0].upper()}{quote[1:]}, {_SUPPORT_WORDS[cited.support]}"
    if lifted is not None:
        text += f"; {lifted_words(lifted)}"
    elif label in (ConfidenceLabel.LOW, ConfidenceLabel.VERY_LOW) and (
        cited.support is SupportVerdict.SUPPORTED
    ):
        text += "; the passage matches the question only loosely"
    return text + "."


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def held_words(label: ConfidenceLabel, confidence: float) -> str:
    """Why an answer's label is below the band of its number: its weakest claim's label.

    >>> held_words(ConfidenceLabel.MEDIUM, 0.88)
    'MEDIUM as its weakest claim, though answers like it are right about 88% of the time'
    """
    return (
        f"{label} as its weakest claim, though answers like it are right about "
        f"{round(confidence * 100)}% of the time"
    )


def answer_reason(
    claims: list[CitedClaim],
    label: ConfidenceLabel,
    confidence: float | None = None,
    band: ConfidenceLabel | None = None,
) -> str:
    """An answer's label in words, from its claims (see the module doc). `confidence` and
    `band` are the answer's number and that number's label band: when `label` is above the
    band (every claim an exact, supported quote) or below it (held to its weakest claim's
    label), the words say so."""
    citations = [c for claim in claims for c in claim.citations]
    if not citations:
        return NO_ANSWER_REASON if not claims else "No claim cites a source."
    text, all_supported = _answer_basis(claims, citations)
    if confidence is not None and band is not None and label is not band:
        lifted = _RANK[label] > _RANK[band]
        text += f"; {lifted_words(confidence) if lifted else held_words(label, confidence)}"
    elif all_supported and label in (ConfidenceLabel.LOW, ConfidenceLabel.VERY_LOW):
        text += "; the passages match the question only loosely"
    return text + "."


def _answer_basis(claims: list[CitedClaim], citations: list[Citation]) -> tuple[str, bool]:
    """What the answer's claims rest on (their problems, or their exact, checked quotes),
    and whether every quote is exact and supported."""
    problems = []
    for verdict, words in (
        (SupportVerdict.CONTRADICTED, ("claim is", "claims are", "contradicted by its source")),
        (SupportVerdict.UNSUPPORTED, ("claim is", "claims are", "not supported by its source")),
        (SupportVerdict.PARTIAL, ("claim's", "claims'", "support is uncertain")),
    ):
        hit = sum(1 for claim in claims if any(c.support is verdict for c in claim.citations))
        if hit:
            problems.append(f"{_plural(hit, words[0], words[1])} {words[2]}")
    loose = sum(
        1 for c in citations if c.quote_status in (QuoteStatus.FUZZY, QuoteStatus.NOT_FOUND)
    )
    if loose:
        problems.append(_plural(loose, "quote matches", "quotes match") + " only approximately")
    if problems:
        return "; ".join(problems), False
    quotes = _plural(len(citations), "exact quote", "exact quotes")
    checked = [c for c in citations if c.support is not SupportVerdict.UNCHECKED]
    if not checked:
        return f"{quotes}; support was not checked", False
    if len(checked) < len(citations):
        return f"{quotes}; {len(checked)} supported by their sources, the rest not checked", False
    alone = len(citations) == 1
    supported = "supported by its source" if alone else "all supported by their sources"
    return f"{quotes}, {supported}", True
