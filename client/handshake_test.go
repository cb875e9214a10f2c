package client

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// scriptedHandshake answers server/discover with discover (a raw result, or
// an error when discover is empty) and initialize with version.
func scriptedHandshake(discover, version string) func(*fakeServer) {
	return func(srv *fakeServer) {
		for {
			m, ok := srv.next()
			if !ok {
				return
			}
			switch m.Method {
			case mcp.MethodDiscover:
				if discover == "" {
					srv.fail(*m.ID, mcp.CodeMethodNotFound, "method not found")
				} else {
					srv.rawResult(*m.ID, discover)
				}
			case mcp.MethodInitialize:
				srv.result(*m.ID, map[string]any{
					"protocolVersion": version,
					"capabilities":    map[string]any{"logging": map[string]any{}},
					"serverInfo":      map[string]any{"name": "legacy-fake", "version": "1"},
				})
			}
		}
	}
}

func methods(msgs []*jsonrpc.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Method)
	}
	return out
}

func TestEraDetection(t *testing.T) {
	modern := string(mustJSON(discoverResult(mcp.Modern)))
	cases := []struct {
		name, protocol, discover, version string
		wantEra                           Era
		wantVersion                       string
		wantSent                          string // methods sent, in order
	}{
		{"modern answer", "", modern, "", EraModern, mcp.Modern, "server/discover"},
		{"method not found", "", "", mcp.LatestLegacy, EraLegacy, mcp.LatestLegacy,
			"server/discover initialize notifications/initialized"},
		{"garbage result", "", `"hello"`, mcp.LatestLegacy, EraLegacy, mcp.LatestLegacy,
			"server/discover initialize notifications/initialized"},
		{"wrong shape", "", `{"supportedVersions":"2026-07-28"}`, mcp.LatestLegacy, EraLegacy, mcp.LatestLegacy,
			"server/discover initialize notifications/initialized"},
		{"legacy versions only", "", string(mustJSON(discoverResult(mcp.LatestLegacy))), mcp.LatestLegacy, EraLegacy, mcp.LatestLegacy,
			"server/discover initialize notifications/initialized"},
		{"server picks an older version", "", "", mcp.ProtocolVersion20250326, EraLegacy, mcp.ProtocolVersion20250326,
			"server/discover initialize notifications/initialized"},
		{"forced legacy", mcp.ProtocolVersion20250618, modern, mcp.ProtocolVersion20250618, EraLegacy, mcp.ProtocolVersion20250618,
			"initialize notifications/initialized"},
		{"forced modern", mcp.Modern, modern, "", EraModern, mcp.Modern, "server/discover"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, ft := connect(t, scriptedHandshake(c.discover, c.version), Options{ProtocolVersion: c.protocol})
			if s.Era() != c.wantEra || s.ProtocolVersion() != c.wantVersion {
				t.Fatalf("era %s version %q, want %s %q", s.Era(), s.ProtocolVersion(), c.wantEra, c.wantVersion)
			}
			sent := ft.srv.sentMessages()
			if got := strings.Join(methods(sent), " "); got != c.wantSent {
				t.Fatalf("sent %q, want %q", got, c.wantSent)
			}
			for _, m := range sent {
				if m.Method != mcp.MethodInitialize {
					continue
				}
				var p mcp.InitializeParams
				if err := json.Unmarshal(m.Params, &p); err != nil {
					t.Fatal(err)
				}
				offered := c.protocol
				if offered == "" {
					offered = mcp.LatestLegacy
				}
				if p.ProtocolVersion != offered || p.ClientInfo.Name != "mcpscope" || p.ClientInfo.Version != Version {
					t.Fatalf("initialize params %s", m.Params)
				}
			}
			switch c.wantEra {
			case EraModern:
				if s.ServerInfo().Name != "modern-fake" || s.Instructions() != "modern instructions" ||
					string(s.ServerCapabilities()) != `{"tools":{}}` {
					t.Fatalf("modern server info %+v / %q / %s", s.ServerInfo(), s.Instructions(), s.ServerCapabilities())
				}
			case EraLegacy:
				if s.ServerInfo().Name != "legacy-fake" || string(s.ServerCapabilities()) != `{"logging":{}}` {
					t.Fatalf("legacy server info %+v / %s", s.ServerInfo(), s.ServerCapabilities())
				}
			}
		})
	}
}

func TestHandshakeRefusals(t *testing.T) {
	cases := []struct {
		name, protocol, discover, version, want string
	}{
		{"unknown version chosen", "", "", "2099-01-01", `"2099-01-01"`},
		{"no version", "", "", "", "no protocolVersion"},
		{"forced modern on a legacy server", mcp.Modern, "", mcp.LatestLegacy, "server/discover failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ft := newFake(t, scriptedHandshake(c.discover, c.version))
			s := New(ft, Options{ProtocolVersion: c.protocol})
			err := s.Connect(testCtx(t))
			var pe *ProtocolError
			if !errors.As(err, &pe) || !strings.Contains(pe.Msg, c.want) {
				t.Fatalf("Connect: %v, want a ProtocolError naming %s", err, c.want)
			}
			select {
			case <-ft.Done():
			default:
				t.Fatal("the transport was left open after a refused handshake")
			}
			if _, err := s.Call(context.Background(), "tools/list", nil); !errors.Is(err, ErrClosed) {
				t.Fatalf("call after refusal: %v", err)
			}
		})
	}
}

func TestConnectionLostDuringHandshake(t *testing.T) {
	ft := newFake(t, func(srv *fakeServer) {
		srv.next()
		srv.kill()
	})
	err := New(ft, Options{}).Connect(testCtx(t))
	var ce *ConnectionError
	if !errors.As(err, &ce) || !errors.Is(err, errFakeDied) {
		t.Fatalf("Connect: %v, want the ConnectionError of the dead server (no fallback)", err)
	}
}

func TestModernRequestsCarryMeta(t *testing.T) {
	params := make(chan json.RawMessage, 2)
	s, ft := connect(t, serve(true, func(srv *fakeServer, m *jsonrpc.Message) {
		params <- m.Params
		srv.result(*m.ID, map[string]any{"tools": []any{}})
	}), Options{Handler: handlerFunc(nil), Roots: []mcp.Root{{URI: "file:///r"}},
		ClientInfo: mcp.Implementation{Name: "probe", Version: "1.2"}})
	ctx := testCtx(t)
	if _, err := s.Call(ctx, "tools/list", map[string]any{"cursor": "c1", "_meta": map[string]any{"trace": "t"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Call(ctx, "tools/list", nil); err != nil {
		t.Fatal(err)
	}
	discover := ft.srv.sentMessages()[0]
	for i, raw := range []json.RawMessage{discover.Params, <-params, <-params} {
		var p struct {
			Cursor string                     `json:"cursor"`
			Meta   map[string]json.RawMessage `json:"_meta"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatalf("params %s: %v", raw, err)
		}
		var caps mcp.ClientCapabilities
		_ = json.Unmarshal(p.Meta[mcp.MetaClientCapabilities], &caps)
		if string(p.Meta[mcp.MetaProtocolVersion]) != `"2026-07-28"` ||
			string(p.Meta[mcp.MetaClientInfo]) != `{"name":"probe","version":"1.2"}` ||
			caps.Roots == nil || !caps.Roots.ListChanged || caps.Sampling == nil ||
			caps.Elicitation == nil || caps.Elicitation.Form == nil || caps.Elicitation.URL == nil ||
			string(caps.Extensions[mcp.ExtensionApps]) != `{"mimeTypes":["text/html;profile=mcp-app"]}` ||
			string(caps.Extensions[mcp.ExtensionTasks]) != `{}` {
			t.Fatalf("request %d params %s lack the modern _meta", i, raw)
		}
		if i == 1 && (p.Cursor != "c1" || string(p.Meta["trace"]) != `"t"`) {
			t.Fatalf("the caller's params were not kept: %s", raw)
		}
	}
}

func TestLegacyRequestsCarryNoMeta(t *testing.T) {
	params := make(chan json.RawMessage, 1)
	s, _ := connect(t, serve(false, func(srv *fakeServer, m *jsonrpc.Message) {
		params <- m.Params
		srv.result(*m.ID, map[string]any{})
	}), Options{})
	if _, err := s.Call(testCtx(t), "tools/list", map[string]string{"cursor": "x"}); err != nil {
		t.Fatal(err)
	}
	if got := string(<-params); got != `{"cursor":"x"}` {
		t.Fatalf("legacy params %s were changed", got)
	}
}

// handlerFunc adapts a function to ServerRequestHandler; nil answers {}.
type handlerFunc func(ctx context.Context, method string, params json.RawMessage) (any, error)

func (f handlerFunc) HandleServerRequest(ctx context.Context, method string, params json.RawMessage) (any, error) {
	if f == nil {
		return struct{}{}, nil
	}
	return f(ctx, method, params)
}
