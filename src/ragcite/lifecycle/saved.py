"""Saving answers (with the retention setting) and choosing which saved answers to re-check.

>>> save_answer(rag, rag.ask("How long do we keep customer PII?"), key_name="cli")
>>> [a.query for a in answers_to_recheck(rag, since=date(2026, 1, 1))]
['How long do we keep customer PII?']
"""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time, timedelta

from ragcite.errors import InputError, StoreError
from ragcite.index.answers import (
    ErasureReport,
    SavedAnswer,
    answers_store,
    erasing_store,
    saved_answer_of,
)
from ragcite.models import CitedResponse, DocumentStatus, utc_now
from ragcite.pipeline import Ragcite

log = logging.getLogger(__name__)


def save_answer(
    rag: Ragcite,
    response: CitedResponse,
    *,
    key_name: str = "cli",
    groups: tuple[str, ...] | None = None,
) -> SavedAnswer:
    """Save `response` under its answer_id, and prune the answers older than
    `lifecycle.answer_retention_days` (0 keeps them forever)."""
    answers = answers_store(rag.store)
    saved = saved_answer_of(response, key_name=key_name, groups=groups)
    answers.save_answer(saved)
    days = rag.settings.lifecycle.answer_retention_days
    if days:
        answers.prune_answers(utc_now() - timedelta(days=days))
    return saved


def changed_since(rag: Ragcite, since: date) -> tuple[str, ...]:
    """The documents changed since `since`: a version ingested on or after it, erased on
    or after it, or deleted (deletions keep no date, so every deleted document counts)."""
    start = datetime.combine(since, time(), tzinfo=UTC)
    changed = {
        d.document_id
        for d in rag.store.list_documents()
        if d.status is DocumentStatus.DELETED or _aware(d.ingested_at) >= start
    }
    changed |= {
        t.document_id for t in erasing_store(rag.store).tombstones() if t.erased_at >= start
    }
    return tuple(sorted(changed))


def answers_to_recheck(
    rag: Ragcite,
    answer_id: str | None = None,
    *,
    since: date | None = None,
    document_ids: tuple[str, ...] | None = None,
    access_groups: tuple[str, ...] | None = None,
) -> list[SavedAnswer]:
    """One saved answer (NotFoundError when it is missing or unreadable), or every one
    the reader may read, narrowed to those showing a document changed since `since` or
    one of `document_ids`."""
    answers = answers_store(rag.store)
    if answer_id is not None:
        if since is not None or document_ids is not None:
            raise InputError("give an answer ID or --since, not both")
        return [answers.get_answer(answer_id, access_groups=access_groups)]
    if since is not None:
        document_ids = tuple(sorted(set(document_ids or ()) | set(changed_since(rag, since))))
    return answers.list_answers(document_ids=document_ids, access_groups=access_groups)


def erase_document(rag: Ragcite, document_id: str, *, erased_by: str) -> ErasureReport:
    """Erase a document from the store (`ErasingStore.erase_document`), then empty the
    answer cache in use, which may be another server's (Redis)."""
    report = erasing_store(rag.store).erase_document(document_id, erased_by=erased_by)
    if rag.answer_cache is not None:
        try:
            rag.answer_cache.clear()
        except StoreError as exc:  # its answers are keyed by older corpus versions: unreachable
            log.warning("erased %s, but the answer cache was not emptied: %s", document_id, exc)
    return report


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
