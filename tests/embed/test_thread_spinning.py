"""The embedder's onnxruntime threads sleep between runs unless `embed.spin_threads` is set."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragcite.compose import make_embedder
from ragcite.config import load_settings
from ragcite.embed.minilm import MiniLMEmbedder

_SPINNING = "session.intra_op.allow_spinning"


def _spinning(spin_threads: bool, tmp_path: Path) -> str | None:
    settings = load_settings(
        store_path=tmp_path / "store.db", overrides={"embed.spin_threads": spin_threads}
    )
    embedder = make_embedder(settings).inner
    assert isinstance(embedder, MiniLMEmbedder)
    embedder.warm_up()
    options = embedder._session.get_session_options()
    try:
        return str(options.get_session_config_entry(_SPINNING))
    except Exception:  # onnxruntime raises when the entry was never set: its default, spinning
        return None


@pytest.mark.parametrize(("spin_threads", "entry"), [(False, "0"), (True, None)])
def test_threads_spin_only_when_the_settings_say_so(
    spin_threads: bool, entry: str | None, tmp_path: Path
) -> None:
    assert _spinning(spin_threads, tmp_path) == entry


def test_vectors_do_not_depend_on_spinning() -> None:
    texts = ["How long is parental leave?", "Backups are kept for 35 days."]
    sleeping = MiniLMEmbedder().embed(texts)
    spinning = MiniLMEmbedder(spinning=True).embed(texts)
    assert sleeping.tolist() == spinning.tolist()
