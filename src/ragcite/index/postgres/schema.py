"""Named, ordered, append-only migrations of the PostgreSQL store, recorded in the database.

Every applied migration is a row of `ragcite_migrations`; `migrate` applies the missing
ones in order, in one transaction (all of them or none), under an advisory lock so two
processes opening a new store at once do not both create it. A database that records a migration
this ragcite does not know was written by a newer ragcite: it is refused, never guessed at.
Never edit a migration that shipped: add a new one.

Every name starts with `ragcite_`, so the store can share a database (or, with
`?options=-csearch_path%3Dkb` in the URL, live in its own schema).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql

from ragcite.errors import StoreError

MIGRATION_LOCK = 0x72616763  # "ragc": the advisory lock held while migrating

TEXT_SEARCH_CONFIG = "ragcite_english"
"""English stemming (Snowball) without a stopword list, like FTS5's `porter unicode61`:
a question made only of stopwords ("what is it") still finds the chunks that say them."""


M001_CREATE_TABLES = """
CREATE TABLE ragcite_meta (
    key TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
INSERT INTO ragcite_meta (key, value) VALUES ('generation', 0);

CREATE TABLE ragcite_documents (
    document_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    corpus TEXT NOT NULL,
    title TEXT NOT NULL,
    url TEXT,
    source_uri TEXT NOT NULL,
    content_sha256 TEXT NOT NULL,
    effective_date DATE,
    ingested_at TIMESTAMPTZ NOT NULL,
    last_verified TIMESTAMPTZ,
    status TEXT NOT NULL,
    superseded_by INTEGER,
    access TEXT[] NOT NULL DEFAULT '{{}}',
    extracted_text TEXT NOT NULL,
    pages JSONB NOT NULL DEFAULT '[]',
    PRIMARY KEY (document_id, version)
);
CREATE INDEX ragcite_documents_sha ON ragcite_documents (document_id, content_sha256);
CREATE INDEX ragcite_documents_corpus ON ragcite_documents (corpus, status);

CREATE TABLE ragcite_chunks (
    id BIGSERIAL PRIMARY KEY,
    chunk_id TEXT NOT NULL UNIQUE,
    document_id TEXT NOT NULL,
    document_version INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    page_number INTEGER,
    section_heading TEXT,
    chunk_text TEXT NOT NULL,
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL,
    embedding vector({dimension}) NOT NULL,
    search tsvector NOT NULL,
    FOREIGN KEY (document_id, document_version)
        REFERENCES ragcite_documents (document_id, version) ON DELETE CASCADE
);
CREATE INDEX ragcite_chunks_document
    ON ragcite_chunks (document_id, document_version, ordinal);

CREATE TABLE ragcite_feedback (
    id BIGSERIAL PRIMARY KEY,
    created_at TIMESTAMPTZ NOT NULL,
    query TEXT NOT NULL,
    rating TEXT NOT NULL,
    chunk_id TEXT,
    claim_text TEXT,
    comment TEXT,
    response_json TEXT
);
"""
"""The tables, the vector column sized by `{dimension}` (`{{}}` is an empty array)."""


def _m001_create_tables(dimension: int) -> sql.Composed | sql.SQL:
    return sql.SQL(M001_CREATE_TABLES).format(dimension=sql.Literal(dimension))


def _m002_text_search(dimension: int) -> sql.Composed | sql.SQL:
    return sql.SQL(
        """
        CREATE TEXT SEARCH DICTIONARY ragcite_english_stem
            (TEMPLATE = snowball, LANGUAGE = english);
        CREATE TEXT SEARCH CONFIGURATION {config} (COPY = english);
        ALTER TEXT SEARCH CONFIGURATION {config}
            ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part
            WITH ragcite_english_stem;
        CREATE INDEX ragcite_chunks_search ON ragcite_chunks USING gin (search);
        """
    ).format(config=sql.Identifier(TEXT_SEARCH_CONFIG))


def _m003_hnsw_index(dimension: int) -> sql.Composed | sql.SQL:
    # m = 16, ef_construction = 64 are pgvector's defaults, written out so they are seen.
    return sql.SQL(
        "CREATE INDEX ragcite_chunks_embedding ON ragcite_chunks "
        "USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)"
    )


def _m004_api_keys(dimension: int) -> sql.Composed | sql.SQL:
    # Only each token's SHA-256 is kept (index/keys.py); one active key per name.
    return sql.SQL(
        """
        CREATE TABLE ragcite_api_keys (
            id BIGSERIAL PRIMARY KEY,
            name TEXT NOT NULL,
            key_hash TEXT NOT NULL UNIQUE,
            groups TEXT[] NOT NULL DEFAULT '{}',
            admin BOOLEAN NOT NULL DEFAULT FALSE,
            created_at TIMESTAMPTZ NOT NULL,
            revoked_at TIMESTAMPTZ
        );
        CREATE UNIQUE INDEX ragcite_api_keys_active_name
            ON ragcite_api_keys (name) WHERE revoked_at IS NULL;
        """
    )


def _m010_answer_cache(dimension: int) -> sql.Composed | sql.SQL:
    # The answer cache (postgres/cache.py): each answer with its corpus version and expiry.
    return sql.SQL(
        """
        CREATE TABLE ragcite_answer_cache (
            key TEXT PRIMARY KEY,
            corpus_version TEXT NOT NULL,
            created_at TIMESTAMPTZ NOT NULL,
            expires_at TIMESTAMPTZ NOT NULL,
            response_json TEXT NOT NULL
        );
        CREATE INDEX ragcite_answer_cache_expiry ON ragcite_answer_cache (expires_at);
        """
    )


def _m020_feedback_key_name(dimension: int) -> sql.Composed | sql.SQL:
    # Who gave each piece of feedback: the API key's name, or "cli" (NULL: given before).
    return sql.SQL("ALTER TABLE ragcite_feedback ADD COLUMN key_name TEXT")


def _m021_saved_answers(dimension: int) -> sql.Composed | sql.SQL:
    # Saved answers with the document versions they show (`groups` NULL: an admin's), and
    # the tombstones of erased documents (index/answers.py).
    return sql.SQL(
        """
        CREATE TABLE ragcite_saved_answers (
            answer_id TEXT PRIMARY KEY,
            created_at TIMESTAMPTZ NOT NULL,
            query TEXT NOT NULL,
            response_json TEXT NOT NULL,
            chunk_ids TEXT[] NOT NULL DEFAULT '{}',
            key_name TEXT NOT NULL,
            groups TEXT[]
        );
        CREATE INDEX ragcite_saved_answers_created ON ragcite_saved_answers (created_at);
        CREATE TABLE ragcite_saved_answer_sources (
            answer_id TEXT NOT NULL
                REFERENCES ragcite_saved_answers (answer_id) ON DELETE CASCADE,
            document_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            erased BOOLEAN NOT NULL DEFAULT FALSE,
            PRIMARY KEY (answer_id, document_id, version)
        );
        CREATE INDEX ragcite_saved_answer_sources_document
            ON ragcite_saved_answer_sources (document_id);
        CREATE TABLE ragcite_tombstones (
            document_id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            erased_at TIMESTAMPTZ NOT NULL,
            erased_by TEXT NOT NULL
        );
        """
    )


def _m030_corpus_access(dimension: int) -> sql.Composed | sql.SQL:
    # Corpus access groups (postgres/corpus_access.py), applied in every query (filters.py).
    return sql.SQL(
        """
        CREATE TABLE ragcite_corpus_access (
            corpus TEXT PRIMARY KEY,
            groups TEXT[] NOT NULL DEFAULT '{}',
            updated_at TIMESTAMPTZ NOT NULL
        );
        """
    )


def _m040_sentence_vectors(dimension: int) -> sql.Composed | sql.SQL:
    # Each chunk's sentence vectors from ingest (index/sentence_vectors.py); NULL for older
    # chunks, whose sentences are embedded at ask time as they were.
    return sql.SQL("ALTER TABLE ragcite_chunks ADD COLUMN sentence_vectors BYTEA;")


def _m050_version_names(dimension: int) -> sql.Composed | sql.SQL:
    # Free-text version names ("2024-Q3", "Rev B"), shown in the version label; NULL: a
    # version known by its number only.
    return sql.SQL("ALTER TABLE ragcite_documents ADD COLUMN version_name TEXT;")


MIGRATIONS: list[tuple[str, Callable[[int], sql.Composed | sql.SQL]]] = [
    ("m001_create_tables", _m001_create_tables),
    ("m002_text_search", _m002_text_search),
    ("m003_hnsw_index", _m003_hnsw_index),
    ("m004_api_keys", _m004_api_keys),
    ("m010_answer_cache", _m010_answer_cache),
    ("m020_feedback_key_name", _m020_feedback_key_name),
    ("m021_saved_answers", _m021_saved_answers),
    ("m030_corpus_access", _m030_corpus_access),
    ("m040_sentence_vectors", _m040_sentence_vectors),
    ("m050_version_names", _m050_version_names),
]


def migrate(conn: psycopg.Connection[Any], dimension: int | None, where: str) -> list[str]:
    """Apply the migrations the database lacks, in order; return their names.

    `conn` is in autocommit mode; `where` names the store in messages (no password).
    `dimension` sizes the vector column when the tables are created.
    """
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute("SET LOCAL statement_timeout = 0")  # a migration may build an index
        conn.execute(
            "CREATE TABLE IF NOT EXISTS ragcite_migrations "
            "(name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        done = {row[0] for row in conn.execute("SELECT name FROM ragcite_migrations")}
        known = [name for name, _ in MIGRATIONS]
        unknown = sorted(done - set(known))
        if unknown:
            raise StoreError(
                f"{where}: the store was created by a newer ragcite (it records migration "
                f"{', '.join(unknown)}, unknown to this one); upgrade ragcite to open it"
            )
        missing = [(name, build) for name, build in MIGRATIONS if name not in done]
        if missing and "m001_create_tables" not in done and dimension is None:
            raise StoreError(
                f"{where}: no ragcite store here yet, and no vector dimension to create one "
                "with; open it with the embedder's dimension"
            )
        for name, build in missing:
            conn.execute(build(dimension or 0))
            conn.execute("INSERT INTO ragcite_migrations (name) VALUES (%s)", (name,))
    return [name for name, _ in missing]
