"""The MiniLM embedder's throughput under onnxruntime settings, run by hand.

    python bench/embedder_settings.py --texts 256 --rounds 2

On the same real passages (bench/corpora.py), interleaved round by round so machine load
hits every variant alike: intra-op threads (1, 2, onnxruntime's default), inter-op
threads, graph optimisation level, batch size, the token budget per batch (`batch_tokens`;
8192 is a batch of 32 texts whatever their length, the embedder before it batched by tokens),
length-sorted vs arrival order, and worker threads that spin between runs (onnxruntime's
default) vs sleep (ragcite's). Then one short question at a time, each followed by 4 ms of
other Python work as in `ask`: p50 wall and CPU ms per question, spinning vs sleeping (a
spinning pool answers sooner and burns the other core meanwhile).
Prints texts/s medians and each variant's ratio to ragcite's default.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import real_passages
from ingest_ask import machine

from ragcite.embed.minilm import BATCH_TOKENS, MiniLMEmbedder, _packaged_model_path


def session(intra: int | None, inter: int | None, level: str, spinning: bool = False) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    if not spinning:
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    if intra:
        options.intra_op_num_threads = intra
    if inter:
        options.inter_op_num_threads = inter
    options.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    options.log_severity_level = 3
    path = str(_packaged_model_path())
    return ort.InferenceSession(path, sess_options=options, providers=["CPUExecutionProvider"])


def variant(
    intra: int | None = None,
    inter: int | None = None,
    level: str = "ORT_ENABLE_ALL",
    batch: int = 32,
    batch_tokens: int = BATCH_TOKENS,
    spinning: bool = False,
) -> MiniLMEmbedder:
    embedder = MiniLMEmbedder(batch_size=batch, batch_tokens=batch_tokens)
    embedder.warm_up()
    embedder._session = session(intra, inter, level, spinning)
    return embedder


def question_latency(embedder: MiniLMEmbedder, questions: list[str]) -> tuple[float, float]:
    """p50 wall and CPU ms per question: one embedding, then 4 ms of other Python work."""
    wall, cpu = [], []
    for question in questions:
        started, cpu_started = time.perf_counter(), time.process_time()
        embedder._forward(embedder._tokenizer.encode_batch([question]))
        wall.append(time.perf_counter() - started)
        busy = time.perf_counter()
        while time.perf_counter() - busy < 0.004:
            pass
        cpu.append(time.process_time() - cpu_started)
    return statistics.median(wall) * 1e3, statistics.median(cpu) * 1e3


def unsorted_embed(embedder: MiniLMEmbedder, texts: list[str]) -> None:
    """Batches of `batch_size` texts in arrival order, each padded to its longest."""
    encodings = embedder._tokenizer.encode_batch(texts)
    for start in range(0, len(texts), embedder.batch_size):
        embedder._forward(encodings[start : start + embedder.batch_size])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    print(f"[machine] {machine()}")
    texts = real_passages(args.texts)
    variants = {
        "default": variant(),
        "intra_1": variant(intra=1),
        "intra_2": variant(intra=2),
        "intra_1_inter_1": variant(intra=1, inter=1),
        "basic_graph_opt": variant(level="ORT_ENABLE_BASIC"),
        "batch_16": variant(batch=16),
        "batch_64": variant(batch=64),
        "batch_tokens_512": variant(batch_tokens=512),
        "batch_tokens_2048": variant(batch_tokens=2048),
        "batch_of_32_any_length": variant(batch_tokens=8192),
        "spinning": variant(spinning=True),
    }
    rates: dict[str, list[float]] = {name: [] for name in [*variants, "default_unsorted"]}
    for _ in range(args.rounds):
        for name, embedder in variants.items():
            started = time.perf_counter()
            embedder.embed(texts)
            rates[name].append(len(texts) / (time.perf_counter() - started))
        started = time.perf_counter()
        unsorted_embed(variants["default"], texts)
        rates["default_unsorted"].append(len(texts) / (time.perf_counter() - started))
    medians = {name: round(statistics.median(v), 1) for name, v in rates.items()}
    out = {f"{k}_texts_per_s": v for k, v in medians.items()}
    out |= {f"ratio_{k}_vs_default": round(v / medians["default"], 2) for k, v in medians.items()}
    print(f"[embedder] {json.dumps(out)}")
    questions = [" ".join(t.split()[:12]) + "?" for t in texts]
    latency: dict[str, list[tuple[float, float]]] = {"sleeping": [], "spinning": []}
    for _ in range(args.rounds):
        latency["sleeping"].append(question_latency(variants["default"], questions))
        latency["spinning"].append(question_latency(variants["spinning"], questions))
    per_question = {
        f"{name}_{kind}_ms": round(statistics.median(r[i] for r in runs), 2)
        for name, runs in latency.items()
        for i, kind in enumerate(("wall", "cpu"))
    }
    print(f"[one question + 4 ms of Python] {json.dumps(per_question)}")


if __name__ == "__main__":
    main()
