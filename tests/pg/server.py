"""A real PostgreSQL server for the tests: initdb and pg_ctl in a temporary directory.

The server runs as an unprivileged system user when the tests run as root (initdb refuses
root), listens on 127.0.0.1 on a free port with trust authentication, and is stopped at the end.
Each test gets a fresh database, copied from a template that already has the schema.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SERVER_USER = "postgres"


def pg_bin() -> Path | None:
    """The folder of pg_ctl: on the PATH, else where Debian's package puts it."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(os.path.realpath(found)).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PgServer:
    """One throwaway cluster; ``url(name)`` addresses one of its databases."""

    def __init__(self, bin_dir: Path, *, durable: bool = False) -> None:
        self.bin = bin_dir
        self.durable = durable  # fsync on: for measurements, not for tests
        self.root = Path(tempfile.mkdtemp(prefix="boardroom-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self._names = itertools.count(1)
        self._user: str | None = None
        if os.geteuid() == 0:
            pwd.getpwnam(SERVER_USER)  # KeyError: no such user to run the server as
            self._user = SERVER_USER
            shutil.chown(self.root, SERVER_USER)
        self.root.chmod(0o755)

    def _run(
        self, *argv: str, check: bool = True, given: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        command = list(argv)
        if self._user:
            command = ["setpriv", f"--reuid={self._user}", f"--regid={self._user}", "--init-groups", *command]
        return subprocess.run(
            command, check=check, capture_output=True, text=True, timeout=120, cwd=self.root,
            input=given,
        )

    def start(self) -> None:
        if not self.data.exists():
            self._run(
                str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync",
            )
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "server.log"),
            "-o", options, "-w", "-t", "60", "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def restart(self) -> None:
        self.stop()
        self.start()

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def sql(self, statement: str, database: str = "postgres") -> str:
        done = self._run(
            str(self.bin / "psql"), "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1",
            "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", database,
            "-c", statement,
        )
        return done.stdout.strip()

    def restore(self, dump: str, database: str) -> None:
        """Run a plain ``pg_dump`` script (``COPY … FROM stdin`` included) in ``database``."""
        self._run(
            str(self.bin / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1",
            "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", database,
            given=dump,
        )

    def new_database(self, template: str | None = None) -> str:
        """A fresh empty database (or a copy of ``template``); returns its URL."""
        name = f"t{os.getpid()}_{next(self._names)}"
        copy = f" TEMPLATE {template}" if template else ""
        self.sql(f"CREATE DATABASE {name}{copy}")
        return self.url(name)


def start_server(*, durable: bool = False) -> PgServer | str:
    """A running server, or why none could be started (no PostgreSQL, no user to run it)."""
    bin_dir = pg_bin()
    if bin_dir is None:
        return "PostgreSQL's pg_ctl was not found"
    try:
        server = PgServer(bin_dir, durable=durable)
        server.start()
    except (KeyError, OSError, subprocess.SubprocessError) as exc:
        detail = getattr(exc, "stderr", "") or exc
        return f"could not start PostgreSQL: {detail}"
    return server
