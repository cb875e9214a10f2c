package mcp

import (
	"encoding/base64"
	"strings"
	"testing"
)

// FuzzDecodeHeaderValue: any value decodes or is refused without a panic;
// a plain value that decodes is itself, and every text survives the Base64
// sentinel.
func FuzzDecodeHeaderValue(f *testing.F) {
	for _, s := range []string{"echo", "=?base64?ZWNobw==?=", "=?base64??=", "=?base64?", "a\x00b", "Hello, 世界", "=?base64?!?="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got, err := DecodeHeaderValue(v)
		if err == nil && !strings.HasPrefix(v, headerSentinelPrefix) && got != v {
			t.Fatalf("%q decoded to %q", v, got)
		}
		enc := headerSentinelPrefix + base64.StdEncoding.EncodeToString([]byte(v)) + headerSentinelSuffix
		if back, err := DecodeHeaderValue(enc); err != nil || back != v {
			t.Fatalf("%q through the sentinel: %q %v", v, back, err)
		}
	})
}
