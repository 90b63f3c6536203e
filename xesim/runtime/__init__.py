"""Runtime utilities of mlir-runner / IMEX (printing, allclose, fills, reference GEMMs) and their formats."""
