"""Dense and keyword search in PostgreSQL, filters inside the query.

Dense: cosine distance (`<=>`) on the pgvector HNSW index. Filters join the documents
table inside the query; with `hnsw.iterative_scan = relaxed_order` (pgvector 0.8) the
index scan goes on past `ef_search` candidates until k rows pass the filters, and the
relaxed order is sorted again outside. When a filter is so selective that the scan
gives up first (`hnsw.max_scan_tuples`), or pgvector is older than 0.8 and has no
iterative scans, the search runs again exactly (no index scan), so k eligible chunks
come back whenever there are k. The planner itself goes exact when the filter's rows
are few (a btree on the documents' corpus and status finds them).

Keyword: the question's words from the shared tokenizer (`keyword_query.keyword_words`:
stopwords dropped unless nothing else is left), each made a tsquery with
`plainto_tsquery` (so no query syntax is ever interpreted) and OR-ed, matched against
the GIN-indexed `tsvector` and ranked by `ts_rank` with weights 1.0 (chunk text),
0.5 (section heading) and 0.3 (title), FTS5's column weights, and normalisation 1
(divided by 1 + log of the chunk's length).

How the scores compare with FTS5's BM25: both are positive for a match and higher is
better, but not on one scale (BM25 is unbounded; ts_rank with normalisation 1 stays
below 1). ts_rank sums, per query word, a saturating function of how often the word
occurs (1, 1.25, 1.36, … times its weight, over pi^2/6), averaged over the query's
words, so a chunk matching more of the words wins, as with BM25; but it has no IDF: a
rare word does not outweigh a common one. `ts_rank_cd` (cover density) was not chosen:
on an OR-query every occurrence of any word is a cover, so a chunk repeating one word
outranks one matching more of the words, the opposite of BM25 (the conformance test
`test_keyword_search_is_bm25_order` fails with it). The learned reranker reads keyword
scores only divided by the best one among the candidates and as ranks, so the scale
difference is absorbed; the shape differs (no IDF), so retrain the reranker on a
PostgreSQL store before relying on its weights there.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg import sql

from ragcite.index.keyword_query import keyword_words, with_other_forms
from ragcite.index.postgres.filters import filter_sql
from ragcite.index.postgres.rows import CHUNK_COLUMNS, CHUNKS_WITH_DOCUMENTS, chunk_from_row
from ragcite.index.postgres.schema import TEXT_SEARCH_CONFIG
from ragcite.index.store import ScoredChunk, SearchFilters

EF_SEARCH_MIN = 40
"""pgvector's default candidate list; raised to k for larger k (at most 1000)."""

RANK_WEIGHTS = "'{0.1, 0.3, 0.5, 1.0}'::real[]"
"""ts_rank weights for D, C (title), B (section heading), A (chunk text)."""

MAX_QUERY_WORDS = 64
"""Words of a question searched at most (a pasted page must not make a huge query)."""


def dense_search(
    conn: psycopg.Connection[Any],
    vector: npt.NDArray[np.float32],
    k: int,
    filters: SearchFilters,
    *,
    iterative: bool = True,
) -> list[ScoredChunk]:
    """The k eligible chunks nearest `vector` (cosine), best first.

    `iterative`: pgvector 0.8's iterative index scans are available (without them, a
    selective filter is answered by the exact search alone)."""
    if k <= 0:
        return []
    where, args = filter_sql(filters)
    query = sql.SQL(
        "WITH nearest AS MATERIALIZED ("
        f"SELECT {CHUNK_COLUMNS}, c.embedding <=> %s AS distance FROM {CHUNKS_WITH_DOCUMENTS} "
        f"WHERE {where} ORDER BY c.embedding <=> %s LIMIT %s"
        ") SELECT * FROM nearest ORDER BY distance, id"
    )
    params = [vector, *args, vector, k]
    with conn.transaction():
        if iterative:
            conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        ef_search = min(max(EF_SEARCH_MIN, k), 1000)
        conn.execute("SELECT set_config('hnsw.ef_search', %s, true)", (str(ef_search),))
        rows = conn.execute(query, params).fetchall()
        if len(rows) < k:
            # Fewer than k passed the filters within the scan's limit: ask exactly, with
            # no index scan (HNSW offers no other kind), so every eligible chunk is seen.
            conn.execute(
                "SET LOCAL enable_indexscan = off; SET LOCAL enable_seqscan = on; "
                "SET LOCAL enable_bitmapscan = on; SET LOCAL enable_sort = on"
            )
            rows = conn.execute(query, params).fetchall()
    return [ScoredChunk(chunk_from_row(r), 1.0 - float(r["distance"])) for r in rows]


def keyword_search(
    conn: psycopg.Connection[Any], text: str, k: int, filters: SearchFilters
) -> list[ScoredChunk]:
    """The k eligible chunks best matching the words of `text`, best first."""
    words = keyword_words(text)[:MAX_QUERY_WORDS]
    if not words or k <= 0:
        return []
    config = sql.Literal(TEXT_SEARCH_CONFIG).as_string()
    words = with_other_forms(words, lambda word: _in_corpus(conn, config, word))
    where, args = filter_sql(filters)
    tsquery = " || ".join([f"plainto_tsquery({config}, %s)"] * len(words))
    query = sql.SQL(
        f"SELECT {CHUNK_COLUMNS}, ts_rank({RANK_WEIGHTS}, c.search, q.query, 1) AS score "
        f"FROM {CHUNKS_WITH_DOCUMENTS}, (SELECT {tsquery} AS query) q "
        f"WHERE c.search @@ q.query AND {where} ORDER BY score DESC, c.id LIMIT %s"
    )
    rows = conn.execute(query, [*words, *args, k]).fetchall()
    return [ScoredChunk(chunk_from_row(r), float(r["score"])) for r in rows]


def _in_corpus(conn: psycopg.Connection[Any], config: str, word: str) -> bool:
    """Whether any chunk holds `word` (the GIN index answers it)."""
    query = sql.SQL(
        "SELECT EXISTS (SELECT 1 FROM ragcite_chunks "
        f"WHERE search @@ plainto_tsquery({config}, %s)) AS held"
    )
    row = conn.execute(query, [word]).fetchone()
    return bool(row and row["held"])
