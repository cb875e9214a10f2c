package httprelay

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkRelayJSON measures one POST answered with JSON, directly and
// through the relay (recording on), in the same run.
func BenchmarkRelayJSON(b *testing.B) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Echo: hi"}]}}`)
	}))
	defer up.Close()
	p := startRelay(b, up.URL+"/mcp", Options{})
	for _, c := range []struct{ name, url string }{{"direct", up.URL + "/mcp"}, {"proxied", p.URL}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				rsp, err := http.Post(c.url, "application/json", strings.NewReader(callBody))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, rsp.Body)
				rsp.Body.Close()
			}
		})
	}
}
