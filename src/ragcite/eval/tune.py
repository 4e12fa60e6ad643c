"""Weight tuning: a grid over the chunk composite weights and the answer-evidence blend.

For each vector weight w (reranker weight 1 − w) the pipeline is run over the labelled
questions; for each claim weight c (chunk weight 1 − c) the answer's evidence (what
`gate.min_overall_confidence` reads, see `score.confidence.answer_evidence`) is
recomputed from the recorded claims and chunks. A candidate is scored by how well its
evidence separates correct answers from wrong ones (ROC-AUC over answered questions);
candidates within 0.01 of the best AUC are then ranked by that floor: its catch rate on
wrong answers minus its false-alarm rate on correct ones.

    >>> result = tune(rag, questions)
    >>> result.best.vector_weight, result.best.claim_weight
    (0.3, 0.6)
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ragcite.config import Settings
from ragcite.eval.calibration import claim_points, evidence_points
from ragcite.eval.labels import chunk_is_relevant
from ragcite.eval.metrics import mean, recall_at_k, roc_auc
from ragcite.eval.questions import LabelledQuestion
from ragcite.eval.runner import run_questions
from ragcite.pipeline import Ragcite

GRID = tuple(round(0.1 * i, 1) for i in range(1, 10))
AUC_TIE = 0.01


@dataclass(frozen=True)
class Candidate:
    vector_weight: float
    reranker_weight: float
    claim_weight: float
    chunk_weight: float
    answer_auc: float
    claim_auc: float
    false_alarm_rate: float
    catch_rate: float
    recall_at_5: float
    answered: int

    @property
    def flag_quality(self) -> float:
        """Catches minus false alarms of the evidence floor (Youden's J at the floor)."""
        catch = 0.0 if math.isnan(self.catch_rate) else self.catch_rate
        alarm = 1.0 if math.isnan(self.false_alarm_rate) else self.false_alarm_rate
        return catch - alarm


def _auc(c: Candidate) -> float:
    return -1.0 if math.isnan(c.answer_auc) else c.answer_auc


def rank_candidates(candidates: list[Candidate]) -> list[Candidate]:
    """Best first: candidates within AUC_TIE of the best AUC are ranked by flag quality,
    then AUC; the rest follow by AUC."""
    if not candidates:
        return []
    best = max(_auc(c) for c in candidates)

    def key(c: Candidate) -> tuple[int, float, float]:
        tied = _auc(c) >= best - AUC_TIE
        return (0, -c.flag_quality, -_auc(c)) if tied else (1, -_auc(c), -c.flag_quality)

    return sorted(candidates, key=key)


@dataclass(frozen=True)
class TuneResult:
    candidates: list[Candidate]  # best first
    best: Candidate


def tune(
    rag: Ragcite,
    questions: list[LabelledQuestion],
    *,
    vector_weights: Sequence[float] = GRID,
    claim_weights: Sequence[float] = GRID,
    on_question: Callable[[], None] | None = None,
) -> TuneResult:
    """Every candidate, scored, best first (see the module docstring)."""
    candidates = []
    for vw in vector_weights:
        rerank = rag.settings.rerank.model_copy(
            update={"vector_weight": vw, "reranker_weight": round(1 - vw, 4)}
        )
        settings = rag.settings.model_copy(update={"rerank": rerank})
        traces = run_questions(rag, questions, settings=settings, on_question=on_question)
        claims = claim_points(traces)
        claim_auc = roc_auc(claims.confidence, claims.correct)
        recall = mean(
            [
                recall_at_k([chunk_is_relevant(c, t.question) for c in t.rankings["reranked"]], 5)
                for t in traces
                if t.question.answerable
            ]
        )
        for cw in claim_weights:
            score = settings.score.model_copy(
                update={"claim_weight": cw, "chunk_weight": round(1 - cw, 4)}
            )
            answers = evidence_points(traces, score)
            floor = settings.gate.min_overall_confidence
            flagged = [c < floor for c in answers.confidence]
            on_correct = [f for f, ok in zip(flagged, answers.correct, strict=True) if ok]
            on_wrong = [f for f, ok in zip(flagged, answers.correct, strict=True) if not ok]
            candidates.append(
                Candidate(
                    vector_weight=vw,
                    reranker_weight=rerank.reranker_weight,
                    claim_weight=cw,
                    chunk_weight=score.chunk_weight,
                    answer_auc=roc_auc(answers.confidence, answers.correct),
                    claim_auc=claim_auc,
                    false_alarm_rate=mean([float(f) for f in on_correct]),
                    catch_rate=mean([float(f) for f in on_wrong]),
                    recall_at_5=recall,
                    answered=len(answers.confidence),
                )
            )
    ranked = rank_candidates(candidates)
    return TuneResult(ranked, ranked[0])


def candidates_json(result: TuneResult) -> list[dict[str, Any]]:
    return [asdict(c) for c in result.candidates]


def tuned_settings_toml(base: Path | None, best: Candidate, table: str) -> str:
    """The TOML of `base` (if it exists) with the chosen weights set, the candidate table
    above it as comments. Comments of `base` itself are not kept."""
    data: dict[str, Any] = {}
    if base is not None and base.is_file():
        data = tomllib.loads(base.read_text(encoding="utf-8"))
    data.setdefault("rerank", {}).update(
        vector_weight=best.vector_weight, reranker_weight=best.reranker_weight
    )
    data.setdefault("score", {}).update(
        claim_weight=best.claim_weight, chunk_weight=best.chunk_weight
    )
    header = "".join(f"# {line}\n" for line in table.splitlines())
    return "# Weights chosen by `ragcite eval tune` (best first):\n" + header + "\n" + _toml(data)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def _toml(data: dict[str, Any], prefix: str = "") -> str:
    scalars = [f"{k} = {_toml_value(v)}\n" for k, v in data.items() if not isinstance(v, dict)]
    out = "".join(scalars)
    for key, value in data.items():
        if isinstance(value, dict):
            name = f"{prefix}.{key}" if prefix else key
            out += f"\n[{name}]\n" + _toml(value, name)
    return out


def apply_best(settings: Settings, best: Candidate) -> Settings:
    """`settings` with the chosen weights."""
    return settings.model_copy(
        update={
            "rerank": settings.rerank.model_copy(
                update={
                    "vector_weight": best.vector_weight,
                    "reranker_weight": best.reranker_weight,
                }
            ),
            "score": settings.score.model_copy(
                update={"claim_weight": best.claim_weight, "chunk_weight": best.chunk_weight}
            ),
        }
    )
