"""API keys: who may call the server, with which access groups, and whether they may write.

A key is a random token shown once (`rck_` and 43 URL-safe characters from `secrets`);
the store keeps only its SHA-256, next to the key's name, groups, admin flag and dates,
behind the small `KeyStore` protocol (SQLite: sqlite_keys.py; PostgreSQL:
postgres/keys.py). A token of 256 random bits needs no slow hash: nobody can guess one
from its SHA-256.

    >>> key, token = create_key(key_store(store), "alice", ("hr", "legal"))
    >>> authenticate(key_store(store), token).groups
    ('hr', 'legal')
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from ragcite.errors import InputError, StoreError

TOKEN_PREFIX = "rck_"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")
_GROUP = re.compile(r"^[^\s,]{1,64}$")


@dataclass(frozen=True)
class ApiKey:
    """A key as stored (never its token): who holds it and what it may do."""

    name: str
    groups: tuple[str, ...]
    admin: bool
    created_at: datetime
    revoked_at: datetime | None = None
    key_hash: str = ""

    @property
    def access_groups(self) -> tuple[str, ...] | None:
        """The groups a store query reads with: None (everything) for an admin key."""
        return None if self.admin else self.groups


@runtime_checkable
class KeyStore(Protocol):
    def add_key(self, name: str, groups: tuple[str, ...], admin: bool, key_hash: str) -> ApiKey:
        """Store a new key; InputError when an active key already has this name."""
        ...

    def key_by_hash(self, key_hash: str) -> ApiKey | None:
        """The key (revoked or not) whose token hashes to `key_hash`."""
        ...

    def list_keys(self) -> list[ApiKey]:
        """Every key, revoked ones too, oldest first."""
        ...

    def revoke_key(self, name: str) -> ApiKey:
        """Revoke the active key named `name`; NotFoundError when there is none."""
        ...


def key_store(store: object) -> KeyStore:
    """The key store kept next to `store` (its `keys` attribute)."""
    found = getattr(store, "keys", None)
    if isinstance(found, KeyStore):
        return found
    raise StoreError(
        f"the {type(store).__name__} store keeps no API keys; use a store that does "
        "(the embedded SQLite store and the PostgreSQL store both do)"
    )


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def parse_groups(text: str | None) -> tuple[str, ...]:
    """'hr, legal' -> ('hr', 'legal'); InputError naming a group with spaces in it.

    >>> parse_groups("hr,legal")
    ('hr', 'legal')
    """
    groups = tuple(dict.fromkeys(g.strip() for g in (text or "").split(",") if g.strip()))
    for group in groups:
        if not _GROUP.match(group):
            raise InputError(
                f"access group {group!r} is not valid: use up to 64 characters without spaces, "
                "groups separated by commas (e.g. hr,legal)"
            )
    return groups


def create_key(
    keys: KeyStore, name: str, groups: tuple[str, ...], *, admin: bool = False
) -> tuple[ApiKey, str]:
    """A new key and its token (shown once; only its hash is stored)."""
    if not _NAME.match(name):
        raise InputError(
            f"key name {name!r} is not valid: use 1-64 letters, digits and . _ @ -, "
            "starting with a letter or digit (e.g. alice or hr-bot)"
        )
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    return keys.add_key(name, groups, admin, hash_token(token)), token


def authenticate(keys: KeyStore, token: str | None) -> ApiKey | None:
    """The active key `token` belongs to, or None (missing, unknown or revoked)."""
    if not token or not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    wanted = hash_token(token)
    found = keys.key_by_hash(wanted)
    if found is None or not hmac.compare_digest(found.key_hash, wanted):
        return None
    return found if found.revoked_at is None else None
