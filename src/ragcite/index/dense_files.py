"""The embedded store's dense index on disk, beside the store file.

`<store>.dense-g<generation>.faiss` holds the faiss index, with `.faiss.ids.npy` (the
rowid of each position), `.faiss.dead.npy` (the positions masked since) and
`.faiss.json` (`IndexState`: which store it belongs to, the last removal it applied, the
generation it matches). Every file is written under a temporary name and moved into
place (`os.replace`), the `.json` last, so a reader never sees half an index; a `.faiss`
without its `.json` is either the older layout (written before removals were logged:
only used at exactly its generation) or an unfinished write (rejected).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from ragcite.index.vector_index import VectorIndex

_GENERATION = re.compile(r"\.dense-g(\d+)\.faiss$")


@dataclass(frozen=True)
class IndexState:
    """What a dense index reflects: the store (`store_id`), the removals applied (every
    `chunk_removals.seq` up to `removal_seq`) and the store's generation then."""

    store_id: str
    removal_seq: int
    generation: int


class DamagedIndexFile(Exception):
    """A saved index that cannot be read back."""


def saved_index_path(store: Path, generation: int) -> Path:
    """Where the index of `store` at `generation` is kept."""
    return store.with_name(f"{store.name}.dense-g{generation}.faiss")


def saved_generations(store: Path) -> list[int]:
    """The generations with an index file beside `store`, newest first."""
    found = []
    for path in store.parent.glob(f"{store.name}.dense-g*.faiss"):
        match = _GENERATION.search(path.name)
        if match:
            found.append(int(match.group(1)))
    return sorted(found, reverse=True)


def read_index(path: Path) -> tuple[VectorIndex, IndexState | None]:
    """The index saved at `path` and its state (None: the older layout, no `.json`).
    DamagedIndexFile when any part is unreadable or the parts disagree."""
    state_path = Path(f"{path}.json")
    try:
        state: IndexState | None = None
        if state_path.exists():
            state = _state_from(json.loads(state_path.read_text(encoding="utf-8")))
        elif Path(f"{path}.dead.npy").exists():
            raise ValueError("a dead mask without its .json: an unfinished write")
        return VectorIndex.load(path), state
    except (OSError, RuntimeError, ValueError, TypeError) as exc:
        raise DamagedIndexFile(f"{path}: {str(exc).splitlines()[0] if str(exc) else exc}") from None


def _state_from(found: object) -> IndexState:
    if not isinstance(found, dict) or set(found) != {"store_id", "removal_seq", "generation"}:
        raise ValueError("the .json does not hold an index state")
    state = IndexState(**found)
    if not isinstance(state.store_id, str) or not all(
        isinstance(n, int) for n in (state.removal_seq, state.generation)
    ):
        raise ValueError("the .json holds values of the wrong type")
    return state


def write_index(store: Path, index: VectorIndex, state: IndexState) -> Path:
    """Save `index` for `store` at `state.generation`, then remove the files of older
    generations (those of newer ones may be another process's, ahead of this one)."""
    path = saved_index_path(store, state.generation)
    partial = path.with_name(f"{path.name}.{os.getpid()}.part")
    with index.mutation:  # the state must describe the same vectors as the file
        index.save(partial)
        for suffix in (".ids.npy", ".dead.npy"):
            os.replace(f"{partial}{suffix}", f"{path}{suffix}")
        os.replace(partial, path)
    write_state(path, state)
    remove_saved(store, older_than=state.generation)
    return path


def write_state(path: Path, state: IndexState) -> None:
    """Write the `.json` beside the index at `path` (also how an older file is upgraded)."""
    partial = Path(f"{path}.json.{os.getpid()}.part")
    partial.write_text(json.dumps(asdict(state)), encoding="utf-8")
    os.replace(partial, f"{path}.json")


def remove_saved(store: Path, *, older_than: int | None = None, keep: int | None = None) -> None:
    """Remove saved index files: those of generations below `older_than`, or (without
    it) every one but generation `keep`. Best effort: a file in use elsewhere stays."""
    for generation in saved_generations(store):
        if generation == keep or (older_than is not None and generation >= older_than):
            continue
        path = saved_index_path(store, generation)
        for name in (path, *(Path(f"{path}{s}") for s in (".ids.npy", ".dead.npy", ".json"))):
            with contextlib.suppress(OSError):
                name.unlink(missing_ok=True)
