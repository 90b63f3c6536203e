// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s
// Older dpas_mx spellings real programs still use (upstream-xegpu-xevm.md §2.9): keyword scales with a flat type
// list (IMEX lane-level MX tests, Aug 2026) and comma scales with a flat list (mid-2026, before PR #197223); both
// print in today's form (keyword scales, functional type).  Layouts in `{...}` print in `<{...}>`.

// CHECK: %d = xegpu.dpas_mx %a, %b, %c scale_a = %sa scale_b = %sb : (vector<16xf8E5M2>, vector<32xf8E5M2>, vector<8xf32>, vector<1xf8E8M0FNU>, vector<1xf8E8M0FNU>) -> vector<8xf32>
// CHECK-NEXT: %e = xegpu.dpas_mx %a, %b, %d scale_a = %sa scale_b = %sb : (vector<16xf8E5M2>, vector<32xf8E5M2>, vector<8xf32>, vector<1xf8E8M0FNU>, vector<1xf8E8M0FNU>) -> vector<8xf32>
// CHECK-NEXT: %w = xegpu.dpas_mx %wa, %wb, %wc scale_a = %wsa scale_b = %wsb <{layout_cd = #xegpu.layout<sg_layout = [2, 2], sg_data = [8, 16]>}> : (vector<16x32xf8E4M3FN>, vector<32x32xf8E4M3FN>, vector<16x32xf32>, vector<16x1xf8E8M0FNU>, vector<1x32xf8E8M0FNU>) -> vector<16x32xf32>
func.func @legacy(%a: vector<16xf8E5M2>, %b: vector<32xf8E5M2>, %c: vector<8xf32>, %sa: vector<1xf8E8M0FNU>, %sb: vector<1xf8E8M0FNU>, %wa: vector<16x32xf8E4M3FN>, %wb: vector<32x32xf8E4M3FN>, %wc: vector<16x32xf32>, %wsa: vector<16x1xf8E8M0FNU>, %wsb: vector<1x32xf8E8M0FNU>) {
  %d = xegpu.dpas_mx %a, %b, %c scale_a = %sa scale_b = %sb : vector<16xf8E5M2>, vector<32xf8E5M2>, vector<8xf32>, vector<1xf8E8M0FNU>, vector<1xf8E8M0FNU> -> vector<8xf32>
  %e = xegpu.dpas_mx %a, %b, %d, %sa, %sb : vector<16xf8E5M2>, vector<32xf8E5M2>, vector<8xf32>, vector<1xf8E8M0FNU>, vector<1xf8E8M0FNU> -> vector<8xf32>
  %w = xegpu.dpas_mx %wa, %wb, %wc, %wsa, %wsb {layout_cd = #xegpu.layout<sg_layout = [2, 2], sg_data = [8, 16]>} : vector<16x32xf8E4M3FN>, vector<32x32xf8E4M3FN>, vector<16x32xf32>, vector<16x1xf8E8M0FNU>, vector<1x32xf8E8M0FNU> -> vector<16x32xf32>
  return
}
