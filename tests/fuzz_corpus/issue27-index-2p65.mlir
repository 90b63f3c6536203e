func.func @main() {
  %c = arith.constant 36893488147419103232 : index
  vector.print %c : index
  return
}
