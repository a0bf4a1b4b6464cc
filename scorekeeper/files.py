"""Reading and replacing the program's own files safely: the store and the config file.

* :func:`read_regular_file` opens without blocking and checks what it opened before
  reading: a FIFO, a device, a socket or a folder is refused instead of hanging or
  reading forever, and so is a file over a size limit (checked with ``fstat``, and
  never more than the limit read).
* :func:`write_atomically` writes a temporary file beside the real target (a
  symlink is written through, so the link stays a link), fsyncs it, gives it the
  target's mode and ``os.replace``\\ s it over the target: a crash at any moment
  leaves the old file or the new one.
* :func:`holding_lock` holds a file's lock (beside its real file) for a write: its
  folder made if need be, a lock held by another command waited for up to a timeout,
  and every way that fails one refusal in words. The lock is ``flock`` itself
  (:func:`acquire_lock`), the one filelock takes, without filelock's import.
* A process killed mid-write leaves its temporary (``.<name>.XXXXXXXX.tmp``);
  :func:`remove_stale_temporaries`, called by the next writer under its lock,
  removes those of that file and no other's.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from scorekeeper.i18n import _


class NotARegularFile(OSError):
    """What was opened is a FIFO, a device, a socket or a folder (``kind`` says which)."""

    def __init__(self, path: Path, mode: int) -> None:
        self.kind = describe_kind(mode)
        super().__init__(self.kind)
        self.path = path
        self.mode = mode


class FileTooLarge(OSError):
    """The file holds more than the reader's limit (``size`` bytes; ``limit``)."""

    def __init__(self, path: Path, size: int, limit: int) -> None:
        super().__init__(f"{size} bytes, more than {limit}")
        self.path = path
        self.size = size
        self.limit = limit


def real_path(path: Path) -> Path:
    """``path`` with every symlink resolved (a dangling link gives the file it names)."""
    return Path(os.path.realpath(path))


def is_temporary_of(candidate: str, path: Path) -> bool:
    """Whether the file name ``candidate`` is a temporary file of a write to ``path``.

    Exactly ``.<name>.XXXXXXXX.tmp`` (the eight characters :func:`tempfile.mkstemp` draws,
    never a dot), so the store ``s.json`` never takes ``.s.json.x.XXXXXXXX.tmp``, the
    temporary of a write to ``s.json.x``, for its own.
    """
    return re.fullmatch(re.escape(f".{path.name}.") + r"[a-z0-9_]{8}\.tmp", candidate) is not None


def describe_kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return _("a folder")
    if stat.S_ISFIFO(mode):
        return _("a named pipe (FIFO)")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("a device")
    if stat.S_ISSOCK(mode):
        return _("a socket")
    return _("not a regular file")


def read_regular_file(path: Path, *, limit: int | None = None) -> bytes | None:
    """The bytes of the regular file ``path``, or None when there is none.

    Raises :class:`NotARegularFile` for anything else (the open itself does not block,
    so a FIFO never hangs), :class:`FileTooLarge` when it holds more than ``limit``
    bytes, and OSError when it can't be read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        return None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise NotARegularFile(path, status.st_mode)
        if limit is not None and status.st_size > limit:
            raise FileTooLarge(path, status.st_size, limit)
        with os.fdopen(descriptor, "rb", closefd=False) as stream:
            if limit is None:
                return stream.read()
            content = stream.read(limit + 1)  # it may have grown since the fstat
        if len(content) > limit:
            raise FileTooLarge(path, len(content), limit)
        return content
    finally:
        os.close(descriptor)


def write_atomically(path: Path, text: str | bytes, *, replace: bool = True,
                     before_replace: Callable[[Path], None] | None = None) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old or the new file.

    A symlink is written through: the temporary file goes beside the file it points
    to and is renamed over that file, so the link stays a link; the file keeps its
    mode (a new one gets what the umask gives). ``before_replace`` is called with the
    real target once the new content is on disk, just before it takes the target's
    name (the store rotates its backups there); ``replace=False`` refuses an existing
    file (FileExistsError) without a window in which another could be replaced.
    OSErrors propagate, with no temporary file left behind.
    """
    target = real_path(path)
    folder = target.parent
    content = text.encode("utf-8") if isinstance(text, str) else text
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
            stream.flush()
            os.fsync(stream.fileno())
        # mkstemp makes the file private (0600); keep the target's own mode instead.
        os.chmod(temporary, file_mode(target))
        if before_replace is not None:
            before_replace(target)
        if replace:
            os.replace(temporary, target)
        else:
            _link_without_replacing(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    fsync_folder(folder)


def _link_without_replacing(temporary: str, target: Path) -> None:
    try:
        os.link(temporary, target)  # fails if target exists, atomically
    except FileExistsError:
        raise
    except OSError:  # no hard links on this file system: check, then rename
        if os.path.lexists(target):
            raise FileExistsError(17, "File exists", str(target)) from None
        os.replace(temporary, target)
        return
    os.unlink(temporary)


def file_mode(path: Path) -> int:
    """The mode the file has, or what a newly created file gets under the umask."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def fsync_folder(folder: Path) -> None:
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def remove_stale_temporaries(path: Path) -> None:
    """Temporary files of writes to ``path`` left by a process killed mid-write (the
    caller holds the file's lock, so no write of its own is under way)."""
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return
    for entry in entries:
        if is_temporary_of(entry.name, path):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


@contextlib.contextmanager
def holding_lock(target: Path, lock_path: Path, *, timeout: float,
                 refuse: Callable[[str], Exception]) -> Iterator[None]:
    """Hold ``lock_path`` while ``target`` (a real file, symlinks resolved) is written:
    make its folder if need be, wait up to ``timeout`` seconds for another command's
    hold, then remove the stale temporaries of ``target`` (no write of its own is under
    way). A failure is raised as ``refuse(message)``, one line that says what to do."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise refuse(_("can't create the folder {path}: {reason}").format(
            path=target.parent, reason=error.strerror or error)) from None
    try:
        descriptor = acquire_lock(lock_path, timeout)
    except OSError as error:  # e.g. a folder without write permission
        raise refuse(_("can't lock {path}: {reason}. Nothing was changed").format(
            path=lock_path, reason=error.strerror or error)) from None
    if descriptor is None:
        raise refuse(_("another score command has held {path} for {seconds} s; try again "
                       "when it has finished").format(path=lock_path,
                                                      seconds=f"{timeout:.0f}"))
    try:
        remove_stale_temporaries(target)
        yield
    finally:
        release_lock(descriptor)


LOCK_POLL_SECONDS = 0.05


def acquire_lock(lock_path: Path, timeout: float) -> int | None:
    """An exclusive lock on ``lock_path`` (the file made if need be): its open
    descriptor, or None when another held it for all of ``timeout`` seconds (tried every
    :data:`LOCK_POLL_SECONDS`, never waited on for longer).

    It is the lock filelock's ``FileLock`` takes (``flock``; ``msvcrt.locking`` on
    Windows), so each excludes the other. It is taken here directly because importing
    filelock costs about 12 ms of every command that writes, a fifth of what ``score
    add-round`` adds to a minimal Typer app (docs/performance.md).
    """
    deadline = time.monotonic() + timeout
    while True:
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            locked = try_lock(descriptor)
        except BaseException:
            os.close(descriptor)
            raise
        if locked:
            return descriptor
        os.close(descriptor)
        if time.monotonic() >= deadline:
            return None
        time.sleep(LOCK_POLL_SECONDS)


def release_lock(descriptor: int) -> None:
    """Let go of a lock :func:`acquire_lock` took."""
    try:
        unlock(descriptor)
    finally:
        os.close(descriptor)


if sys.platform == "win32":  # pragma: no cover - the lock on Windows
    import msvcrt

    def try_lock(descriptor: int) -> bool:
        """Lock the open file ``descriptor`` exclusively; False when another holds it."""
        try:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def unlock(descriptor: int) -> None:
        with contextlib.suppress(OSError):
            msvcrt.locking(descriptor, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def try_lock(descriptor: int) -> bool:
        """Lock the open file ``descriptor`` exclusively; False when another holds it
        (another process, or another open of the file in this one)."""
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def unlock(descriptor: int) -> None:
        fcntl.flock(descriptor, fcntl.LOCK_UN)
