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

M020_FEEDBACK_KEY_NAME = """
ALTER TABLE feedback ADD COLUMN key_name TEXT;
"""
"""Who gave each piece of feedback: the API key's name, or "cli" (NULL: given before)."""

M021_SAVED_ANSWERS = """
CREATE TABLE saved_answers (
    answer_id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    query TEXT NOT NULL,
    response_json TEXT NOT NULL,
    chunk_ids TEXT NOT NULL DEFAULT '[]',
    key_name TEXT NOT NULL,
    groups TEXT
);
CREATE INDEX saved_answers_created ON saved_answers (created_at);
CREATE TABLE saved_answer_sources (
    answer_id TEXT NOT NULL REFERENCES saved_answers (answer_id) ON DELETE CASCADE,
    document_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    erased INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (answer_id, document_id, version)
);
CREATE INDEX saved_answer_sources_document ON saved_answer_sources (document_id);
CREATE TABLE tombstones (
    document_id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    erased_at TEXT NOT NULL,
    erased_by TEXT NOT NULL
);
"""
"""Saved answers with the document versions they show (`groups` NULL: an admin's), and
the tombstones of erased documents (index/answers.py)."""

M030_CORPUS_ACCESS = """
CREATE TABLE corpus_access (
    corpus TEXT PRIMARY KEY,
    groups TEXT NOT NULL DEFAULT '[]',
    updated_at TEXT NOT NULL
);
"""
"""Corpus access groups (index/corpus_access.py), applied in every query with the
documents' own groups (sqlite_filters.py)."""
M040_SENTENCE_VECTORS = """
ALTER TABLE chunks ADD COLUMN sentence_vectors BLOB;
"""
"""Each chunk's sentence vectors, computed at ingest (index/sentence_vectors.py); NULL for
chunks stored before, whose sentences are embedded at ask time as they were."""

M050_VERSION_NAMES = """
ALTER TABLE documents ADD COLUMN version_name TEXT;
"""
"""Free-text version names ("2024-Q3", "Rev B"), shown in the version label; NULL: a
version known by its number only."""

M060_CHUNK_REMOVALS = """
CREATE TABLE chunk_removals (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    chunk_rowid INTEGER NOT NULL
);
CREATE TRIGGER chunk_removals_delete AFTER DELETE ON chunks BEGIN
    INSERT INTO chunk_removals (chunk_rowid) VALUES (old.rowid);
END;
CREATE TRIGGER chunk_removals_update AFTER UPDATE OF rowid, vector ON chunks
WHEN old.rowid IS NOT new.rowid OR old.vector IS NOT new.vector BEGIN
    INSERT INTO chunk_removals (chunk_rowid) VALUES (old.rowid);
    INSERT INTO chunk_removals (chunk_rowid) VALUES (new.rowid);
END;
INSERT OR IGNORE INTO meta (key, value) VALUES ('store_id', lower(hex(randomblob(16))));
"""
"""Every chunk row removed or whose vector changed, in order (`seq`), so the dense index
beside the store catches up with the rows instead of being rebuilt (sqlite_vectors.py); a
changed row is logged as removed and is then read again. `store_id` tells this store's
index files from those of a copy or another store."""

MIGRATIONS: list[tuple[str, str]] = [
    ("m001_create_tables", M001_CREATE_TABLES),
    ("m002_api_keys", M002_API_KEYS),
    ("m010_answer_cache", M010_ANSWER_CACHE),
    ("m020_feedback_key_name", M020_FEEDBACK_KEY_NAME),
    ("m021_saved_answers", M021_SAVED_ANSWERS),
    ("m030_corpus_access", M030_CORPUS_ACCESS),
    ("m040_sentence_vectors", M040_SENTENCE_VECTORS),
    ("m050_version_names", M050_VERSION_NAMES),
    ("m060_chunk_removals", M060_CHUNK_REMOVALS),
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
