package client

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// reportingTransport is a transport that describes its link.
type reportingTransport struct {
	Transport
	ls LinkState
}

func (r reportingTransport) LinkState() LinkState { return r.ls }
func (r reportingTransport) Describe() Traits     { return Traits{Link: r.LinkState} }

func TestLinkStateOfDefaultsToMCPOverJSON(t *testing.T) {
	if got := LinkStateOf(nil); got != (LinkState{Dialect: mcp.DialectMCP, Encoding: "json"}) {
		t.Errorf("nil transport: %+v", got)
	}
	want := LinkState{Dialect: mcp.DialectMCPFlow, State: "READY", Encoding: "cbor"}
	if got := LinkStateOf(reportingTransport{ls: want}); got != want {
		t.Errorf("reporter: %+v, want %+v", got, want)
	}
}

// earlyExit is a transport error with a handshake wording.
type earlyExit struct{ before bool }

func (e *earlyExit) Error() string          { return fmt.Sprintf("exit (before handshake %v)", e.before) }
func (e *earlyExit) BeforeHandshake() error { return &earlyExit{before: true} }

func TestBeforeHandshakeRewordsOnlyHandshakeExits(t *testing.T) {
	plain := errors.New("refused")
	if got := BeforeHandshake(plain); got != plain {
		t.Errorf("plain error changed: %v", got)
	}
	got := BeforeHandshake(fmt.Errorf("connect: %w", &earlyExit{}))
	var e *earlyExit
	if !errors.As(got, &e) || !e.before {
		t.Errorf("handshake exit not reworded: %v", got)
	}
}
