"""nginx in front of server processes, configured with the nginx block of docs/server.md
("Several processes"), only its listen port and its upstream ports replaced: what
``bench/server_faults.py`` runs, and what the tests check loads."""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from tests.server.process import free_port

SERVER_DOC = Path(__file__).resolve().parents[2] / "docs" / "server.md"


def nginx_program() -> Path | None:
    """Debian's nginx, when installed (``make system-deps``)."""
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    return Path(found) if Path(found).exists() else None


def nginx_block(doc: str) -> str:
    """The nginx block of the section "Several processes" of docs/server.md."""
    section = doc.split("\n## Several processes\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"^```nginx\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    if found is None:
        raise ValueError('docs/server.md: no nginx block in "Several processes"')
    return found.group(1)


def nginx_config(block: str, listen: int, upstreams: Sequence[int], folder: Path) -> str:
    """A whole nginx configuration: ``block`` with its listen port and its upstream ports
    replaced, inside the ``http`` context, the files in ``folder``."""
    block, listens = re.subn(r"^(\s*listen\s+)\d+;", rf"\g<1>{listen};", block, flags=re.M)
    ports = iter(upstreams)
    block, servers = re.subn(
        r"^(\s*server\s+127\.0\.0\.1:)\d+",
        lambda m: f"{m.group(1)}{next(ports)}",
        block,
        flags=re.M,
    )
    if listens != 1 or servers != len(upstreams):
        raise ValueError(f"the docs' nginx block has {listens} listen and {servers} servers")
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"worker_processes 1;\nerror_log {folder / 'error.log'} error;\n"
        f"pid {folder / 'nginx.pid'};\nevents {{ worker_connections 4096; }}\n"
        f"http {{\n    access_log off;\n{temp}\n{block}}}\n"
    )


def nginx_check(program: Path, config: Path) -> str:
    """What nginx says against the configuration file ``config`` (``nginx -t``; nothing
    when it loads)."""
    checked = subprocess.run(
        [program, "-t", "-q", "-p", str(config.parent), "-c", str(config)],
        capture_output=True,
        text=True,
        check=False,
    )
    return "" if checked.returncode == 0 else checked.stderr.strip() or "refused"


@contextlib.contextmanager
def nginx(block: str, upstreams: Sequence[int]) -> Iterator[int]:
    """nginx with ``block`` in front of ``upstreams``, on a free port (yielded)."""
    program = nginx_program()
    if program is None:
        raise RuntimeError("nginx is not installed (make system-deps)")
    folder = Path(tempfile.mkdtemp(prefix="splash-faults-nginx-"))
    folder.chmod(0o755)
    port = free_port()
    config = folder / "nginx.conf"
    config.write_text(nginx_config(block, port, upstreams, folder))
    refused = nginx_check(program, config)
    if refused:
        raise RuntimeError(f"the nginx configuration of docs/server.md does not load: {refused}")
    server = subprocess.Popen([program, "-p", str(folder), "-c", str(config), "-g", "daemon off;"])
    try:
        deadline = time.monotonic() + 10
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError((folder / "error.log").read_text())
            time.sleep(0.05)
        yield port
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


__all__ = ["SERVER_DOC", "nginx", "nginx_block", "nginx_check", "nginx_config", "nginx_program"]
