package mcphttp

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// MaxReplyPosts bounds the POSTs of answers to the server's requests that
// are open at once: each answer is a POST of its own, and a server that
// holds them open would otherwise gather a connection per answer. Past it
// an answer waits for one to end, within its send's time limit; the
// engine queues the rest (bounded too, see client.StoppedReadingError).
const MaxReplyPosts = 16

// postWarningLimit is how many failed POSTs of notifications and answers
// are warned about one by one; the rest are counted, and Close says how
// many were not shown.
const postWarningLimit = 5

// postFailures counts the POSTs of notifications and answers that failed
// and the warnings about them.
type postFailures struct {
	unsent atomic.Uint64 // answers to the server's requests it never got

	mu     sync.Mutex
	shown  int
	hidden int
}

// UnsentAnswers returns how many answers to the server's requests could
// not be sent: their POST failed or was refused. Final once Close returned.
func (t *Transport) UnsentAnswers() uint64 { return t.posts.unsent.Load() }

// takeReplySlot waits, within ctx, until fewer than MaxReplyPosts POSTs
// of answers are open, and takes a place among them for m.
func (t *Transport) takeReplySlot(ctx context.Context, m *proto.Message) error {
	select {
	case t.replySlots <- struct{}{}:
		return nil
	default:
	}
	select {
	case t.replySlots <- struct{}{}:
		return nil
	case <-t.ctx.Done():
		return t.life.Gone()
	case <-ctx.Done():
		return fmt.Errorf("sending %s: the server has not answered the POSTs of %d earlier answers: %w",
			m.Describe(), MaxReplyPosts, context.Cause(ctx))
	}
}

// postFailed reports the failed POST of a notification or an answer:
// a warning, the first postWarningLimit of them; an answer is also
// counted as unsent and marked in the traffic.
func (t *Transport) postFailed(ex *exchange, err error) {
	if ex.msg.IsResponse() {
		t.posts.unsent.Add(1)
		text := []byte(fmt.Sprintf("not sent: %s: %v", ex.msg.Describe(), err))
		t.report(capture.Out, ex.conn, &capture.Frame{
			Chan: capture.Channel{Kind: capture.HTTP}, Raw: text, Enc: proto.EncText, Err: err,
			Fields: []proto.Field{{Offset: 0, Len: len(text), Name: "unsent answer", Kind: proto.FieldBody}},
		})
	}
	p := &t.posts
	p.mu.Lock()
	show := p.shown < postWarningLimit
	if show {
		p.shown++
	} else {
		p.hidden++
	}
	p.mu.Unlock()
	if show {
		t.warnf("%s: %v", ex.msg.Describe(), err)
	}
}

// warnHiddenPosts says, once, how many failed POSTs were not warned
// about. How many answers the server never got, UnsentAnswers tells the
// caller, which decides how to end.
func (t *Transport) warnHiddenPosts() {
	p := &t.posts
	p.mu.Lock()
	hidden := p.hidden
	p.hidden = 0
	p.mu.Unlock()
	if hidden > 0 {
		t.warnf("%d more failed POSTs of notifications and answers were not shown", hidden)
	}
}
