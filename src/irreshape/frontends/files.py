"""Opening input files safely: read-only, never blocking, regular files only."""

from __future__ import annotations

import errno
import os
import stat


class NotRegularFile(OSError):
    """A FIFO, a device or a directory where a file was expected: never read (it could block forever)."""


def open_regular(path: str):
    """Open ``path`` read-only as a binary file, refusing anything but a regular file.

    The open itself cannot block (``O_NONBLOCK``: a FIFO is refused, not waited on).
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
