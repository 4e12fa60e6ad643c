"""Does the cited evidence support the claim? The gate's support step (offline).

>>> from ragcite.embed.minilm import MiniLMEmbedder
>>> checker = default_support_checker(MiniLMEmbedder())
>>> checker.check("The warranty lasts 7 years.", ["The warranty lasts 3 years."]).verdict
<SupportVerdict.CONTRADICTED: 'contradicted'>
"""

from ragcite.verify.support.checker import (
    LayeredSupportChecker,
    SupportChecker,
    SupportResult,
)
from ragcite.verify.support.factory import build_support_checker, default_support_checker
from ragcite.verify.support.llm_judge import JudgedSupportChecker

__all__ = [
    "JudgedSupportChecker",
    "LayeredSupportChecker",
    "SupportChecker",
    "SupportResult",
    "build_support_checker",
    "default_support_checker",
]
