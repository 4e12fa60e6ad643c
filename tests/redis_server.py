"""A real Redis server for the answer-cache tests: Debian's `redis-server`, on loopback."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis


class RedisServer:
    """`redis-server` on a free 127.0.0.1 port, in its own directory, persisting nothing."""

    def __init__(self, directory: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise FileNotFoundError("redis-server")
        self.binary = binary
        self.directory = directory
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        log = (self.directory / "redis.log").open("wb")
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.directory)],
            cwd=self.directory,
            stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 10
        while True:
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"redis-server did not start: {(self.directory / 'redis.log').read_text()}"
                )
            time.sleep(0.05)

    def flush(self) -> None:
        redis.Redis.from_url(self.url).flushall()

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
