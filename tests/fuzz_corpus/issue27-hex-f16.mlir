func.func @main() {
  %c = arith.constant 0x7fffffff : f16
  return
}
