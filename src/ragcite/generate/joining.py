"""Which sentences join the one that answers best, and the candidates they are chosen from.

The extractive generator scores each sentence of the retrieved chunks (`Candidate`) and
takes the best by `rank`; the sentences here join it: the one it leans on (a pronoun, a
rule it follows from), the first sentence of the FAQ answer it is part of, its neighbour
when the answer may be one step on or is an exception to it, the best sentence of another
passage and a more relevant sentence holding the question word the chosen ones lack
(`ragcite.generate.rivals`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Set
from dataclasses import dataclass, replace
from functools import partial

from ragcite.generate.bridge import PRONOUNS, points_back
from ragcite.generate.escalation import asks_past_first_step, escalates
from ragcite.generate.focus import question_focus, question_proper, states_focus
from ragcite.generate.sentence_choice import stems
from ragcite.text.contacts import gives_contact, is_contact_line, wanted_contact
from ragcite.text.labels import label_of
from ragcite.text.prices import asks_price, prices_the_other_case, states_price
from ragcite.text.table_rows import is_table_row
from ragcite.text.times_of_day import asks_time_of_day, gives_time_of_day
from ragcite.text.words import content_stems, words

# The question map may not make a price question answerable with a priced sentence less
# relevant than the best sentence without it (which gives no price, so the reading check
# declines): "how much do the navy PE shorts cost?" over the PE polo shirt's row, when the
# sentence naming the shorts gives no price. Within this much of its relevance the map's
# order stands ("is there a charge to take the broadband with us when we move?" over "3.5
# Moving home: … a home move fee of £…").
_PRICE_MAP_SLACK = 0.01
# A further sentence joins the answer only when it is about as likely to hold it as the best.
# A sentence is ranked by its relevance plus this share of its choice probability: the
# model breaks near-ties (the consequence after the rule it follows), relevance keeps the
# sentence that plainly states the answer (measured on the demo questions, held out).
_CHOICE_WEIGHT = 0.25
# A table row whose label the question names or whose range holds the question's number
# ("Who approves a $25,000 purchase?" and the row "$10,001 to $50,000") ranks this higher.
_ROW_FIT = 0.1
# The answer is often one step from the sentence most like the question ("… released by 10
# Years in 2006." then "Their eighth studio album, … As Ghosts, …"): a neighbour of the best
# sentence joins it when it ranks within this margin and is this likely to hold the answer,
# or when it covers at least this many of the question's words the best one lacks. Chosen
# on held-out SQuAD and HaluEval questions against the demo set's claims correct
# (bench/answer_choice.py): wider margins answered more and cited more that did not answer.
_NEIGHBOUR_MARGIN = 0.1
_NEIGHBOUR_CHOICE = 0.4
NEIGHBOUR_NEW_WORDS = 2
# A neighbour also joins when the question asks for one of these kinds of answer ("How long is
# the journey?"), the best sentence has none and the neighbour has one ("It takes 40 minutes").
# Permission and yes/no signs (modals, "not", "only") are in most policy sentences: left out.
_TYPED_FOCI = frozenset(("duration", "amount", "date", "consequence", "role", "place", "reason"))
# A how-long, how-much or when question's answer states a duration, an amount or a date;
# a sentence ranked this close to the best one that states it joins when none chosen does.
_MEASURED_FOCI = frozenset(("duration", "amount", "date"))
_TYPED_MARGIN = 0.03
# A what-time question's answer without a time of day is declined by the reading check, so
# a sentence that gives one is joined from further down.
_DECLINED_MARGIN = 0.12
_CLOCK_STEMS = stems("time times hour hours open opens close closes start starts finish ends")
# A rule's exception or limit leans on the rule (quoted with it when chosen), and on a may-I
# or yes/no question it joins the rule, since it may decide the answer: "Gifts worth up to
# EUR 50 may be accepted. Anything above that must be declined."
_EXCEPTION = (
    r"(?:Anything|Anyone|Everything|Everyone|Nothing|No\s+one)\s+"
    r"(?:above|over|below|under|beyond|else|more|less|other)\b"
    r"|(?:Above|Below|Beyond|Over|Under|Past)\s+(?:that|this|these|those|it|them)\b"
)
# A sentence that opens on these words leans on the one before it: both are quoted. Case
# matters: "IT enables encryption" names a department, "It is encrypted" points back.
_ANAPHOR = re.compile(
    r"^\W*(?:(?:[Ii]t|[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose|[Tt]hey|[Ss]uch|[Ii]ts|[Tt]heir|"
    r"[Tt]here|[Hh]e|[Ss]he|[Hh]is|[Hh]er)\b|[Tt]he\s+(?:latter|former)\b|"
    # "Notable examples include …": examples of what the sentence before names
    r"(?:(?:[Nn]otable|[Oo]ther|[Cc]ommon|[Tt]ypical)\s+)?[Ee]xamples\s+(?:include|are)\b|"
    # a turn on the sentence before: "However, if we relet your pitch, we refund 50% of it."
    r"(?:[Hh]owever|[Oo]therwise|[Ii]nstead|[Ii]f\s+so|[Ii]f\s+not|[Ii]n\s+that\s+case),|"
    + _EXCEPTION
    + ")"
)
# The sentence right after the best one that opens by pointing back at its subject carries
# on about it, and often says what the question asks ("Uploads are limited to 50 MB. They
# are rejected with status 413 above it.", "The region is chosen at sign-up. It cannot be
# changed later.", "Garth School is in Georgetown. It was originally called Lebanon."):
# it joins the best sentence. With "he", "she" and "the latter" read as pointing back, the
# generator's claims held the answer for 2 more of 164 held-out SQuAD questions and 9 more
# of 300 HaluEval ones, and no demo answer changed (bench/answer_choice.py). So does one
# opening on "Instead", which says what happens in place of the best one ("… you do not pay
# the full price of the job. Instead you pay only the attendance charge …").
_CONTINUES = re.compile(
    rf"^\W*(?:(?:{PRONOUNS}|This|These|Those|Instead)\b|The\s+(?:latter|former)\b)"
)
# A sentence that opens in the time or case the best one sets ("Under a 2021 model lease,
# there is an initial repair period of 10 years. During this period we will reimburse …")
# says what applies then: it joins before a neighbour that is only close in rank.
# So does one whose condition is the case before it, cut short ("Sandals are not allowed in
# the lanes. If you forget, you can borrow a pair of loan trainers …"; "If not, …"; not "If
# you do, …", which only goes on with what the best one allows) or past its limit ("… up to
# 28 days after it expires. If it has been expired for longer than that, you will need …").
_CUT_SHORT = (
    r"If\s+(?:so|not)\b|If\s+you\s+(?:(?:do|did|can)\s+not|(?!(?:do|did|can)\b)[\w’']+)\s*,"
)
_PAST_ITS_LIMIT = r"If\b[^,.;]{0,60}?\b(?:than|after|beyond|past|over)\s+(?:that|this|then)\b"
_IN_THAT_CASE = re.compile(
    r"^\W*(?:(?:During|In|After|Before|At|Within|From|Until|Under|For)\s+(?:this|that|these|"
    rf"those)\b|{_CUT_SHORT}|{_PAST_ITS_LIMIT})"
)
# The foci on which a rule's exception joins the rule (see `_EXCEPTION`).
_EXCEPTS = re.compile(rf"^\W*(?:{_EXCEPTION})")
# A sentence opening on another case of what the rule before it is for ("For personal travel
# abroad, you must obtain written approval …" after "You may take your laptop abroad for
# business travel …").
_OTHER_CASE = re.compile(
    r"^\W*(?:But\s+|However,?\s+)?for\s+((?:[\w-]+\s+){0,4}?[\w-]+),", re.IGNORECASE
)
_YES_NO_FOCI = frozenset(("permission", "yes_no"))
# A labelled line whose value is this short ("Chair and desk: not provided.") is completed
# by the sentence after it on its line ("Employees can claim up to 150 GBP once for a desk
# chair, with a receipt."): the terse value alone misleads.
_TERSE_VALUE_WORDS = 4
_UNLESS = re.compile(r"\b(?:unless|except)\b", re.IGNORECASE)
# A sentence for the case where the rule before it is broken: "If we do change a published
# shift without your agreement, you will receive …" after "… we will not change your shift
# without your agreement …"; "If you do not, …" after "You must …".
_BROKEN_RULE = re.compile(r"^\W*If\s+(?:we|you|they|he|she|it)\s+(?:do|does|did)\b", re.I)
# A no in a policy's words: "do not offer", "cannot be returned", "never", "not allowed".
_REFUSAL = re.compile(r"\b(?:not|no|never|cannot)\b|n't\b", re.IGNORECASE)


@dataclass(frozen=True)
class Candidate:
    """A sentence (or table row) of a retrieved chunk, scored for one question."""

    chunk_rank: int
    position: int  # index of the sentence within its chunk
    start: int
    text: str
    text_in_context: str
    chunk_id: str
    score: float  # relevance: decides whether the question is answerable
    fit: int = 0  # a table row whose label the question names (2) or whose range it hits (1)
    choice: float = 0.0  # probability that it holds the answer: decides which sentence
    asks: str = ""  # the FAQ question it answers, if any (not a list's lead-in)
    label: str = ""  # the labelled sentence opening its line, if it follows one
    contact: int = 0  # gives the contact the question asks for (`contact_fit`: 0, 1 or 2)
    other_case: bool = False  # a table row whose label the question negates (`label_negated`)
    shift: float = 0.0  # its rank's move by the learned question map (`question_adapter`)


def leans_on(sentence: Candidate, previous: Candidate, focus: str, top: float) -> bool:
    """Whether `sentence` needs `previous` to be understood: it opens on a pronoun, or it
    says what follows from the rule that `previous` states, `previous` being the sentence
    most relevant to the question (relevance `top`) on a what-happens or may-I question."""
    if is_table_row(sentence.text) or is_table_row(previous.text):
        return False
    if _ANAPHOR.match(sentence.text) or points_back(sentence.text, previous.text):
        return True
    return (
        focus in ("consequence", "permission")
        and not previous.other_case
        and previous.score >= top > sentence.score
    )


def faq_opening(
    sentence: Candidate, by_place: dict[tuple[int, int], Candidate]
) -> Candidate | None:
    """The first sentence of the FAQ answer `sentence` is part of, when it is not that
    first sentence: an FAQ answers its question first ("Yes, if the phone is enrolled in
    device management."), and the sentences after it qualify that answer."""
    if not sentence.asks:
        return None
    opening = None
    place = (sentence.chunk_rank, sentence.position - 1)
    while (earlier := by_place.get(place)) is not None and earlier.asks == sentence.asks:
        opening, place = earlier, (place[0], place[1] - 1)
    return opening


def labelled_opening(
    sentence: Candidate, by_place: dict[tuple[int, int], Candidate]
) -> Candidate | None:
    """The labelled sentence that opens the line `sentence` follows on ("Over the limit: the
    API answers with status 429 and a Retry-After header …" for "Clients must wait at least
    that long before retrying."): the label says which case the sentence is about."""
    if not sentence.label:
        return None
    place = (sentence.chunk_rank, sentence.position - 1)
    while (earlier := by_place.get(place)) is not None:
        if earlier.text == sentence.label:
            return earlier
        if earlier.label != sentence.label:
            return None
        place = (place[0], place[1] - 1)
    return None


def next_step(query: str, best: Candidate, candidates: list[Candidate]) -> Candidate | None:
    """The sentence next to `best` in its chunk that may hold the answer instead: nearly as
    high in rank and likely to hold it, covering question words `best` lacks, holding the
    kind of answer the question asks for when `best` does not, or right after `best` and
    carrying on about its subject ("It cannot be changed later.")."""
    if is_table_row(best.text):
        return None
    near = [
        c
        for c in candidates
        if c.chunk_rank == best.chunk_rank
        and abs(c.position - best.position) == 1
        and not is_table_row(c.text)
        and not c.other_case
    ]
    near.sort(key=lambda c: -rank(c))
    after = next((c for c in near if c.position == best.position + 1), None)
    focus = question_focus(query)
    if after is not None and _goes_on_to_answer(query, focus, best, after):
        return after
    asked, said = stems(query), stems(best.text)
    for c in near:
        close = rank(best) - rank(c) < _NEIGHBOUR_MARGIN and c.choice >= _NEIGHBOUR_CHOICE
        if close or len((asked & stems(c.text)) - said) >= NEIGHBOUR_NEW_WORDS:
            return c
    if focus in _TYPED_FOCI and not states_focus(focus, best.text):
        typed = next((c for c in near if states_focus(focus, c.text)), None)
        if typed is not None:
            return typed
    if after is not None and (
        _CONTINUES.match(after.text)
        or (focus in _YES_NO_FOCI and _excepts(after, best, query))
        or _completes(after, best)
        or prices_the_other_case(question_proper(query), best.text, after.text)
    ):
        return after
    if focus in _YES_NO_FOCI:
        return next((c for c in near if _refuses(c, asked - said)), None)
    return None


def _goes_on_to_answer(query: str, focus: str, best: Candidate, after: Candidate) -> bool:
    """Whether the sentence after `best` says what `best` only leads to: an escalation's next
    step ("If you are still unhappy, write to …"), what applies in the case `best` sets, or
    the rule a may-I question asks for after a sentence that states none."""
    if (asks_past_first_step(query) and escalates(after.text)) or _IN_THAT_CASE.match(after.text):
        return True
    return (
        focus == "permission"
        and not states_focus("permission", best.text)
        and states_focus("permission", after.text)
    )


def _completes(after: Candidate, best: Candidate) -> bool:
    """Whether `after` follows `best` on its labelled line and `best` states its value in a
    few words ("Chair and desk: not provided." then "Employees can claim up to 150 GBP once
    for a desk chair, with a receipt.")."""
    label = label_of(best.text)
    if not label or after.label != best.text:
        return False
    value = best.text[best.text.index(label) + len(label) :].lstrip("*_: \t")
    return len(value.split()) <= _TERSE_VALUE_WORDS


def _refuses(neighbour: Candidate, unsaid: Set[str]) -> bool:
    """Whether `neighbour`, next to the chosen sentence, says no to what the question asks
    and the chosen one does not name (`unsaid`: question stems): "We do not offer direct
    exchanges." before "Return the item for a refund and place a new order …" for "Can I
    swap my jacket for a bigger size?" ("swap" read as the policy's "exchange"); "…
    reception roles are site-based and are not eligible." after "Employees in office-based
    roles may work from home …" for "Can receptionists work from home?"."""
    return bool(_REFUSAL.search(neighbour.text)) and bool(unsaid & stems(neighbour.text))


def _excepts(after: Candidate, rule: Candidate, query: str) -> bool:
    """Whether `after` states an exception to `rule`, the sentence before it: it opens on
    one ("Anything above that must be declined …") or on another case of what `rule` is for
    (`_OTHER_CASE`); or, about something `rule` names, it says "unless" or "except"
    ("Requests received after 60 days are declined unless the charge was made in error …"
    after "Customers can request a refund within 60 days."), is the case where the rule is
    broken ("If we do change …", `_BROKEN_RULE`) or says no to something the question asks
    (`query`; "Swaps between departments are not allowed." after "You may swap a shift with
    another colleague in the same department …")."""
    if _EXCEPTS.match(after.text):
        return True
    case = _OTHER_CASE.match(after.text)
    if case is not None and "for" in words(rule.text):
        return bool(content_stems(case.group(1)) & content_stems(rule.text))
    said = content_stems(after.text)
    if not said & content_stems(rule.text):
        return False
    if _UNLESS.search(after.text) or _BROKEN_RULE.match(after.text):
        return True
    return bool(_REFUSAL.search(after.text)) and bool(said & content_stems(query))


def rank(candidate: Candidate) -> float:
    """Relevance plus a share of the choice probability, a table row's fit and the contact
    asked for."""
    fit = candidate.fit + candidate.contact - candidate.other_case
    return candidate.score + candidate.shift + _CHOICE_WEIGHT * candidate.choice + _ROW_FIT * fit


def price_kept_honest(query: str, candidates: list[Candidate]) -> list[Candidate]:
    """`candidates` without the question map's shifts when the map alone brings a priced
    sentence first for a price question, over a more relevant one that gives no price
    (`_PRICE_MAP_SLACK`)."""
    if not candidates or not asks_price(question_proper(query)):
        return candidates
    mapped = max(candidates, key=rank)
    plain = max(candidates, key=lambda c: rank(c) - c.shift)
    if (
        mapped is plain
        or not states_price(mapped.text)
        or states_price(plain.text)
        or mapped.score >= plain.score - _PRICE_MAP_SLACK
    ):
        return candidates
    return [replace(c, shift=0.0) for c in candidates]


def states_what_is_asked(
    query: str, chosen: list[Candidate], candidates: list[Candidate]
) -> Candidate | None:
    """The sentence ranked within `_TYPED_MARGIN` of the best one that states the kind of
    answer a how-long, how-much or when question asks for, when no chosen sentence does
    ("Support call recordings — Retention period: 90 days" beside "Customer service
    records: … recordings of phone calls …" for "How long is the call recording kept?")."""
    focus = question_focus(query)
    if asks_time_of_day(query):  # a clock time, not any date: the reading check's test
        states, margin, generic = gives_time_of_day, _DECLINED_MARGIN, _CLOCK_STEMS
    elif focus in _MEASURED_FOCI:
        states, margin, generic = partial(states_focus, focus), _TYPED_MARGIN, None
    else:
        return None
    if any(states(c.text) for c in chosen):
        return None
    best = chosen[0]
    # A sentence giving the time must name something the question names beyond what it asks
    # for ("library", not "close", for "What time does the library cafe close?").
    named = None if generic is None else stems(query) - generic
    stating = [
        c for c in candidates
        if c not in chosen and rank(c) >= rank(best) - margin and states(c.text)
        and (named is None or named & stems(c.text))
    ]  # fmt: skip
    return max(stating, key=rank) if stating else None


def gives_the_contact(
    query: str,
    chosen: list[Candidate],
    candidates: list[Candidate],
    floor: float,
    allowance: Callable[[Candidate], float],
) -> Candidate | None:
    """For a question asking for a phone number, an email or a web address that no chosen
    sentence gives, the best relevant sentence (its score and `allowance` reach `floor`) that
    gives it and is about what is asked: in any passage, it or its heading or label shares a
    word of the question beyond the contact's ("number", "phone"), or it is the out-of-hours
    line for a question asked at night (`Candidate.contact`); in the best one's passage, it
    may also be a bare contact line right after a chosen sentence ("Phone: 01632 960 418"
    after "PALS is open from 09:00 to 16:30" for "What number do I ring for PALS?"; not "IT
    Service Desk: 0161 496 0725" for the data protection officer's number)."""
    kind = wanted_contact(question_proper(query))
    if kind is None or any(gives_contact(kind, c.text) for c in chosen):
        return None
    after = {(c.chunk_rank, c.position + 1) for c in chosen}

    def follows(c: Candidate) -> bool:
        return (c.chunk_rank, c.position) in after and is_contact_line(c.text)

    giving = [
        c
        for c in candidates
        if c.score + allowance(c) >= floor
        and gives_contact(kind, c.text)
        and (c.contact or (c.chunk_id == chosen[0].chunk_id and follows(c)))
    ]
    return max(giving, key=lambda c: c.score) if giving else None
