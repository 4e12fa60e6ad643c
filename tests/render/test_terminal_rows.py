"""A quoted table row reads as its label over header/value pairs in the terminal."""

from __future__ import annotations

from rich.console import Console

from ragcite.render.terminal import table_row


def test_a_row_quote_is_shown_as_its_label_and_cells() -> None:
    console = Console(width=100, record=True, color_system=None)
    console.print(table_row("Team — Storage: 100 GB; Users: 25; Single sign-on (SSO): No"))
    lines = [line.rstrip() for line in console.export_text().splitlines()]
    assert lines[0].strip() == "Team"
    assert [line.split() for line in lines[1:]] == [
        ["Storage", "100", "GB"],
        ["Users", "25"],
        ["Single", "sign-on", "(SSO)", "No"],
    ]
    assert lines[1].startswith("       Storage")
