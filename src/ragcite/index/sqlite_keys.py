"""API keys in the embedded store's file: the SQLite `KeyStore` (table `api_keys`)."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

from ragcite.errors import InputError, NotFoundError
from ragcite.index.keys import ApiKey
from ragcite.index.sqlite_db import SQLiteDatabase


class SQLiteKeyStore:
    """Keys (their hashes) in the `api_keys` table of a store file."""

    def __init__(self, db: SQLiteDatabase) -> None:
        self._db = db

    def add_key(self, name: str, groups: tuple[str, ...], admin: bool, key_hash: str) -> ApiKey:
        key = ApiKey(name, groups, admin, datetime.now(UTC), None, key_hash)
        with self._db.transaction() as db:
            if db.execute(
                "SELECT 1 FROM api_keys WHERE name = ? AND revoked_at IS NULL", (name,)
            ).fetchone():
                raise InputError(
                    f"an active key is already named '{name}'; choose another name, or revoke "
                    f"it first: ragcite keys revoke {name}"
                )
            db.execute(
                "INSERT INTO api_keys (name, key_hash, groups, admin, created_at) "
                "VALUES (?,?,?,?,?)",
                (name, key_hash, json.dumps(list(groups)), int(admin), key.created_at.isoformat()),
            )
        return key

    def key_by_hash(self, key_hash: str) -> ApiKey | None:
        row = self._db.query_one("SELECT * FROM api_keys WHERE key_hash = ?", (key_hash,))
        return _key(row) if row else None

    def list_keys(self) -> list[ApiKey]:
        return [_key(r) for r in self._db.query("SELECT * FROM api_keys ORDER BY id")]

    def revoke_key(self, name: str) -> ApiKey:
        stamp = datetime.now(UTC).isoformat()
        with self._db.transaction() as db:
            db.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                (stamp, name),
            )
        row = self._db.query_one(
            "SELECT * FROM api_keys WHERE name = ? AND revoked_at = ?", (name, stamp)
        )
        if row is None:
            raise NotFoundError(f"no active key named '{name}'; see them with: ragcite keys list")
        return _key(row)


def _key(row: sqlite3.Row) -> ApiKey:
    return ApiKey(
        name=row["name"],
        groups=tuple(json.loads(row["groups"])),
        admin=bool(row["admin"]),
        created_at=datetime.fromisoformat(row["created_at"]),
        revoked_at=datetime.fromisoformat(row["revoked_at"]) if row["revoked_at"] else None,
        key_hash=row["key_hash"],
    )
