// IMEX's pass pipeline file (read by imex_runner.py upstream; xesim runs the program at its own level instead)
builtin.module(
    imex-xegpu-materialize-matrix-op
    convert-xegpu-to-vc
    imex-convert-to-spirv
    gpu-module-to-binary{format=isa})
