package screentest

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// progressMeta is the _meta member the session puts first in the params
// of a request that asks for progress.
var progressMeta = regexp.MustCompile(`^\{"_meta":\{"progressToken":(\d+)\},?`)

// WithoutProgress returns the params of a request that asks for progress
// as the screen wrote them, without the progress token; it fails t when
// the params carry no token.
func WithoutProgress(t testing.TB, params json.RawMessage) string {
	t.Helper()
	rest, _ := splitProgress(t, params)
	return rest
}

// splitProgress splits params into the params without the progress token
// and the token.
func splitProgress(t testing.TB, params json.RawMessage) (rest, token string) {
	t.Helper()
	m := progressMeta.FindSubmatchIndex(params)
	if m == nil {
		t.Errorf("params %s carry no _meta.progressToken", params)
		return string(params), ""
	}
	return "{" + string(params[m[1]:]), string(params[m[2]:m[3]])
}

// AskedProgress checks that request m asks for progress with its own id
// as the token, and returns its params without the token.
func AskedProgress(t testing.TB, m *jsonrpc.Message) string {
	t.Helper()
	rest, token := splitProgress(t, m.Params)
	if m.ID == nil || token != m.ID.String() {
		t.Errorf("%s: progress token %q, want the request id %v", m.Method, token, m.ID)
	}
	return rest
}

// CheckAskedProgress checks that every captured request with method asks
// for progress with its own id as the token, and that there is one.
func CheckAskedProgress(t testing.TB, st *capture.Store, method string) {
	t.Helper()
	n := 0
	for _, f := range st.Window(1, st.Len()) {
		if f.Dir == capture.Out && f.Msg != nil && f.Msg.Method == method && f.Msg.Kind() == jsonrpc.KindRequest {
			AskedProgress(t, f.Msg)
			n++
		}
	}
	if n == 0 {
		t.Errorf("no %s request was captured", method)
	}
}
