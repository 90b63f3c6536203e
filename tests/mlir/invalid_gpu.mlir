// RUN: xesim verify --split-input-file --verify-diagnostics %s
// Invalid gpu programs: each case must be rejected with MLIR's diagnostic (xesim/verify/rules_gpu.py).

module {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main(%c1: index) {
    // expected-error@+1 {{'gpu.launch_func' op expected the closest surrounding module to have the 'gpu.container_module' attribute}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @main(%c1: index) {
    // expected-error@+1 {{kernel container 'nope' is undefined}}
    gpu.launch_func @nope::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func private @kernels()
  func.func @main(%c1: index) {
    // expected-error@+1 {{kernel module 'kernels' is undefined}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
  }
  func.func @main(%c1: index) {
    // expected-error@+1 {{kernel function '@kernels::@k' is undefined}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @helper() {
      gpu.return
    }
  }
  func.func @main(%c1: index) {
    // expected-error@+1 {{kernel function is missing the 'gpu.kernel' attribute}}
    gpu.launch_func @kernels::@helper blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>, %n: i64) kernel {
      gpu.return
    }
  }
  func.func @main(%c1: index, %m: memref<4xf32>) {
    // expected-error@+1 {{got 1 kernel operands but expected 2}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>, %n: i64) kernel {
      gpu.return
    }
  }
  func.func @main(%c1: index, %m: memref<8xf32>, %n: i64) {
    // expected-error@+1 {{type of function argument 0 does not match}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<8xf32>, %n : i64)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-note@+1 {{see the kernel definition here}}
    gpu.module @inner {
    }
  }
  func.func @main(%c1: index) {
    // expected-error@+1 {{referenced kernel '@kernels::@inner' is not a function}}
    gpu.launch_func @kernels::@inner blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main(%c1: index, %f: f32) {
    // expected-error@+1 {{'gpu.launch_func' op operand #5 must be index or i32 or i64, but got 'f32'}}
    "gpu.launch_func"(%c1, %c1, %c1, %c1, %c1, %f) {kernel = @kernels::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>} : (index, index, index, index, index, f32) -> ()
    return
  }
}

// -----

gpu.module @kernels {
  gpu.func @helper(%x: f32) -> f32 {
    // expected-error@+1 {{'gpu.return' op expected 1 result operands}}
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @helper(%x: f32, %n: i32) -> f32 {
    // expected-error@+1 {{'gpu.return' op unexpected type `i32' for operand #0}}
    gpu.return %n : i32
  }
}

// -----

gpu.module @kernels {
  // expected-error@+1 {{'gpu.func' op expected void return type for kernel function}}
  gpu.func @k(%x: f32) -> f32 kernel {
    gpu.return %x : f32
  }
}

// -----

// expected-error@+1 {{'gpu.func' op expects parent op 'gpu.module'}}
gpu.func @outside() kernel {
  gpu.return
}

// -----

gpu.module @kernels {
  // expected-error@+1 {{'gpu.func' op expected memref type in attribution}}
  gpu.func @k() workgroup(%w : f32) kernel {
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error@+1 {{'gpu.func' op expected memory space workgroup in attribution}}
  gpu.func @k() workgroup(%w : memref<4xf32, #gpu.address_space<private>>) kernel {
    gpu.return
  }
}

// -----

func.func @gpu_return_in_func() {
  // expected-error@+2 {{'gpu.return' op expects parent op 'gpu.func'}}
  // expected-error@+1 {{'gpu.return' op is not a valid terminator here: 'func.func' expects 'func.return'}}
  gpu.return
}

// -----

func.func @alloc_dynamic_sizes() {
  // expected-error@+1 {{'gpu.alloc' op dimension operand count does not equal memref dynamic dimension count}}
  %m = gpu.alloc () : memref<?x4xf32>
  return
}

// -----

func.func @alloc_host_shared_async(%t0: !gpu.async.token) {
  // expected-error@+1 {{'gpu.alloc' op host_shared allocation cannot be done async}}
  %m, %t = gpu.alloc async [%t0] host_shared () : memref<4xf32>
  return
}

// -----

func.func @memcpy_element_type(%a: memref<4xf32>, %b: memref<4xf16>) {
  // expected-error@+1 {{'gpu.memcpy' op arguments have incompatible element type}}
  gpu.memcpy %a, %b : memref<4xf32>, memref<4xf16>
  return
}

// -----

func.func @memcpy_shape(%a: memref<4xf32>, %b: memref<8xf32>) {
  // expected-error@+1 {{'gpu.memcpy' op arguments have incompatible shape}}
  gpu.memcpy %a, %b : memref<4xf32>, memref<8xf32>
  return
}

// -----

func.func @memset_value_type(%a: memref<4xf32>, %v: i32) {
  // expected-error@+1 {{'gpu.memset' op failed to verify that value type matches element type of dst}}
  gpu.memset %a, %v : memref<4xf32>, i32
  return
}

// -----

func.func @wait_on_non_token(%x: i32) {
  // expected-error@+1 {{use of value '%x' expects different type than prior uses: '!gpu.async.token' vs 'i32'}}
  gpu.wait [%x]
  return
}

// -----

gpu.module @kernels {
  gpu.func @k(%v: f32, %o: i32, %w: i32) kernel {
    // expected-error@+1 {{expected mode to be one of: xor, up, down, idx, found 'sideways'}}
    %r, %ok = gpu.shuffle sideways %v, %o, %w : f32
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @k() kernel {
    // expected-error@+1 {{expected dimension to be one of: x, y, z, found 'w'}}
    %t = gpu.thread_id w
    gpu.return
  }
}
