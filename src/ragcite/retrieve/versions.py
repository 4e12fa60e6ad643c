"""Which document versions a question asks about: search filters from its time reference.

"How long were backups kept under the 2019 policy?" names a year, so it is answered from
the versions in force at the end of 2019, superseded or not; a question without a time
reference keeps its filters as they are.

    >>> filters, ref = version_scope("Backups in 2019?", SearchFilters())
    >>> filters.as_of, ref.phrase
    (datetime.date(2019, 12, 31), '2019')
    >>> version_scope("Backups?", SearchFilters())[1] is None
    True
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from ragcite.index.store import SearchFilters
from ragcite.models import DocumentStatus
from ragcite.text.time_refs import TimeReference, parse_time_reference

LIVE = (DocumentStatus.ACTIVE, DocumentStatus.SUPERSEDED)


def version_scope(
    question: str, filters: SearchFilters, *, today: date | None = None
) -> tuple[SearchFilters, TimeReference | None]:
    """`filters` narrowed to the versions `question` asks about, and the reference that
    said so; unchanged (and None) when it names none or `filters` already choose versions
    (an explicit `as_of`)."""
    if filters.scopes_versions:
        return filters, None
    reference = parse_time_reference(question, today=today)
    if reference is None:
        return filters, None
    return scoped_filters(filters, reference), reference


def scoped_filters(filters: SearchFilters, reference: TimeReference) -> SearchFilters:
    """`filters` searching active and superseded versions, narrowed as `reference` says."""
    return replace(
        filters,
        statuses=LIVE,
        as_of=reference.as_of,
        version=1 if reference.relative == "original" else reference.version,
        previous_version=reference.relative == "previous",
    )


def current_filters(filters: SearchFilters, document_ids: tuple[str, ...]) -> SearchFilters:
    """The same reader and corpora, searching only the current versions of `document_ids`."""
    return replace(
        filters,
        statuses=(DocumentStatus.ACTIVE,),
        document_ids=document_ids,
        as_of=None,
        version=None,
        previous_version=False,
    )
