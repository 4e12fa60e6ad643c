"""The next step when the first one fails.

"Who do I write to if the branch manager doesn't sort out my complaint?" is answered by the
sentence after the one naming the branch manager: "If you are still unhappy, write to our
Head of Lettings, Priya Dorrance." A question about the case where the first step did not
work (`asks_past_first_step`) takes the sentence that opens on that case (`escalates`).

    >>> asks_past_first_step("Who do I write to if the manager doesn't sort it out?")
    True
    >>> escalates("If you are still unhappy, write to our Head of Lettings.")
    True
"""

from __future__ import annotations

import re

_NOT = r"(?:not|n't|never)"
_RESOLVE = r"(?:sort|resolve|fix|deal\s+with|help|reply|respond|answer|get\s+back)"
# "if the branch manager doesn't sort out ...", "still not happy after complaining",
# "I'm not happy with the reply": the first step was taken and did not work.
_PAST_FIRST_STEP = re.compile(
    rf"\b(?:does|do|did|will|wo|can|ca|could|has|have|is|are)\s*{_NOT}\s+(?:\w+\s+)?{_RESOLVE}|"
    rf"\bstill\s+(?:{_NOT}\s+)?(?:unhappy|happy|dissatisfied|satisfied|unresolved)|"
    rf"\b{_NOT}\s+(?:happy|satisfied)\s+with\s+(?:the|their|your|its|how)\b",
    re.IGNORECASE,
)
# "If you are still unhappy", "If you remain dissatisfied", "If this does not resolve ...",
# "If the matter is not resolved": the sentence of the next step.
_ESCALATES = re.compile(
    r"^\W*(?:\d+(?:\.\d+)*\s+)?if\s+(?:"
    r"(?:you|they)(?:\s+(?:are|were)|'re)?\s+(?:still|remain)\s+"
    r"(?:unhappy|dissatisfied|not\s+(?:happy|satisfied))|"
    r"(?:this|that|it|the\s+\w+)\s+(?:does\s+not|doesn't|fails\s+to)\s+(?:resolve|settle|sort)|"
    r"(?:this|that|it|the\s+\w+|your\s+\w+)\s+(?:(?:is|has|was)(?:\s+still)?\s+not|isn't|hasn't)"
    r"(?:\s+been)?\s+(?:resolved|settled|sorted)|"
    r"(?:you\s+)?(?:still\s+)?(?:cannot|can't)\s+(?:resolve|settle|sort)"
    r")",
    re.IGNORECASE,
)


def asks_past_first_step(question: str) -> bool:
    """Whether `question` asks about the case where a first step did not work."""
    return bool(_PAST_FIRST_STEP.search(question))


def escalates(sentence: str) -> bool:
    """Whether `sentence` opens on the case where the step before it did not work."""
    return bool(_ESCALATES.match(sentence))
