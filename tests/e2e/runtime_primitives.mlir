// RUN: xesim run %s | filecheck %s
// CRunnerUtils print primitives, rtclock and printFlops (spec/programs-and-runner.md §1.2, §1.4, §2).
module {
  func.func @main() {
    %x = arith.constant 1.5 : f32
    %d = arith.constant 1.0e-07 : f64
    %neg = arith.constant -7 : i64
    %all = arith.constant -1 : i64
    %h1 = arith.constant 15360 : i16
    %bm1 = arith.constant -16512 : i16
    call @printOpen() : () -> ()
    call @printF32(%x) : (f32) -> ()
    call @printComma() : () -> ()
    call @printF64(%d) : (f64) -> ()
    call @printComma() : () -> ()
    call @printI64(%neg) : (i64) -> ()
    call @printComma() : () -> ()
    call @printU64(%all) : (i64) -> ()
    call @printComma() : () -> ()
    call @printF16(%h1) : (i16) -> ()
    call @printComma() : () -> ()
    call @printBF16(%bm1) : (i16) -> ()
    call @printClose() : () -> ()
    call @printNewline() : () -> ()
    // 15360 = 0x3C00 is f16 1.0; -16512 = 0xBF80 is bf16 -1.0
    // CHECK: ( 1.5, 1e-07, -7, 18446744073709551615, 1, -1 )

    // rtclock: seconds since the epoch (after 2020-01-01 = 1577836800 s), non-decreasing
    %t0 = call @rtclock() : () -> f64
    %t1 = call @rtclock() : () -> f64
    %dt = arith.subf %t1, %t0 : f64
    %z = arith.constant 0.0 : f64
    %y2020 = arith.constant 1577836800.0 : f64
    %mono = arith.cmpf oge, %dt, %z : f64
    %recent = arith.cmpf ogt, %t0, %y2020 : f64
    %both = arith.andi %mono, %recent : i1
    %b64 = arith.extui %both : i1 to i64
    call @printI64(%b64) : (i64) -> ()
    call @printNewline() : () -> ()
    // CHECK-NEXT: 1

    // printFlops writes to stderr, which FileCheck does not see
    %flops = arith.constant 2.5e9 : f64
    call @printFlops(%flops) : (f64) -> ()
    // CHECK-NOT: GFLOPS
    return
  }
  func.func private @printOpen()
  func.func private @printClose()
  func.func private @printComma()
  func.func private @printNewline()
  func.func private @printF32(f32)
  func.func private @printF64(f64)
  func.func private @printI64(i64)
  func.func private @printU64(i64)
  func.func private @printF16(i16)
  func.func private @printBF16(i16)
  func.func private @printFlops(f64)
  func.func private @rtclock() -> f64
}
