// RUN: xesim verify --split-input-file --verify-diagnostics %s
// The LLVM-dialect ops of XeVM kernels (shared/spec/upstream-xegpu-xevm.md §4.13): MLIR leaves these checks to LLVM's
// IR verifier, xesim runs the IR directly and reports them with its own wording (xesim/verify/rules_llvm.py).

func.func @trunc_widens(%x: i32) {
  // expected-error@+1 {{'llvm.trunc' op result type 'i64' must be narrower than operand type 'i32'}}
  %t = llvm.trunc %x : i32 to i64
  return
}

// -----

func.func @zext_narrows(%x: i64) {
  // expected-error@+1 {{'llvm.zext' op result type 'i32' must be wider than operand type 'i64'}}
  %t = llvm.zext %x : i64 to i32
  return
}

// -----

func.func @sext_shape(%x: vector<2xi32>) {
  // expected-error@+1 {{'llvm.sext' op operand type 'vector<2xi32>' and result type 'vector<4xi64>' must have the same shape}}
  %t = llvm.sext %x : vector<2xi32> to vector<4xi64>
  return
}

// -----

func.func @bitcast_width(%x: vector<2xi16>) {
  // expected-error@+1 {{'llvm.bitcast' op cannot bit cast 'vector<2xi16>' to 'i64': their bit widths differ}}
  %t = llvm.bitcast %x : vector<2xi16> to i64
  return
}

// -----

func.func @gep_indices(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'llvm.getelementptr' op expected one index, or a constant 0 and one index, got 3 indices}}
  %q = llvm.getelementptr %p[0, %i, %i] : (!llvm.ptr<1>, i32, i32) -> !llvm.ptr<1>, f32
  return
}

// -----

func.func @gep_space(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'llvm.getelementptr' op result type '!llvm.ptr<4>' differs from the base pointer type '!llvm.ptr<1>'}}
  %q = llvm.getelementptr %p[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<4>, f32
  return
}

// -----

func.func @constant_kind() {
  // expected-error@+1 {{'llvm.mlir.constant' op value 1.500000e+00 : f32 does not fit the result type 'i32'}}
  %c = llvm.mlir.constant(1.5 : f32) : i32
  return
}

// -----

func.func @load_from_integer(%a: i64) {
  // expected-error@+1 {{'llvm.load' op operand #0 must be LLVM pointer type, but got 'i64'}}
  %v = llvm.load %a : i64 -> f32
  return
}

// -----

// expected-error@+1 {{expected an integer address space in '!llvm.ptr<...>'}}
func.func @ptr_space(%p: !llvm.ptr<global>) {
  return
}
