#!/usr/bin/env python3
"""Build the binary files of the ragcite demo corpus (``demo/``).

The demo corpus is a set of fictional policy documents for a fictional
company, Northwind Analytics, Inc. All text was written for ragcite; any
resemblance to a real company is accidental. The corpus exercises every
loader and every citation feature:

=========================================  ============================  =======  ==========
file                                       document_id                   version  effective
=========================================  ============================  =======  ==========
data-retention-policy-2019.md              data-retention-policy         1        2019-03-01
data-retention-policy-2024.md              data-retention-policy         2        2024-01-15
employee-handbook.pdf  (6 pages)           employee-handbook             5        2024-02-01
information-security-policy.docx           information-security-policy   3        2023-11-01
returns-policy.html                        returns-policy                4        2023-08-01
travel-and-expenses.md                     travel-and-expenses           3        2023-07-01
customer-support-sla.md                    customer-support-sla          2        2023-10-01
remote-work-guidelines.txt                 remote-work-guidelines        2        2022-09-01
plans-and-pricing.md  (Markdown tables)    plans-and-pricing             2        2024-03-01
fee-schedule.html  (HTML tables)           fee-schedule                  1        2024-04-01
purchasing-approval-matrix.docx            purchasing-approval-matrix    2        2024-01-08
records-retention-schedule.pdf  (2 pages)  records-retention-schedule    1        2024-05-01
=========================================  ============================  =======  ==========

* The two Data Retention Policy versions share a ``document_id``; their numbers
  differ (customer PII: 7 years from collection in 2019, 3 years after account
  closure in 2024 with a 12-month EU rule), so version-aware retrieval and
  "superseded" handling can be demonstrated.
* The handbook PDF puts one or two numbered sections on each page
  ("3. Leave and Holidays" is on page 3), so page citations matter.
* Four documents hold tables, one per format (the DOCX and PDF ones are built by
  ``scripts/demo_tables.py``): a plan comparison, a fee schedule, an approval matrix
  and a retention schedule; ragcite reads each row as a unit with its header.
* The HTML page has nav/header/footer boilerplate around the ``<article>``.
* Metadata: Markdown files carry YAML front matter (title, document_id,
  version, effective_date, url); every other file has a sidecar
  ``<filename>.meta.yaml`` with the same keys.

The labelled question set for this corpus is ``eval/demo.jsonl``; it is checked
against the documents by ``scripts/check_demo_eval.py``.

This script generates only the binary files and their sidecars, from text held
below: ``demo/employee-handbook.pdf`` (fpdf2, core Helvetica font, latin-1 text)
and ``demo/information-security-policy.docx`` (python-docx). Dates and metadata
are fixed so that re-running it gives byte-identical files (for the same
library versions). The Markdown, HTML and text documents are hand-written files
in ``demo/``.

Usage::

    python scripts/build_demo.py            # build, then run the eval check
    python scripts/build_demo.py --no-check
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo"

FIXED_DATE = dt.datetime(2024, 2, 1, 9, 0, 0, tzinfo=dt.UTC)
ZIP_DATE = (2024, 2, 1, 9, 0, 0)
AUTHOR = "Northwind Analytics People Team"

# --------------------------------------------------------------------------
# Employee handbook (PDF). One list entry per page; each page is a list of
# blocks: ("h1", text), ("h2", text), ("p", text), ("ul", [items]).
# ASCII only: the core Helvetica font covers latin-1.
# --------------------------------------------------------------------------

HANDBOOK_META = {
    "title": "Employee Handbook",
    "document_id": "employee-handbook",
    "version": 5,
    "effective_date": "2024-02-01",
    "url": "https://intranet.northwind.example/people/employee-handbook",
}

HANDBOOK_PAGES: list[list[tuple[str, object]]] = [
    # ---- page 1
    [
        ("title", "Northwind Analytics Employee Handbook"),
        ("p", "Edition 5 - effective 1 February 2024. Owner: People Team (HR)."),
        ("h1", "1. Welcome to Northwind Analytics"),
        (
            "p",
            "Northwind Analytics helps retailers and manufacturers understand their operations "
            "through data. Our Northwind Insights platform and Northwind Edge sensors are used by "
            "customers in North America and Europe, and our people work from offices in Boston, "
            "Austin and Dublin, as well as from home.",
        ),
        (
            "p",
            "This handbook explains what you can expect from us and what we expect from you. It "
            "covers working hours, pay, leave, benefits, conduct, performance reviews and what "
            "happens when you leave. It applies to all permanent employees. Where local law or "
            "your employment contract gives you better terms, those terms apply.",
        ),
        ("h2", "How to use this handbook"),
        (
            "p",
            "The handbook is a summary. Detailed rules are set out in separate policies, such as "
            "the Information Security Policy, the Travel and Expenses Policy and the Remote Work "
            "Guidelines, which are all published on the intranet.",
        ),
        (
            "p",
            "The People Team reviews the handbook once a year, in January. Questions about the "
            "handbook can be sent to people@northwind.example or raised with your HR Business "
            "Partner.",
        ),
        ("h2", "Our values"),
        (
            "ul",
            [
                "Be curious: ask questions and follow the data.",
                "Be clear: say what you mean and write it down.",
                "Be dependable: do what you said you would do, when you said you would do it.",
            ],
        ),
    ],
    # ---- page 2
    [
        ("h1", "2. Working Hours and Pay"),
        ("h2", "Working hours"),
        (
            "p",
            "The standard working week is 40 hours, Monday to Friday, for employees in the US and "
            "37.5 hours for employees in Ireland. Core hours are 10:00 to 15:00 local time; "
            "outside core hours you may start and finish your day flexibly, with your manager's "
            "agreement.",
        ),
        ("h2", "Recording time"),
        (
            "p",
            "Employees in hourly (non-exempt) roles must record their hours in the TimeClock app "
            "every day. Overtime must be approved in advance by your manager and is paid at 1.5 "
            "times the normal hourly rate.",
        ),
        ("h2", "Payday"),
        (
            "p",
            "Salaries are paid monthly, by bank transfer, on the last business day of each month. "
            "Payslips are available in the HR portal two days before payday. If you think your "
            "pay is wrong, contact payroll@northwind.example within 30 days.",
        ),
        ("h2", "Salary reviews"),
        (
            "p",
            "Salaries are reviewed once a year, and any increase takes effect on 1 April. The review "
            "takes into account your performance rating, market data for your role and the "
            "company's results.",
        ),
        ("h2", "On-call work"),
        (
            "p",
            "Engineers on the on-call rota receive an on-call allowance of $300 for each full week "
            "on call, plus time off in lieu for any call-out that lasts more than 2 hours outside "
            "working hours.",
        ),
    ],
    # ---- page 3
    [
        ("h1", "3. Leave and Holidays"),
        ("h2", "Annual leave"),
        (
            "p",
            "Full-time employees receive 25 days of paid annual leave per calendar year, in addition "
            "to public holidays. Part-time employees receive a pro-rata amount. After 5 years of "
            "service, annual leave increases to 28 days.",
        ),
        (
            "p",
            "Leave requests should be made in the HR portal at least 2 weeks in advance for "
            "absences of 3 days or more. Up to 5 unused days can be carried over to the next year, "
            "and carried-over days must be used by 31 March.",
        ),
        ("h2", "Public holidays"),
        (
            "p",
            "Employees receive the public holidays of the country where their home office is "
            "located. In addition, the office is closed between 24 December and 1 January, and "
            "these days do not count against annual leave.",
        ),
        ("h2", "Sick leave"),
        (
            "p",
            "Employees receive up to 10 days of fully paid sick leave per year. If you are ill for "
            "more than 3 consecutive days, please provide a doctor's note. Tell your manager as "
            "early as possible, and no later than 10:00 on the first day of absence.",
        ),
        ("h2", "Parental leave"),
        (
            "p",
            "The primary caregiver of a new child, by birth, adoption or surrogacy, receives 20 weeks "
            "of parental leave at full pay. The secondary caregiver receives 6 weeks at full pay, "
            "which can be taken at any time in the first 12 months. Parental leave is available "
            "after 6 months of service.",
        ),
        (
            "p",
            "After returning from parental leave, employees can work a phased return at 80% of their "
            "hours for full pay for up to 4 weeks.",
        ),
        ("h2", "Bereavement leave"),
        (
            "p",
            "Employees may take up to 5 days of paid bereavement leave on the death of a close family "
            "member, and 2 days for other relatives.",
        ),
        ("h2", "Volunteering days"),
        (
            "p",
            "Every employee can take 2 paid volunteering days per year to support a registered "
            "charity or community project.",
        ),
    ],
    # ---- page 4
    [
        ("h1", "4. Benefits"),
        ("h2", "Health insurance"),
        (
            "p",
            "Northwind pays 90% of the health insurance premium for employees and 75% for their "
            "dependants. Cover starts on your first day of employment. Employees in Ireland receive "
            "private health cover through the company scheme instead.",
        ),
        ("h2", "Retirement plan"),
        (
            "p",
            "US employees can join the 401(k) plan from their first day. Northwind matches 100% of "
            "your contributions up to 4% of your base salary, and matched contributions vest "
            "immediately. Employees in Ireland receive an employer pension contribution of 6% of "
            "base salary.",
        ),
        ("h2", "Learning and development"),
        (
            "p",
            "Each employee has an annual learning budget of $1,500 for courses, conferences, books "
            "and certifications. Unused budget does not roll over. Spending above $500 on a single "
            "item needs your manager's approval.",
        ),
        ("h2", "Wellness allowance"),
        (
            "p",
            "Every employee receives a wellness allowance of $50 per month, paid through payroll, "
            "which can be spent on anything that supports physical or mental health.",
        ),
        ("h2", "Employee Assistance Programme"),
        (
            "p",
            "The Employee Assistance Programme (EAP) offers free, confidential counselling by phone "
            "or video, 24 hours a day. Employees and members of their household can use up to 6 "
            "counselling sessions per issue each year.",
        ),
        ("h2", "Equipment"),
        (
            "p",
            "New employees receive a laptop, a monitor and a headset on their first day. Laptops are "
            "replaced every 3 years.",
        ),
    ],
    # ---- page 5
    [
        ("h1", "5. Code of Conduct"),
        ("h2", "Respect at work"),
        (
            "p",
            "Northwind does not tolerate harassment, bullying or discrimination of any kind. If you "
            "experience or witness unacceptable behaviour, report it to your manager, to your HR "
            "Business Partner, or anonymously through the Speak Up line. Reports are investigated "
            "within 10 business days, and retaliation against anyone who raises a concern is a "
            "disciplinary offence.",
        ),
        ("h2", "Gifts and hospitality"),
        (
            "p",
            "You may accept gifts or hospitality from customers or suppliers worth up to $100 per "
            "person per year. Anything above that value must be declared in the gifts register and "
            "approved by your department head. Cash or cash equivalents, such as gift cards, must "
            "never be accepted.",
        ),
        ("h2", "Conflicts of interest"),
        (
            "p",
            "Tell the People Team in writing about any outside job, company directorship, or close "
            "relationship with a supplier or customer that could affect your decisions at work. "
            "Declarations are reviewed by the Compliance Officer.",
        ),
        ("h2", "Confidential information"),
        (
            "p",
            "Customer data and company plans are confidential. Follow the Information Security "
            "Policy, and never discuss customer names or results on social media.",
        ),
        ("h2", "Dress code"),
        (
            "p",
            "There is no formal dress code in the office. When meeting customers, dress as you expect "
            "the customer to dress.",
        ),
    ],
    # ---- page 6
    [
        ("h1", "6. Performance and Development"),
        ("h2", "Probation"),
        (
            "p",
            "New employees complete a probation period of 90 days. Your manager will meet you at the "
            "end of the first 30 days and again before the end of probation to confirm your "
            "employment.",
        ),
        ("h2", "Performance reviews"),
        (
            "p",
            "Performance reviews take place twice a year, in June and December. Each review "
            "includes a self-assessment, feedback from at least 2 colleagues, and a rating on a "
            "four-point scale. The December rating is used in the annual salary review.",
        ),
        ("h2", "Internal moves"),
        (
            "p",
            "Employees can apply for internal vacancies after 12 months in their current role. Tell "
            "your manager before you apply.",
        ),
        ("h1", "7. Leaving Northwind"),
        ("h2", "Notice periods"),
        (
            "p",
            "Employees must give 4 weeks' written notice of resignation. Managers and employees at "
            "director level or above must give 8 weeks' notice. During probation, the notice "
            "period is 1 week on either side.",
        ),
        ("h2", "Final pay and equipment"),
        (
            "p",
            "Untaken annual leave is paid out in your final salary. All company equipment, including "
            "your laptop and access badge, must be returned by your last working day.",
        ),
        ("h2", "Exit interviews"),
        (
            "p",
            "Everyone who leaves is offered an exit interview with the People Team, and the feedback "
            "is shared with leadership in anonymous form.",
        ),
    ],
]

# --------------------------------------------------------------------------
# Information Security Policy (DOCX): ("h1"|"h2"|"p", text) or ("ul", [items])
# --------------------------------------------------------------------------

INFOSEC_META = {
    "title": "Information Security Policy",
    "document_id": "information-security-policy",
    "version": 3,
    "effective_date": "2023-11-01",
    "url": "https://intranet.northwind.example/policies/information-security",
}

INFOSEC_BLOCKS: list[tuple[str, object]] = [
    ("title", "Information Security Policy"),
    (
        "p",
        "Northwind Analytics, Inc. - Policy NW-POL-003, version 3. Effective 1 November 2023. "
        "Policy owner: Chief Information Security Officer (CISO).",
    ),
    ("h1", "1. Purpose and scope"),
    (
        "p",
        "This policy sets the minimum security rules that protect Northwind Analytics, our customers "
        "and our people. It applies to all employees, contractors and third parties who use "
        "company systems or handle company or customer information, wherever they work.",
    ),
    ("p", "Breaking this policy may lead to disciplinary action, up to and including dismissal."),
    ("h1", "2. Passwords and authentication"),
    ("h2", "Passwords"),
    (
        "p",
        "Passwords must be at least 14 characters long. Passphrases made of several unrelated words "
        "are encouraged. Passwords must not be reused across systems and must be stored only in "
        "the company password manager.",
    ),
    (
        "p",
        "Passwords do not expire on a fixed schedule, but must be changed immediately if there is "
        "any sign that they have been exposed. Accounts are locked for 15 minutes after 10 "
        "failed sign-in attempts.",
    ),
    ("h2", "Multi-factor authentication"),
    (
        "p",
        "Multi-factor authentication (MFA) is required for email, the VPN, the HR portal and every "
        "system that holds customer data. Authenticator apps and hardware security keys are "
        "approved methods; SMS codes are not allowed.",
    ),
    (
        "p",
        "Administrators of production systems must use a hardware security key as their second "
        "factor.",
    ),
    ("h1", "3. Devices"),
    ("h2", "Laptop encryption"),
    (
        "p",
        "All company laptops must use full-disk encryption (FileVault on macOS, BitLocker on "
        "Windows). IT enables encryption before a laptop is issued, and devices that report as "
        "unencrypted are blocked from the network.",
    ),
    ("h2", "Screen lock and updates"),
    (
        "p",
        "Screens must lock automatically after 5 minutes of inactivity. Security updates must be "
        "installed within 7 days of release; critical patches for internet-facing systems must "
        "be applied within 48 hours.",
    ),
    ("h2", "Removable media"),
    (
        "p",
        "USB storage devices are blocked on company laptops. Files must be shared through approved "
        "cloud storage instead. The IT Service Desk can grant a temporary exception for up to 30 "
        "days.",
    ),
    ("h1", "4. Access control"),
    (
        "p",
        "Access is granted on the principle of least privilege and must be requested through the "
        "IT Service Desk with approval from the system owner. Managers review the access rights "
        "of their teams every quarter.",
    ),
    (
        "p",
        "When an employee leaves, all of their access must be removed within 24 hours of their last "
        "working day.",
    ),
    ("h1", "5. Data classification"),
    (
        "p",
        "Information is classified into four levels: Public, Internal, Confidential and Restricted. "
        "Customer data is always classified as Restricted.",
    ),
    (
        "p",
        "Restricted data must never be sent by email outside the company and must be shared only "
        "through approved, encrypted channels.",
    ),
    ("h1", "6. Incident reporting"),
    ("h2", "What to report"),
    (
        "p",
        "Report anything that might be a security incident: a suspicious email, malware, a "
        "password you think has been seen by someone else, data sent to the wrong person, or a "
        "lost or stolen device.",
    ),
    ("h2", "Reporting deadlines"),
    (
        "p",
        "Suspected security incidents must be reported to the Security Operations team within 1 "
        "hour of discovery, by email to security@northwind.example or by phone on extension 4444.",
    ),
    (
        "p",
        "Lost or stolen laptops and phones must be reported to the IT Service Desk within 4 hours, "
        "so that the device can be locked and wiped remotely.",
    ),
    (
        "p",
        "If a personal data breach is confirmed, the Data Protection Officer notifies the relevant "
        "supervisory authority within 72 hours, where required by law.",
    ),
    ("h1", "7. Security awareness training"),
    (
        "p",
        "All new joiners must complete security awareness training within their first 14 days. "
        "Every employee must complete the refresher course once a year. The Security team runs "
        "simulated phishing exercises every month.",
    ),
    ("h1", "8. Policy review"),
    (
        "p",
        "The CISO reviews this policy every year. Questions about this policy should be sent to "
        "security@northwind.example.",
    ),
]


# --------------------------------------------------------------------------
# builders
# --------------------------------------------------------------------------


def _sidecar_text(meta: dict) -> str:
    lines = []
    for key in ("title", "document_id", "version", "effective_date", "url"):
        lines.append(f"{key}: {meta[key]}")
    return "\n".join(lines) + "\n"


def write_sidecar(path: Path, meta: dict) -> None:
    Path(str(path) + ".meta.yaml").write_text(_sidecar_text(meta), encoding="utf-8")


def build_handbook_pdf(path: Path) -> None:
    from fpdf import FPDF

    class HandbookPDF(FPDF):
        def header(self) -> None:
            if self.page_no() == 1:
                return
            self.set_font("Helvetica", "", 8)
            self.set_text_color(110, 110, 110)
            self.cell(
                0,
                6,
                "Northwind Analytics - Employee Handbook (Edition 5, 2024)",
                new_x="LMARGIN",
                new_y="NEXT",
                align="L",
            )
            self.ln(4)
            self.set_text_color(0, 0, 0)

        def footer(self) -> None:
            self.set_y(-15)
            self.set_font("Helvetica", "", 8)
            self.set_text_color(110, 110, 110)
            self.cell(0, 10, f"Page {self.page_no()} of {{nb}}", align="C")
            self.set_text_color(0, 0, 0)

    pdf = HandbookPDF(format="A4")
    pdf.set_margins(20, 18, 20)
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_title(HANDBOOK_META["title"])
    pdf.set_author(AUTHOR)
    pdf.set_subject("Northwind Analytics Employee Handbook, edition 5 (fictional demo document)")
    pdf.set_creator("ragcite scripts/build_demo.py")
    pdf.set_lang("en")

    for page_blocks in HANDBOOK_PAGES:
        pdf.add_page()
        for kind, content in page_blocks:
            if kind == "title":
                pdf.set_font("Helvetica", "B", 20)
                pdf.multi_cell(0, 10, str(content), new_x="LMARGIN", new_y="NEXT")
                pdf.ln(2)
            elif kind == "h1":
                pdf.ln(3)
                pdf.set_font("Helvetica", "B", 15)
                pdf.multi_cell(0, 8, str(content), new_x="LMARGIN", new_y="NEXT")
                pdf.ln(1)
            elif kind == "h2":
                pdf.ln(1)
                pdf.set_font("Helvetica", "B", 11.5)
                pdf.multi_cell(0, 6.5, str(content), new_x="LMARGIN", new_y="NEXT")
            elif kind == "p":
                pdf.set_font("Helvetica", "", 10.5)
                pdf.multi_cell(0, 5.2, str(content), new_x="LMARGIN", new_y="NEXT")
                pdf.ln(2)
            elif kind == "ul":
                pdf.set_font("Helvetica", "", 10.5)
                for item in content:  # type: ignore[union-attr]
                    pdf.multi_cell(0, 5.2, f"- {item}", new_x="LMARGIN", new_y="NEXT")
                pdf.ln(2)
            else:  # pragma: no cover - programming error
                raise ValueError(kind)
    expected = len(HANDBOOK_PAGES)
    if pdf.page_no() != expected:
        raise SystemExit(f"handbook overflowed: {pdf.page_no()} pages, expected {expected}")
    pdf.output(str(path))


def _normalise_zip(data: bytes) -> bytes:
    """Rewrite a zip (docx) with fixed timestamps and a stable entry order."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            new = zipfile.ZipInfo(info.filename, date_time=ZIP_DATE)
            new.compress_type = zipfile.ZIP_DEFLATED
            new.external_attr = 0o600 << 16
            dst.writestr(new, src.read(info.filename))
    return out.getvalue()


def build_infosec_docx(path: Path) -> None:
    from docx import Document
    from docx.shared import Pt

    doc = Document()
    doc.styles["Normal"].font.name = "Calibri"
    doc.styles["Normal"].font.size = Pt(11)
    for kind, content in INFOSEC_BLOCKS:
        if kind == "title":
            doc.add_heading(str(content), level=0)
        elif kind == "h1":
            doc.add_heading(str(content), level=1)
        elif kind == "h2":
            doc.add_heading(str(content), level=2)
        elif kind == "p":
            doc.add_paragraph(str(content))
        elif kind == "ul":
            for item in content:  # type: ignore[union-attr]
                doc.add_paragraph(str(item), style="List Bullet")
        else:  # pragma: no cover
            raise ValueError(kind)

    cp = doc.core_properties
    cp.title = INFOSEC_META["title"]
    cp.author = "Northwind Analytics Security Team"
    cp.last_modified_by = "Northwind Analytics Security Team"
    cp.subject = "Information Security Policy, version 3 (fictional demo document)"
    cp.keywords = "security; passwords; MFA; encryption; incident reporting"
    cp.comments = "Generated by ragcite scripts/build_demo.py"
    cp.revision = 3
    naive = FIXED_DATE.replace(tzinfo=None)
    cp.created = dt.datetime(2023, 11, 1, 9, 0, 0)
    cp.modified = naive
    cp.last_printed = naive

    buf = io.BytesIO()
    doc.save(buf)
    path.write_bytes(_normalise_zip(buf.getvalue()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--no-check", action="store_true", help="do not run scripts/check_demo_eval.py afterwards"
    )
    args = parser.parse_args(argv)

    DEMO.mkdir(exist_ok=True)
    pdf_path = DEMO / "employee-handbook.pdf"
    build_handbook_pdf(pdf_path)
    write_sidecar(pdf_path, HANDBOOK_META)
    print(f"wrote {pdf_path.relative_to(ROOT)}")

    docx_path = DEMO / "information-security-policy.docx"
    build_infosec_docx(docx_path)
    write_sidecar(docx_path, INFOSEC_META)
    print(f"wrote {docx_path.relative_to(ROOT)}")

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from demo_tables import (
        APPROVAL_META,
        RETENTION_META,
        build_approval_docx,
        build_retention_pdf,
    )

    approval_path = DEMO / "purchasing-approval-matrix.docx"
    build_approval_docx(approval_path, _normalise_zip)
    write_sidecar(approval_path, APPROVAL_META)
    print(f"wrote {approval_path.relative_to(ROOT)}")

    retention_path = DEMO / "records-retention-schedule.pdf"
    build_retention_pdf(retention_path, FIXED_DATE)
    write_sidecar(retention_path, RETENTION_META)
    print(f"wrote {retention_path.relative_to(ROOT)}")

    if args.no_check:
        return 0
    check = Path(__file__).resolve().parent / "check_demo_eval.py"
    return subprocess.call([sys.executable, str(check)])


if __name__ == "__main__":
    sys.exit(main())
