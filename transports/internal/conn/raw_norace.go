//go:build unix && !race

package conn

// rawCalls says that non-blocking pipes are read and written with raw
// calls.
const rawCalls = true
