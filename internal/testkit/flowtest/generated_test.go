package flowtest

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/demo"
)

// The formula here and the demo's generator agree, and the streaming hash
// is the hash of the bytes.
func TestGeneratedMatchesTheDemo(t *testing.T) {
	const n, seed = 3*piece + 1000, 250
	b := Generated(n, seed)
	for i := range b {
		if b[i] != demo.GeneratedByte(int64(i), seed) {
			t.Fatalf("byte %d: %d, the demo generates %d", i, b[i], demo.GeneratedByte(int64(i), seed))
		}
	}
	sum := sha256.Sum256(b)
	if got := GeneratedSHA256(n, seed); got != hex.EncodeToString(sum[:]) {
		t.Fatalf("GeneratedSHA256 %s, sha256 of the bytes %x", got, sum)
	}
}

// The Verifier counts and hashes everything, and finds the first wrong byte
// across writes of any size.
func TestVerifierFindsTheFirstWrongByte(t *testing.T) {
	const n, seed = 2*piece + 77, 9
	good := Generated(n, seed)
	bad := append([]byte(nil), good...)
	bad[piece+500]++
	bad[piece+900]++
	for _, tc := range []struct {
		data []byte
		want int64
	}{{good, -1}, {bad, piece + 500}} {
		v := NewVerifier(capture.StreamKey{}, seed, nil)
		for rest := tc.data; len(rest) > 0; {
			k := min(len(rest), 1000+len(rest)%3*piece)
			_, _ = v.Write(rest[:k])
			rest = rest[k:]
		}
		_ = v.Close()
		got, sum, mismatch, _ := v.Result()
		want := sha256.Sum256(tc.data)
		if got != n || mismatch != tc.want || sum != hex.EncodeToString(want[:]) {
			t.Fatalf("%d bytes, first wrong at %d (want %d), sha256 %s", got, mismatch, tc.want, sum)
		}
	}
}
