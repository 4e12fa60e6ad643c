"""Attribution quality of the answers the pipeline produced (ALCE-style).

* citation recall: share of claims whose cited chunks, together, support them;
* citation precision: share of citations that are needed (ALCE: in a supported claim a
  citation is irrelevant when it alone does not support the claim and the others still
  do; the citations of an unsupported claim count as imprecise);
* quote verbatim rate: share of citations whose quote was found exactly (or after
  whitespace, case and punctuation folding);
* hallucinated-ID rate: cited chunk IDs that were not retrieved, over all cited IDs;
* unattributed-sentence rate: answer sentences that belong to no cited claim.

Support is judged by a `SupportJudge`: the support checker by default, or an LLM judge
(a second model call that reads the claim and the cited text) when one is configured.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ragcite.eval.metrics import mean
from ragcite.eval.runner import QuestionTrace
from ragcite.models import QuoteStatus, SupportVerdict
from ragcite.text.sentences import split_sentences
from ragcite.verify.support import SupportChecker
from ragcite.verify.support.judge_prompt import judge_prompt, parse_judge_reply
from ragcite.verify.unattributed import unattributed_sentences

Pair = tuple[str, list[str]]


class SupportJudge(Protocol):
    name: str

    def judge_many(self, pairs: list[Pair]) -> list[bool]:
        """For each (claim, evidence texts): does the evidence, read together, support it?"""
        ...


class CheckerJudge:
    """Support as the support checker rules it (verdict `supported`)."""

    name = "support-checker"

    def __init__(self, checker: SupportChecker) -> None:
        self.checker = checker

    def judge_many(self, pairs: list[Pair]) -> list[bool]:
        if not pairs:
            return []
        return [r.verdict is SupportVerdict.SUPPORTED for r in self.checker.check_many(pairs)]


class LLMJudge:
    """LLM-as-judge: `complete(prompt) -> text` is any model call (local or remote); the
    prompt and the reading of its reply are the support checker's LLM tier's."""

    def __init__(self, complete: Callable[[str], str], *, name: str = "llm-judge") -> None:
        self.complete = complete
        self.name = name

    def judge_many(self, pairs: list[Pair]) -> list[bool]:
        return [
            parse_judge_reply(self.complete(judge_prompt(claim, evidence)))
            is SupportVerdict.SUPPORTED
            for claim, evidence in pairs
        ]


def attribution_metrics(traces: list[QuestionTrace], judge: SupportJudge) -> dict[str, float | int]:
    answered = [t for t in traces if t.response.answerable]
    claims = [(t, c) for t in answered for c in t.response.cited_claims]
    texts = [{ch.chunk_id: ch.chunk_text for ch in t.response.source_chunks} for t in answered]
    by_trace = {id(t): m for t, m in zip(answered, texts, strict=True)}
    cited = [
        [by_trace[id(t)][i] for i in c.source_chunk_ids if i in by_trace[id(t)]] for t, c in claims
    ]
    # One batch for the joint judgements, one for the single and leave-one-out ones.
    joint = judge.judge_many([(c.claim_text, ev) for (_, c), ev in zip(claims, cited, strict=True)])
    extra: list[Pair] = []
    for (_, claim), evidence, ok in zip(claims, cited, joint, strict=True):
        if ok and len(evidence) > 1:
            for i in range(len(evidence)):
                extra.append((claim.claim_text, [evidence[i]]))
                extra.append((claim.claim_text, evidence[:i] + evidence[i + 1 :]))
    extra_verdicts = iter(judge.judge_many(extra))
    precise = 0
    total_citations = 0
    for evidence, ok in zip(cited, joint, strict=True):
        total_citations += len(evidence)
        if not (ok and len(evidence) > 1):
            precise += len(evidence) if ok else 0
            continue
        for _ in evidence:
            alone, rest = next(extra_verdicts), next(extra_verdicts)
            precise += int(alone or not rest)
    citations = [cit for _, c in claims for cit in c.citations]
    hallucinated = sum(
        1 for t in answered for f in t.response.warning_flags if f.code == "hallucinated_chunk_id"
    )
    sentences = unattributed = 0
    for t in answered:
        sentences += len(split_sentences(t.response.answer_text))
        unattributed += len(
            unattributed_sentences(
                t.response.answer_text, [c.claim_text for c in t.response.cited_claims]
            )
        )
    verbatim = (QuoteStatus.EXACT, QuoteStatus.NORMALIZED)
    cited_ids = sum(len(c.source_chunk_ids) for _, c in claims)
    return {
        "citation_recall": mean([float(v) for v in joint]),
        "citation_precision": precise / total_citations if total_citations else float("nan"),
        "quote_verbatim_rate": mean([float(c.quote_status in verbatim) for c in citations]),
        "quote_exact_rate": mean([float(c.quote_status is QuoteStatus.EXACT) for c in citations]),
        "hallucinated_id_rate": (
            hallucinated / (cited_ids + hallucinated) if cited_ids + hallucinated else 0.0
        ),
        "unattributed_sentence_rate": unattributed / sentences if sentences else 0.0,
        "claims": len(claims),
        "citations": len(citations),
        "claims_correct": mean([float(ok) for t in answered for ok in t.claim_correct]),
    }
