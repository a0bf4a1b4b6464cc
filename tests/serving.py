"""Helpers for the ``score serve`` tests: the real command in a subprocess, a raw
Server-Sent Events client, and a QR decoder for the code the command prints."""

from __future__ import annotations

import queue
import re
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import zxingcpp
from deadlines import deadline

URL = re.compile(r"http://\S+/")
QR_CHARACTERS = frozenset(" ▀▄█")


@dataclass
class Served:
    """A running ``score serve``: its process, what it printed, and its address."""

    process: subprocess.Popen[str]
    lines: list[str]
    stderr: list[str] = field(default_factory=list)

    @property
    def printed_url(self) -> str:
        found = URL.search("".join(self.lines))
        assert found, self.lines
        return found.group(0)

    @property
    def url(self) -> str:
        """The printed address, reached over loopback (the tests talk to nothing else)."""
        parts = urlsplit(self.printed_url)
        return f"http://127.0.0.1:{parts.port}{parts.path}"

    def qr_lines(self) -> list[str]:
        block = [line.rstrip("\n") for line in self.lines
                 if line.strip("\n") and set(line.rstrip("\n")) <= QR_CHARACTERS]
        assert block, self.lines
        return block

    def stop(self, how: int = signal.SIGINT, timeout: float = 30) -> tuple[int, str, str]:
        """Stop it as Ctrl-C (or ``how``) does; (exit code, the rest of stdout, stderr)."""
        self.process.send_signal(how)
        out, err = self.process.communicate(timeout=deadline(timeout))
        return self.process.returncode, out, "".join(self.stderr) + err


def start_serve(score_exe: Path, env: dict[str, str], *args: str,
                timeout: float = 30) -> Served:
    """``score serve --port 0 ARGS``, once it has printed that it is serving."""
    process = subprocess.Popen(
        [str(score_exe), "serve", "--port", "0", *args], stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
        env={**env, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        for line in iter(process.stdout.readline, ""):
            lines.put(line)
            if "Ctrl-C" in line:  # the last line, in every language
                return
        lines.put("")

    threading.Thread(target=pump, daemon=True).start()
    seen: list[str] = []
    until = time.monotonic() + deadline(timeout)
    while True:
        try:
            line = lines.get(timeout=max(0.1, until - time.monotonic()))
        except queue.Empty:
            process.kill()
            raise AssertionError(f"score serve printed no address in {deadline(timeout)} s: "
                                 f"{seen}") from None
        if not line:
            process.wait(timeout=deadline(10))
            assert process.stderr is not None
            raise AssertionError(f"score serve ended ({process.returncode}): {seen} "
                                 f"{process.stderr.read()}")
        seen.append(line)
        if "Ctrl-C" in line:
            return Served(process, seen)


class EventStream:
    """A viewer's live stream, read as raw Server-Sent Events."""

    def __init__(self, url: str, timeout: float = 10) -> None:
        parts = urlsplit(url)
        assert parts.hostname and parts.port
        self.socket = socket.create_connection((parts.hostname, parts.port),
                                               timeout=deadline(timeout))
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        self.socket.sendall(f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                            "Accept: text/event-stream\r\n\r\n".encode())
        self.file = self.socket.makefile("rb")
        self.status = self.file.readline().decode("latin-1").strip()
        self.headers: dict[str, str] = {}
        while (line := self.file.readline().decode("latin-1").strip()):
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()

    def next_data(self, timeout: float = 10) -> str:
        """The data of the next event (comments and ``retry`` lines skipped)."""
        self.socket.settimeout(deadline(timeout))
        data: list[str] = []
        while True:
            line = self.file.readline()
            if not line:
                raise EOFError("the stream ended")
            text = line.decode("utf-8").rstrip("\r\n")
            if text.startswith("data:"):
                data.append(text[5:].removeprefix(" "))
            elif not text and data:
                return "\n".join(data)

    def close(self) -> None:
        self.file.close()
        self.socket.close()

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def decode_qr(lines: list[str], scale: int = 4) -> str:
    """Read the text QR code back (half blocks, dark = ink) with the ZXing decoder."""
    rows: list[list[bool]] = []
    for line in lines:
        rows.append([ch in "▀█" for ch in line])
        rows.append([ch in "▄█" for ch in line])
    border = 4
    width = max(len(row) for row in rows) + 2 * border
    blank = [False] * width
    modules = [blank] * border + [[False] * border + row + [False] * (width - border - len(row))
                                  for row in rows] + [blank] * border
    pixels = bytearray()
    for row in modules:
        line = b"".join(b"\x00" * scale if dark else b"\xff" * scale for dark in row)
        pixels += line * scale
    image = memoryview(bytes(pixels)).cast("B", shape=[len(modules) * scale, width * scale])
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1, f"{len(found)} codes found"
    assert found[0].format == zxingcpp.BarcodeFormat.QRCode
    return str(found[0].text)
