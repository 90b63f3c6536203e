func.func @main() {
  %c = arith.constant 7 : index
  vector.print %c : index
  return
}
