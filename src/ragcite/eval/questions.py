"""The labelled question set: one JSON object per line (see `eval/demo.jsonl`).

    {"id": "q01", "query": "How long do we keep customer PII?", "answerable": true,
     "expected_document_id": "data-retention-policy", "expected_version": 2,
     "expected_chunk_text": "Customer personal data (PII) ... three (3) years ...",
     "expected_answer": "Three years after account closure.", "expected_page": null}

Only `query` is required; `answerable` defaults to true when an expected document or
chunk text is given. Retrieval needs `expected_document_id` or `expected_chunk_text`.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from ragcite.errors import InputError


class LabelledQuestion(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    id: str = ""
    query: str
    answerable: bool = True
    expected_document_id: str | None = None
    expected_version: int | None = None
    expected_chunk_text: str | None = None
    expected_answer: str | None = None
    expected_page: int | None = None

    @model_validator(mode="after")
    def _answerable_has_target(self) -> LabelledQuestion:
        if self.answerable and not (self.expected_document_id or self.expected_chunk_text):
            raise ValueError(
                "an answerable question needs expected_document_id or expected_chunk_text"
            )
        return self


def load_questions(path: Path) -> list[LabelledQuestion]:
    """Every question of a JSONL file; a bad line is an InputError naming the line."""
    if not path.is_file():
        raise InputError(f"{path}: labelled question file not found")
    questions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if "id" not in data:
                data["id"] = f"line{number}"
            questions.append(LabelledQuestion.model_validate(data))
        except (json.JSONDecodeError, ValidationError) as exc:
            raise InputError(f"{path}:{number}: not a labelled question ({exc})") from None
    if not questions:
        raise InputError(f"{path}: no questions in the file")
    return questions
