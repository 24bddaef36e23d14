"""Reading a file a person names on the command line (`agora play --pack FILE`, `agora replay FILE`): only a
regular file, only up to a size limit, and never blocking: a FIFO, a device such as /dev/zero or a directory
is refused in one line before anything is read from it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path


class FileRefused(ValueError):
    """A file that is not read: not a regular file, or over the size limit; the message says which."""


def read_regular(path: str | Path, limit: int, too_big: Callable[[int], str]) -> bytes:
    """A regular file's bytes, at most `limit` of them; OSError if it cannot be opened, FileRefused (with
    too_big(size) for a file over the limit) otherwise. Opened without blocking, checked before reading."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a FIFO with no writer: no wait
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)  # the file opened, not a name that may since point elsewhere
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"{path} is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise FileRefused(too_big(info.st_size))
        data = f.read(limit + 1)  # a file that grew since fstat is still read no further
    if len(data) > limit:
        raise FileRefused(too_big(len(data)))
    return data


def _kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"
