"""The `claim_hook`: each claim that passes the gate is heard as it passes, and only those.

The store, retrieval, reranking, gate and support checker are real; only the generator's
text is scripted (through the real parser), as in test_ladder.py.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import Any

from ragcite.models import CitedClaim, CitedResponse, SourceChunk
from ragcite.pipeline import Ragcite
from ragcite.trace import claim_hook, progress_hook

from .test_ladder import (
    ANSWER,
    OTHER_ANSWER,
    QUESTION,
    ScriptedGenerator,
    answer,
    claim,
    good,
    hallucinated_id,
    holding,
)
from .test_ladder import make_rag as _make_rag
from .test_ladder import store_path as _store_path

make_rag, store_path = _make_rag, _store_path  # the ladder's fixtures, used here too


def _heard(rag: Ragcite) -> tuple[CitedResponse, list[tuple[str, Any]]]:
    """Ask QUESTION; what the hooks heard, in order: stages and passed claims."""
    heard: list[tuple[str, Any]] = []

    def hear_claim(passed: CitedClaim, chunks: list[SourceChunk]) -> None:
        assert set(passed.source_chunk_ids) <= {c.chunk_id for c in chunks}
        heard.append(("claim", passed))

    def run() -> CitedResponse:
        progress_hook.set(lambda stage, count: heard.append((stage, count)))
        claim_hook.set(hear_claim)
        return rag.ask_traced(QUESTION).response

    return contextvars.copy_context().run(run), heard


def one_good_one_made_up(chunks: list[SourceChunk]) -> str:
    holder = holding(chunks, ANSWER).chunk_id
    made_up = "Backups are kept forever on golden tape."  # no chunk says this
    return answer([claim(ANSWER, holder, ANSWER), claim(made_up, holder, made_up)])


def test_only_claims_that_pass_are_heard_right_after_their_stage(
    make_rag: Callable[..., Ragcite],
) -> None:
    response, heard = _heard(
        make_rag(ScriptedGenerator(one_good_one_made_up, can_retry=False), policy="annotate")
    )
    claims = [value for kind, value in heard if kind == "claim"]
    assert [c.claim_text for c in claims] == [ANSWER]
    assert all(c.verified for c in claims)
    kinds = [kind for kind, _ in heard]
    assert kinds[kinds.index("verified") + 1] == "claim"
    # the claim that failed is in the annotated response, unverified, but was never heard
    assert any(not c.verified for c in response.cited_claims) or not response.answerable


def test_a_retry_is_heard_from_its_checking_stage(make_rag: Callable[..., Ragcite]) -> None:
    response, heard = _heard(make_rag(ScriptedGenerator(hallucinated_id, good)))
    kinds = [kind for kind, _ in heard]
    assert kinds.count("checking") == 2
    after_retry = kinds[len(kinds) - 1 - kinds[::-1].index("checking") :]
    assert kinds.count("claim") == after_retry.count("claim") == 1
    assert response.answerable
    heard_texts = [value.claim_text for kind, value in heard if kind == "claim"]
    assert heard_texts == [c.claim_text for c in response.cited_claims]


def test_a_claim_about_something_else_is_heard_only_if_it_passes(
    make_rag: Callable[..., Ragcite],
) -> None:
    def other(chunks: list[SourceChunk]) -> str:
        return answer([claim(OTHER_ANSWER, holding(chunks, ANSWER).chunk_id, OTHER_ANSWER)])

    _, heard = _heard(make_rag(ScriptedGenerator(other, can_retry=False)))
    assert [kind for kind, _ in heard if kind == "claim"] == []
    assert "verified" not in [kind for kind, _ in heard]
