//go:build !purego

package sse

import "golang.org/x/sys/cpu"

// vectorScan says the CPU runs lineFreeAVX2.
var vectorScan = cpu.X86.HasAVX2

// lineFreeBlocks is lineFree: lineFreeAVX2 when the CPU has AVX2.
func lineFreeBlocks(b []byte) int {
	if !vectorScan {
		return 0
	}
	return lineFreeAVX2(b)
}

// lineFreeAVX2 is lineFree in AVX2: 128 bytes at a time, each byte matched
// against CR and LF by one table lookup (VPSHUFB on its low nibble) and one
// compare.
//
//go:noescape
func lineFreeAVX2(b []byte) int
