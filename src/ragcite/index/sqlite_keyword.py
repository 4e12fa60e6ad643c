"""Keyword search for the embedded store: FTS5 BM25 over the question's telling words.

An FTS5 OR query scores every row that holds any of its words, so a question with a
common word ("film", "year") makes BM25 rank tens of thousands of rows in a large store
(807 ms per question at 100k chunks before this). The words that more than
`keyword_query.COMMON_SHARE` of the chunks hold (and more than `COMMON_FLOOR` of them, so
a small corpus still searches every word) are left out of the query while a rarer word
remains: they carry little BM25 weight and cost the most to score. How many rows hold a
word comes from FTS5's own vocabulary (`fts5vocab`), through FTS5's own stemmer (a temp
FTS5 table of the question's words), and is kept per store generation. A word FTS5 reads
as one term is counted only up to the cutoff (a match stopped after cutoff + 1 rows), as
`fts5vocab` counts by reading the term's whole posting list (at 1M chunks, 8.2 ms against
2.8 ms for a question whose words are all new); exact counts are read only when every word
is common and the rarest must be found.

The ranking reads FTS5 alone; filters (status, versions in force, corpora, access
groups) are applied afterwards, with the eligible rowids the dense index caches per
filter set (sqlite_vectors.py), ranking deeper while too few pass. Joining every match to
its chunk and document rows, as before, cost more than the BM25 ranking itself. The
PostgreSQL store keeps its own keyword query (one tsquery per word, GIN index).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ragcite.index.keyword_query import (
    COMMON_FLOOR,
    common_cutoff,
    fts_match,
    keyword_words,
    telling_words,
    with_other_forms,
)
from ragcite.index.sqlite_db import SQLiteDatabase

Rowids = npt.NDArray[np.int64]

FILTERED_DEPTH = 8
"""Under a filter, rank this many times k, then that many times more while too few pass."""

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
        self._present: dict[str, bool] = {}
        self._ready = False

    def search(self, query: str, k: int, allowed: Rowids | None) -> list[tuple[int, float]]:
        """(rowid, BM25 score) pairs, best first, of the chunks in `allowed` (sorted rowids;
        None: every chunk). The ranking reads FTS5 alone and is filtered afterwards: joining
        each match to its chunk and document row cost more than the ranking itself."""
        words = keyword_words(query)
        if not words:
            return []
        limit = k if allowed is None else k * FILTERED_DEPTH
        with self._db.lock:
            words = with_other_forms(words, self._in_corpus)
            match = fts_match(self._telling(words))
            while True:
                rows = self._db.query(
                    "SELECT rowid, -bm25(chunks_fts, 1.0, 0.5, 0.3) AS score FROM chunks_fts "
                    "WHERE chunks_fts MATCH ? ORDER BY score DESC LIMIT ?",
                    (match, limit),
                )
                hits = [(int(r[0]), float(r[1])) for r in rows]
                if allowed is not None:
                    hits = [h for h, ok in zip(hits, _within(hits, allowed), strict=True) if ok]
                if len(hits) >= k or len(rows) < limit:
                    return hits[:k]
                limit *= FILTERED_DEPTH

    def chunk_count(self) -> int:
        """How many chunks the store holds (counted once per generation)."""
        with self._db.lock:
            generation = self._db.generation()
            if generation != self.generation:
                count = self._db.query_one("SELECT COUNT(*) FROM chunks")
                self.rows = int(count[0]) if count else 0
                self._holding.clear()
                self._present.clear()
                self.generation = generation
            return self.rows

    def _telling(self, words: list[str]) -> list[str]:
        if self.chunk_count() <= COMMON_FLOOR:
            return words  # no word can be common
        cutoff = common_cutoff(self.rows)
        missing = [w for w in words if w not in self._holding]
        if missing:
            self._holding.update(self._rows_holding(missing, cutoff))
        present = [w for w in words if self._holding[w] > 0]
        if present and all(self._holding[w] > cutoff for w in present):
            # Every word is common: the rarest is searched, so its count must be exact.
            self._holding.update(self._rows_holding(present, None))
        return telling_words(words, self._holding, cutoff)

    def _in_corpus(self, word: str) -> bool:
        """Whether any chunk holds `word` (remembered for this generation)."""
        self.chunk_count()  # a new generation forgets what was remembered
        if word not in self._present:
            self._present[word] = self._rows_matching(word, 1) > 0
        return self._present[word]

    def _rows_holding(self, words: list[str], cutoff: int | None) -> dict[str, int]:
        """How many chunks hold each word (its terms' largest count); with a `cutoff`, a
        word FTS5 reads as one term is counted up to cutoff + 1 only."""
        if not self._ready:
            for sql in _TEMP_TABLES:
                self._db.query(sql)
            self._ready = True
        self._db.query("DELETE FROM temp.ragcite_question")
        for i, word in enumerate(words):
            self._db.query(
                "INSERT INTO temp.ragcite_question (rowid, word) VALUES (?, ?)", (i, word)
            )
        terms: dict[int, list[str]] = {}
        for row in self._db.query("SELECT doc, term FROM temp.ragcite_question_terms"):
            terms.setdefault(int(row[0]), []).append(str(row[1]))
        holding = dict.fromkeys(words, 0)
        for i, word in enumerate(words):
            if cutoff is not None and len(terms.get(i, ())) == 1:
                holding[word] = self._rows_matching(word, cutoff + 1)
                continue
            for term in terms.get(i, ()):
                found = self._db.query_one(
                    "SELECT doc FROM temp.ragcite_chunk_terms WHERE term = ?", (term,)
                )
                holding[word] = max(holding[word], int(found[0]) if found else 0)
        return holding

    def _rows_matching(self, word: str, most: int) -> int:
        """How many chunks hold `word` (one term), counting no further than `most`."""
        found = self._db.query_one(
            "SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)",
            (fts_match([word]), most),
        )
        return int(found[0]) if found else 0


def _within(hits: list[tuple[int, float]], allowed: Rowids) -> list[bool]:
    """Whether each hit's rowid is in `allowed` (sorted)."""
    rowids = np.array([rowid for rowid, _ in hits], dtype=np.int64)
    at = np.minimum(np.searchsorted(allowed, rowids), max(len(allowed) - 1, 0))
    return (allowed[at] == rowids).tolist() if len(allowed) else [False] * len(hits)
