"""Everyday words and phrases a question uses where its passages write the formal ones.

Users ask "How much deposit per head?", "Do I have to wear my hi-vis?", "Can my mate come?",
"How much do you pay back for petrol?"; a policy writes "£20 per person", "high-visibility
vest", "guests", "mileage". Like `ragcite.text.plain_verbs` for verbs, an everyday word
(`PLAIN_WORDS`, singular and plural) is read as its formal word when the most relevant
passage that uses either writes the formal one ("routine care" before an airline's "normal
allowance"): only the passages given are read, so a rewording is always the documents' own
word, and a passage that uses the everyday word keeps it.

    >>> formal_words("How much is it per head?", ["The deposit is £20 per person."])
    'How much is it per person?'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragcite.text.plain_verbs import uses_phrase

# Everyday word or phrase = its formal words, in the order they are tried. A single word's
# plural is derived by adding "s" to both sides.
_TABLE = """
per head = per person
money off = discount, reduction
on top = in addition, extra, additional
setup = set-up, onboarding
entry fee = registration fee, entrance fee, entry fee
a temperature = a fever, a high temperature, ill, unwell, sick, illness
calpol = paracetamol, medicine
nurofen = ibuprofen, medicine
a&e = hospital, accident and emergency
bramley = apple
log burner = wood burner, woodburner, wood-burning stove, stove
have my place = transfer your place, transfer my place
take my place = transfer your place, transfer my place
hi-vis = high-visibility
hi vis = high-visibility
mate = friend, guest, visitor
friend = guest, visitor
pot = piece, ceramic
client = visitor, guest
contract = agreement, tenancy, licence
fire alarm = fire
dry cleaning = cleaning
dry cleaned = cleaned
dry clean = clean
labrador = dog, dogs
cockapoo = dog, dogs
cavapoo = dog, dogs
labradoodle = dog, dogs
staffie = dog, dogs
frenchie = dog, dogs
petrol = fuel, mileage
diesel = fuel, mileage
the fine = the charge, the penalty, the fee
a fine = a charge, a penalty, a fee
tenner = cash, money
fiver = cash, money
kid = child
normal = standard, routine, regular
telly = television, TV
yearly = annual
penalty = charge, fee
tier = plan, level, band
next door = neighbour, neighbor, neighbours, neighbouring
chemist = pharmacy
gym = fitness suite, fitness centre, fitness center, fitness
bundle = pack, package
tablet = medicine, medication
hoover = vacuum cleaner, vacuum
pay upfront = pay a deposit, deposit
pay up front = pay a deposit, deposit
meds = medicines, medication, prescriptions
boss = line manager, manager
sick note = fit note, medical certificate
doctor's note = fit note, medical certificate
off sick = sickness absence, sick leave
money back = refund
buggy = pushchair, pram
pram = pushchair
rubbish = waste, refuse
lorry = HGV, heavy goods vehicle, vehicle
specs = glasses, spectacles
loo = toilet
fridge = refrigerator
pay rise = pay increase, salary increase
late paying = late payment, arrears
behind with = in arrears, arrears
behind on = in arrears, arrears
in chunks = by instalments, in instalments, instalments, by installments, installments
bit by bit = by instalments, in instalments, instalments, installments
ombudsman = alternative dispute resolution, dispute resolution, adjudication
nearly empty = low
almost empty = low
essay = coursework, assignment
grown ups = adults, adult
grown-ups = adults, adult
windy = high winds, strong winds, wind
rainy = heavy rain, rain
snowy = snow
icy = ice
stormy = storms, storm, thunderstorms, thunderstorm
foggy = fog
shoot = session, sitting
bad weather = severe weather, adverse weather
pensioner = senior, concession, over 60, over 65, aged 65, aged 66, aged 70, retired
oap = senior, concession, over 60, over 65, aged 65, aged 66, aged 70, retired
prosecco = alcohol, sparkling wine, wine, drinks
an answer = a decision, a response, a reply
video = filming, film, recording, record
locals = local residents, residents, resident
neighbour = resident, householder
neighbor = resident, householder
bump = accident, collision, damage
prang = accident, collision, damage
sandwiches = food
packed lunch = food, own food
season ticket = season pass
stall = pitch, stand
chucking it down = heavy rain, rain, bad weather, weather
tipping it down = heavy rain, rain, bad weather, weather
bucketing down = heavy rain, rain, bad weather, weather
pouring down = heavy rain, rain, bad weather, weather
cut the grass = mow, mowing
cut my grass = mow, mowing
grass cutting = mowing, mow
shotgun licence = shotgun certificate
gun licence = shotgun certificate, firearm certificate
"""


def _table() -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for line in _TABLE.strip().splitlines():
        plain, _, formal = line.partition("=")
        forms = tuple(f.strip() for f in formal.split(","))
        out[plain.strip()] = forms
        if " " not in plain.strip() and "-" not in plain:  # "pensioners": "aged 70" too
            plural = [(f + "s", f) if any(c.isdigit() for c in f) else (f + "s",) for f in forms]
            out[plain.strip() + "s"] = tuple(g for both in plural for g in both)
    return out


PLAIN_WORDS = _table()
_ASKED = re.compile(
    rf"\b(?:{'|'.join(sorted(map(re.escape, PLAIN_WORDS), key=len, reverse=True))})\b"
)


def formal_words(question: str, passages: Sequence[str]) -> str:
    """`question` with each everyday word reworded as the formal word of the most relevant
    passage (the first of `passages`) that uses either (unchanged when that passage uses the
    everyday word, or none uses either)."""
    asked = set(_ASKED.findall(question.lower()))
    if not asked:
        return question
    texts = [p.lower() for p in passages]
    out = question
    for plain in sorted(asked, key=len, reverse=True):
        formal = next((w for text in texts if (w := _word_used(text, plain)) is not None), None)
        if formal is not None and formal != plain:
            out = re.sub(rf"\b{re.escape(plain)}\b", formal, out, flags=re.IGNORECASE)
    return out


def _word_used(text: str, plain: str) -> str | None:
    """The everyday word itself when `text` uses it, else the first of its formal words
    that `text` uses, else None."""
    if uses_phrase(text, plain):
        return plain
    return next((f for f in PLAIN_WORDS[plain] if uses_phrase(text, f)), None)
