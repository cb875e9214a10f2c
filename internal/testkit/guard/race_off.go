//go:build !race

package guard

// Race reports that the race detector is built in.
const Race = false
