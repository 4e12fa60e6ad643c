"""A contact line counts more when a relevant sentence of its document says to get in touch
without saying how (`ragcite.generate.leeways`)."""

from __future__ import annotations

from ragcite.generate.joining import Candidate
from ragcite.generate.leeways import contact_allowance, leeway
from tests.generate.chunks import passage_chunk

BOOKING = (
    "We deliver and collect Monday to Saturday, 7am to 5pm. When the skip is full, or at the "
    "end of your hire, call or email us to arrange collection. We aim to collect within 2 "
    "working days of your request."
)
CONTACTS = (
    "Bookings and collections — Phone: 0117 496 0321; Email: bookings@tidewell.example; "
    "Hours: Mon–Fri 7am–6pm\n"
    "Complaints — Phone: 0117 496 0350; Email: feedback@tidewell.example; Hours: Mon–Fri 9am–5pm"
)


def _chunks(contacts_document: str) -> list:  # type: ignore[type-arg]
    return [
        passage_chunk(
            "c_booking01", BOOKING, heading="Booking and collection", document_id="skips"
        ),
        passage_chunk("c_contact01", CONTACTS, heading="Contact us", document_id=contacts_document),
    ]


def test_the_allowance_is_for_contact_lines_of_that_document_only() -> None:
    window = _chunks("another-company")
    referring = Candidate(0, 1, 60, "call or email us to arrange collection.", "", "c1", 0.49)
    line = Candidate(1, 0, 0, CONTACTS.splitlines()[0], "", "c2", 0.29, contact=1)
    assert contact_allowance([referring, line], window, 0.4)(line) == leeway(line)
    same = _chunks("skips")
    assert contact_allowance([referring, line], same, 0.4)(line) > leeway(line)
    # nothing relevant says "call us": the usual leeway
    quiet = Candidate(0, 1, 60, "call or email us to arrange collection.", "", "c1", 0.3)
    assert contact_allowance([quiet, line], same, 0.4)(line) == leeway(line)
