func.func @f(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %z -> index {
    scf.yield %c0 : index
  } else {
    %m = arith.subi %n, %c1 : index
    %x = func.call @f(%m) : (index) -> index
    %y = arith.addi %x, %c1 : index
    scf.yield %y : index
  }
  return %r : index
}
func.func @main() {
  %n = arith.constant 200 : index
  %r = func.call @f(%n) : (index) -> index
  vector.print %r : index
  return
}
