"""Search filters as a SQL predicate over the `documents` table (aliased `d`).

Access groups are applied here, inside every query, so restricted chunks never reach
ranking: a document with no groups is public, otherwise it needs one group in common.
"""

from __future__ import annotations

from typing import Any

from ragcite.index.store import SearchFilters


def filter_sql(filters: SearchFilters) -> tuple[str, tuple[Any, ...]]:
    """(`where` clause, its arguments); "1" when nothing is filtered."""
    clauses: list[str] = []
    args: list[Any] = []
    if filters.statuses:
        clauses.append(f"d.status IN ({_marks(filters.statuses)})")
        args += [str(s) for s in filters.statuses]
    if filters.corpora is not None:
        clauses.append(f"d.corpus IN ({_marks(filters.corpora)})")
        args += list(filters.corpora)
    if filters.document_ids is not None:
        clauses.append(f"d.document_id IN ({_marks(filters.document_ids)})")
        args += list(filters.document_ids)
    if filters.access_groups is not None:
        clauses.append(_groups_sql(filters.access_groups))
        args += list(filters.access_groups)
    return (" AND ".join(clauses) or "1"), tuple(args)


def readable_sql(access_groups: tuple[str, ...] | None) -> tuple[str, tuple[Any, ...]]:
    """What a reader with `access_groups` may read, as a predicate over `documents d`.

    None (an admin, the local CLI) reads every version, deleted ones included (for
    audit); otherwise only versions that are not deleted and are public or share a group.
    """
    if access_groups is None:
        return "1", ()
    return (
        f"d.status != 'deleted' AND {_groups_sql(access_groups)}",
        tuple(access_groups),
    )


def _groups_sql(groups: tuple[str, ...]) -> str:
    return (
        "(d.access = '[]' OR EXISTS "
        f"(SELECT 1 FROM json_each(d.access) WHERE value IN ({_marks(groups)})))"
    )


def _marks(values: tuple[Any, ...]) -> str:
    """SQL placeholders for `values`; an empty tuple matches nothing (`IN (NULL)`)."""
    return ",".join("?" * len(values)) or "NULL"
