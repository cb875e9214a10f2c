package httphead

import (
	"net/http"
	"reflect"
	"testing"
)

// TestSetHeaderLine: the lines of a header map with one key set are the
// lines of the map as it was with that key set, wherever the key sorts,
// whatever it held before, beside keys that differ only in case.
func TestSetHeaderLine(t *testing.T) {
	for _, h := range []http.Header{
		{},
		{"Accept": {"a"}, "Content-Type": {"b"}, "Mcp-Session-Id": {"c"}},
		{"Host": {""}, "Accept": {"a"}},
		{"Host": {"other"}, "Zed": {"z"}},
		{"host": {"lower"}, "Hosta": {"x"}, "Hos": {"y"}, "HOST-X": {"w"}},
		{"Authorization": {"Bearer abc"}, "X-Host": {"1", "2"}},
	} {
		for _, name := range []string{"Host", "host", "Accept", "Aaa", "Zzz", "Mcp-Session-Id"} {
			want := h.Clone()
			want.Set(name, "127.0.0.1:9")
			got := SetHeaderLine(CapturedHeaders(h, false), name, "127.0.0.1:9")
			if w := CapturedHeaders(want, false); !reflect.DeepEqual(got, w) {
				t.Errorf("%v with %s set:\n got %v\nwant %v", h, name, got, w)
			}
		}
	}
}

// TestCapturedHeadAllocations: capturing a head costs a few allocations
// (its lines, each redacted value, its bytes and its fields), not some for
// each header line.
func TestCapturedHeadAllocations(t *testing.T) {
	h := http.Header{}
	for _, name := range []string{"Accept", "Content-Type", "Mcp-Session-Id", "Mcp-Protocol-Version", "Authorization", "X-Api-Key", "User-Agent"} {
		h.Set(name, "0123456789")
	}
	if n := testing.AllocsPerRun(100, func() { CapturedHeaders(h, false) }); n > 3 {
		t.Errorf("CapturedHeaders of %d headers, 2 of them redacted: %.0f allocations", len(h), n)
	}
	lines := CapturedHeaders(h, false)
	if n := testing.AllocsPerRun(100, func() { HTTPRequestHead("POST", "/mcp", lines) }); n > 2 {
		t.Errorf("HTTPRequestHead of %d lines: %.0f allocations", len(lines), n)
	}
	if n := testing.AllocsPerRun(100, func() { HTTPResponseHead("HTTP/1.1", 200, lines) }); n > 3 {
		t.Errorf("HTTPResponseHead of %d lines: %.0f allocations", len(lines), n)
	}
}
