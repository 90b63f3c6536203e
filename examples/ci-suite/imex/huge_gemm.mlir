// RUN: %python_executable %imex_runner -i %s --pass-pipeline-file=%p/xegpu-to-func-vc.pp --runner imex-cpu-runner -e main --entry-point-result=void --shared-libs=%irunner_utils --filecheck
// Excluded by imex/lit.local.cfg (imex_enable_excluded_tests is false): never run, never reported.
// CHECK: this file is not a test
