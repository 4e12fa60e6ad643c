"""The one LLM-judge prompt in ragcite, and how its reply is read.

Used by the support checker's optional LLM tier (`llm_judge.py`) and by the evaluation
harness's LLM judge (`eval/attribution.py`).

>>> parse_judge_reply("**NOT SUPPORTED**: the evidence gives no date.")
<SupportVerdict.UNSUPPORTED: 'unsupported'>
"""

from __future__ import annotations

import re

from ragcite.models import SupportVerdict

JUDGE_PROMPT = """You check citations. Read the evidence and the claim.
Answer SUPPORTED if the evidence alone fully supports the claim, CONTRADICTED if the
evidence says the claim is false, otherwise NOT_SUPPORTED.
Answer with that one word.

Evidence:
{evidence}

Claim: {claim}
Answer:"""
# The first verdict word in the reply wins; "not (fully) supported" before "supported".
_VERDICT = re.compile(
    r"\b(?P<no>NOT[\s_-]+(?:FULLY[\s_-]+)?SUPPORTED|UNSUPPORTED|DOES[\s_-]+NOT[\s_-]+SUPPORT)"
    r"|\b(?P<contra>CONTRADICT(?:ED|S|ION)?)\b"
    r"|\b(?P<yes>SUPPORTED|SUPPORTS)\b",
    re.IGNORECASE,
)
_SEPARATOR = "\n\n"
_ELLIPSIS = " …"


def judge_prompt(
    claim: str, evidence: list[str], *, max_chars: int | None = None, keep: str = ""
) -> str:
    """The judge prompt for a claim and its evidence texts (read together).

    With `max_chars`, long evidence is cut to that many characters, each text to an
    equal share at a word boundary; `keep` (the best-aligned sentence) is appended when
    the cut would have lost it.
    """
    return JUDGE_PROMPT.format(evidence=_fit(evidence, max_chars, keep), claim=claim.strip())


def parse_judge_reply(reply: str) -> SupportVerdict | None:
    """SUPPORTED, UNSUPPORTED (the judge said not supported) or CONTRADICTED; None when
    the reply holds no verdict word."""
    match = _VERDICT.search(reply)
    if match is None:
        return None
    if match.group("no"):
        return SupportVerdict.UNSUPPORTED
    if match.group("contra"):
        return SupportVerdict.CONTRADICTED
    return SupportVerdict.SUPPORTED


def _fit(evidence: list[str], max_chars: int | None, keep: str) -> str:
    texts = [t.strip() for t in evidence if t.strip()]
    joined = _SEPARATOR.join(texts)
    if max_chars is None or len(joined) <= max_chars or not texts:
        return joined
    cut = _cut_each(texts, max_chars)
    keep = keep.strip()
    if not keep or keep in cut:
        return cut
    keep = _cut(keep, max_chars // 2)
    room = max_chars - len(keep) - len(_SEPARATOR) - 2
    return _cut_each(texts, room) + _SEPARATOR + "… " + keep


def _cut_each(texts: list[str], max_chars: int) -> str:
    share = max(1, (max_chars - len(_SEPARATOR) * (len(texts) - 1)) // len(texts))
    return _SEPARATOR.join(_cut(t, share) for t in texts)


def _cut(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    head = text[: max(1, max_chars - len(_ELLIPSIS))]
    if " " in head:
        head = head.rsplit(" ", 1)[0]
    return head.rstrip() + _ELLIPSIS
