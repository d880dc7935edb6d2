"""The allocator's settings (bjcalc/engine/allocator.py): set on glibc, left alone where the
process has its own."""

from __future__ import annotations

import os
import sys

import pytest

from bjcalc.engine import allocator


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_the_thresholds_are_set_on_linux(monkeypatch):
    for name in list(os.environ):
        if name == "GLIBC_TUNABLES" or (name.startswith("MALLOC_") and name.endswith("_")):
            monkeypatch.delenv(name)
    assert allocator.keep_freed_memory()


@pytest.mark.parametrize("name,value", [("GLIBC_TUNABLES", "glibc.malloc.check=0"), ("MALLOC_TRIM_THRESHOLD_", "0")])
def test_a_process_with_its_own_settings_keeps_them(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    assert not allocator.keep_freed_memory()

