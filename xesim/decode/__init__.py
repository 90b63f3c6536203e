"""Ops decoded once (ARCHITECTURE.md "Decode once"): the first time an op with non-trivial decoding is seen, its
attributes and types become a small frozen description that the verifier checks, the executor runs, the
register-file model lays out and the race detector takes its footprint from.  Descriptions depend on the IR alone
(no target, no run-time values); the parts that depend on the target take its parameters as arguments."""
