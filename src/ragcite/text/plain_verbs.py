"""Everyday verbs a question uses where its passages write the formal one.

Users ask "What if I don't come back after my leave?", "Can I talk to a reporter?", "How do
I set up MFA?"; a policy writes "If you do not return to work …", "speak to the press",
"configure". The sentence that answers shares no verb with the question, and MiniLM reads
"come back" and "return" less alike than the passage's other sentences. A question verb
(`PLAIN_VERBS`: phrasal and plain, each form: "came back", "talking") that none of the
passages uses is read as the formal verb, in the same form, when one of the passages uses
that verb (any form): only the passages given are read, so a rewording is always the
documents' own verb.

    >>> formal_verbs("What if I don't come back?", ["If you do not return to work ..."])
    "What if I don't return?"
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial

Forms = tuple[str, ...]  # base, third person, past, -ing

# Everyday verb (its four forms) = a formal verb a policy may write for it (its four forms);
# a verb with several formal ones has a line for each, in the order they are tried. Verbs
# that say the same, none more formal, stand on one line apart by " | ": each is read as
# the others, in the line's order.
_TABLE = """
come back for, comes back for, came back for, coming back for = collect, collects, collected, collecting
come back, comes back, came back, coming back = return, returns, returned, returning
go back, goes back, went back, going back = return, returns, returned, returning
give back, gives back, gave back, giving back = return, returns, returned, returning
send back, sends back, sent back, sending back = return, returns, returned, returning
bring back, brings back, brought back, bringing back = return, returns, returned, returning
pay back, pays back, paid back, paying back = repay, repays, repaid, repaying
pay back, pays back, paid back, paying back = reimburse, reimburses, reimbursed, reimbursing
find out, finds out, found out, finding out = learn, learns, learned, learning
find out, finds out, found out, finding out = discover, discovers, discovered, discovering
respond to, responds to, responded to, responding to = acknowledge, acknowledges, acknowledged, acknowledging
respond, responds, responded, responding = acknowledge, acknowledges, acknowledged, acknowledging
set up, sets up, set up, setting up = configure, configures, configured, configuring
set up, sets up, set up, setting up = install, installs, installed, installing
sign up, signs up, signed up, signing up = register, registers, registered, registering
sign up, signs up, signed up, signing up = enrol, enrols, enrolled, enrolling
sign up, signs up, signed up, signing up = enroll, enrolls, enrolled, enrolling
turn down, turns down, turned down, turning down = reject, rejects, rejected, rejecting
turn down, turns down, turned down, turning down = decline, declines, declined, declining
turn down, turns down, turned down, turning down = refuse, refuses, refused, refusing
call off, calls off, called off, calling off = cancel, cancels, cancelled, cancelling
put off, puts off, put off, putting off = postpone, postpones, postponed, postponing
put off, puts off, put off, putting off = defer, defers, deferred, deferring
hand in, hands in, handed in, handing in = submit, submits, submitted, submitting
fill in, fills in, filled in, filling in = complete, completes, completed, completing
fill out, fills out, filled out, filling out = complete, completes, completed, completing
throw away, throws away, threw away, throwing away = dispose, disposes, disposed, disposing
get rid of, gets rid of, got rid of, getting rid of = dispose of, disposes of, disposed of, disposing of
get rid of, gets rid of, got rid of, getting rid of = sell, sells, sold, selling
throw away, throws away, threw away, throwing away = destroy, destroys, destroyed, destroying
pick up, picks up, picked up, picking up = collect, collects, collected, collecting
sign off, signs off, signed off, signing off = approve, approves, approved, approving
talk, talks, talked, talking = speak, speaks, spoke, speaking
quit, quits, quit, quitting = resign, resigns, resigned, resigning
quit, quits, quit, quitting = leave, leaves, left, leaving
fix, fixes, fixed, fixing = repair, repairs, repaired, repairing
fix, fixes, fixed, fixing = resolve, resolves, resolved, resolving
show up, shows up, showed up, showing up = check in, checks in, checked in, checking in
show up, shows up, showed up, showing up = attend, attends, attended, attending
turn up, turns up, turned up, turning up = check in, checks in, checked in, checking in
turn up, turns up, turned up, turning up = attend, attends, attended, attending
buy, buys, bought, buying = purchase, purchases, purchased, purchasing
increase, increases, increased, increasing = raise, raises, raised, raising
increase, increases, increased, increasing = extend, extends, extended, extending
decrease, decreases, decreased, decreasing = reduce, reduces, reduced, reducing
help, helps, helped, helping = assist, assists, assisted, assisting
break, breaks, broke, breaking = breach, breaches, breached, breaching
break, breaks, broke, breaking = damage, damages, damaged, damaging
bounce, bounces, bounced, bouncing = fail, fails, failed, failing
swap, swaps, swapped, swapping = exchange, exchanges, exchanged, exchanging
fire, fires, fired, firing = dismiss, dismisses, dismissed, dismissing
sack, sacks, sacked, sacking = dismiss, dismisses, dismissed, dismissing
hang on to, hangs on to, hung on to, hanging on to = keep, keeps, kept, keeping
hang on to, hangs on to, hung on to, hanging on to = retain, retains, retained, retaining
get back to, gets back to, got back to, getting back to = respond to, responds to, responded to, responding to
get back to, gets back to, got back to, getting back to = reply to, replies to, replied to, replying to
get rid of, gets rid of, got rid of, getting rid of = dispose of, disposes of, disposed of, disposing of
get rid of, gets rid of, got rid of, getting rid of = delete, deletes, deleted, deleting
look after, looks after, looked after, looking after = manage, manages, managed, managing
drop out, drops out, dropped out, dropping out = withdraw, withdraws, withdrew, withdrawing
sign up, signs up, signed up, signing up = join, joins, joined, joining
pause, pauses, paused, pausing = freeze, freezes, froze, freezing
pause, pauses, paused, pausing = suspend, suspends, suspended, suspending
wipe, wipes, wiped, wiping = reset, resets, reset, resetting
wipe, wipes, wiped, wiping = erase, erases, erased, erasing
owe, owes, owed, owing = repay, repays, repaid, repaying
upload, uploads, uploaded, uploading = submit, submits, submitted, submitting
tell, tells, told, telling = notify, notifies, notified, notifying
tell, tells, told, telling = inform, informs, informed, informing
hire, hires, hired, hiring = rent, rents, rented, renting
delete, deletes, deleted, deleting = erase, erases, erased, erasing
end, ends, ended, ending = terminate, terminates, terminated, terminating
reply, replies, replied, replying = respond, responds, responded, responding
reply to, replies to, replied to, replying to = respond to, responds to, responded to, responding to
shut, shuts, shut, shutting = close, closes, closed, closing
get in, gets in, got in, getting in = arrive, arrives, arrived, arriving
pick, picks, picked, picking = choose, chooses, chose, choosing
cut off, cuts off, cut off, cutting off = disconnect, disconnects, disconnected, disconnecting
cut off, cuts off, cut off, cutting off = suspend, suspends, suspended, suspending
go bust, goes bust, went bust, going bust = close, closes, closed, closing
go bust, goes bust, went bust, going bust = fail, fails, failed, failing
pop out, pops out, popped out, popping out = leave, leaves, left, leaving
hang onto, hangs onto, hung onto, hanging onto = keep, keeps, kept, keeping
kick in, kicks in, kicked in, kicking in = take effect, takes effect, took effect, taking effect
give up, gives up, gave up, giving up = resign, resigns, resigned, resigning
give up, gives up, gave up, giving up = end, ends, ended, ending
give up, gives up, gave up, giving up = surrender, surrenders, surrendered, surrendering
give up, gives up, gave up, giving up = cancel, cancels, cancelled, cancelling
roll over, rolls over, rolled over, rolling over | carry forward, carries forward, carried forward, carrying forward | carry over, carries over, carried over, carrying over
"""


def _table() -> tuple[tuple[Forms, tuple[Forms, ...]], ...]:
    grouped: dict[Forms, list[Forms]] = {}
    for line in _TABLE.strip().splitlines():
        for plain, formal in _pairs(line):
            grouped.setdefault(plain, []).append(formal)
    return tuple((plain, tuple(formal)) for plain, formal in grouped.items())


def _pairs(line: str) -> list[tuple[Forms, Forms]]:
    """(everyday verb, formal verb) of a table line: "a = b", or each of "a | b | c" with
    each of the others."""
    if "|" not in line:
        plain, _, formal = line.partition("=")
        return [(_forms(plain), _forms(formal))]
    same = [_forms(verb) for verb in line.split("|")]
    return [(verb, other) for verb in same for other in same if other != verb]


def _forms(verb: str) -> Forms:
    return tuple(f.strip() for f in verb.split(","))


PLAIN_VERBS = _table()
_BY_FORM = {form: (plain, formal) for plain, formal in PLAIN_VERBS for form in plain}
# A verb written with a hyphen is a noun's part ("pick-up", "set-up fee"), no verb.
_ASKED = re.compile(rf"\b(?:{'|'.join(sorted(_BY_FORM, key=len, reverse=True))})\b(?!-)")


# A phrasal verb split by its object ("bring it back", "fill them in"): read as the verb
# with the object after it ("bring back it" is never written, so the object moves after the
# formal verb: "return it").
_OBJECTS = r"(?:it|them|this|that|these|those|me|him|her|us|one)"
_SPLIT = re.compile(
    rf"\b(?P<verb>[a-z]+)\s+(?P<object>{_OBJECTS})\s+(?P<particle>back|up|out|off|in|down|away)\b",
    re.IGNORECASE,
)


def _joined(question: str) -> str:
    """`question` with each split phrasal verb of `PLAIN_VERBS` joined ("bring it back":
    "bring back it")."""

    def join(match: re.Match[str]) -> str:
        phrasal = f"{match['verb']} {match['particle']}".lower()
        if phrasal not in _BY_FORM:
            return match.group(0)
        return f"{match['verb']} {match['particle']} {match['object']}"

    return _SPLIT.sub(join, question)


def formal_verbs(question: str, passages: Sequence[str]) -> str:
    """`question` with each everyday verb that the passages never use reworded as the first
    formal verb they do use, in the same form (the question unchanged when there is none).
    A phrasal verb split by its object is read joined ("bring it back": "return it")."""
    joined = _joined(question)
    if joined != question:
        reworded = formal_verbs(joined, passages) if _ASKED.search(joined.lower()) else joined
        return reworded if reworded != joined else question
    asked = set(_ASKED.findall(question.lower()))
    if not asked:
        return question
    used = " ".join(passages).lower()
    out = question
    for form in sorted(asked):
        plain, formal = _BY_FORM[form]
        if any(uses_phrase(used, f) for f in _with_heads(plain)):
            continue  # the documents use the everyday verb themselves
        verb = next((f for f in formal if any(uses_phrase(used, x) for x in f)), None)
        if verb is not None:
            out = re.sub(rf"\b{form}\b", partial(_in_form, plain, verb), out, flags=re.IGNORECASE)
    return out


def _with_heads(plain: Forms) -> Forms:
    """`plain`'s forms, and those of three words or more without their last ("come back"
    for "come back for"): documents that write the verb without its preposition use it."""
    return plain + tuple(f.rsplit(" ", 1)[0] for f in plain if f.count(" ") >= 2)


# Words after which a verb whose base and past forms are one ("shut", "set up") is the past.
_PERFECT = re.compile(r"\b(?:has|have|had|was|were|been|is|are|be|being)\s+$", re.IGNORECASE)


def _in_form(plain: Forms, formal: Forms, match: re.Match[str]) -> str:
    """The form of `formal` that `match` is of `plain`: the first form it spells, or the
    past after "has", "was", … when the base is spelled the same ("reception has shut":
    "closed")."""
    at = plain.index(match.group(0).lower())
    if at == 0 and plain[2] == plain[0] and _PERFECT.search(match.string[: match.start()]):
        at = 2
    return formal[at]


def uses_phrase(text: str, phrase: str) -> bool:
    """Whether `text` (lower case) holds `phrase` as whole words."""
    return re.search(rf"\b{re.escape(phrase)}\b", text) is not None
