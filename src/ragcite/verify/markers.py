"""Citation markers in answer text: "[2]", "[1, 3]", "[doc-4]", "【3†source】", "^2".

Answers from other systems (and LLMs asked for claims) carry them inside the sentences.
To the support checker they are not part of what a claim says — left in, "[3]" reads as
the number 3 and disagrees with the evidence — and a marker glued to a full stop
("35 days.[2] The fee ...") hides a sentence boundary from the unattributed-sentence
check. Both read the text with its markers removed.

>>> strip_citation_markers("Backups are kept for 35 days [2][3].")
'Backups are kept for 35 days.'
>>> strip_citation_markers("Fees rose 5% (source 1) in 2023.^4")
'Fees rose 5% in 2023.'
"""

from __future__ import annotations

import re

# A citation number (1-9999: "[0, 1]" and "[0.5]" are intervals, not citations), or an
# identifier with letters and digits ("doc-4", "c_1a2b3c", "S2").
_ID = r"(?:[1-9]\d{0,3}|(?=[\w:.#-]*[A-Za-z])(?=[\w:.#-]*\d)[\w:.#-]+)"
_PREFIX = r"(?:source|src|doc|document|chunk|ref|reference|citation|cite|id)"
_AFTER_PUNCTUATION = r"(?<=[.,;:!?)\]])"
_MARKER = re.compile(
    "|".join(
        [
            # [2]  [1, 3]  [1-3]  [doc-4]  [Source 2]  [c_1a2b3c]
            rf"\[\s*(?:{_PREFIX}\s*[:#=_-]?\s*)?{_ID}(?:\s*[,;\u2013-]\s*{_ID})*\s*\]",
            # (source 1)  (ref. 2, 3)
            rf"\(\s*{_PREFIX}s?\.?\s*[:#]?\s*\d+(?:\s*[,;\u2013-]\s*\d+)*\s*\)",
            r"\u3010[^\u3011]{0,80}\u3011",  # 【3†source】
            # ".^2" and ".²" after punctuation only: "r^2" and "m²" are mathematics and units
            rf"{_AFTER_PUNCTUATION}\^\d+(?:[,-]\d+)*",
            rf"{_AFTER_PUNCTUATION}[\u00b9\u00b2\u00b3\u2070\u2074-\u2079]+",
        ]
    ),
    re.IGNORECASE,
)
# How each kind of marker starts: a text with none of these has no marker (the cheap check).
_PAREN_MARKER_START = re.compile(rf"\(\s*{_PREFIX}", re.IGNORECASE)
_SUPERSCRIPT = re.compile(r"[\u00b9\u00b2\u00b3\u2070\u2074-\u2079]")
_SPACE_BEFORE_PUNCTUATION = re.compile(r"[ \t]+([.,;:!?])")
_SPACES = re.compile(r"[ \t]{2,}")


def strip_citation_markers(text: str) -> str:
    """`text` without citation markers; unchanged when it has none."""
    if not may_hold_marker(text):
        return text
    stripped, count = _MARKER.subn(" ", text)
    if not count:
        return text
    stripped = _SPACE_BEFORE_PUNCTUATION.sub(r"\1", stripped)
    return _SPACES.sub(" ", stripped).strip()


def may_hold_marker(text: str) -> bool:
    """False when `text` surely holds no citation marker (a few scans for how each starts);
    then `strip_citation_markers` returns it unchanged."""
    if "[" in text or "^" in text or "\u3010" in text:
        return True
    if "(" in text and _PAREN_MARKER_START.search(text) is not None:
        return True
    return not text.isascii() and _SUPERSCRIPT.search(text) is not None
