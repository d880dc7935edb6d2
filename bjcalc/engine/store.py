"""Compiled graphs kept on disk: build once with networkx, load as flat arrays afterwards.

The dealer's graph and the player's hand graph depend only on a few rule fields (up card, H17,
card limits; the shoe capped at what a hand can hold), never on the rest of the shoe. Compiling
them with networkx costs more than a whole analysis, so the compiled arrays are kept in a
per-user cache directory (``$BJCALC_CACHE``, else ``$XDG_CACHE_HOME/bjcalc``, else
``~/.cache/bjcalc``) as ``.npz`` files and loaded on later runs; networkx is then not imported.

A file's name carries a digest of the source that builds it (and of bjcalc's version), so a
changed builder never reads arrays compiled by an old one: stale files are simply not found.
A file that fails to load is rebuilt; a cache directory that cannot be written is skipped
(the arrays are then compiled in every process). ``BJCALC_CACHE=off`` turns the store off.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import tempfile
import zipfile
from collections.abc import Callable
from typing import TypeVar

import numpy as np

T = TypeVar("T")
Arrays = dict[str, np.ndarray]

_FORMAT = "1"


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
    path = directory / f"{name}-{digest}.npz"
    try:
        with np.load(path, allow_pickle=False) as stored:
            return from_arrays({key: stored[key] for key in stored.files})
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        pass  # not there yet, or unreadable: build it again
    value = build()
    _save(path, to_arrays(value))
    return value


def _save(path: pathlib.Path, arrays: Arrays) -> None:
    """Write ``arrays`` to ``path`` atomically (a reader sees the whole file or none)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                np.savez(out, **arrays)  # type: ignore[arg-type]
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
    except OSError:
        pass  # a read-only home or a full disk: the arrays are used from memory only
