package client

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// unsupportedVersion answers id with -32022 listing supported.
func (s *fakeServer) unsupportedVersion(id jsonrpc.ID, supported ...string) {
	data := mustJSON(mcp.UnsupportedVersionData{Supported: supported, Requested: mcp.Modern})
	s.send(jsonrpc.NewErrorResponse(id, mcp.CodeUnsupportedVersion, "Unsupported protocol version", data))
}

// discoverScript answers the n-th server/discover with replies[n] (a
// function of the request's id), and initialize with the version it
// offered, until the client goes.
func discoverScript(replies ...func(*fakeServer, jsonrpc.ID)) func(*fakeServer) {
	return func(srv *fakeServer) {
		n := 0
		for m, ok := srv.next(); ok; m, ok = srv.next() {
			switch m.Method {
			case mcp.MethodDiscover:
				if n < len(replies) {
					replies[n](srv, *m.ID)
				}
				n++
			case mcp.MethodInitialize:
				var p mcp.InitializeParams
				_ = json.Unmarshal(m.Params, &p)
				srv.result(*m.ID, map[string]any{"protocolVersion": p.ProtocolVersion, "capabilities": map[string]any{},
					"serverInfo": map[string]any{"name": "legacy-fake", "version": "1"}})
			}
		}
	}
}

func rejectWith(supported ...string) func(*fakeServer, jsonrpc.ID) {
	return func(srv *fakeServer, id jsonrpc.ID) { srv.unsupportedVersion(id, supported...) }
}

func answerModern(srv *fakeServer, id jsonrpc.ID) { srv.result(id, discoverResult(mcp.Modern)) }

// TestDiscoverFollowsUnsupportedVersion: a -32022 answer to the probe is a
// recognised modern error, not a reason to fall back: the client uses a
// version from its list.
func TestDiscoverFollowsUnsupportedVersion(t *testing.T) {
	cases := []struct {
		name        string
		replies     []func(*fakeServer, jsonrpc.ID)
		wantVersion string
		wantSent    string
	}{
		{"2026-07-28 listed: probed again", []func(*fakeServer, jsonrpc.ID){rejectWith(mcp.Modern), answerModern},
			mcp.Modern, "server/discover server/discover"},
		{"newest listed first", []func(*fakeServer, jsonrpc.ID){rejectWith("2099-01-01", mcp.ProtocolVersion20250618, mcp.Modern), answerModern},
			mcp.Modern, "server/discover server/discover"},
		{"only older versions listed: initialize offers the newest of them",
			[]func(*fakeServer, jsonrpc.ID){rejectWith("1999-01-01", mcp.ProtocolVersion20250326, mcp.ProtocolVersion20250618)},
			mcp.ProtocolVersion20250618, "server/discover initialize notifications/initialized"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, ft := connect(t, discoverScript(c.replies...), Options{})
			if s.ProtocolVersion() != c.wantVersion {
				t.Fatalf("version %q, want %q", s.ProtocolVersion(), c.wantVersion)
			}
			if got := strings.Join(methods(ft.srv.sentMessages()), " "); got != c.wantSent {
				t.Fatalf("sent %q, want %q", got, c.wantSent)
			}
		})
	}
}

// TestDiscoverUnsupportedVersionRefusals: a -32022 that leaves nothing to
// speak, or that refuses the version it lists again, is a protocol
// violation, not a fallback to initialize.
func TestDiscoverUnsupportedVersionRefusals(t *testing.T) {
	cases := []struct {
		name     string
		protocol string
		replies  []func(*fakeServer, jsonrpc.ID)
		want     string
	}{
		{"nothing mcpscope speaks", "", []func(*fakeServer, jsonrpc.ID){rejectWith("1999-01-01")}, "none of which mcpscope speaks"},
		{"refused twice", "", []func(*fakeServer, jsonrpc.ID){rejectWith(mcp.Modern), rejectWith(mcp.Modern)}, "refused twice"},
		{"forced modern, older listed", mcp.Modern, []func(*fakeServer, jsonrpc.ID){rejectWith(mcp.LatestLegacy)}, "does not speak 2026-07-28"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ft := newFake(t, discoverScript(c.replies...))
			err := New(ft, Options{ProtocolVersion: c.protocol}).Connect(testCtx(t))
			var pe *ProtocolError
			if !errors.As(err, &pe) || !strings.Contains(pe.Msg, c.want) {
				t.Fatalf("Connect: %v, want a ProtocolError saying %q", err, c.want)
			}
			for _, m := range ft.srv.sentMessages() {
				if m.Method == mcp.MethodInitialize {
					t.Fatalf("initialize was sent after a recognised -32022: %v", methods(ft.srv.sentMessages()))
				}
			}
		})
	}
}

// TestDiscoverModernRefusalIsTheError: a -32020 or -32021 answer to the
// probe comes from a 2026-07-28 server; it is the handshake's error, not
// a reason to fall back to initialize.
func TestDiscoverModernRefusalIsTheError(t *testing.T) {
	for _, code := range []int{mcp.CodeHeaderMismatch, mcp.CodeMissingClientCapability} {
		ft := newFake(t, discoverScript(func(srv *fakeServer, id jsonrpc.ID) { srv.fail(id, code, "refused") }))
		err := New(ft, Options{}).Connect(testCtx(t))
		var re *RPCError
		if !errors.As(err, &re) || re.Err.Code != code {
			t.Fatalf("Connect: %v, want the probe's %d", err, code)
		}
		if got := strings.Join(methods(ft.srv.sentMessages()), " "); got != "server/discover" {
			t.Fatalf("sent %q after %d, want only the probe", got, code)
		}
	}
}

// TestDiscoverUnauthorizedIsTheError: a probe refused for want of
// authorization ends the handshake with that refusal; the fallback
// initialize would only fail the same way and hide it.
func TestDiscoverUnauthorizedIsTheError(t *testing.T) {
	refusal := &ExchangeError{Status: 401, Err: errors.New("HTTP 401 Unauthorized")}
	ft := newFake(t, discoverScript(func(srv *fakeServer, id jsonrpc.ID) {
		srv.out <- &jsonrpc.Message{ID: &id, Violation: refusal}
	}))
	err := New(ft, Options{}).Connect(testCtx(t))
	if !errors.Is(err, refusal) {
		t.Fatalf("Connect: %v, want the probe's refusal", err)
	}
	if got := strings.Join(methods(ft.srv.sentMessages()), " "); got != "server/discover" {
		t.Fatalf("sent %q after the refusal, want only the probe", got)
	}
}

// TestLateProbeNeverCancelled: a probe that got no answer in its wait is
// forgotten after the fallback, whether initialize succeeded or failed:
// no notifications/cancelled goes out for it (before a session exists, or
// for a request outside the one initialize began), and a late answer to it
// is not a stray one.
func TestLateProbeNeverCancelled(t *testing.T) {
	for _, initOK := range []bool{true, false} {
		t.Run(map[bool]string{true: "initialize accepted", false: "initialize refused"}[initOK], func(t *testing.T) {
			answeredLate := make(chan struct{})
			ft := newFake(t, func(srv *fakeServer) {
				var probe jsonrpc.ID
				for m, ok := srv.next(); ok; m, ok = srv.next() {
					switch {
					case m.Method == mcp.MethodDiscover:
						probe = *m.ID // silent: the probe's wait runs out
					case m.Method == mcp.MethodInitialize && !initOK:
						srv.fail(*m.ID, mcp.CodeInternalError, "no")
					case m.Method == mcp.MethodInitialize:
						srv.result(*m.ID, map[string]any{"protocolVersion": mcp.LatestLegacy, "capabilities": map[string]any{},
							"serverInfo": map[string]any{"name": "legacy-fake", "version": "1"}})
					case m.Method == mcp.MethodNotifyInitialized:
						// The probe's late answer, then a ping whose answer
						// says the client has read it.
						srv.result(probe, discoverResult(mcp.Modern))
						srv.request(jsonrpc.StringID("after-late-answer"), mcp.MethodPing, nil)
					case m.ID != nil && m.Method == "":
						close(answeredLate)
					}
				}
			})
			var mu sync.Mutex
			var strays []StrayAnswer
			s := New(ft, Options{Timeout: 50 * time.Millisecond, OnStrayAnswer: func(a StrayAnswer) {
				mu.Lock()
				defer mu.Unlock()
				strays = append(strays, a)
			}})
			err := s.Connect(testCtx(t))
			if initOK != (err == nil) {
				t.Fatalf("Connect: %v", err)
			}
			if initOK {
				select {
				case <-answeredLate:
				case <-time.After(hangGuard):
					t.Fatalf("the client never answered the ping sent after the probe's late answer within %s", hangGuard)
				}
				_ = s.Close()
				mu.Lock()
				defer mu.Unlock()
				if len(strays) != 0 {
					t.Errorf("the probe's late answer was taken for a stray: %v", strays)
				}
			}
			for _, m := range ft.srv.sentMessages() {
				if m.Method == mcp.MethodNotifyCancelled {
					t.Fatalf("a notifications/cancelled went out for the probe: %v", methods(ft.srv.sentMessages()))
				}
			}
		})
	}
}
