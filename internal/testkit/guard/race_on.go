//go:build race

package guard

// Race reports that the race detector is built in: every test then costs
// several times its CPU.
const Race = true
