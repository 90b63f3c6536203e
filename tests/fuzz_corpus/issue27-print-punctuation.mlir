func.func @main() {
  %c = arith.constant 1 : index
  vector.print punctuation <newline>
  %d = arith.addi %c, %c : index
  vector.print %d : index
  return
}
