"""Resolve the chunk IDs a generator cited against the chunks actually retrieved.

Models decorate IDs: "[c_1a2b]", "'C_1A2B'", "chunk c_1a2b". An ID is matched
exactly first, then after stripping decoration and case, but only when exactly
one retrieved chunk matches: an ambiguous ID is treated as hallucinated.
"""

from __future__ import annotations

import re

_DECORATION = re.compile(
    r"^[\s\[\(\{<\"'`]*(?:chunk|source|id)?[\s:#=_-]*|[\s\]\)\}>\"'`.,;]*$", re.IGNORECASE
)


def resolve_chunk_id(cited: str, retrieved_ids: list[str]) -> str | None:
    """The retrieved chunk ID that `cited` names, or None if there is none or it is ambiguous."""
    if cited in retrieved_ids:
        return cited
    bare = _bare(cited)
    if not bare:
        return None
    matches = [rid for rid in retrieved_ids if _bare(rid) == bare]
    return matches[0] if len(matches) == 1 else None


def _bare(identifier: str) -> str:
    return _DECORATION.sub("", identifier.strip()).casefold()
