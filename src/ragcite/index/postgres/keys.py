"""API keys in the PostgreSQL store's database: its `KeyStore` (table `ragcite_api_keys`)."""

from __future__ import annotations

from datetime import UTC, datetime

from ragcite.errors import InputError, NotFoundError
from ragcite.index.keys import ApiKey
from ragcite.index.postgres.db import PostgresDatabase, Row


class PostgresKeyStore:
    """Keys (their hashes) in the `ragcite_api_keys` table of a store database."""

    def __init__(self, db: PostgresDatabase) -> None:
        self._db = db

    def add_key(self, name: str, groups: tuple[str, ...], admin: bool, key_hash: str) -> ApiKey:
        key = ApiKey(name, groups, admin, datetime.now(UTC), None, key_hash)
        with self._db.transaction() as conn:
            taken = conn.execute(
                "SELECT 1 FROM ragcite_api_keys WHERE name = %s AND revoked_at IS NULL FOR UPDATE",
                (name,),
            ).fetchone()
            if taken:
                raise InputError(
                    f"an active key is already named '{name}'; choose another name, or revoke "
                    f"it first: ragcite keys revoke {name}"
                )
            conn.execute(
                "INSERT INTO ragcite_api_keys (name, key_hash, groups, admin, created_at) "
                "VALUES (%s,%s,%s,%s,%s)",
                (name, key_hash, list(groups), admin, key.created_at),
            )
        return key

    def key_by_hash(self, key_hash: str) -> ApiKey | None:
        row = self._db.query_one("SELECT * FROM ragcite_api_keys WHERE key_hash = %s", (key_hash,))
        return _key(row) if row else None

    def list_keys(self) -> list[ApiKey]:
        return [_key(r) for r in self._db.query("SELECT * FROM ragcite_api_keys ORDER BY id")]

    def revoke_key(self, name: str) -> ApiKey:
        with self._db.transaction() as conn:
            row = conn.execute(
                "UPDATE ragcite_api_keys SET revoked_at = %s WHERE name = %s "
                "AND revoked_at IS NULL RETURNING *",
                (datetime.now(UTC), name),
            ).fetchone()
        if row is None:
            raise NotFoundError(f"no active key named '{name}'; see them with: ragcite keys list")
        return _key(row)


def _key(row: Row) -> ApiKey:
    return ApiKey(
        name=row["name"],
        groups=tuple(row["groups"]),
        admin=bool(row["admin"]),
        created_at=row["created_at"],
        revoked_at=row["revoked_at"],
        key_hash=row["key_hash"],
    )
