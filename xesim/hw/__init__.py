"""Hardware models (memory, block loads, scatter, atomics, DPAS, barriers, register file).

Nothing in this package imports the IR: models take plain integers, numpy arrays and parameter objects."""
