"""ask() end to end over the PostgreSQL store: the demo corpus ingested with the real
embedder into a real PostgreSQL + pgvector server, questions answered with verified
quotes, the same answers and documents as over the embedded store."""

from __future__ import annotations

from pathlib import Path

from ragcite.compose import with_support_judge
from ragcite.config import load_settings
from ragcite.embed.cached import CachedEmbedder
from ragcite.index.postgres import open_postgres_store
from ragcite.models import QuoteStatus
from ragcite.pipeline import Ragcite
from ragcite.registry import parse_store_url
from ragcite.score.calibration import optional_calibration
from ragcite.verify.support import default_support_checker

from .conftest import DEMO

QUESTIONS: list[tuple[str, str]] = [
    ("How long do we keep customer PII, and does the EU differ from the US?", "12 months"),
    ("How long are system backups kept?", "35 days"),  # the current version, not 90 days
]


def _postgres_rag(url: str, embedder: CachedEmbedder, tmp_path: Path) -> Ragcite:
    """The default offline stack (as `Ragcite.open` builds it) over a PostgreSQL store."""
    settings = load_settings(store_path=tmp_path / "unused.db")
    store = open_postgres_store(parse_store_url(url), dimension=embedder.dimension)
    checker = default_support_checker(embedder, semantic=settings.gate.support_semantic)
    return Ragcite(
        settings,
        store=store,
        embedder=embedder,
        support_checker=with_support_judge(checker, settings.gate, settings.generate),
        calibration=optional_calibration(settings.score.calibration_path),
    )


def test_ingest_and_ask_over_postgres(
    postgres_url: str, embedder: CachedEmbedder, demo_rag: Ragcite, tmp_path: Path
) -> None:
    rag = _postgres_rag(postgres_url, embedder, tmp_path)
    report = rag.ingest([DEMO])
    assert not report.failed and report.added > 0
    again = rag.ingest([DEMO])
    assert (again.added, again.unchanged) == (0, report.added)  # idempotent, as embedded
    counts, embedded = rag.store.counts(), demo_rag.store.counts()
    assert (counts.documents, counts.versions, counts.chunks) == (
        embedded.documents,
        embedded.versions,
        embedded.chunks,
    )
    for question, words in QUESTIONS:
        response = rag.ask(question)
        assert response.answerable, question
        assert words in response.answer_text and "90 days" not in response.answer_text
        assert response.cited_claims
        for claim in response.cited_claims:
            assert claim.verified
            for citation in claim.citations:
                chunk = response.chunk(citation.chunk_id)
                assert chunk is not None and citation.quote_status is QuoteStatus.EXACT
                assert chunk.chunk_text[citation.quote_start : citation.quote_end] == (
                    citation.quote
                )
        reference = demo_rag.ask(question)
        assert {c.document_id for c in response.source_chunks} == {
            c.document_id for c in reference.source_chunks
        }
        assert response.answer_text == reference.answer_text  # same corpus, same answer
    rag.close()
