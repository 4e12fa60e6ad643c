"""Words: the one tokenizer every stage shares, its named views, and the stopword lists.

One place, so that the keyword index, the extractive generator, the quote check, the
unattributed-sentence check, the support checker and the reranker agree on what a word
is (the eval labels alone keep their own, on purpose: see
`ragcite.eval.labels`). Two cuts of the same text, built from the same letter and digit
classes (Unicode-aware):

* `words` — plain words: runs of letters and digits, case-folded; any other character
  splits ("don't" -> "don", "t"; "COVID-19" -> "covid", "19"). This is how SQLite FTS5's
  unicode61 tokenizer cuts text, so keyword queries built from it match the index.
* `tokens` — words and numbers as written, for checks that read them: a number keeps its
  currency sign, separators, decimals and scale ("$1,200.50", "5k"; the checks read a
  following "%" or unit themselves), a word keeps inner apostrophes, dots and hyphens
  ("don't", "U.S", "well-known") and holds letters only ("COVID-19" -> "COVID", "19").

Views on them: `content_words` (plain words minus stopwords) and `word_spans` (plain
words with their offsets); stems are in `ragcite.text.stems`. The shipped support and
reranker models were trained with these: change them and retrain (`ragcite train`).

>>> words("Don't pay $1,200.50 for COVID-19 tests")
['don', 't', 'pay', '1', '200', '50', 'for', 'covid', '19', 'tests']
>>> tokens("Don't pay $1,200.50 for COVID-19 tests")
["Don't", 'pay', '$1,200.50', 'for', 'COVID', '19', 'tests']
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from ragcite.text.stems import stem

_LETTER = r"[^\W\d_]"
_LETTER_OR_DIGIT = r"[^\W_]"
WORD = re.compile(rf"{_LETTER_OR_DIGIT}+")
_ASCII_WORD = re.compile(r"[a-z0-9]+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")  # WORD on lower-case ASCII text, faster
# Every ASCII character but a letter or digit to a space: the words of ASCII text split out.
_ASCII_NON_WORD = bytes(c if chr(c).isalnum() else 32 for c in range(128)) + bytes(range(128, 256))
TOKEN = re.compile(
    r"\$?\d[\d,]*(?:\.\d+)?%?[kKmMbB]?\b"  # a number: 12, 1,200.50, $5, 5k
    rf"|{_LETTER}+(?:['’.-]+{_LETTER}+)*"  # a word, with inner apostrophes, dots, hyphens
)

# Function words: they carry no content of their own.
STOPWORDS = frozenset(
    """
    a about above after again all also although am an and any are as at be because been before
    being below between both but by can could did do does doing don down during each else few
    for from further get got had has have having he her here hers him his how i if in into is
    it it's its just like may me might mine more most must my now of off on once one's only
    onto or other our out over own per s same shall she should so some someone something such t
    than that the their theirs them then there these they this those though through to too
    under until up us very via was we well were what when where whether which while who whom
    whose why will with would yet you your
    """.split()
)

# Words that shape a question ("how long", "what is it called") but never name its topic.
# Past participles that do not end in -ed ("kept", "bought"); forms that are also common
# nouns ("set", "run", "lead") are not listed.
IRREGULAR_PARTICIPLES = frozenset(
    """
    kept held paid made done given taken sent spent built bought sold told brought caught
    taught sought chosen written spoken shown known seen grown drawn driven broken stolen
    hidden begun forgotten understood withdrawn undertaken overseen forbidden
    """.split()
)
# Adverbs that stand between the asker and the verb ("can I still get …", "I really need
# to …"): they say nothing of what is done.
HEDGES = frozenset(
    "really just only also still even ever actually already definitely probably".split()
)
# Contractions typed without their apostrophe ("he didnt live here", "whats the fee"): no
# typo of a passage word ("dont" is not "done").
UNAPOSTROPHISED = frozenset(
    """
    didnt doesnt isnt arent wasnt werent hasnt havent hadnt shouldnt couldnt wouldnt mustnt
    neednt dont cant wont aint im ive youre youve theyre theyve weve whats thats theres hows
    whos wheres shes hes
    """.split()
)
QUESTION_WORDS = frozenset("long many much called named known name one done either".split())
# What a question's wording is made of besides its content: stopwords and question words.
QUESTION_STOPWORDS = STOPWORDS | QUESTION_WORDS


def words(text: str) -> list[str]:
    """The plain words of `text`, case-folded: runs of letters and digits."""
    if text.isascii():  # the same words, folded in one pass
        return text.encode("ascii").translate(_ASCII_NON_WORD).decode("ascii").lower().split()
    if not any(c.isalnum() for c in _NON_ASCII.findall(text)):  # only its ASCII splits: as ASCII
        plain = text.encode("ascii", "replace").translate(_ASCII_NON_WORD).decode("ascii")
        return plain.lower().split()
    return [w.casefold() for w in WORD.findall(text)]


def word_spans(text: str) -> list[tuple[str, int, int]]:
    """Each plain word of `text`, case-folded, with its start and end offsets."""
    if text.isascii():  # lower() keeps every offset of ASCII text
        return [(m.group(), m.start(), m.end()) for m in _ASCII_WORD.finditer(text.lower())]
    return [(m.group().casefold(), m.start(), m.end()) for m in WORD.finditer(text)]


def has_words(text: str) -> bool:
    """True when `text` holds at least one letter or digit."""
    return WORD.search(text) is not None


def words_within(text: str, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether every plain word of `text` lies inside one of `spans` (ordered, not
    overlapping): then the words of the spans' texts, together, are the words of `text`.

    >>> words_within("Keep it. Then go.", [(0, 8), (9, 17)]), words_within("ab", [(0, 1), (1, 2)])
    (True, False)
    """
    end = 0
    for start, stop in spans:
        if start < end or has_words(text[end:start]):
            return False
        if 0 < start == end and WORD.fullmatch(text[start - 1 : start + 1]):
            return False  # two spans cut a word
        end = stop
    return not has_words(text[end:])


def tokens(text: str) -> list[str]:
    """The words and numbers of `text` as written (case kept)."""
    return TOKEN.findall(text)


def content_words(text: str, stopwords: Collection[str] = STOPWORDS) -> list[str]:
    """The plain words of `text` that are not stopwords (`stopwords` may add lists,
    e.g. `QUESTION_STOPWORDS`)."""
    return [w for w in words(text) if w not in stopwords]


def content_stems(text: str, stopwords: Collection[str] = STOPWORDS) -> set[str]:
    """The stems of `text`'s content words ("lifts": "lift")."""
    return {stem(w) for w in content_words(text, stopwords)}
