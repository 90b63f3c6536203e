"""Verification: structural rules (:mod:`xesim.verify.structural`) and named op predicates
(:mod:`xesim.verify.predicates`) referenced from ``isa/dialects/*.toml``."""
