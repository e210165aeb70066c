"""Publishing files and directories so that a crash, a full disk or a concurrent writer never
leaves something half-written or silently replaced.

* `write_atomic(path, data)`: a file written beside its target, fsync'd, then renamed over it
  (the temporary file is removed on any failure); the file gets the user's umask.
* `Staged(target)`: a directory built in a hidden staging folder, then published by
  `publish()`. A target that does not exist is created by a no-replace rename
  (`renameat2(RENAME_NOREPLACE)`): if another writer created it meanwhile, publishing fails
  with `TargetAppeared` instead of replacing it. An existing directory that is empty (a
  pre-created folder) or a mount point is written *into*: it keeps its mode, owner and mount.
  Everything is fsync'd, files and their folder, before the rename that publishes it.
* `sha256(path)`, `visible_entries(directory)` (hidden `.NAME` staging entries are ignored by
  every reader), `directory_lock(directory)` (an advisory `flock` on the directory itself).
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from aqmlab._signals import held_interrupts


def os_error_message(error: OSError) -> str:
    """One line for an OSError: the path (both paths of a rename), the cause and its errno
    name: 'cannot write out/run: No space left on device (ENOSPC)'."""
    paths = [str(p) for p in (error.filename, error.filename2) if p is not None]
    if error.errno:
        cause = os.strerror(error.errno)  # not a library's wording ("Error writing bytes to file. Detail: ...")
    else:
        cause = error.strerror or str(error) or type(error).__name__
    code = errno.errorcode.get(error.errno or 0)
    where = " -> ".join(paths) if paths else "(no path given)"
    return f"{where}: {cause}" + (f" ({code})" if code else "")


def with_path(error: OSError, path: str | Path) -> OSError:
    """`error`, naming `path` when it names no file (pyarrow's and matplotlib's OSErrors do not)."""
    if error.filename is not None:
        return error
    named = OSError(error.errno, error.strerror or str(error), str(path))
    named.__cause__ = error
    return named


class TargetAppeared(FileExistsError):
    """The target of a no-replace publish exists (another writer got there first)."""


def umask() -> int:
    """The process's umask (read without changing it where /proc allows)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode() -> int:
    return 0o666 & ~umask()


def dir_mode() -> int:
    return 0o777 & ~umask()


def visible_entries(directory: Path) -> list[Path]:
    """The entries of `directory` that are not hidden (`.NAME`: staging folders, temporary files)."""
    return [entry for entry in directory.iterdir() if not entry.name.startswith(".")]


def is_empty_dir(directory: Path) -> bool:
    return directory.is_dir() and not visible_entries(directory)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fsync_path(path: Path, *, directory: bool = False) -> None:
    fd = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if directory else 0))
    try:
        os.fsync(fd)
    except OSError as error:
        if error.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):  # a filesystem without fsync
            raise
    finally:
        os.close(fd)


def fsync_tree(root: Path) -> None:
    """fsync every file under `root`, then every folder (deepest first)."""
    folders = []
    for folder, _, files in os.walk(root):
        for name in files:
            fsync_path(Path(folder) / name)
        folders.append(folder)
    for folder in reversed(folders):
        fsync_path(Path(folder), directory=True)


def write_atomic(path: str | Path, data: bytes | str) -> Path:
    """`data` at `path`, replaced atomically and durably; never leaves its temporary file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data.encode() if isinstance(data, str) else data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(name, file_mode())
        os.replace(name, path)
    except BaseException as error:
        with suppress(OSError):
            os.unlink(name)
        if isinstance(error, OSError):
            raise OSError(error.errno, error.strerror or str(error), str(path)) from error
        raise
    fsync_path(path.parent, directory=True)
    return path


_renameat2 = None


def _libc_renameat2():
    global _renameat2
    if _renameat2 is None:
        try:
            function = ctypes.CDLL(None, use_errno=True).renameat2
            function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
            function.restype = ctypes.c_int
            _renameat2 = function
        except (AttributeError, OSError):
            _renameat2 = False
    return _renameat2 or None


_AT_FDCWD = -100
_RENAME_NOREPLACE = 1


def rename_noreplace(source: Path, target: Path) -> None:
    """Rename `source` to `target`, failing with `TargetAppeared` if `target` exists (even an
    empty directory, which a plain rename would replace)."""
    function = _libc_renameat2()
    if function is not None:
        if function(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target), _RENAME_NOREPLACE) == 0:
            return
        code = ctypes.get_errno()
        if code == errno.EEXIST:
            raise TargetAppeared(code, os.strerror(code), str(target))
        if code not in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
            raise OSError(code, os.strerror(code), str(source), None, str(target))
    # No renameat2 (another system, or a filesystem without the flag).
    if not source.is_dir():
        try:
            os.link(source, target)  # fails if target exists
        except FileExistsError:
            raise TargetAppeared(errno.EEXIST, os.strerror(errno.EEXIST), str(target)) from None
        os.unlink(source)
        return
    if os.path.lexists(target):
        raise TargetAppeared(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
    os.rename(source, target)


@contextmanager
def directory_lock(directory: Path, *, blocking: bool = False) -> Iterator[bool]:
    """An exclusive advisory lock on `directory` (flock on the folder itself: no lock file is
    left behind, and the lock dies with its process). Yields False when another process holds
    it and `blocking` is false."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


class Staged:
    """A directory to be published at `target` (see the module docstring). Write into
    `.path`, then `publish(overwrite=...)`; `discard()` on failure."""

    def __init__(self, target: str | Path):
        self.target = Path(target)
        target = self.target
        #: Write into an existing folder (empty, or a mount point) instead of replacing it.
        self.into = target.is_dir() and not target.is_symlink() and (os.path.ismount(target) or is_empty_dir(target))
        if self.into:
            self.path = Path(tempfile.mkdtemp(prefix=".aqmlab-staging.", dir=target))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            self.path = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
            mode = stat.S_IMODE(target.stat().st_mode) if target.is_dir() else dir_mode()
            os.chmod(self.path, mode)

    def discard(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    def publish(self, *, overwrite: bool, last: Iterable[str] = ()) -> None:
        """Make the staged files the target's. Without `overwrite`, a target that holds
        something now (another writer's results) is never replaced: `TargetAppeared`. Signals
        are held during the swap (it completes once begun). `last` names the files moved last
        when writing into a folder (the one a reader takes as the mark of completeness)."""
        fsync_tree(self.path)
        with held_interrupts() as held:
            if self.into:
                self._publish_into(overwrite, list(last))
            else:
                self._publish_new(overwrite)
        if held.pending:
            raise KeyboardInterrupt

    def _publish_new(self, overwrite: bool) -> None:
        target = self.target
        if overwrite and os.path.lexists(target):
            if target.is_dir() and not target.is_symlink():
                retired = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
                retired.rmdir()
                os.replace(target, retired)
                try:
                    rename_noreplace(self.path, target)
                except BaseException:
                    os.replace(retired, target)
                    raise
                shutil.rmtree(retired, ignore_errors=True)
            else:
                target.unlink()
                rename_noreplace(self.path, target)
        else:
            rename_noreplace(self.path, target)
        fsync_path(target.parent, directory=True)

    def _publish_into(self, overwrite: bool, last: list[str]) -> None:
        target = self.target
        with directory_lock(target, blocking=True):
            existing = [entry for entry in visible_entries(target)]
            if existing and not overwrite:
                raise TargetAppeared(errno.EEXIST, "another writer filled it meanwhile", str(target))
            retired = None
            if existing:
                retired = Path(tempfile.mkdtemp(prefix=".aqmlab-old.", dir=target))
                for entry in existing:
                    os.replace(entry, retired / entry.name)
            names = sorted(p.name for p in self.path.iterdir())
            names = [n for n in names if n not in last] + [n for n in last if n in names]
            moved = []
            try:
                for name in names:
                    rename_noreplace(self.path / name, target / name)
                    moved.append(name)
            except BaseException:
                for name in moved:
                    os.replace(target / name, self.path / name)
                if retired is not None:
                    for entry in retired.iterdir():
                        os.replace(entry, target / entry.name)
                    retired.rmdir()
                raise
            self.path.rmdir()
            if retired is not None:
                shutil.rmtree(retired, ignore_errors=True)
        fsync_path(target, directory=True)
