"""Stems: a light suffix-stripping stemmer with irregular forms, and plural trimming.

Good enough to match "closing" with "closed" and "kept" with "keeps" (the support
checker's content words), with no dictionary and no dependency.

>>> stem("closing"), stem("kept"), trim_plural("magazines")
('clos', 'keep', 'magazine')
"""

from __future__ import annotations

from functools import lru_cache

_SUFFIXES = (
    "ational",
    "ization",
    "ations",
    "ation",
    "ments",
    "ment",
    "ness",
    "ingly",
    "ings",
    "ing",
    "edly",
    "ies",
    "ied",
    "ers",
    "er",
    "ed",
    "es",
    "ly",
    "s",
)


# Irregular past forms and plurals the suffix rules cannot reach ("kept" / "keeps"),
# mapped to a base the rules then stem like its regular forms. Ambiguous ones stay out
# ("left", "saw", "rose", "fell", "lay", "ground").
_IRREGULAR_FORMS: dict[str, tuple[str, ...]] = {
    base: tuple(forms.split())
    for base, forms in {
        "arise": "arose arisen",
        "become": "became",
        "begin": "began begun",
        "blow": "blew blown",
        "break": "broke broken",
        "bring": "brought",
        "build": "built",
        "buy": "bought",
        "catch": "caught",
        "child": "children",
        "choose": "chose chosen",
        "come": "came",
        "deal": "dealt",
        "draw": "drew drawn",
        "drink": "drank",
        "drive": "drove driven",
        "eat": "ate eaten",
        "feed": "fed",
        "feel": "felt",
        "fight": "fought",
        "find": "found",
        "flee": "fled",
        "fly": "flew flown",
        "foot": "feet",
        "forget": "forgot forgotten",
        "freeze": "froze frozen",
        "get": "got gotten",
        "give": "gave given",
        "go": "went gone",
        "grow": "grew grown",
        "hear": "heard",
        "hide": "hid hidden",
        "hold": "held",
        "keep": "kept",
        "know": "knew known",
        "lead": "led",
        "lend": "lent",
        "lose": "lost",
        "make": "made",
        "man": "men",
        "mean": "meant",
        "meet": "met",
        "mouse": "mice",
        "pay": "paid",
        "rise": "risen",
        "run": "ran",
        "say": "said",
        "see": "seen",
        "seek": "sought",
        "sell": "sold",
        "send": "sent",
        "show": "shown",
        "sing": "sang sung",
        "sleep": "slept",
        "speak": "spoke spoken",
        "spend": "spent",
        "stand": "stood",
        "steal": "stole stolen",
        "stick": "stuck",
        "strike": "struck",
        "take": "took taken",
        "teach": "taught",
        "tell": "told",
        "think": "thought",
        "throw": "threw thrown",
        "tooth": "teeth",
        "understand": "understood",
        "wear": "wore worn",
        "win": "won",
        "withdraw": "withdrew withdrawn",
        "woman": "women",
        "write": "wrote written",
    }.items()
}
_IRREGULAR = {form: base for base, forms in _IRREGULAR_FORMS.items() for form in forms}


def irregular_forms(word: str) -> tuple[str, ...]:
    """The other forms of an irregular word (lower case), base first: what a keyword search
    adds so that "lose" finds "lost" and "kept" finds "keep" (a stemmer cannot reach them).

    >>> irregular_forms("lose"), irregular_forms("kept"), irregular_forms("closed")
    (('lost',), ('keep',), ())
    """
    base = _IRREGULAR.get(word, word)
    forms = _IRREGULAR_FORMS.get(base)
    if forms is None:
        return ()
    return tuple(f for f in (base, *forms) if f != word)


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """A light suffix-stripping stem; good enough to match 'closing' with 'closed', and
    'kept' with 'keeps'."""
    w = word.lower().replace("’", "'").removesuffix("'s").strip("'.-").replace(".", "")
    w = _IRREGULAR.get(w, w)
    if w.isdigit() or len(w) <= 3:
        return w
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    # Final e's go too, so "store"/"stores", "remote"/"remotely", "employee(s)" agree.
    stripped = w.rstrip("e")
    return stripped if len(stripped) >= 3 else w


@lru_cache(maxsize=200_000)  # the reranker trims every word of every candidate sentence
def trim_plural(word: str) -> str:
    """A plural "s" dropped from a word of more than 3 letters ("stores" -> "store", but
    "class" and "bus" stay): the reranker's lighter normalisation."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word
