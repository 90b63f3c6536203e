"""Locations of the project's data files (shared by the IR and the hardware layers)."""

from __future__ import annotations

from pathlib import Path

ISA_DIR = Path(__file__).resolve().parent / "isa_data"
if not ISA_DIR.exists():  # a source checkout or editable install: <repo>/isa
    ISA_DIR = Path(__file__).resolve().parents[1] / "isa"
