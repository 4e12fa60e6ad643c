"""The one onnxruntime CPU session builder (the embedder, cross-encoders, learned models)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def cpu_session(path: Path, threads: int | None = None, *, spinning: bool = False) -> Any:
    """An onnxruntime CPU session for the model at `path` (quiet; `threads` intra-op threads,
    or onnxruntime's default). Its worker threads sleep between runs unless `spinning`.
    onnxruntime's own errors pass through: callers name the model.
    """
    import onnxruntime as ort

    options = ort.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
    options.log_severity_level = 3
    # Worker threads sleep between runs by default: a question embeds one short text, and a
    # spinning pool burns the other core while the rest of `ask` runs (README, Performance).
    if not spinning:
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
