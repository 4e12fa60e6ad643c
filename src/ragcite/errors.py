"""The ragcite error tree. Every error a user can cause is one of these.

    RagciteError                  base; the CLI prints it and exits 1, the API answers 4xx/5xx
    ├── ConfigError               a setting is invalid or missing (names the setting and the fix)
    ├── InputError                a user input is unusable: empty question, malformed JSON, ...
    ├── IngestError               a file could not be ingested (names the file and the problem)
    │   ├── UnsupportedFormatError  no loader for the file's extension
    │   ├── IngestLimitError       the file is over a limit (size, unpacked size, pages, time)
    │   └── DocumentConflictError  the file would replace a document it does not name
    ├── StoreError                the store could not be opened, read or written
    │   └── NotFoundError          a document or chunk ID that the store does not hold
    ├── ModelError                a packaged model is missing or failed to load / run
    └── GenerationError           a generator (LLM) failed or returned nothing usable
        └── UnusableOutputError    the model answered, but nothing in it can be read

Messages name the offending input and say what to do; they never carry a traceback.
"""

from __future__ import annotations


class RagciteError(Exception):
    """Base class of every error ragcite raises on purpose."""


class ConfigError(RagciteError):
    """A setting is invalid or missing."""


class InputError(RagciteError):
    """A user input is unusable (empty question, malformed JSON, bad argument)."""


class IngestError(RagciteError):
    """A file could not be ingested; the message names the file and the problem."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class UnsupportedFormatError(IngestError):
    """The file's extension has no loader."""


class IngestLimitError(IngestError):
    """The file is over one of the `ingest.*` limits; nothing of it was stored."""


class DocumentConflictError(IngestError):
    """The file's derived document ID belongs to a document from another source.

    A file replaces a document only when it declares that `document_id` or is a re-ingest
    of the same source; the message names both and how to declare the ID.
    """


class StoreError(RagciteError):
    """The store could not be opened, read or written."""


class NotFoundError(StoreError):
    """A document or chunk ID that the store does not hold."""


class ModelError(RagciteError):
    """A packaged model is missing or failed to load or run."""


class GenerationError(RagciteError):
    """A generator failed or returned nothing usable."""


class UnusableOutputError(GenerationError):
    """The model answered, but not with anything that can be read as a draft answer.

    The ladder treats this as a failed attempt (retry, then degrade) rather than an
    error for the user, unlike an unreachable server or a rejected key.
    """


def missing_extra(package: str, extra: str) -> ConfigError:
    """The error for an optional dependency that is not installed."""
    return ConfigError(
        f"this feature needs the '{package}' package: install it with "
        f"pip install 'ragcite[{extra}]'"
    )
