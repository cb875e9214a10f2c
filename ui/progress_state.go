package ui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// connGen is the link generation whose frames carry connection name
// conn: the frames of every generation after the first end in "#gen"
// (capture.OnConn).
func connGen(conn string) int {
	i := strings.LastIndexByte(conn, '#')
	if i < 0 {
		return 1
	}
	n, err := strconv.Atoi(conn[i+1:])
	if err != nil || n < 2 {
		return 1
	}
	return n
}

// clientCall finds the call of the client request with id on link
// generation gen, newest first.
func (x *index) clientCall(id jsonrpc.ID, gen int) (callKey, *callInfo, bool) {
	key := id.Key()
	for i := len(x.order) - 1; i >= 0; i-- {
		k := x.order[i]
		if k.id == key && !k.fromServer && connGen(k.conn) == gen {
			return k, x.calls[k], true
		}
	}
	return callKey{}, nil, false
}

// progressState is the live state of the client request with id on link
// generation gen, for a screen waiting for its answer.
func (x *index) progressState(id jsonrpc.ID, gen int) (screen.ProgressState, bool) {
	k, c, ok := x.clientCall(id, gen)
	if !ok {
		return screen.ProgressState{}, false
	}
	pb := &x.progress
	s := screen.ProgressState{
		Method: look.OneLine(c.method), Sent: c.sent,
		Cancelled: c.cancelSeq != 0, Answered: !c.ended.IsZero(),
	}
	switch {
	case c.sent.IsZero(): // the request itself was not captured
	case s.Answered:
		s.Elapsed = c.ended.Sub(c.sent)
	case s.Cancelled:
		s.Elapsed = c.cancelAt.Sub(c.sent)
	default:
		s.Elapsed = pb.now.Sub(c.sent)
	}
	s.Elapsed = max(s.Elapsed, 0)
	if i := pb.find(k); i >= 0 {
		b := &pb.bars[i]
		s.Reports, s.Progress, s.Total, s.Message, s.AfterCancel = b.reports, b.progress, b.total, b.message, b.afterCancel
	}
	if n, ok := flow.FlowRequestID(id); ok {
		s.Logs = x.board.logsOf(k.conn, n, screen.MaxProgressLogs)
	}
	return s, true
}

// logsOf returns the newest n log lines of request req on connection
// conn, oldest first, each safe to print on one line.
func (b *datagramBoard) logsOf(conn string, req uint32, n int) []string {
	var out []string
	for i := len(b.logs) - 1; i >= 0 && len(out) < n; i-- {
		if l := b.logs[i]; l.req == req && l.conn == conn {
			out = append(out, look.OneLine(strings.TrimSpace(l.level+" "+l.logger+" "+l.text)))
		}
	}
	slices.Reverse(out)
	return out
}
