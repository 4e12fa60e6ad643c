"""Moved to `ragcite.llm.complete`; this re-export lasts until pipeline.py imports from there."""

from ragcite.llm.complete import Completion, LazyCompletion, build_completion

__all__ = ["Completion", "LazyCompletion", "build_completion"]
