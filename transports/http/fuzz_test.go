package mcphttp

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// refuseAll is an HTTP client transport that connects nowhere.
type refuseAll struct{}

func (refuseAll) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("no network in the fuzz target")
}

// fuzzAnswer feeds body as the answer to a request through the
// transport's readers and checks that nothing panics and that at most one
// message settling the request reaches the engine.
func fuzzAnswer(t *testing.T, rsp *http.Response) {
	tr, err := New(Config{URL: "http://127.0.0.1:1/mcp", Client: httpconf.Client{MaxFrameSize: 4 << 10}, RetryCap: 1, ResumeAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	var settled []*jsonrpc.Message
	if err := tr.Start(t.Context(), func(m *jsonrpc.Message) {
		if m.ID != nil && m.ID.Key() == jsonrpc.IntID(7).Key() && (m.IsResponse() || m.Violation != nil) {
			settled = append(settled, m)
		}
	}); err != nil {
		t.Fatal(err)
	}
	tr.hc = &http.Client{Transport: refuseAll{}}
	call, _ := jsonrpc.NewRequest(jsonrpc.IntID(7), mcp.MethodToolsCall, map[string]any{"name": "x"})
	ex := tr.newExchange(call, []byte("{}"))
	tr.answer(ex, rsp)
	ex.forget()
	_ = tr.Close()
	if len(settled) > 1 {
		var raws [][]byte
		for _, m := range settled {
			raws = append(raws, m.Raw)
		}
		t.Fatalf("%d messages settled the request: %q", len(settled), raws)
	}
}

// response is an answer of status and content type carrying body.
func response(status int, contentType string, body []byte) *http.Response {
	return &http.Response{
		Status: http.StatusText(status), StatusCode: status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {contentType}}, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: -1,
	}
}

func FuzzSSEAnswer(f *testing.F) {
	for _, s := range []string{
		"id: 1\ndata:\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n",
		"data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n",
		"data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{},\"error\":{\"code\":1,\"message\":\"x\"}}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n",
		"data: [{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}},{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":1,\"message\":\"x\"}}]\n\n",
		": heartbeat\r\n\r\nretry: 1\rid: a\r\rdata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n",
		"\xef\xbb\xbfevent: endpoint\ndata: /x\n\nevent: message\ndata: {\"id\":7}\n\n",
		"data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzAnswer(t, response(http.StatusOK, "text/event-stream", body))
	})
}

func FuzzJSONAnswer(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":7,"result":{}}`,
		`[{"jsonrpc":"2.0","id":7,"result":{}},{"jsonrpc":"2.0","id":7,"result":{}}]`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad"}}`,
		`{"jsonrpc":"2.0","id":7,"result":{},"error":{"code":1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":"7","result":{}}`,
		"<html>oops</html>",
	} {
		for _, status := range []byte{0, 1, 2} {
			f.Add(status, []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, status byte, body []byte) {
		code := []int{http.StatusOK, http.StatusBadRequest, http.StatusInternalServerError}[int(status)%3]
		fuzzAnswer(t, response(code, "application/json", body))
	})
}
