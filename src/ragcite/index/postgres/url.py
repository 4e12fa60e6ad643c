"""Connection settings from a store URL, and the URL as it may be shown: without its password.

>>> redact_url("postgresql://rag:s3cret@db.internal:5432/kb")
'postgresql://rag:***@db.internal:5432/kb'
>>> connection_settings("postgresql://rag@db/kb")["connect_timeout"]
'10'
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

CONNECT_TIMEOUT_S = 10
"""How long opening a connection may take before the store gives up (libpq connect_timeout)."""

STATEMENT_TIMEOUT_MS = 60_000
"""How long one statement may run (PostgreSQL statement_timeout), unless the URL sets it."""

_SECRET_PARAMS = {"password", "sslpassword"}
_SCHEMES = ("postgresql", "postgres")


def redact_url(url: str) -> str:
    """The URL with any password (in the user part or the query string) replaced by `***`."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        name, colon, _password = user.partition(":")
        netloc = f"{name}:***@{host}" if colon else f"{user}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, "***" if k in _SECRET_PARAMS else v) for k, v in pairs], safe="*/")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def connection_settings(url: str) -> dict[str, str]:
    """The URL as libpq keywords, with ragcite's timeouts unless the URL sets its own.

    `postgres://` is accepted as a synonym of `postgresql://`; a `+driver` suffix on the
    scheme (SQLAlchemy style, `postgresql+psycopg://`) is dropped.
    """
    from psycopg.conninfo import conninfo_to_dict

    scheme, sep, rest = url.partition("://")
    base = scheme.split("+", 1)[0].casefold()
    if not sep or base not in _SCHEMES:
        raise ValueError(f"not a PostgreSQL URL: {redact_url(url)}")
    settings = {k: str(v) for k, v in conninfo_to_dict(f"postgresql://{rest}").items()}
    settings.setdefault("connect_timeout", str(CONNECT_TIMEOUT_S))
    options = settings.get("options", "")
    if "statement_timeout" not in options:
        settings["options"] = f"{options} -c statement_timeout={STATEMENT_TIMEOUT_MS}".strip()
    settings.setdefault("application_name", "ragcite")
    return settings
