"""Keyword search for the embedded store: FTS5 BM25 over the question's telling words.

An FTS5 OR query scores every row that holds any of its words, so a question with a
common word ("film", "year") makes BM25 rank tens of thousands of rows in a large store
(807 ms per question at 100k chunks before this). The words that more than
`keyword_query.COMMON_SHARE` of the chunks hold (and more than `COMMON_FLOOR` of them, so
a small corpus still searches every word) are left out of the query while a rarer word
remains: they carry little BM25 weight and cost the most to score. How many rows hold a
word comes from FTS5's own vocabulary (`fts5vocab`), through FTS5's own stemmer (a temp
FTS5 table of the question's words), and is kept per store generation.
"""

from __future__ import annotations

from ragcite.index.keyword_query import (
    COMMON_FLOOR,
    common_cutoff,
    fts_match,
    keyword_words,
    telling_words,
)
from ragcite.index.sqlite_db import SQLiteDatabase
from ragcite.index.sqlite_filters import filter_sql
from ragcite.index.store import SearchFilters

_TEMP_TABLES = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.ragcite_question USING fts5("
    "word, tokenize='porter unicode61')",
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.ragcite_question_terms USING fts5vocab("
    "temp, ragcite_question, instance)",
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.ragcite_chunk_terms USING fts5vocab("
    "main, chunks_fts, row)",
)


class KeywordIndex:
    """BM25 over `chunks_fts`, with how many rows hold each word cached per generation."""

    def __init__(self, db: SQLiteDatabase) -> None:
        self._db = db
        self.generation = -1
        self.rows = 0
        self._holding: dict[str, int] = {}
        self._ready = False

    def search(self, query: str, k: int, filters: SearchFilters) -> list[tuple[int, float]]:
        """(rowid, BM25 score) pairs of the eligible chunks, best first."""
        words = keyword_words(query)
        if not words:
            return []
        where, args = filter_sql(filters)
        with self._db.lock:
            words = self._telling(words)
            rows = self._db.query(
                "SELECT f.rowid, -bm25(chunks_fts, 1.0, 0.5, 0.3) AS score FROM chunks_fts f "
                "JOIN chunks c ON c.rowid = f.rowid JOIN documents d "
                "ON d.document_id = c.document_id AND d.version = c.document_version "
                f"WHERE chunks_fts MATCH ? AND {where} ORDER BY score DESC LIMIT ?",
                (fts_match(words), *args, k),
            )
        return [(int(r[0]), float(r[1])) for r in rows]

    def _telling(self, words: list[str]) -> list[str]:
        generation = self._db.generation()
        if generation != self.generation:
            count = self._db.query_one("SELECT COUNT(*) FROM chunks")
            self.rows = int(count[0]) if count else 0
            self._holding.clear()
            self.generation = generation
        if self.rows <= COMMON_FLOOR:
            return words  # no word can be common
        missing = [w for w in words if w not in self._holding]
        if missing:
            self._holding.update(self._rows_holding(missing))
        return telling_words(words, self._holding, common_cutoff(self.rows))

    def _rows_holding(self, words: list[str]) -> dict[str, int]:
        """How many chunks hold each word (its stems' largest count)."""
        if not self._ready:
            for sql in _TEMP_TABLES:
                self._db.query(sql)
            self._ready = True
        self._db.query("DELETE FROM temp.ragcite_question")
        for i, word in enumerate(words):
            self._db.query(
                "INSERT INTO temp.ragcite_question (rowid, word) VALUES (?, ?)", (i, word)
            )
        holding = dict.fromkeys(words, 0)
        for row in self._db.query("SELECT doc, term FROM temp.ragcite_question_terms"):
            found = self._db.query_one(
                "SELECT doc FROM temp.ragcite_chunk_terms WHERE term = ?", (row[1],)
            )
            word = words[int(row[0])]
            holding[word] = max(holding[word], int(found[0]) if found else 0)
        return holding
