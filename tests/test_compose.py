"""The composition root: the store URL setting, model-file settings and backend errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragcite.cli.main import cli
from ragcite.compose import (
    compose,
    local_data_dir,
    make_reranker,
    make_store,
    make_support_checker,
    shown_store,
    store_file,
)
from ragcite.config import default_store_path, load_settings
from ragcite.embed.base import Embedder
from ragcite.errors import ConfigError, ModelError
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.pipeline import Ragcite
from ragcite.rerank.learned import packaged_model_path

from .conftest import ROOT

SUPPORT_MODEL = ROOT / "src" / "ragcite" / "verify" / "support" / "assets" / "support_model.json"
QUESTION = "How much parental leave does the primary caregiver get?"


def test_store_comes_from_argument_environment_or_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "ragcite.toml"
    config.write_text('store = "sqlite:///from/file.db"\n', encoding="utf-8")
    monkeypatch.delenv("RAGCITE_STORE")
    assert load_settings(config).store == "sqlite:///from/file.db"
    monkeypatch.setenv("RAGCITE_STORE", "env.db")
    assert load_settings(config).store == "env.db"
    assert load_settings(config, "postgresql://rag@db/kb").store == "postgresql://rag@db/kb"
    monkeypatch.delenv("RAGCITE_STORE")
    assert load_settings().store == str(default_store_path())


def test_store_path_is_a_deprecated_alias(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAGCITE_STORE")
    config = tmp_path / "ragcite.toml"
    config.write_text('store_path = "old/kb.db"\n', encoding="utf-8")
    assert load_settings(config).store == "old/kb.db"
    assert load_settings(store_path=tmp_path / "kw.db").store == str(tmp_path / "kw.db")


def test_a_sqlite_url_opens_that_file(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "kb.db"
    path.parent.mkdir()
    settings = load_settings(store=f"sqlite:///{path}")
    assert store_file(settings) == path
    assert local_data_dir(settings) == path.parent
    store = make_store(settings.store, dimension=384)
    assert isinstance(store, SQLiteStore)
    store.close()
    assert path.exists()


def test_an_unknown_store_scheme_is_a_config_error(tmp_path: Path) -> None:
    settings = load_settings(store="nosuch://db.example/kb")
    assert store_file(settings) is None
    assert local_data_dir(settings) == default_store_path().parent
    with pytest.raises(ConfigError, match=r"no store backend named 'nosuch'.*installed: .*sqlite"):
        compose(settings)


def test_the_cli_takes_a_store_url(demo_store_path: Path) -> None:
    runner = CliRunner()
    url = f"sqlite:///{demo_store_path}"
    result = runner.invoke(cli, ["--store", url, "search", "backup retention", "--json", "-k", "2"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["chunks"]) == 2
    bad = runner.invoke(cli, ["--store", "nosuch://x/kb", "search", "backup retention"])
    assert bad.exit_code == 1
    assert "no store backend named 'nosuch'" in bad.output


def test_rerank_model_path_reaches_the_loader(tmp_path: Path, demo_store_path: Path) -> None:
    data = json.loads(packaged_model_path().read_text(encoding="utf-8"))
    model = data["models"]["reranker"]
    flat = tmp_path / "flat.json"  # no weights, no bias: every chunk scores exactly 0.5
    model = {**model, "weights": [0.0] * len(model["weights"]), "bias": 0.0}
    flat.write_text(json.dumps({**data, "models": {"reranker": model}}))
    settings = load_settings(store=str(demo_store_path), overrides={"rerank.model_path": str(flat)})
    rag = Ragcite.open(settings)
    chunks, _ = rag.search(QUESTION)
    assert chunks and {c.reranker_score for c in chunks} == {0.5}
    broken = tmp_path / "broken.json"
    broken.write_text("not json", encoding="utf-8")
    bad = settings.model_copy(
        update={"rerank": settings.rerank.model_copy(update={"model_path": str(broken)})}
    )
    with pytest.raises(ModelError, match=r"broken\.json"):
        make_reranker(bad, rag.embedder)
    rag.close()


def test_rerank_model_path_needs_the_learned_reranker(tmp_path: Path, embedder: Embedder) -> None:
    settings = load_settings(
        store=str(tmp_path / "s.db"),
        overrides={"rerank.model_path": "m.json", "rerank.backend": "cohere:rerank-v3.5"},
    )
    with pytest.raises(ConfigError, match=r"rerank\.model_path is set, but rerank\.backend"):
        make_reranker(settings, embedder)


def test_support_model_path_reaches_the_loader(tmp_path: Path, embedder: Embedder) -> None:
    data = json.loads(SUPPORT_MODEL.read_text(encoding="utf-8"))
    lexical_only = tmp_path / "lexical.json"
    lexical_only.write_text(
        json.dumps({**data, "models": {"lexical": data["models"]["lexical"]}}), encoding="utf-8"
    )
    store = str(tmp_path / "s.db")
    lexical = load_settings(
        store=store,
        overrides={"gate.support_model_path": str(lexical_only), "gate.support_semantic": "none"},
    )
    checker = make_support_checker(lexical, None)
    shipped = make_support_checker(load_settings(store=store, overrides=_no_semantic()), None)
    claim, evidence = "Returns are free.", ["Returning an item costs nothing."]
    assert checker.check(claim, evidence).score == shipped.check(claim, evidence).score
    semantic = load_settings(store=store, overrides={"gate.support_model_path": str(lexical_only)})
    with pytest.raises(ConfigError, match=r"has no 'semantic' model \(it has lexical\)"):
        make_support_checker(semantic, embedder)
    missing = load_settings(store=store, overrides={"gate.support_model_path": "nope.json"})
    with pytest.raises(ModelError, match=r"nope\.json"):
        make_support_checker(missing, embedder)


def _no_semantic() -> dict[str, str]:
    return {"gate.support_semantic": "none"}


def test_embed_model_path_reaches_the_embedder(demo_store_path: Path) -> None:
    settings = load_settings(
        store=str(demo_store_path), overrides={"embed.model_path": "/nonexistent/minilm.onnx"}
    )
    rag = Ragcite.open(settings)
    with pytest.raises(ModelError, match=r"/nonexistent/minilm\.onnx"):
        rag.ask(QUESTION)
    rag.close()


def test_a_store_password_is_never_shown() -> None:
    assert shown_store("postgresql://rag:s3cret@db:5432/kb") == "postgresql://rag:***@db:5432/kb"
    assert shown_store("postgresql://rag@db/kb") == "postgresql://rag@db/kb"
    assert shown_store("/var/lib/ragcite/kb.db") == "/var/lib/ragcite/kb.db"
