package mcphttp

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// MaxReplyPosts bounds the POSTs of answers to the server's requests that
// are open at once, for each of two kinds: the answers decided on the
// reader (ping, busy refusals) and the answers of handlers (roots,
// sampling, elicitation), so that answers the server holds of one kind
// never keep the other waiting. Each answer is a POST of its own, and a
// server that holds them open would otherwise gather a connection per
// answer. Past it an answer waits for one to end, within its send's time
// limit; one that found no place in time is not sent, and counted (see
// UnsentAnswers). The engine queues the answers decided on the reader,
// bounded too (see client.StoppedReadingError).
const MaxReplyPosts = 16

// postWarningLimit is how many failed POSTs of notifications, and apart
// from them of answers, are warned about one by one; the rest are
// counted, and Close says how many were not shown.
const postWarningLimit = 5

// postFailures counts the POSTs of notifications and answers that failed
// and the warnings about them.
type postFailures struct {
	unsent atomic.Uint64 // answers to the server's requests it never got

	mu            sync.Mutex
	answers       warnCount // failed POSTs of answers
	notifications warnCount // failed POSTs of notifications
}

// warnCount counts the warnings about one kind of failed POST.
type warnCount struct{ shown, hidden int }

// UnsentAnswers returns how many answers to the server's requests could
// not be sent: their POST failed or was refused, or found no place among
// the MaxReplyPosts open in time. Final once Close returned.
func (t *Transport) UnsentAnswers() uint64 { return t.posts.unsent.Load() }

// replyPlaces are the places of one kind of answer's POSTs
// (MaxReplyPosts of them), and whether an answer waited in vain for one.
type replyPlaces struct {
	taken chan struct{} // one per POST open
	freed atomic.Uint64 // places given back so far
	// stalledAt is freed+1 when an answer last waited in vain for a
	// place, 0 before: until a place is given back, the next ones do not
	// wait.
	stalledAt atomic.Uint64
}

func newReplyPlaces() *replyPlaces { return &replyPlaces{taken: make(chan struct{}, MaxReplyPosts)} }

// give gives a place back.
func (p *replyPlaces) give() {
	<-p.taken
	p.freed.Add(1)
}

// placesFor returns the places among which an answer sent with ctx takes
// one: a handler's answer (its context carries the question's origin, see
// client.QuestionOriginOf) has places of its own.
func (t *Transport) placesFor(ctx context.Context) *replyPlaces {
	if _, ok := client.QuestionOriginOf(ctx); ok {
		return t.handlerReplies
	}
	return t.readerReplies
}

// takeReplySlot waits, within ctx, until fewer than MaxReplyPosts POSTs
// of answers of m's kind are open, takes a place among them and returns
// the kind's places. A place not freed in time is no sign that the
// server stopped reading (it took the bodies, and holds their POSTs): m
// is not sent, counted and reported so, and the error does not wrap the
// context's; until a place is freed, the next answers of the kind do not
// wait either.
func (t *Transport) takeReplySlot(ctx context.Context, m *jsonrpc.Message) (*replyPlaces, error) {
	p := t.placesFor(ctx)
	select {
	case p.taken <- struct{}{}:
		return p, nil
	default:
	}
	wait := ctx.Done()
	if p.stalledAt.Load() == p.freed.Load()+1 {
		wait = closedChan
	}
	select {
	case p.taken <- struct{}{}:
		return p, nil
	case <-t.ctx.Done():
		return nil, t.life.Gone()
	case <-wait:
		p.stalledAt.Store(p.freed.Load() + 1)
		err := fmt.Errorf("the server holds the POSTs of %d earlier answers open, and none ended in time", MaxReplyPosts)
		t.answerUnsent(m, t.connName("POST"), err)
		return nil, fmt.Errorf("sending %s: %w", m.Describe(), err)
	}
}

// closedChan is a channel that is closed: receiving from it never waits.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// postFailed reports the failed POST of a notification or an answer:
// a warning, the first postWarningLimit of each kind; an answer is also
// counted as unsent and marked in the traffic.
func (t *Transport) postFailed(ex *exchange, err error) {
	if ex.msg.IsResponse() {
		t.answerUnsent(ex.msg, ex.conn, err)
		return
	}
	if t.posts.show(&t.posts.notifications) {
		t.warnf("%s: %v", ex.msg.Describe(), err)
	}
}

// answerUnsent counts m, an answer the server never got because of err,
// marks it in the traffic of conn, and warns about it, the first
// postWarningLimit times.
func (t *Transport) answerUnsent(m *jsonrpc.Message, conn string, err error) {
	t.posts.unsent.Add(1)
	text := []byte(fmt.Sprintf("not sent: %s: %v", m.Describe(), err))
	t.report(capture.Out, conn, &capture.Frame{
		Chan: capture.Channel{Kind: capture.HTTP}, Raw: text, Enc: proto.EncText, Err: err,
		Fields: []proto.Field{{Offset: 0, Len: len(text), Name: "unsent answer", Kind: proto.FieldBody}},
	})
	if t.posts.show(&t.posts.answers) {
		t.warnf("%s: %v", m.Describe(), err)
	}
}

// show counts one warning of kind c and says whether it is among the
// first postWarningLimit, to be shown.
func (p *postFailures) show(c *warnCount) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c.shown < postWarningLimit {
		c.shown++
		return true
	}
	c.hidden++
	return false
}

// warnHiddenPosts says, once, how many failed POSTs were not warned
// about. How many answers the server never got, UnsentAnswers tells the
// caller, which decides how to end.
func (t *Transport) warnHiddenPosts() {
	p := &t.posts
	p.mu.Lock()
	answers, notifications := p.answers.hidden, p.notifications.hidden
	p.answers.hidden, p.notifications.hidden = 0, 0
	p.mu.Unlock()
	if notifications > 0 {
		t.warnf("%s", plural.Count(notifications, "more failed POST of a notification was not shown", "more failed POSTs of notifications were not shown"))
	}
	if answers > 0 {
		t.warnf("%s", plural.Count(answers, "more answer that could not be sent was not shown", "more answers that could not be sent were not shown"))
	}
}
