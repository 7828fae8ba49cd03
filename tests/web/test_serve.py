"""`dice-solver serve` as a person starts it: a port in use is one clear line and exit status 2;
`--host 0.0.0.0` prints the machine's addresses on its networks and a QR code of the page's
address that reads back to it; the example in its help is answered."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from helpers import ROOT, run_cli

from solver.cli import cli

pytest.importorskip("starlette.testclient",
                    reason="the web extra and an HTTP client (pip install '.[test]') are missing")
pytest.importorskip("segno", reason="the web extra (pip install '.[web]') is not installed")
from starlette.testclient import TestClient

from solver.cli.serve import network_addresses, qr_text
from solver.web.app import application

URL = "http://192.168.1.20:8000/"


def read_qr(text: str) -> list[list[bool]]:
    """The block characters back to light (True) and dark modules, two rows a character."""
    upper = {"\u2588": True, "\u2580": True, "\u2584": False, " ": False}
    lower = {"\u2588": True, "\u2580": False, "\u2584": True, " ": False}
    rows = []
    for line in text.splitlines():
        rows.append([upper[c] for c in line])
        rows.append([lower[c] for c in line])
    return rows


def decoded(light: list[list[bool]]) -> str | None:
    """What a camera reads from the modules (light ones white, as a terminal's light text on
    dark shows them), by zxing-cpp; the test skips where zxing-cpp is not installed."""
    zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp is not installed")
    import numpy

    image = numpy.kron(numpy.array(light, dtype=numpy.uint8) * 255,
                       numpy.ones((8, 8), dtype=numpy.uint8))
    found = zxingcpp.read_barcodes(image)
    return found[0].text if found else None


def test_the_qr_code_is_the_librarys_matrix_of_the_url() -> None:
    import segno

    light = read_qr(qr_text(URL))
    matrix = [list(row) for row in segno.make(URL, error="m", boost_error=False).matrix]
    border = 2
    inside = [[not cell for cell in row[border:border + len(matrix)]]
              for row in light[border:border + len(matrix)]]
    assert inside == [[bool(cell) for cell in row] for row in matrix]
    assert all(light[r][c] for r in range(len(light)) for c in range(len(light[0]))
               if not (border <= r < border + len(matrix) and border <= c < border + len(matrix)))


def test_the_qr_code_reads_back_to_the_url() -> None:
    assert decoded(read_qr(qr_text(URL))) == URL


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_port_in_use_is_one_clear_line_and_exit_status_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        run = run_cli("serve", "--port", str(port))
    assert run.returncode == 2, run.stderr
    assert run.stdout == ""
    assert run.stderr == (f"dice-solver: error: cannot listen on 127.0.0.1:{port}: another "
                          f"program is using that port: stop it, or choose another with "
                          f"--port\n")


def test_every_address_prints_the_machines_addresses_and_a_qr_code() -> None:
    child = subprocess.Popen([sys.executable, "cli.py", "serve", "--host", "0.0.0.0", "--port",
                              "0", "--budget", "1"], cwd=ROOT, env=dict(os.environ),
                             stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    lines, deadline = [], time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            line = child.stderr.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if line.startswith("Ctrl+C"):
                break
    finally:
        child.terminate()
        child.wait(timeout=30)
    text = "\n".join(lines)
    assert "http://0.0.0.0" not in text
    urls = re.findall(r"^dice-solver page on (\S+)$", text, re.M)
    addresses = network_addresses()
    if not addresses:  # a machine with no network but its own: the loopback address
        assert urls and urls[0].startswith("http://127.0.0.1:")
        return
    assert [re.match(r"http://([\d.]+):\d+/$", url).group(1) for url in urls] == addresses
    qr = [line for line in lines if line and set(line) <= set("\u2588\u2580\u2584 ")]
    assert decoded(read_qr("\n".join(qr))) == urls[0]


def test_the_example_in_the_help_is_answered() -> None:
    help_text = CliRunner().invoke(cli, ["serve", "--help"]).output
    example = re.search(r"(/api/\S+)", help_text).group(1)
    answer = TestClient(application()).get(example)
    assert answer.status_code == 200, answer.text
    assert answer.json()["verdict"].startswith("Keep ")


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test certificate")
def test_the_page_over_https(tmp_path) -> None:
    """With a certificate the page is served over https (where a phone's browser keeps it for
    use with no network)."""
    import ssl
    import urllib.request

    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    port = free_port()
    child = subprocess.Popen([sys.executable, "cli.py", "serve", "--port", str(port),
                              "--budget", "1", "--certfile", str(cert), "--keyfile", str(key)],
                             cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        while not (line := child.stderr.readline()).startswith("dice-solver page on"):
            assert line, "serve ended before it listened"
        assert line.strip() == f"dice-solver page on https://127.0.0.1:{port}/"
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False
        with urllib.request.urlopen(f"https://127.0.0.1:{port}/sw.js", context=context,
                                    timeout=30) as reply:
            assert "caches.open" in reply.read().decode()
    finally:
        child.terminate()
        child.wait(timeout=30)


def test_https_needs_both_files(tmp_path) -> None:
    cert = tmp_path / "cert.pem"
    cert.write_text("x")
    run = run_cli("serve", "--certfile", str(cert))
    assert run.returncode == 2
    assert run.stderr == "dice-solver: error: https needs both --certfile and --keyfile\n"
