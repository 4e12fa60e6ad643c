"""HTTP latency of `ragcite serve` on the demo corpus, run by hand (never in the test suite).

    python bench/server_latency.py                  # 4 concurrent clients, 5 rounds
    python bench/server_latency.py --clients 1 --rounds 3

Starts `ragcite serve` as its own process on a free loopback port over a fresh store of
the demo corpus, then reports:
- POST /ask, first time: each demo question once, on a fresh server (cold embedding caches).
- POST /ask: p50 / p95 latency with N concurrent clients, each asking the demo questions
  in turn on the now warm server, and the throughput; beside it, the peer "pipeline alone"
  (the server's own timings_ms.total), so the HTTP layer's overhead is visible.
- POST /ask/stream, one client at a time: time to the first byte (`started`), to the first
  verified claim, and to the final response.
- The same two on fresh questions (the labelled set's other answerable questions, each asked
  once, so nothing is cached): the figures a new question meets.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = [
    "How long do we keep customer PII, and does the EU differ from the US?",
    "How long are system backups kept now?",
    "How much parental leave does the primary caregiver get?",
    "What is the company match on 401(k) contributions?",
    "How much notice do I have to give if I resign?",
    "How quickly do I have to report a suspected security incident?",
    "Can I use SMS codes as my second factor for MFA?",
    "Until when can hardware bought during the holidays be returned?",
    "Who has to approve an expense over $5,000?",
    "How long can I work from another country?",
    "What is the vesting schedule for employee stock options?",
    "Does our health insurance include dental cover?",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(store: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "RAGCITE_STORE": str(store)}
    server = subprocess.Popen(
        [sys.executable, "-m", "ragcite.cli.main", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited: {server.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).raise_for_status()
            return server
        except httpx.HTTPError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start within 60 s")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_ask(base: str, clients: int, rounds: int) -> dict[str, float]:
    def one_client(offset: int) -> list[tuple[float, float]]:
        timings = []
        with httpx.Client(base_url=base, timeout=120) as http:
            for i in range(rounds * len(QUESTIONS) // clients):
                question = QUESTIONS[(offset + i) % len(QUESTIONS)]
                started = time.perf_counter()
                reply = http.post("/ask", json={"question": question})
                elapsed = (time.perf_counter() - started) * 1000
                reply.raise_for_status()
                timings.append((elapsed, reply.json()["timings_ms"].get("total", 0.0)))
        return timings

    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        results = [t for ts in pool.map(one_client, range(clients)) for t in ts]
    wall = time.perf_counter() - started
    http_ms = [h for h, _ in results]
    pipeline_ms = [p for _, p in results]
    return {
        "requests": len(results),
        "p50_ms": round(statistics.median(http_ms), 1),
        "p95_ms": round(percentile(http_ms, 0.95), 1),
        "pipeline_p50_ms": round(statistics.median(pipeline_ms), 1),
        "throughput_rps": round(len(results) / wall, 2),
    }


def bench_ask_fresh(base: str, clients: int, questions: list[str]) -> dict[str, float]:
    """N clients at once, each question asked once: nothing is in the embedding cache yet."""

    def ask(question: str) -> float:
        started = time.perf_counter()
        httpx.post(f"{base}/ask", json={"question": question}, timeout=120).raise_for_status()
        return (time.perf_counter() - started) * 1000

    with ThreadPoolExecutor(clients) as pool:
        elapsed = list(pool.map(ask, questions))
    return {
        "requests": len(elapsed),
        "p50_ms": round(statistics.median(elapsed), 1),
        "p95_ms": round(percentile(elapsed, 0.95), 1),
    }


def bench_stream(base: str, rounds: int, questions: list[str] | None = None) -> dict[str, float]:
    first_byte, first_claim, final = [], [], []
    with httpx.Client(base_url=base, timeout=120) as http:
        for _ in range(rounds):
            for question in questions or QUESTIONS[:10]:  # answerable ones: they have claims
                started = time.perf_counter()
                seen_byte = seen_claim = None
                with http.stream("POST", "/ask/stream", json={"question": question}) as reply:
                    for line in reply.iter_lines():
                        now = (time.perf_counter() - started) * 1000
                        if seen_byte is None:
                            seen_byte = now
                        if line == "event: claim" and seen_claim is None:
                            seen_claim = now
                end = (time.perf_counter() - started) * 1000
                first_byte.append(seen_byte or end)
                final.append(end)
                if seen_claim is not None:
                    first_claim.append(seen_claim)
    return {
        "streams": len(final),
        "first_byte_p50_ms": round(statistics.median(first_byte), 1),
        "first_claim_p50_ms": round(statistics.median(first_claim), 1) if first_claim else -1,
        "final_response_p50_ms": round(statistics.median(final), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "demo.db"
        rag = Ragcite.open(load_settings(store_path=store))
        rag.ingest([ROOT / "demo"])
        rag.close()
        port = free_port()
        server = start_server(store, port)
        base = f"http://127.0.0.1:{port}"
        try:
            cold = []
            for question in QUESTIONS:  # a fresh server: each question's first ask
                started = time.perf_counter()
                httpx.post(f"{base}/ask", json={"question": question}, timeout=120)
                cold.append((time.perf_counter() - started) * 1000)
            labelled = [
                json.loads(line)["query"]
                for line in (ROOT / "eval" / "demo.jsonl").read_text().splitlines()
                if line.strip() and json.loads(line)["answerable"]
            ]
            fresh = [q for q in labelled if q not in QUESTIONS]
            half = len(fresh) // 2
            report = {
                "cpus": os.cpu_count(),
                "ask_first_time_1_client_p50_ms": round(statistics.median(cold), 1),
                f"ask_fresh_questions_{args.clients}_clients": bench_ask_fresh(
                    base, args.clients, fresh[:half]
                ),
                "ask_stream_fresh_questions_1_client": bench_stream(base, 1, fresh[half:]),
                f"ask_{args.clients}_clients": bench_ask(base, args.clients, args.rounds),
                "ask_stream_1_client": bench_stream(base, max(1, args.rounds // 2)),
            }
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
