"""What every command shares: settings and the pipeline, built once and only when needed."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from ragcite.config import Settings, load_settings
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
