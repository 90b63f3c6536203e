"""Observers: what follows a run through the executor's one hook (xesim/exec/hooks.py) without the executor
importing it — the register-file model (:mod:`xesim.observe.registers`) and the race detector
(:mod:`xesim.observe.races`).  :func:`xesim.api.make_engine` subscribes the ones the run configuration asks for."""
