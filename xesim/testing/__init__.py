"""xesim as a golden reference in CI (issue 26): mlir-runner's command line (:mod:`.mlir_runner`), FileCheck
semantics at run time (:mod:`.filecheck`), lit-style test files and suites (:mod:`.runlines`, :mod:`.pipeline`,
:mod:`.suite`), a lit test format (:mod:`.lit_format`) and a pytest plugin with fixtures (:mod:`.pytest_plugin`).

The facts about mlir-runner and lit these follow are data: ``isa/runner.toml`` (:mod:`.conventions`)."""
