"""The operating system's file-system calls behind tvseg's atomic writes: flushing files and folders to
disk (``syncfs(2)`` on Linux, else one :func:`os.fsync` each), swapping two names in one step
(``renameat2(RENAME_EXCHANGE)``, ``renamex_np(RENAME_SWAP)``) and an exclusive lock among processes
(``flock``, ``msvcrt.locking``, on a lock file never opened through a link). Each falls back, or says it cannot, where the system lacks the call;
:mod:`tvseg.output` and :mod:`tvseg.report.paths` build the atomic writes on them.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from functools import cache, lru_cache
from pathlib import Path

__all__ = ["flush_tree", "fsync_folder", "exchange", "locked"]


def flush_tree(root) -> None:
    """Flush every file and folder under ``root`` to disk.

    On Linux, one ``syncfs(2)`` of the file system that holds ``root`` (much faster than one
    :func:`os.fsync` per file for thousands of small files); elsewhere, one fsync per file and folder.
    """
    if _syncfs(root):
        return
    for folder, _, files in os.walk(root):
        for name in files:
            fd = os.open(os.path.join(folder, name), os.O_RDWR if os.name == "nt" else os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        fsync_folder(folder)


def _syncfs(root) -> bool:
    call = _libc_function("syncfs", "linux")
    if call is None:
        return False
    fd = os.open(root, os.O_RDONLY)
    try:
        if call(fd) != 0:
            code = _get_errno()
            if code in (errno.ENOSYS, errno.EINVAL):
                return False
            raise OSError(code, os.strerror(code), os.fspath(root))
    finally:
        os.close(fd)
    return True


@cache
def _libc_function(name: str, platform: str):
    """The C library's function ``name`` on ``platform`` (a prefix of :data:`sys.platform`), or None."""
    if not sys.platform.startswith(platform):
        return None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
    except (ImportError, OSError):
        return None
    return getattr(libc, name, None)


def _get_errno() -> int:
    import ctypes

    return ctypes.get_errno()


def fsync_folder(folder) -> None:
    """Flush a folder's entries (new or renamed names) to disk; a no-op where folders cannot be opened."""
    if os.name == "nt":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError as error:  # some file systems do not sync folders
        if error.errno not in (errno.EINVAL, errno.EBADF, errno.ENOTSUP, errno.EOPNOTSUPP):
            raise
    finally:
        os.close(fd)


@lru_cache(maxsize=1)
def _swap_call():
    """A function swapping two names atomically (bytes paths, returns 0 or -1), or None where there is none."""
    renameat2 = _libc_function("renameat2", "linux")
    if renameat2 is not None:
        import ctypes

        renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        at_fdcwd, rename_exchange = -100, 2
        return lambda a, b: renameat2(at_fdcwd, a, at_fdcwd, b, rename_exchange)
    renamex_np = _libc_function("renamex_np", "darwin")
    if renamex_np is not None:
        import ctypes

        renamex_np.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint]
        rename_swap = 2
        return lambda a, b: renamex_np(a, b, rename_swap)
    return None


def exchange(a, b) -> bool:
    """Swap the names ``a`` and ``b`` (files or folders) in one atomic step.

    Uses ``renameat2(RENAME_EXCHANGE)`` on Linux and ``renamex_np(RENAME_SWAP)`` on macOS. Returns
    False, having changed nothing, where the system or the file system cannot do it.
    """
    call = _swap_call()
    if call is None:
        return False
    if call(os.fsencode(a), os.fsencode(b)) == 0:
        return True
    code = _get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOTTY):
        return False
    raise OSError(code, os.strerror(code), os.fspath(a), None, os.fspath(b))


def _lock_fd(fd: int) -> None:
    try:
        import fcntl
    except ImportError:
        fcntl = None  # type: ignore[assignment]  # not on Windows
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError as error:  # a file system without locks (some NFS set-ups): go on unlocked
            if error.errno not in (errno.ENOLCK, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EINVAL):
                raise
        return
    try:
        import msvcrt
    except ImportError:
        return
    msvcrt.locking(fd, msvcrt.LK_LOCK, 1)


def _open_lock(lock: Path) -> int:
    """Open the lock file ``lock``, creating it exclusively when missing; never through a symbolic link.

    A new lock file is created with ``O_CREAT | O_EXCL`` (which never follows a link); an existing
    one is opened with ``O_NOFOLLOW``. A link (or anything but a regular file) planted under the
    lock's name is refused with an :class:`OSError` naming it, so that tvseg never creates nor
    opens a file at the link's target.
    """
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    while True:
        try:
            return os.open(lock, os.O_RDWR | os.O_CREAT | os.O_EXCL | nofollow, 0o644)
        except FileExistsError:
            pass
        try:
            fd = os.open(lock, os.O_RDWR | nofollow)
        except FileNotFoundError:
            continue  # removed by its holder meanwhile: create it
        except OSError as error:
            if os.path.islink(lock) or error.errno == errno.ELOOP:
                raise _not_a_lock(lock) from None
            raise
        if not stat.S_ISREG(os.fstat(fd).st_mode) or os.path.islink(lock):
            os.close(fd)
            raise _not_a_lock(lock)
        return fd


def _not_a_lock(lock: Path) -> OSError:
    what = "a symbolic link" if os.path.islink(lock) else "not a regular file"
    return OSError(
        errno.ELOOP, f"{lock} is {what}, not a lock file tvseg made; remove it and run again", os.fspath(lock)
    )


@contextlib.contextmanager
def locked(path):
    """Hold an exclusive lock on ``path`` (which need not exist) among tvseg writers.

    The lock is taken on the sibling file ``.NAME.lock``, created when needed (exclusively, never
    through a symbolic link: a link planted there is an :class:`OSError` naming it) and removed on
    release. A writer that got the lock on a file a previous holder has just removed tries again on
    the new one, so two writers never hold it at once. A killed holder releases it (the system
    drops the lock); its file is removed by the next holder.
    """
    path = Path(path)
    lock = path.parent / f".{path.name}.lock"
    while True:
        fd = _open_lock(lock)
        try:
            _lock_fd(fd)
            held = os.fstat(fd)
            try:
                current = os.lstat(lock)
                same = (current.st_ino, current.st_dev) == (held.st_ino, held.st_dev)
            except FileNotFoundError:
                same = False
        except BaseException:
            os.close(fd)
            raise
        if same:
            break
        os.close(fd)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(fd)
