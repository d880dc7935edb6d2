"""Compiled graphs kept on disk: build once with networkx, load as flat arrays afterwards.

The dealer's graph and the player's hand graph depend only on a few rule fields (up card, H17,
card limits; the shoe capped at what a hand can hold), never on the rest of the shoe. Compiling
them with networkx costs more than a whole analysis, so the compiled arrays are kept in a
per-user cache directory (``$BJCALC_CACHE``, else ``$XDG_CACHE_HOME/bjcalc``, else
``~/.cache/bjcalc``) as flat files (a small JSON header, then each array's raw bytes: reading one
costs a single read, without the zip and masked-array modules numpy's ``.npz`` loader imports)
and loaded on later runs; networkx is then not imported.

A file's name carries a digest of the source that builds it (and of bjcalc's version), so a
changed builder never reads arrays compiled by an old one: stale files are simply not found.
A file that fails to load is rebuilt; a cache directory that cannot be written is skipped
(the arrays are then compiled in every process). ``BJCALC_CACHE=off`` turns the store off.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
from collections.abc import Callable
from typing import TypeVar

import numpy as np

T = TypeVar("T")
Arrays = dict[str, np.ndarray]

_FORMAT = "2"
_MAGIC = b"bjcalc-arrays\n"


def cache_directory() -> pathlib.Path | None:
    """Where compiled arrays are kept, or ``None`` when the store is off."""
    chosen = os.environ.get("BJCALC_CACHE")
    if chosen is not None:
        return None if chosen.lower() in ("", "0", "off", "none") else pathlib.Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "bjcalc"


def source_digest(*paths: str) -> str:
    """A short digest of the files that build a kind of arrays, and of the store's format."""
    digest = hashlib.sha256(_FORMAT.encode())
    for path in paths:
        digest.update(pathlib.Path(path).read_bytes())
    return digest.hexdigest()[:16]


def load_or_build(
    name: str, digest: str, build: Callable[[], T], to_arrays: Callable[[T], Arrays], from_arrays: Callable[[Arrays], T]
) -> T:
    """The object ``build()`` makes, loaded from the store when a file for ``name`` compiled by
    the same source (``digest``) is there, else built and saved."""
    directory = cache_directory()
    if directory is None:
        return build()
    path = directory / f"{name}-{digest}.arrays"
    try:
        return from_arrays(_read(path))
    except (OSError, KeyError, ValueError, TypeError):
        pass  # not there yet, or unreadable: build it again
    value = build()
    _save(path, to_arrays(value))
    return value


def _read(path: pathlib.Path) -> Arrays:
    """The arrays of a file written by :func:`_save` (writable copies)."""
    data = path.read_bytes()
    if not data.startswith(_MAGIC):
        raise ValueError(f"{path} is not a bjcalc arrays file")
    end = data.index(b"\n", len(_MAGIC))
    header = json.loads(data[len(_MAGIC) : end])
    arrays, at = {}, end + 1
    for key, dtype, shape in header:
        array = np.frombuffer(data, dtype=np.dtype(dtype), count=int(np.prod(shape, dtype=np.int64)), offset=at)
        arrays[key] = array.reshape(shape).copy()
        at += array.nbytes
    if at != len(data):
        raise ValueError(f"{path} is truncated or too long")
    return arrays


def _save(path: pathlib.Path, arrays: Arrays) -> None:
    """Write ``arrays`` to ``path`` atomically (a reader sees the whole file or none)."""
    import tempfile

    if any(value.dtype.hasobject for value in arrays.values()):
        return  # only plain numbers are stored as raw bytes
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
        try:
            contiguous = {key: np.ascontiguousarray(value) for key, value in arrays.items()}
            header = [[key, value.dtype.str, list(value.shape)] for key, value in contiguous.items()]
            with os.fdopen(handle, "wb") as out:
                out.write(_MAGIC + json.dumps(header).encode() + b"\n")
                for value in contiguous.values():
                    out.write(value.tobytes())
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
    except OSError:
        pass  # a read-only home or a full disk: the arrays are used from memory only
