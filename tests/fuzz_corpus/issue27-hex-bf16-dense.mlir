func.func @main() {
  %c = arith.constant dense<0xffffffffffffffff> : vector<1xbf16>
  return
}
