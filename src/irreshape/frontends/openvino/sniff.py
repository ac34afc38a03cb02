"""What the first bytes of an ``.xml`` say: its root element, and whether a DOCTYPE comes before it."""

from __future__ import annotations

import re

from ..files import open_regular

HEAD = 1 << 16  # how much of the prolog is looked at before the parser sees anything
_PROLOG_SKIP = re.compile(rb"\s+|<\?.*?\?>|<!--.*?-->", re.DOTALL)
_DOCTYPE_TOKEN = re.compile(rb"\"[^\"]*\"|'[^']*'|<!--.*?-->|[^\"'<>\[\]]+|[<>\[\]]", re.DOTALL)
_ROOT = re.compile(rb"<([A-Za-z_][\w.:-]*)")
_UTF16 = {b"\xff\xfe": "utf-16", b"\xfe\xff": "utf-16", b"<\x00": "utf-16-le", b"\x00<": "utf-16-be"}


def prolog(head: bytes) -> tuple[bytes | None, bool]:
    """(the root element's name when the first bytes show it, whether a DOCTYPE precedes it)."""
    utf16 = _UTF16.get(head[:2])
    if utf16:
        head = head[:len(head) & ~1].decode(utf16, "replace").encode("utf-8")
    pos = 3 if head.startswith(b"\xef\xbb\xbf") else 0
    doctype = False
    while True:
        m = _PROLOG_SKIP.match(head, pos)
        if m:
            pos = m.end()
        elif head.startswith(b"<!DOCTYPE", pos):
            doctype = True
            pos = doctype_end(head, pos + 9)
            if pos < 0:
                return None, True
        else:
            m = _ROOT.match(head, pos)
            return (m.group(1) if m else None), doctype


def doctype_end(head: bytes, pos: int) -> int:
    """The index just past a DOCTYPE's closing ``>`` (quotes, comments and ``[...]`` skipped); -1 if not in ``head``."""
    depth = 0
    while True:
        m = _DOCTYPE_TOKEN.match(head, pos)
        if m is None:
            return -1
        pos, tok = m.end(), m.group()
        if tok == b"[":
            depth += 1
        elif tok == b"]":
            depth -= 1
        elif tok == b">" and depth <= 0:
            return pos


def sniff_is_ir(path: str) -> bool:
    """Cheap test used when walking directories: could the root element be ``<net>``?

    Anything that cannot be told (unreadable, not a regular file, a long prolog) counts as an IR,
    so that the real parse reports it.
    """
    try:
        with open_regular(path) as f:
            head = f.read(HEAD)
    except OSError:
        return True
    root, _ = prolog(head)
    return root is None or root == b"net"
