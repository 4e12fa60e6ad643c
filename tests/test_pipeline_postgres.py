"""ask() end to end over the PostgreSQL store: the demo corpus ingested with the real
embedder into a real PostgreSQL + pgvector server, questions answered with verified
quotes, the same answers and documents as over the embedded store."""

from __future__ import annotations

from ragcite.config import load_settings
from ragcite.models import QuoteStatus
from ragcite.pipeline import Ragcite

from .conftest import DEMO

QUESTIONS: list[tuple[str, str]] = [
    ("How long do we keep customer PII, and does the EU differ from the US?", "12 months"),
    ("How long are system backups kept?", "35 days"),  # the current version, not 90 days
]


def _postgres_rag(url: str) -> Ragcite:
    """The default offline stack over a PostgreSQL store, opened as a user would: by the
    store URL in the settings (the composition root finds the `postgresql` backend)."""
    return Ragcite.open(load_settings(store=url))


def test_ingest_and_ask_over_postgres(postgres_url: str, demo_rag: Ragcite) -> None:
    rag = _postgres_rag(postgres_url)
    assert type(rag.store).__name__ == "PostgresStore"
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
