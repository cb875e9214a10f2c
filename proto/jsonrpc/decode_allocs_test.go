//go:build !race

// Allocation counts hold for a build without the race detector, which
// makes values escape that otherwise stay on the stack.

package jsonrpc

import "testing"

// TestDecodeAnswerAllocs holds decoding a tools/call answer to the
// allocations its message needs: the envelope scan stays on the stack and
// "2.0" is read without a copy.
func TestDecodeAnswerAllocs(t *testing.T) {
	body := []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Hi x"}]}}`)
	allocs := testing.AllocsPerRun(100, func() {
		if _, _, err := DecodeJSON(body); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 4 {
		t.Errorf("DecodeJSON of an answer: %v allocations, want at most 4", allocs)
	}
}
