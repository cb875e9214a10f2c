package client

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// originLog records the QuestionOrigin each handled question came with.
type originLog struct {
	mu  sync.Mutex
	got map[string]QuestionOrigin // by method
}

func (l *originLog) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	o, ok := QuestionOriginOf(ctx)
	if ok {
		l.mu.Lock()
		l.got[method] = o
		l.mu.Unlock()
	}
	return answering(ctx, method, params)
}

func (l *originLog) of(method string) (QuestionOrigin, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	o, ok := l.got[method]
	return o, ok
}

// A handler learns which message asked its question: the id of the
// client's request whose input_required result carried it, with the input
// key (modern era), or the server's own request id.
func TestQuestionOriginOfInputRequest(t *testing.T) {
	log := &originLog{got: map[string]QuestionOrigin{}}
	s, _ := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
		var p map[string]json.RawMessage
		_ = json.Unmarshal(m.Params, &p)
		if p["inputResponses"] == nil {
			srv.rawResult(*m.ID, `{"resultType":"input_required","inputRequests":{
				"who":{"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object"}}}}}`)
			return
		}
		srv.rawResult(*m.ID, `{"resultType":"complete","content":[]}`)
	}), Options{Handler: handlerFunc(log.handle)})
	var first jsonrpc.ID
	_, err := s.Call(testCtx(t), mcp.MethodToolsCall, mcp.CallToolParams{Name: "ask"},
		WithRounds(func(n int, id jsonrpc.ID) {
			if n == 1 {
				first = id
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	o, ok := log.of(mcp.MethodElicitationCreate)
	if !ok || o.RequestID.Key() != first.Key() || o.InputKey != "who" {
		t.Errorf("origin %+v (%v), want request %s input who", o, ok, first)
	}
	if _, ok := QuestionOriginOf(context.Background()); ok {
		t.Error("a context the session did not make has an origin")
	}
}

func TestQuestionOriginOfServerRequest(t *testing.T) {
	log := &originLog{got: map[string]QuestionOrigin{}}
	answered := make(chan struct{})
	connect(t, func(srv *fakeServer) {
		legacyHandshake(srv, make(chan json.RawMessage, 1))
		srv.request(jsonrpc.StringID("elicit-9"), mcp.MethodElicitationCreate, mcp.ElicitRequestParams{Message: "Name?"})
		answers(srv, 1)
		close(answered)
		for _, ok := srv.next(); ok; _, ok = srv.next() {
		}
	}, Options{Handler: handlerFunc(log.handle)})
	<-answered
	o, ok := log.of(mcp.MethodElicitationCreate)
	if !ok || o.RequestID.Key() != jsonrpc.StringID("elicit-9").Key() || o.InputKey != "" {
		t.Errorf("origin %+v (%v), want the server's request elicit-9", o, ok)
	}
}
