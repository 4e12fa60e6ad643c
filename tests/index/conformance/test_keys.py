"""Conformance: API keys kept next to a store (hashes only). Run against every Store."""

from __future__ import annotations

import pytest

from ragcite.errors import InputError, NotFoundError
from ragcite.index.keys import (
    TOKEN_PREFIX,
    KeyStore,
    authenticate,
    create_key,
    hash_token,
    key_store,
    parse_groups,
)
from ragcite.index.store import Store


@pytest.fixture
def keys(store: Store) -> KeyStore:
    return key_store(store)


def test_a_created_key_authenticates_with_its_groups(keys: KeyStore) -> None:
    key, token = create_key(keys, "alice", ("hr", "legal"))
    assert token.startswith(TOKEN_PREFIX) and len(token) > 40
    found = authenticate(keys, token)
    assert found is not None
    assert (found.name, found.groups, found.admin) == ("alice", ("hr", "legal"), False)
    assert found.access_groups == ("hr", "legal")
    assert found.created_at.tzinfo is not None and found.revoked_at is None
    _, admin_token = create_key(keys, "root", (), admin=True)
    assert authenticate(keys, admin_token).access_groups is None  # type: ignore[union-attr]
    assert key.key_hash == hash_token(token)


def test_only_the_hash_is_stored(keys: KeyStore) -> None:
    _, token = create_key(keys, "bob", ())
    listed = keys.list_keys()
    assert [k.name for k in listed] == ["bob"]
    assert token not in repr(listed) and listed[0].key_hash == hash_token(token)


def test_unknown_malformed_and_revoked_keys_do_not_authenticate(keys: KeyStore) -> None:
    _, token = create_key(keys, "carol", ("hr",))
    for bad in (None, "", token + "x", token[:-1], "rck_" + "a" * 43, "Bearer " + token):
        assert authenticate(keys, bad) is None
    revoked = keys.revoke_key("carol")
    assert revoked.revoked_at is not None
    assert authenticate(keys, token) is None
    with pytest.raises(NotFoundError, match="carol"):
        keys.revoke_key("carol")
    # The name is free again once revoked; the old token stays dead.
    _, fresh = create_key(keys, "carol", ("hr",))
    assert authenticate(keys, fresh) is not None and authenticate(keys, token) is None
    assert [(k.name, k.revoked_at is None) for k in keys.list_keys()] == [
        ("carol", False),  # oldest first: the revoked one
        ("carol", True),
    ]


def test_names_and_groups_are_checked(keys: KeyStore) -> None:
    create_key(keys, "dave", ())
    with pytest.raises(InputError, match="already named 'dave'"):
        create_key(keys, "dave", ())
    with pytest.raises(InputError, match="not valid"):
        create_key(keys, "no spaces please", ())
    assert parse_groups(" hr, legal ,hr,") == ("hr", "legal")
    assert parse_groups("") == ()
    with pytest.raises(InputError, match="'two words'"):
        parse_groups("hr,two words")
