"""The backend registry: spec parsing and entry-point lookup errors."""

from __future__ import annotations

import pytest

from ragcite.errors import ConfigError
from ragcite.registry import GENERATORS, find_builder, parse_spec, parse_store_url


def test_parse_spec_splits_name_and_rest() -> None:
    spec = parse_spec(" OpenAI-Compatible:http://127.0.0.1:8080/v1#qwen ")
    assert spec.name == "openai-compatible"
    assert spec.rest == "http://127.0.0.1:8080/v1#qwen"
    assert parse_spec("learned").rest == ""


@pytest.mark.parametrize(
    ("text", "name", "rest"),
    [
        ("data/kb.db", "sqlite", "data/kb.db"),
        ("sqlite:///tmp/kb.db", "sqlite", "/tmp/kb.db"),
        ("sqlite://rel/kb.db", "sqlite", "rel/kb.db"),
        ("postgresql://rag@db:5432/kb", "postgresql", "postgresql://rag@db:5432/kb"),
        ("postgresql+psycopg://rag@db/kb", "postgresql", "postgresql+psycopg://rag@db/kb"),
        ("C:/Users/me/kb.db", "sqlite", "C:/Users/me/kb.db"),
    ],
)
def test_parse_store_url(text: str, name: str, rest: str) -> None:
    spec = parse_store_url(text)
    assert (spec.name, spec.rest) == (name, rest)


def test_unknown_backend_names_the_installed_ones() -> None:
    with pytest.raises(ConfigError, match=r"no generator backend named 'nosuch'"):
        find_builder(GENERATORS, parse_spec("nosuch:model"))
