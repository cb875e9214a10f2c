package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Bounds of the rounds book: the input_required answers waiting for
// their retry, and the rounds of one logical call.
const (
	maxRoundAsks  = 1024
	maxRoundCalls = 64
)

// roundGroup is one logical call of the 2026-07-28 era made of several
// requests (multi round-trip requests): the first, then each retry that
// carried inputResponses and the echoed requestState.
type roundGroup struct {
	base  string    // the label of the call without its round
	calls []callKey // in order; calls[i] is round i+1
}

// roundAsk identifies an input_required answer waiting for its retry: the
// connection, the call's label and the requestState to echo ("" when the
// server gave none).
type roundAsk struct {
	conn, label, state string
}

// roundBook links the rounds of MRTR calls as the index reads them.
type roundBook struct {
	asks  map[roundAsk]callKey // input_required answers not yet retried
	order []roundAsk           // oldest first, to forget past maxRoundAsks
}

// mrtrMembers are the members of a retry or of an input_required result.
type mrtrMembers struct {
	ResultType     string          `json:"resultType"`
	RequestState   *string         `json:"requestState"`
	InputResponses json.RawMessage `json:"inputResponses"`
}

// roundLabel is the label of round n of a call labelled base: the round
// right after the method, where a narrow column does not cut it off
// ("tools/call · round 2 · wizard").
func roundLabel(base string, n int) string {
	round := fmt.Sprintf("round %d", n)
	method, rest, ok := strings.Cut(base, " ")
	if !ok {
		return base + " · " + round
	}
	return method + " · " + round + " · " + rest
}

// baseLabel is a call's label without its round.
func (c *callInfo) baseLabel() string {
	if c.group == nil {
		return c.method
	}
	return c.group.base
}

// noteRound reads a frame of call k for the rounds: an input_required
// result opens an ask; a client request carrying inputResponses or a
// requestState answers the ask of its connection, label and state, and
// becomes the next round of that call.
func (x *index) noteRound(f *capture.Frame, k callKey, c *callInfo) {
	m := f.Msg
	if m == nil || f.Chan.Kind != capture.Control || k.fromServer {
		return
	}
	switch m.Kind() {
	case jsonrpc.KindResult:
		if !bytes.Contains(m.Result, []byte(mcp.ResultTypeInputRequired)) {
			return
		}
		var r mrtrMembers
		if json.Unmarshal(m.Result, &r) != nil || r.ResultType != mcp.ResultTypeInputRequired {
			return
		}
		x.rounds.ask(roundAsk{conn: k.conn, label: c.baseLabel(), state: deref(r.RequestState)}, k)
	case jsonrpc.KindRequest:
		if !bytes.Contains(m.Params, []byte(`"inputResponses"`)) && !bytes.Contains(m.Params, []byte(`"requestState"`)) {
			return
		}
		var r mrtrMembers
		if json.Unmarshal(m.Params, &r) != nil || (r.RequestState == nil && len(r.InputResponses) == 0) {
			return
		}
		ask := roundAsk{conn: k.conn, label: c.baseLabel(), state: deref(r.RequestState)}
		prevKey, ok := x.rounds.take(ask)
		if !ok {
			return
		}
		prev, ok := x.calls[prevKey]
		if !ok || prevKey == k {
			return
		}
		x.joinRounds(prev, prevKey, c, k)
	}
}

// joinRounds makes call c (key k) the round after prev.
func (x *index) joinRounds(prev *callInfo, prevKey callKey, c *callInfo, k callKey) {
	g := prev.group
	if g == nil {
		g = &roundGroup{base: prev.method, calls: []callKey{prevKey}}
		prev.group, prev.round = g, 1
		prev.method = roundLabel(g.base, 1)
	}
	if len(g.calls) >= maxRoundCalls {
		return
	}
	c.group, c.round = g, prev.round+1
	c.method = roundLabel(g.base, c.round)
	g.calls = append(g.calls, k)
}

// ask remembers an input_required answer until its retry.
func (b *roundBook) ask(a roundAsk, k callKey) {
	if b.asks == nil {
		b.asks = make(map[roundAsk]callKey)
	}
	if _, ok := b.asks[a]; !ok {
		b.order = append(b.order, a)
	}
	b.asks[a] = k
	for len(b.order) > maxRoundAsks {
		delete(b.asks, b.order[0])
		b.order = b.order[1:]
	}
}

// take returns and forgets the call whose answer a retry answers.
func (b *roundBook) take(a roundAsk) (callKey, bool) {
	k, ok := b.asks[a]
	if !ok {
		return callKey{}, false
	}
	delete(b.asks, a)
	if i := slices.Index(b.order, a); i >= 0 {
		b.order = slices.Delete(b.order, i, i+1)
	}
	return k, true
}

// linkedSeqs returns the frames the l key walks for call c: its own, or
// those of every round of its logical call, in Seq order.
func (x *index) linkedSeqs(c *callInfo) []uint64 {
	if c.group == nil {
		return c.seqs
	}
	var seqs []uint64
	for _, k := range c.group.calls {
		if r, ok := x.calls[k]; ok {
			seqs = append(seqs, r.seqs...)
		}
	}
	slices.Sort(seqs)
	return seqs
}

// deref returns *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
