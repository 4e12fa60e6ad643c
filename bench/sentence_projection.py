"""Can a linear map turn a chunk pass's pooled sentence vector into the "heading" one? By hand.

    python bench/sentence_projection.py --docs 700 --out runs/projection-data.npz --check demo
    python bench/sentence_projection.py --data runs/projection-data.npz --mlp   # refit only
    python bench/sentence_projection.py --docs 700 --rich --check demo   # more chunk-pass input

The experiment of issue 14 ("spans" ingest at the cost of "heading" quality). Builds Markdown
documents from passages in ../shared/datasets that no benchmark evaluates on (SummEdits
documents, HealthVer evidence, ANLI contexts, Climate-FEVER evidence grouped by article; three
passages a document, each under a "##" heading in two documents of three), chunks them as
ingest does (load, chunk, the chunk's embedding text "title — heading"), and for each sentence
collects X = [its span pooled from the chunk's forward pass (`SpanPlan`, `embed_spans`), the
chunk's vector] and Y = what `ingest.sentence_pooling = "heading"` stores (`HeadingPlan`) for
its heading form (the reranker's and generator's) and for its one-line form (the gate's).
Documents are split train / validation / test 60 / 20 / 20 by a hash of their name. Fits ridge
regression (closed form, shrunk towards Ŷ = span, alpha chosen on validation), refits on train
+ validation, and prints mean cosine(normalised Ŷ, Y) on the test documents (and on `--check`,
e.g. the demo corpus, never fitted on) against the baseline cosine(span, Y), per source and
sentence length; `--mlp` adds a one-hidden-layer map for comparison.

Keep/drop rule (issue 14): wire a "projected" mode only if held-out cosine reaches ~0.97;
stop below 0.95. Measured 2 Dec 2026 (700 documents, 11,812 sentences, 2,439 held out), mean
cosine to the heading form / the one-line form: span alone 0.708 / 0.752; ridge 0.762 / 0.807
(demo corpus: 0.751 / 0.813, span 0.763 / 0.807); `--rich` (X also holds the heading's and the
neighbouring sentences' spans) 0.819 / 0.827 (demo 0.780 / 0.811); `--mlp` 0.700 / 0.748.
Far below the line: no "projected" mode.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from ragcite.config import ChunkSettings
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.index.heading_plan import HeadingPlan
from ragcite.index.sentence_vectors import SpanPlan, decode_sentence_vectors
from ragcite.index.source_chunks import embedding_text
from ragcite.ingest.chunker import chunk_text
from ragcite.ingest.loaders import load_document
from ragcite.models import SourceChunk
from ragcite.text.sentence_forms import sentences_with_forms

DATA = Path(__file__).resolve().parents[2] / "shared" / "datasets"


def _passages() -> Iterator[tuple[str, str, str | None]]:
    """(source, passage, its real heading or None), interleaved across sources."""
    sources: list[list[tuple[str, str, str | None]]] = []
    summ = []
    for path in sorted((DATA / "summedits").glob("summedits_*.json")):
        seen: set[str] = set()
        for row in json.loads(path.read_text(encoding="utf-8")):
            if row["doc"] not in seen:
                seen.add(row["doc"])
                summ.append((path.stem, row["doc"], None))
    sources.append(summ)
    with (DATA / "healthver" / "healthver_dev.csv").open(encoding="utf-8") as f:
        sources.append([("healthver", r["evidence"], None) for r in csv.DictReader(f)])
    anli = []
    for part in ("R1", "R2", "R3"):
        for line in (DATA / "anli" / part / "dev.jsonl").read_text(encoding="utf-8").splitlines():
            anli.append(("anli", json.loads(line)["context"], None))
    sources.append(anli)
    articles: dict[str, dict[str, None]] = defaultdict(dict)
    for line in (DATA / "climate_fever" / "climate-fever.jsonl").read_text().splitlines():
        for ev in json.loads(line)["evidences"]:
            articles[ev["article"]].setdefault(ev["evidence"].strip(), None)
    sources.append([("climate_fever", " ".join(list(ev)[:6]), art) for art, ev in articles.items()])
    for source in sources:  # drop exact duplicates across rows
        source[:] = list({p: (s, p, h) for s, p, h in source}.values())
    longest = max(len(s) for s in sources)
    for i in range(longest):
        for source in sources:
            if i < len(source):
                yield source[i]


def _heading(passage: str, real: str | None) -> str:
    return real or " ".join(passage.split()[:4]).rstrip(".,;:")


def documents(count: int, per_doc: int = 3) -> Iterator[tuple[str, str, str]]:
    """(name, source, Markdown text): `per_doc` passages each, a section heading for each
    passage in two documents of three (its real heading where the data set has one, else its
    first four words), none in the rest."""
    batch: list[tuple[str, str, str | None]] = []
    made = 0
    for item in _passages():
        batch.append(item)
        if len(batch) < per_doc:
            continue
        name = hashlib.sha256("\0".join(p for _, p, _ in batch).encode()).hexdigest()[:12]
        headed = made % 3 != 2
        parts = [f"# {batch[0][0].replace('_', ' ').title()} notes {made}\n"]
        for _, passage, real in batch:
            if headed:
                parts.append(f"## {_heading(passage, real)}\n")
            parts.append(passage.strip() + "\n")
        yield name, batch[0][0], "\n".join(parts)
        made += 1
        batch = []
        if made >= count:
            return


def split_of(name: str) -> str:
    """train / val / test by a hash of the document's name (60 / 20 / 20)."""
    share = int(hashlib.sha256(f"proj:{name}".encode()).hexdigest()[:8], 16) / 16**8
    return "train" if share < 0.6 else "val" if share < 0.8 else "test"


def chunks_of(path: Path) -> tuple[list[SourceChunk], list[str]]:
    """The chunks ingest makes of `path` and the text it embeds for each."""
    extracted = load_document(path)
    title = extracted.metadata.title or path.stem
    chunks, texts = [], []
    settings = ChunkSettings()  # ingest's defaults
    pieces = chunk_text(
        extracted, chunk_size=settings.chunk_size, chunk_overlap=settings.chunk_overlap
    )
    for i, piece in enumerate(pieces):
        chunk = SourceChunk(
            chunk_id=f"{path.stem}-{i}",
            document_id=path.stem,
            document_title=title,
            section_heading=piece.section_heading,
            chunk_text=piece.text,
            char_start=piece.char_start,
            char_end=piece.char_end,
        )
        chunks.append(chunk)
        texts.append(embedding_text(title, chunk))
    return chunks, texts


def collect(model: MiniLMEmbedder, chunks: list[SourceChunk], texts: list[str]) -> dict[str, list]:
    """Per sentence: span, chunk vector, heading-mode heading-form and plain-form vectors."""
    starts = [len(t) - len(c.chunk_text) for t, c in zip(texts, chunks, strict=True)]
    spans = SpanPlan.of(chunks, starts)
    # The heading in the first line ("title — heading") is pooled too, for `--rich`.
    heads = [
        (len(c.document_title) + 3, len(c.document_title) + 3 + len(c.section_heading))
        if c.section_heading
        else None
        for c in chunks
    ]
    asked = [own + ([head] if head else []) for own, head in zip(spans.spans, heads, strict=True)]
    vectors, pooled = model.embed_spans(texts, asked)
    zero = np.zeros(model.dimension, dtype=np.float32)
    heading = HeadingPlan.of(chunks)
    own, inner = model.embed_spans(heading.texts, heading.spans)
    blobs = heading.blobs(own, inner, model.embed)
    out: dict[str, list] = defaultdict(list)
    for c, chunk in enumerate(chunks):
        stored = decode_sentence_vectors(blobs[c] or b"", heading.per_chunk[c])
        assert stored is not None
        row = dict(zip(heading.per_chunk[c], stored, strict=True))
        sentences = sentences_with_forms(chunk.chunk_text, chunk.section_heading)
        for k, (_, _, (heading_form, _, whole)) in enumerate(sentences):
            span = pooled[c][k]
            if span is None:
                continue
            own = pooled[c][: len(spans.spans[c])]
            out["span"].append(span)
            out["chunk"].append(vectors[c])
            out["head"].append(pooled[c][-1] if heads[c] and pooled[c][-1] is not None else zero)
            out["prev"].append(own[k - 1] if k > 0 and own[k - 1] is not None else zero)
            after = own[k + 1] if k + 1 < len(own) else None
            out["next"].append(zero if after is None else after)
            out["heading"].append(row[heading_form])
            out["plain"].append(row[whole])
            out["chars"].append(len(whole))
    return out


def gather(count: int) -> dict[str, np.ndarray]:
    model = MiniLMEmbedder()
    data: dict[str, list] = defaultdict(list)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for n, (name, source, text) in enumerate(documents(count)):
            path = Path(tmp) / f"{name}.md"
            path.write_text(text, encoding="utf-8")
            chunks, texts = chunks_of(path)
            found = collect(model, chunks, texts)
            for key, values in found.items():
                data[key].extend(values)
            data["split"].extend([split_of(name)] * len(found["span"]))
            data["doc"].extend([name] * len(found["span"]))
            data["source"].extend([source] * len(found["span"]))
            if (n + 1) % 50 == 0:
                took = time.perf_counter() - started
                print(f"{n + 1} docs, {len(data['span'])} sentences, {took:.0f} s", flush=True)
    return {k: np.array(v) for k, v in data.items()}


EXTRA: list[str] = []  # `--rich`: also the heading's, previous and next sentences' spans


def features(data: dict[str, np.ndarray]) -> np.ndarray:
    x = np.hstack([data[k] for k in ("span", "chunk", *EXTRA)]).astype(np.float64)
    return np.hstack([x, np.ones((len(x), 1))])


def ridge(x: np.ndarray, y: np.ndarray, alpha: float) -> np.ndarray:
    """Ridge regression shrunk towards the identity on the span part (Ŷ = span when alpha is
    large): the closed form fitted to the residual Y - span."""
    penalty = alpha * np.eye(x.shape[1])
    penalty[-1, -1] = 0.0  # no penalty on the bias
    dim = y.shape[1]
    w = np.linalg.solve(x.T @ x + penalty, x.T @ (y - x[:, :dim]))
    w[:dim] += np.eye(dim)
    return w


def cosines(predicted: np.ndarray, target: np.ndarray) -> np.ndarray:
    p = predicted / np.linalg.norm(predicted, axis=1, keepdims=True)
    t = target / np.linalg.norm(target, axis=1, keepdims=True)
    return (p * t).sum(axis=1)


def fit(data: dict[str, np.ndarray], target: str) -> tuple[np.ndarray, float]:
    """The map for `target` ("heading" or "plain"), alpha chosen on validation, refitted on
    train + validation."""
    x, y, split = features(data), data[target].astype(np.float64), data["split"]
    train, val = split == "train", split == "val"
    scores = {}
    for alpha in (0.3, 1.0, 3.0, 10.0, 30.0):
        scores[alpha] = float(cosines(x[val] @ ridge(x[train], y[train], alpha), y[val]).mean())
    alpha = max(scores, key=lambda a: scores[a])
    print(f"  {target}: validation cosine by alpha {scores}")
    return ridge(x[train | val], y[train | val], alpha), alpha


def _line(label: str, got: np.ndarray, base: np.ndarray) -> str:
    return (
        f"  {label:<28} n={len(got):>5}  mapped {got.mean():.4f} (p10 {np.percentile(got, 10):.4f})"
        f"  span {base.mean():.4f} (p10 {np.percentile(base, 10):.4f})"
    )


def report(data: dict[str, np.ndarray], others: dict[str, dict[str, np.ndarray]]) -> None:
    """Held-out mean cosine(mapped, Y) vs cosine(span, Y), overall, per source and length."""
    split = data["split"]
    print({s: int((split == s).sum()) for s in ("train", "val", "test")}, "sentences per split")
    for target in ("heading", "plain"):
        w, alpha = fit(data, target)
        sets = {"test": {k: v[split == "test"] for k, v in data.items()}, **others}
        for name, part in sets.items():
            y = part[target].astype(np.float64)
            got = cosines(features(part) @ w, y)
            base = cosines(part["span"].astype(np.float64), y)
            print(f"{target} (alpha {alpha}) on {name}:")
            print(_line("all", got, base))
            for source in sorted(set(part["source"])) if len(others) == 0 or name == "test" else []:
                mask = part["source"] == source
                print(_line(str(source), got[mask], base[mask]))
            for low, high in ((0, 60), (60, 150), (150, 10**6)):
                mask = (part["chars"] >= low) & (part["chars"] < high)
                if mask.any():
                    print(_line(f"{low}-{high} chars", got[mask], base[mask]))


def mlp_ceiling(data: dict[str, np.ndarray], target: str) -> None:
    """A non-linear map for comparison (one hidden layer, fitted to the residual Y - span):
    how much better than linear can the chunk pass's two vectors get?"""
    from sklearn.neural_network import MLPRegressor

    split = data["split"]
    x, y = features(data)[:, :-1], data[target].astype(np.float64)
    fitted = split != "test"
    net = MLPRegressor(
        hidden_layer_sizes=(1024,), alpha=1e-3, early_stopping=True, max_iter=200, random_state=0
    )
    span = data["span"].astype(np.float64)
    net.fit(x[fitted], (y - span)[fitted])
    test = split == "test"
    got = cosines(span[test] + net.predict(x[test]), y[test])
    print(_line(f"MLP {target} on test", got, cosines(span[test], y[test])))


def gather_folder(folder: Path) -> dict[str, np.ndarray]:
    """The same vectors for the files of `folder` (e.g. the demo corpus: a check only)."""
    model = MiniLMEmbedder()
    data: dict[str, list] = defaultdict(list)
    for path in sorted(folder.iterdir()):
        if path.name.endswith(".meta.yaml") or path.suffix == ".jsonl":
            continue
        chunks, texts = chunks_of(path)
        found = collect(model, chunks, texts)
        for key, values in found.items():
            data[key].extend(values)
        data["source"].extend([path.name] * len(found["span"]))
    return {k: np.array(v) for k, v in data.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=400, help="documents to build and embed")
    parser.add_argument("--out", type=Path, help="save the collected vectors here (.npz)")
    parser.add_argument("--data", type=Path, help="fit on vectors saved earlier instead")
    parser.add_argument("--check", type=Path, help="also report on this folder (e.g. demo)")
    parser.add_argument("--mlp", action="store_true", help="also fit a non-linear map")
    parser.add_argument(
        "--rich",
        action="store_true",
        help="X also holds the heading's, previous and next sentences' pooled spans",
    )
    args = parser.parse_args()
    if args.data:
        data = dict(np.load(args.data))
    else:
        data = gather(args.docs)
        if args.out:
            np.savez_compressed(args.out, **data)
    if args.rich:
        EXTRA.extend(["head", "prev", "next"])
    others = {str(args.check): gather_folder(args.check)} if args.check else {}
    report(data, others)
    if args.mlp:
        for target in ("heading", "plain"):
            mlp_ceiling(data, target)


if __name__ == "__main__":
    main()
