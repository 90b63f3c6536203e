// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s
// XeVM and LLVM-dialect spellings (shared/spec/upstream-xegpu-xevm.md §4): older and alternative forms print in
// today's: properties written in {...} or with the alignment keyword come back in <{...}> (§4.13), mma's struct
// fields in any order come back as m, n, k / d, a, b, c (§4.5), cache controls and the range hint are kept.
// The CHECK lines were written from the spec's syntax.

func.func @spellings(%p: !llvm.ptr<1>, %i: i32, %v: vector<8xi16>, %b: vector<8xi32>, %c: vector<8xf32>) {
  // CHECK: %q = llvm.getelementptr inbounds %p[0, %i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<8xf32>
  %q = llvm.getelementptr inbounds %p[0, %i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<8xf32>
  // CHECK: %x = llvm.load %q <{alignment = 4 : i64}> : !llvm.ptr<1> -> vector<8xf32>
  %x = llvm.load %q {alignment = 4 : i64} : !llvm.ptr<1> -> vector<8xf32>
  // CHECK: llvm.store %x, %q <{alignment = 16 : i64}> : vector<8xf32>, !llvm.ptr<1>
  llvm.store %x, %q alignment = 16 : vector<8xf32>, !llvm.ptr<1>
  // CHECK: %d = xevm.mma %v, %b, %c {shape = <m = 8, n = 16, k = 16>, types = <d = f32, a = f16, b = f16, c = f32>} : (vector<8xi16>, vector<8xi32>, vector<8xf32>) -> vector<8xf32>
  %d = xevm.mma %v, %b, %c {shape = <k = 16, m = 8, n = 16>, types = <a = f16, b = f16, c = f32, d = f32>} : (vector<8xi16>, vector<8xi32>, vector<8xf32>) -> vector<8xf32>
  // CHECK: %l = xevm.blockload %p <{cache_control = #xevm.load_cache_control<L1s_L2c_L3c>}> : (!llvm.ptr<1>) -> vector<4xi32>
  %l = xevm.blockload %p {cache_control = #xevm.load_cache_control<L1s_L2c_L3c>} : (!llvm.ptr<1>) -> vector<4xi32>
  // CHECK: xevm.memfence <{addrspace = #xevm.addr_space<shared>, scope = #xevm.mem_scope<workgroup>}>
  xevm.memfence <{addrspace = #xevm.addr_space<shared>, scope = #xevm.mem_scope<workgroup>}>
  // CHECK: %t = llvm.trunc %i overflow<nsw, nuw> : i32 to i16
  %t = llvm.trunc %i overflow<nsw, nuw> : i32 to i16
  // CHECK: %z = llvm.zext nneg %t : i16 to i64
  %z = llvm.zext nneg %t : i16 to i64
  // CHECK: %g = llvm.inttoptr %z dereferenceable<bytes = 64> : i64 to !llvm.ptr<1>
  %g = llvm.inttoptr %z dereferenceable<bytes = 64> : i64 to !llvm.ptr<1>
  // CHECK: %h = llvm.addrspacecast %g : !llvm.ptr<1> to !llvm.ptr<4>
  %h = llvm.addrspacecast %g : !llvm.ptr<1> to !llvm.ptr<4>
  // CHECK: %r = xevm.truncf %x2 {src_etype = bf16, dst_etype = e2m1} : (vector<16xbf16>) -> vector<8xi8>
  %x2 = arith.constant dense<1.0> : vector<16xbf16>
  %r = xevm.truncf %x2 {src_etype = bf16, dst_etype = e2m1} : (vector<16xbf16>) -> vector<8xi8>
  return
}

gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @ids() kernel {
    // CHECK: %a = xevm.local_id.x range <i32, 0, 1024> : i32
    %a = xevm.local_id.x range <i32, 0, 1024> : i32
    // CHECK: %b = xevm.group_count.z : i64
    %b = xevm.group_count.z : i64
    gpu.return
  }
}
