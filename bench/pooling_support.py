"""Does `ingest.sentence_pooling = "heading"` change the gate's verdicts on fresh claims? By hand.

    python bench/pooling_support.py               # all 1,229 held-out claims (~40 min, 2 cores)
    python bench/pooling_support.py --limit 200

With the extractive generator a claim is its evidence sentence's own form, so both sides of
the gate's semantic layer come from the store, pooled alike. An LLM's claims are embedded at
ask time and compared with the stored evidence vectors: this is where "heading" (evidence
sentences pooled inside their heading form) can differ from "separate" (embedded on their
own). On the held-out test split of the real-world attribution sets (AttributionBench, WiCE,
Factcheck-GPT), each evidence passage is stored as a chunk with a heading (its page title when
it starts "Title: ...", else its first five words); the shipped support checker then judges
each claim with the evidence vectors each mode stores (float16, as ingest stores them) and
the claim embedded fresh. Prints macro-F1 and accuracy per mode, and the verdicts that change.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Sequence

import numpy as np
from sklearn.metrics import f1_score

from ragcite.embed.base import Vectors
from ragcite.embed.cached import CachedEmbedder
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.eval.datasets import LOADERS, SupportPair, split_of
from ragcite.index.heading_plan import HeadingPlan
from ragcite.index.sentence_vectors import SentencePlan, decode_sentence_vectors
from ragcite.models import SourceChunk, SupportVerdict
from ragcite.verify.support import default_support_checker
from ragcite.verify.support.checker import SupportResult

REAL_WORLD = ("attributionbench", "wice", "factcheck_gpt")


def heading_of(evidence: str) -> str:
    """The page title of "Title: ..." evidence, else its first five words."""
    title = re.match(r"\s*Title:\s*([^\n]+)", evidence)
    return title.group(1).strip()[:80] if title else " ".join(evidence.split()[:5])


def evidence_chunks(pairs: Sequence[SupportPair]) -> list[SourceChunk]:
    texts = dict.fromkeys(e for p in pairs for e in p.evidence)
    return [
        SourceChunk(
            chunk_id=f"c{i}",
            document_id="evidence",
            document_title="evidence",
            chunk_text=text,
            section_heading=heading_of(text),
            char_start=0,
            char_end=len(text),
        )
        for i, text in enumerate(texts)
    ]


def by_form(blobs: list[bytes | None], per_chunk: list[list[str]]) -> dict[str, Vectors]:
    """Each stored form's vector, decoded from the chunks' blobs."""
    out: dict[str, Vectors] = {}
    for forms, blob in zip(per_chunk, blobs, strict=True):
        vectors = decode_sentence_vectors(blob or b"", forms)
        if vectors is not None:
            for form, vector in zip(forms, vectors, strict=True):
                out.setdefault(form, vector)
    return out


def judged(
    model: MiniLMEmbedder, stored: dict[str, Vectors], pairs: Sequence[SupportPair]
) -> list[SupportResult]:
    """The shipped checker's results with `stored` vectors cached, the claims embedded fresh."""
    embedder = CachedEmbedder(model, max_items=len(stored) + 10 * len(pairs) + 1)
    forms = list(stored)
    embedder.remember(forms, np.stack([stored[f] for f in forms]))
    return default_support_checker(embedder).check_many([(p.claim, p.evidence) for p in pairs])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="only the first LIMIT held-out claims")
    args = parser.parse_args()
    pairs = [p for name in REAL_WORLD for p in LOADERS[name]() if split_of(p) == "test"]
    pairs = pairs[: args.limit] if args.limit else pairs
    chunks = evidence_chunks(pairs)
    model = MiniLMEmbedder()
    print(f"{len(pairs)} held-out claims, {len(chunks)} evidence passages", flush=True)
    started = time.perf_counter()
    separate = SentencePlan.of(chunks)
    stored = {"separate": by_form(separate.blobs(model.embed(separate.texts)), separate.per_chunk)}
    middle = time.perf_counter()
    heading = HeadingPlan.of(chunks)
    vectors, pooled = model.embed_spans(heading.texts, heading.spans)
    stored["heading"] = by_form(heading.blobs(vectors, pooled, model.embed), heading.per_chunk)
    print(
        f"embedding: separate {middle - started:.0f} s ({len(separate.texts)} texts), "
        f"heading {time.perf_counter() - middle:.0f} s ({len(heading.texts)} texts)"
    )
    truth = np.array([p.supported for p in pairs])
    results = {mode: judged(model, vectors_of, pairs) for mode, vectors_of in stored.items()}
    for mode, found in results.items():
        said = np.array([r.verdict is SupportVerdict.SUPPORTED for r in found])
        print(
            f"{mode}: macro-F1 {f1_score(truth, said, average='macro'):.4f}, "
            f"accuracy {(said == truth).mean():.4f}"
        )
    pairs_of = list(zip(pairs, results["separate"], results["heading"], strict=True))
    changed = [(p, old, new) for p, old, new in pairs_of if old.verdict != new.verdict]
    now_right = sum(
        (new.verdict is SupportVerdict.SUPPORTED) == p.supported for p, _, new in changed
    )
    shift = np.array([new.score - old.score for _, old, new in pairs_of])
    print(
        f"verdicts changed: {len(changed)} of {len(pairs)} (heading right on {now_right}, "
        f"separate on {len(changed) - now_right}); score shift mean {shift.mean():+.4f}, "
        f"median |shift| {np.median(np.abs(shift)):.4f}"
    )


if __name__ == "__main__":
    main()
