func.func @main() {
  %t = arith.constant true
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
scf.if %t {
vector.print %t : i1
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
  return
}
