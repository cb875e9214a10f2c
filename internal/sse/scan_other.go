//go:build !amd64 || purego

package sse

// vectorScan says lineFree is vectorized: not here.
const vectorScan = false

// lineFreeBlocks is lineFree where it is not vectorized: it skips nothing.
func lineFreeBlocks([]byte) int { return 0 }
