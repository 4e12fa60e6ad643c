"""Turn what a model really returns into a DraftAnswer.

Models wrap JSON in prose and code fences, leave trailing commas, write confidences
as "0.85" or "high", drop fields, rename them, and decorate IDs ("[C_1A2B]"). This
module accepts all of that; the gate still checks every claim afterwards. Cited IDs
are resolved with the gate's own rule (`verify.ids`): only an unambiguous match is
rewritten, anything else is passed on for the gate to flag.

    >>> draft = parse_draft('Sure! ```json {"claims": [{"claim": "A.", "chunk_id": "[C_1]",}]}```',
    ...                     model_id="m", chunk_ids=["c_1"])
    >>> draft.claims[0].citations[0].chunk_id
    'c_1'
"""

from __future__ import annotations

import json
import re
from typing import Any

from ragcite.errors import UnusableOutputError
from ragcite.flags import shorten
from ragcite.models import DraftAnswer, DraftCitation, DraftClaim
from ragcite.text.chunk_ids import resolve_chunk_id

_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_CONFIDENCE_WORDS = {
    "very high": 0.95,
    "high": 0.9,
    "medium": 0.75,
    "moderate": 0.75,
    "low": 0.5,
    "very low": 0.3,
}
_ANSWER_KEYS = ("answer_text", "answer", "response", "text")
_CLAIM_LIST_KEYS = ("claims", "cited_claims", "statements")
_CLAIM_TEXT_KEYS = ("claim_text", "claim", "text", "statement", "sentence")
_CITATION_LIST_KEYS = ("citations", "sources", "evidence")
_ID_KEYS = ("chunk_id", "source_id", "id", "chunk", "source", "document_id")
_ID_LIST_KEYS = ("source_chunk_ids", "chunk_ids", "source_ids")
_QUOTE_KEYS = ("quote", "cited_text", "text", "evidence", "excerpt")
_CONFIDENCE_KEYS = ("attribution_confidence", "confidence", "score")


def parse_draft(text: str, *, model_id: str, chunk_ids: list[str] | None = None) -> DraftAnswer:
    """The draft answer in `text`; UnusableOutputError when there is none."""
    data = extract_json(text, model_id=model_id)
    return draft_from_json(data, model_id=model_id, chunk_ids=chunk_ids or [])


def extract_json(text: str, *, model_id: str) -> Any:
    """The first JSON object (or array) in `text`, tolerating fences, prose and trailing commas."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    for candidate in candidates:
        # The outermost value wins: at each opening bracket, try the text as it is, then
        # with trailing commas removed, before looking at brackets further in.
        for start, char in enumerate(candidate):
            if char not in "{[":
                continue
            for source in (candidate[start:], _TRAILING_COMMA.sub(r"\1", candidate[start:])):
                try:
                    value, _ = decoder.raw_decode(source)
                except json.JSONDecodeError:
                    continue
                if isinstance(value, dict) or (
                    isinstance(value, list) and value and all(isinstance(v, dict) for v in value)
                ):
                    return value
    raise UnusableOutputError(
        f'{model_id} returned no readable JSON answer (it began: "{shorten(text, 120)}"); '
        "a larger max_tokens or a model that follows JSON instructions may help"
    )


def draft_from_json(data: Any, *, model_id: str, chunk_ids: list[str]) -> DraftAnswer:
    """A DraftAnswer from parsed JSON in our schema or a close variant of it."""
    if isinstance(data, list):
        data = {"claims": data}
    raw_claims = _first(data, _CLAIM_LIST_KEYS)
    if raw_claims is None and _first(data, _CITATION_LIST_KEYS) is not None:
        raw_claims = [data]  # a single claim at the top level
    claims = [
        claim
        for item in (raw_claims if isinstance(raw_claims, list) else [])
        if (claim := _claim(item, chunk_ids)) is not None
    ]
    answer = _first(data, _ANSWER_KEYS)
    answer_text = answer.strip() if isinstance(answer, str) else ""
    if not answer_text:
        answer_text = " ".join(c.claim_text for c in claims)
    answerable = data.get("answerable")
    if isinstance(answerable, str):
        answerable = answerable.strip().casefold() in ("true", "yes", "1")
    if answerable is None:
        answerable = bool(answer_text)
    if not claims and not answer_text:
        answerable = False
    return DraftAnswer(
        answer_text=answer_text if answerable else "",
        claims=claims if answerable else [],
        answerable=bool(answerable),
        model_id=model_id,
    )


def _claim(item: Any, chunk_ids: list[str]) -> DraftClaim | None:
    if isinstance(item, str):
        return DraftClaim(claim_text=item.strip()) if item.strip() else None
    if not isinstance(item, dict):
        return None
    text = _first(item, _CLAIM_TEXT_KEYS)
    if not isinstance(text, str) or not text.strip():
        return None
    citations = _citations(item, chunk_ids)
    return DraftClaim(
        claim_text=text.strip(),
        citations=citations,
        attribution_confidence=confidence_value(_first(item, _CONFIDENCE_KEYS)),
        is_synthesized=_flag(item.get("is_synthesized"))
        or len({c.chunk_id for c in citations}) > 1,
    )


def _citations(item: dict[str, Any], chunk_ids: list[str]) -> list[DraftCitation]:
    raw = _first(item, _CITATION_LIST_KEYS)
    entries: list[tuple[Any, Any]] = []
    if isinstance(raw, dict):
        raw = [raw]
    if isinstance(raw, list):
        for entry in raw:
            if isinstance(entry, dict):
                entries.append((_first(entry, _ID_KEYS), _first(entry, _QUOTE_KEYS)))
            else:
                entries.append((entry, item.get("quote")))
    ids = _first(item, _ID_LIST_KEYS)
    if isinstance(ids, (str, int)):
        ids = [ids]
    if isinstance(ids, list) and not entries:
        entries = [(i, item.get("quote")) for i in ids]
    out = []
    for cited, quote in entries:
        if cited is None or not str(cited).strip():
            continue
        cited = str(cited).strip()
        resolved = resolve_chunk_id(cited, chunk_ids) if chunk_ids else None
        out.append(
            DraftCitation(
                chunk_id=resolved or cited, quote=quote.strip() if isinstance(quote, str) else ""
            )
        )
    return out


def confidence_value(value: Any) -> float | None:
    """A confidence in [0, 1] from 0.85, "0.85", "85%", 85 or "high"; None if unreadable."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        text = value.strip().casefold()
        if text in _CONFIDENCE_WORDS:
            return _CONFIDENCE_WORDS[text]
        percent = text.endswith("%")
        try:
            number = float(text.rstrip("%").strip())
        except ValueError:
            return None
        value = number / 100 if percent else number
    if not isinstance(value, (int, float)):
        return None
    number = float(value)
    if 1.0 < number <= 100.0:
        number /= 100  # "85" meant 85%
    return number if 0.0 <= number <= 1.0 else None


def _first(data: Any, keys: tuple[str, ...]) -> Any:
    if not isinstance(data, dict):
        return None
    return next((data[k] for k in keys if data.get(k) is not None), None)


def _flag(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().casefold() in ("true", "yes", "1")
    return bool(value)
