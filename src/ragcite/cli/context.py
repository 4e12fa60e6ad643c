"""What every command shares: settings and the pipeline, built once and only when needed.

The CLI is the local admin: it reads everything in the store unless a command is given
`--as-groups G1,G2`, which reads as a key with those groups would (public documents and
those sharing a group; `--as-groups ""`: public documents only).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from ragcite.config import Settings, load_settings
from ragcite.index.keys import parse_groups
from ragcite.pipeline import Ragcite


@dataclass
class AppContext:
    store: str | None = None
    config_path: Path | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    console: Console = field(default_factory=Console)
    _settings: Settings | None = None
    _rag: Ragcite | None = None

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            self._settings = load_settings(self.config_path, self.store, self.overrides)
        return self._settings

    @property
    def rag(self) -> Ragcite:
        if self._rag is None:
            self._rag = Ragcite.open(self.settings)
        return self._rag

    def close(self) -> None:
        if self._rag is not None:
            self._rag.close()


def _as_groups(_: click.Context, __: click.Parameter, value: str | None) -> tuple[str, ...] | None:
    return None if value is None else parse_groups(value)


as_groups_option = click.option(
    "--as-groups",
    "access_groups",
    metavar="G1,G2",
    callback=_as_groups,
    help="Read as a key with these access groups would (default: everything, as the local "
    'admin; "" for public documents only).',
)
