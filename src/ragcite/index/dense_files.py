"""The embedded store's dense index on disk, beside the store file.

Each save writes the faiss index under a name no other save uses,
`<store>.dense-g<generation>-<token>.faiss`, with `.ids.npy` (the rowid of each position),
`.dead.npy` (the positions masked since) and `.vectors` (the float16 copies the
approximate index re-ranks with: pq_scan.py), then moves `<store>.dense-g<generation>.json`
into place (`os.replace`): `IndexState` (which store, the last removal applied, the
generation) and the name of the index it describes. A reader follows the `.json`, so it
never sees half an index or a mix of two processes' saves. `<store>.dense-g<generation>.faiss`
without a `.json` is the older layout (written before removals were logged; its rowids in
`.faiss.ids.npy`): it is used only at exactly its generation.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from dataclasses import asdict, dataclass
from pathlib import Path

from ragcite.index.vector_index import VectorIndex

_GENERATION = re.compile(r"\.dense-g(\d+)(?:\.json|\.faiss)$")


@dataclass(frozen=True)
class IndexState:
    """What a dense index reflects: the store (`store_id`), the removals applied (every
    `chunk_removals.seq` up to `removal_seq`) and the store's generation then."""

    store_id: str
    removal_seq: int
    generation: int


class DamagedIndexFile(Exception):
    """A saved index that cannot be read back."""


class MissingIndexFile(Exception):
    """A saved index gone (removed by another process after a newer save)."""


def legacy_index_path(store: Path, generation: int) -> Path:
    """Where the older layout kept the index of `store` at `generation`."""
    return store.with_name(f"{store.name}.dense-g{generation}.faiss")


def state_path(store: Path, generation: int) -> Path:
    """The `.json` naming the index of `store` saved at `generation`."""
    return store.with_name(f"{store.name}.dense-g{generation}.json")


def saved_generations(store: Path) -> list[int]:
    """The generations with an index saved beside `store`, newest first."""
    found = set()
    for path in store.parent.glob(f"{store.name}.dense-g*"):
        match = _GENERATION.search(path.name[len(store.name) :])
        if match:
            found.add(int(match.group(1)))
    return sorted(found, reverse=True)


def read_index(store: Path, generation: int) -> tuple[VectorIndex, IndexState | None]:
    """The index saved for `store` at `generation` and its state (None: the older layout).
    DamagedIndexFile when a part is unreadable or the parts disagree; MissingIndexFile
    when the files are gone."""
    pointer = state_path(store, generation)
    try:
        state: IndexState | None = None
        path = legacy_index_path(store, generation)
        if pointer.exists():
            found = json.loads(pointer.read_text(encoding="utf-8"))
            state, name = _state_from(found), found.get("index")
            if not isinstance(name, str) or Path(name).name != name:
                raise ValueError("the .json names no index file")
            path = store.with_name(name)
        elif not path.exists():
            raise MissingIndexFile(f"{path}: no saved index")
        elif Path(f"{path}.dead.npy").exists():
            raise ValueError("a dead mask without a .json: not the older layout")
        return VectorIndex.load(path), state
    except FileNotFoundError as exc:
        raise MissingIndexFile(f"{pointer}: {exc.strerror}") from None
    except (OSError, RuntimeError, ValueError, TypeError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DamagedIndexFile(f"{pointer}: {reason}") from None


def _state_from(found: object) -> IndexState:
    keys = {"store_id", "removal_seq", "generation", "index"}
    if not isinstance(found, dict) or set(found) != keys:
        raise ValueError("the .json does not hold an index state")
    state = IndexState(found["store_id"], found["removal_seq"], found["generation"])
    if not isinstance(state.store_id, str) or not all(
        isinstance(n, int) for n in (state.removal_seq, state.generation)
    ):
        raise ValueError("the .json holds values of the wrong type")
    return state


def write_index(store: Path, index: VectorIndex, state: IndexState) -> None:
    """Save `index` for `store` at `state.generation`, then remove the files of older
    generations (those of newer ones may be another process's, ahead of this one)."""
    path = store.with_name(f"{store.name}.dense-g{state.generation}-{secrets.token_hex(6)}.faiss")
    index.save(path)
    write_state(store, path, state)
    remove_saved(store, older_than=state.generation)


def write_state(store: Path, index_path: Path, state: IndexState) -> None:
    """Point `store`'s `.json` for `state.generation` at the index saved at `index_path`
    (also how a file of the older layout is upgraded)."""
    pointer = state_path(store, state.generation)
    partial = pointer.with_name(f"{pointer.name}.{os.getpid()}.part")
    partial.write_text(json.dumps(asdict(state) | {"index": index_path.name}), encoding="utf-8")
    os.replace(partial, pointer)


def remove_saved(store: Path, *, older_than: int | None = None, keep: int | None = None) -> None:
    """Remove saved index files: those of generations below `older_than`, or (without
    it) every one but generation `keep`. Best effort: a file in use elsewhere stays."""
    for path in store.parent.glob(f"{store.name}.dense-g*"):
        match = re.match(r"\.dense-g(\d+)[.-]", path.name[len(store.name) :])
        if match is None:
            continue
        generation = int(match.group(1))
        if generation != keep and (older_than is None or generation < older_than):
            with contextlib.suppress(OSError):
                path.unlink()
