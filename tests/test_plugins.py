"""Third-party backends: a separately installed package (tests/plugins/ragcite_echo_plugin)
registers a generator and a reranker under ragcite's entry points; settings choose them by
name, and their answers go through the real gate like any other generator's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragcite.cli.main import cli
from ragcite.config import load_settings
from ragcite.errors import ConfigError
from ragcite.models import QuoteStatus, SupportVerdict
from ragcite.pipeline import Ragcite
from ragcite.registry import GENERATORS, RERANKERS, installed

QUESTION = "How much parental leave does the primary caregiver get?"
PLUGIN = Path(__file__).parent / "plugins" / "ragcite_echo_plugin"


@pytest.fixture(autouse=True)
def _plugin_installed() -> None:
    assert "echo" in installed(GENERATORS) and "overlap" in installed(RERANKERS), (
        f"the test plugin is not installed: pip install --no-deps -e {PLUGIN}"
    )


def _open(store: Path, **overrides: str) -> Ragcite:
    return Ragcite.open(load_settings(store=str(store), overrides=overrides))


def test_a_plugin_generator_answers_through_the_gate(demo_store_path: Path) -> None:
    rag = _open(demo_store_path, **{"generate.llm": "echo:", "rerank.backend": "overlap"})
    trace = rag.ask_traced(QUESTION)
    rag.close()
    response = trace.response
    assert response.answerable and response.model_id == "echo:top-sentence"
    assert "20 weeks" in response.answer_text
    [claim] = response.cited_claims
    assert claim.verified
    [citation] = claim.citations
    assert citation.quote_status is QuoteStatus.EXACT
    assert citation.support is SupportVerdict.SUPPORTED
    chunk = response.chunk(citation.chunk_id)
    assert chunk is not None and chunk.chunk_text[citation.quote_start : citation.quote_end] in (
        claim.claim_text
    )
    # The overlap reranker scored the chunks: the share of the question's words present.
    assert trace.final is not None and trace.final.gate.passed
    assert response.source_chunks[0].reranker_score == pytest.approx(0.8)


def test_a_plugin_answer_that_does_not_hold_is_degraded(demo_store_path: Path) -> None:
    swallow = "What is the airspeed velocity of an unladen swallow?"
    rag = _open(demo_store_path, **{"generate.llm": "echo:", "gate.subject_check": "false"})
    trace = rag.ask_traced(swallow)
    rag.close()
    # The echo generator answered something; the gate and the confidence floor refused it.
    assert trace.final is not None and trace.final.draft.claims
    assert not trace.response.answerable
    assert "degraded_to_sources" in {f.code for f in trace.response.warning_flags}
    # By default the subject check refuses it first: no document mentions a swallow.
    rag = _open(demo_store_path, **{"generate.llm": "echo:"})
    declined = rag.ask_traced(swallow).response
    rag.close()
    assert not declined.answerable
    assert "not_answerable" in {f.code for f in declined.warning_flags}
    assert '"swallow"' in declined.confidence_reason


def test_the_cli_runs_plugin_backends(demo_store_path: Path) -> None:
    options = ["--json", "--llm", "echo:cli", "--reranker", "overlap"]
    result = CliRunner().invoke(cli, ["--store", str(demo_store_path), "ask", QUESTION, *options])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["model_id"] == "echo:cli" and payload["answerable"]
    assert payload["claims"] and all(c["verified"] for c in payload["claims"])
    assert "20 weeks" in payload["answer"]


@pytest.mark.parametrize(
    ("setting", "spec"), [("generate.llm", "nosuch:model"), ("rerank.backend", "nosuch")]
)
def test_an_unknown_backend_is_a_config_error(
    demo_store_path: Path, setting: str, spec: str
) -> None:
    rag = _open(demo_store_path, **{setting: spec})
    with pytest.raises(ConfigError, match="'nosuch"):
        rag.ask(QUESTION)
    rag.close()


def test_the_cli_reports_an_unknown_generator_in_one_line(demo_store_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["--store", str(demo_store_path), "ask", QUESTION, "--llm", "nosuch:model"]
    )
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and "nosuch" in result.output
    assert "Traceback" not in result.output
