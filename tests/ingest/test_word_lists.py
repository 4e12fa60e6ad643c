"""Word lists: bulleted and numbered paragraphs become list lines the stages read as a list."""

from __future__ import annotations

from pathlib import Path

import docx

from ragcite.config import load_settings
from ragcite.ingest.loaders import load_document
from ragcite.pipeline import Ragcite


def _onboarding(tmp_path: Path) -> Path:
    document = docx.Document()
    document.add_heading("Onboarding checklist", 1)
    document.add_paragraph("Before your first day:")
    document.add_paragraph("Sign the employment contract.", style="List Bullet")
    document.add_paragraph("Send a copy of your passport to HR.", style="List Bullet")
    document.add_paragraph("Choose your laptop model in the portal.", style="List Bullet")
    document.add_heading("First week", 1)
    document.add_paragraph("Complete the security training.", style="List Number")
    document.add_paragraph("Meet your onboarding buddy.", style="List Number")
    document.add_paragraph("Your manager books the first review.")
    path = tmp_path / "onboarding.docx"
    document.save(str(path))
    return path


def test_list_paragraphs_are_marked_lines_of_one_block(tmp_path: Path) -> None:
    text = load_document(_onboarding(tmp_path)).text
    assert (
        "Before your first day:\n\n- Sign the employment contract.\n"
        "- Send a copy of your passport to HR.\n- Choose your laptop model in the portal."
    ) in text
    assert (
        "1. Complete the security training.\n2. Meet your onboarding buddy.\n\n"
        "Your manager books the first review."
    ) in text


def test_a_word_list_is_answered_whole(tmp_path: Path) -> None:
    rag = Ragcite.open(
        load_settings(store_path=tmp_path / "s.db", overrides={"cache.enabled": False})
    )
    try:
        assert rag.ingest([_onboarding(tmp_path)]).added == 1
        response = rag.ask("What do I have to do before my first day?")
        assert [c.claim_text for c in response.cited_claims] == [
            "Sign the employment contract.",
            "Send a copy of your passport to HR.",
            "Choose your laptop model in the portal.",
        ]
    finally:
        rag.close()
