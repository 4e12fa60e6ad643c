"""Named, append-only migrations of the embedded store.

Never edit a migration that shipped: add a new one.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

M001_CREATE_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta (key, value) VALUES ('generation', '0');

        CREATE TABLE documents (
            document_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            corpus TEXT NOT NULL,
            title TEXT NOT NULL,
            url TEXT,
            source_uri TEXT NOT NULL,
            content_sha256 TEXT NOT NULL,
            effective_date TEXT,
            ingested_at TEXT NOT NULL,
            last_verified TEXT,
            status TEXT NOT NULL,
            superseded_by INTEGER,
            access TEXT NOT NULL DEFAULT '[]',
            extracted_text TEXT NOT NULL,
            pages TEXT NOT NULL DEFAULT '[]',
            PRIMARY KEY (document_id, version)
        );
        CREATE INDEX documents_sha ON documents (document_id, content_sha256);

        CREATE TABLE chunks (
            rowid INTEGER PRIMARY KEY,
            chunk_id TEXT NOT NULL UNIQUE,
            document_id TEXT NOT NULL,
            document_version INTEGER NOT NULL,
            ordinal INTEGER NOT NULL,
            page_number INTEGER,
            section_heading TEXT,
            chunk_text TEXT NOT NULL,
            char_start INTEGER NOT NULL,
            char_end INTEGER NOT NULL,
            vector BLOB NOT NULL,
            FOREIGN KEY (document_id, document_version)
                REFERENCES documents (document_id, version) ON DELETE CASCADE
        );
        CREATE INDEX chunks_document ON chunks (document_id, document_version, ordinal);

        CREATE VIRTUAL TABLE chunks_fts USING fts5(
            chunk_text, section_heading, title,
            content='', tokenize='porter unicode61'
        );

        CREATE TABLE feedback (
            id INTEGER PRIMARY KEY,
            created_at TEXT NOT NULL,
            query TEXT NOT NULL,
            rating TEXT NOT NULL,
            chunk_id TEXT,
            claim_text TEXT,
            comment TEXT,
            response_json TEXT
        );

        CREATE TABLE answer_cache (
            key TEXT PRIMARY KEY,
            created_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            response_json TEXT NOT NULL
        );
"""

M002_API_KEYS = """
CREATE TABLE api_keys (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    groups TEXT NOT NULL DEFAULT '[]',
    admin INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE UNIQUE INDEX api_keys_active_name ON api_keys (name) WHERE revoked_at IS NULL;
"""
"""API keys (index/keys.py): only each token's SHA-256 is kept; one active key per name."""

M010_ANSWER_CACHE = """
DROP TABLE IF EXISTS answer_cache;
CREATE TABLE answer_cache (
    key TEXT PRIMARY KEY,
    corpus_version TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    response_json TEXT NOT NULL
);
CREATE INDEX answer_cache_expiry ON answer_cache (expires_at);
"""
"""The answer cache (index/sqlite_cache.py). m001's table was never written to; this one
also records each answer's corpus version, so answers of older versions can be dropped."""

M040_SENTENCE_VECTORS = """
ALTER TABLE chunks ADD COLUMN sentence_vectors BLOB;
"""
"""Each chunk's sentence vectors, computed at ingest (index/sentence_vectors.py); NULL for
chunks stored before, whose sentences are embedded at ask time as they were."""

MIGRATIONS: list[tuple[str, str]] = [
    ("m001_create_tables", M001_CREATE_TABLES),
    ("m002_api_keys", M002_API_KEYS),
    ("m010_answer_cache", M010_ANSWER_CACHE),
    ("m040_sentence_vectors", M040_SENTENCE_VECTORS),
]


def migrate(db: sqlite3.Connection) -> list[str]:
    """Apply the migrations the database lacks, each in one transaction; return their names.

    The connection must be in autocommit mode (isolation_level=None).
    """
    db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
    done = {row[0] for row in db.execute("SELECT name FROM migrations")}
    applied = []
    for name, sql in MIGRATIONS:
        if name in done:
            continue
        stamp = datetime.now(UTC).isoformat()
        # One script, one transaction: a crash leaves the migration either whole or absent.
        db.executescript(
            f"BEGIN IMMEDIATE;\n{sql}\n"
            f"INSERT INTO migrations (name, applied_at) VALUES ('{name}', '{stamp}');\nCOMMIT;"
        )
        applied.append(name)
    return applied
