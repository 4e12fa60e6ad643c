"""The answer cache end to end: `Ragcite.ask` over a real store and embedder, with the
cache in the store's own table (SQLite, PostgreSQL) or in a real Redis server."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ragcite.config import load_settings
from ragcite.models import CitedResponse
from ragcite.pipeline import Ragcite

LEAVE = "Employees receive 25 days of paid annual leave each calendar year."
SALARY = "The salary review takes place every March for all permanent staff."
QUESTION = "How many days of annual leave do employees receive?"
SALARY_QUESTION = "When does the salary review take place?"

OpenRag = Callable[..., Ragcite]


def _write(folder: Path, name: str, title: str, text: str, access: str = "") -> Path:
    front = f"---\ntitle: {title}\ndocument_id: {name}\n" + (
        f"access: [{access}]\n" if access else ""
    )
    path = folder / f"{name}.md"
    path.write_text(f"{front}---\n\n# {title}\n\n{text}\n", encoding="utf-8")
    return path


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    _write(folder, "leave", "Leave Policy", LEAVE)
    _write(folder, "salary", "Salary Reviews", SALARY, access="finance")
    return folder


@pytest.fixture(params=["sqlite", "postgres", "redis"])
def open_rag(request: pytest.FixtureRequest, tmp_path: Path, corpus: Path) -> Iterator[OpenRag]:
    """Opens the pipeline as a user would (settings, composition root), corpus ingested."""
    store: str = str(tmp_path / "store.db")
    overrides: dict[str, object] = {}
    if request.param == "postgres":
        store = request.getfixturevalue("postgres_url")
    if request.param == "redis":
        overrides["cache.url"] = request.getfixturevalue("redis_url")
    opened: list[Ragcite] = []

    def open_(**more: object) -> Ragcite:
        rag = Ragcite.open(load_settings(store=store, overrides={**overrides, **more}))
        if not opened:
            assert not rag.ingest([corpus]).failed
        opened.append(rag)
        return rag

    yield open_
    for rag in opened:
        rag.close()


def cached(response: CitedResponse) -> bool:
    flagged = any(f.code == "cached_answer" for f in response.warning_flags)
    assert flagged == (response.cached_at is not None) == (response.cache_age_s is not None)
    return flagged


def test_a_repeated_question_is_answered_from_the_cache(open_rag: OpenRag) -> None:
    rag = open_rag()
    first = rag.ask(QUESTION)
    assert first.answerable and "25 days" in first.answer_text and not cached(first)
    second = rag.ask(QUESTION)
    assert cached(second)
    assert second.answer_text == first.answer_text
    assert second.cited_claims == first.cited_claims
    assert second.corpus_version == first.corpus_version
    assert second.cached_at is not None and second.cache_age_s is not None
    assert abs((second.cached_at - first.retrieval_timestamp).total_seconds()) < 60
    assert 0 <= second.cache_age_s < 60
    assert set(second.timings_ms) == {"cache", "total"}
    notice = next(f for f in second.warning_flags if f.code == "cached_answer")
    assert "ago" in notice.message and second.cached_at.isoformat()[:16] in notice.message
    variant = rag.ask("  how many DAYS of annual leave\n do employees receive?  ")
    assert cached(variant) and variant.query.startswith("how many DAYS")
    assert not cached(rag.ask(QUESTION, k=3))  # another request, another answer
    assert not cached(rag.ask_traced(QUESTION).response)  # the trace is always computed now


def test_ingest_and_delete_move_the_corpus_version(open_rag: OpenRag, tmp_path: Path) -> None:
    rag = open_rag()
    first = rag.ask(QUESTION)
    assert cached(rag.ask(QUESTION))
    extra = tmp_path / "more"
    extra.mkdir()
    _write(extra, "leave", "Leave Policy", LEAVE.replace("25 days", "30 days"))
    assert rag.ingest([extra]).added == 1  # a new version of the leave policy
    after_ingest = rag.ask(QUESTION)
    assert not cached(after_ingest) and after_ingest.corpus_version != first.corpus_version
    assert "30 days" in after_ingest.answer_text and "25 days" not in after_ingest.answer_text
    assert cached(rag.ask(QUESTION))
    rag.store.delete_document("leave")
    after_delete = rag.ask(QUESTION)
    assert not cached(after_delete) and "30 days" not in after_delete.answer_text


def test_readers_never_share_answers_across_access_scopes(open_rag: OpenRag) -> None:
    rag = open_rag()
    finance = rag.filters(access_groups=("finance",))
    engineering = rag.filters(access_groups=("eng",))
    answered = rag.ask(SALARY_QUESTION, filters=finance)
    assert answered.answerable and "March" in answered.answer_text
    assert cached(rag.ask(SALARY_QUESTION, filters=rag.filters(access_groups=("finance",))))
    other = rag.ask(SALARY_QUESTION, filters=engineering)
    assert not cached(other)
    assert "March" not in other.answer_text
    assert all(c.document_id != "salary" for c in other.source_chunks)
    assert not cached(rag.ask(SALARY_QUESTION))  # the admin scope is its own too


def test_answers_expire_after_the_ttl(open_rag: OpenRag) -> None:
    rag = open_rag(**{"cache.ttl_s": 0.5})
    rag.ask(QUESTION)
    assert cached(rag.ask(QUESTION))
    time.sleep(0.7)
    assert not cached(rag.ask(QUESTION))


def test_a_disabled_cache_is_never_used(open_rag: OpenRag) -> None:
    rag = open_rag(**{"cache.enabled": False})
    assert rag.answer_cache is None
    rag.ask(QUESTION)
    assert not cached(rag.ask(QUESTION))


def test_a_down_redis_answers_uncached(tmp_path: Path, corpus: Path) -> None:
    settings = load_settings(
        store=tmp_path / "s.db", overrides={"cache.url": "redis://127.0.0.1:1/0"}
    )
    rag = Ragcite.open(settings)
    rag.ingest([corpus])
    for _ in range(2):
        response = rag.ask(QUESTION)
        assert response.answerable and not cached(response)
    rag.close()


def test_cache_clear_command(tmp_path: Path, corpus: Path) -> None:
    from .cli.test_cli import run

    store = tmp_path / "cli.db"
    assert run("ingest", str(corpus), store=store)[0] == 0
    assert run("ask", QUESTION, store=store)[0] == 0
    code, out = run("ask", "--json", QUESTION, store=store)
    assert code == 0 and '"cache_age_s": null' not in out
    assert run("cache", "clear", store=store) == (0, "1 cached answer(s) removed\n")
    code, out = run("ask", "--json", QUESTION, store=store)
    assert code == 0 and '"cache_age_s": null' in out
