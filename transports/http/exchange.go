package mcphttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// exchange is one POST and the answer that follows it: a JSON body, or an
// SSE stream resumed with GET when it breaks before the answer.
type exchange struct {
	t       *Transport
	msg     *jsonrpc.Message
	body    []byte
	conn    string
	request bool                 // msg is a request: an answer is expected
	modern  *modernMeta          // what msg carries of the 2026-07-28 _meta (for its headers), or nil
	params  []client.ParamHeader // the Mcp-Param headers the engine handed a tools/call
	resent  bool                 // sent once more after its session expired
	session string               // the Mcp-Session-Id the POST carried

	ctx    context.Context
	cancel context.CancelFunc
	// responded, when set, is closed once the POST got its response head,
	// or failed.
	responded chan struct{}
	// onEndpoint, when set, takes the data of endpoint events (the legacy
	// transport's stream).
	onEndpoint func(data string) error
	// target is where to POST: the legacy transport's endpoint, or nil for
	// the URL.
	target *url.URL
	// posted, for a notification or a response, is closed once its POST
	// is over (answered, failed or given up).
	posted chan struct{}
	// replies: msg answers a server request, and holds one of these
	// places (replies.go) until its POST is over.
	replies *replyPlaces

	mu        sync.Mutex
	answered  bool          // the answer was delivered, or the request failed
	cancelled bool          // the engine gave up on the request
	lastID    string        // the stream's last event id
	retry     time.Duration // the server's reconnection time, 0 when it set none
	hadRetry  bool
	carried   int // events read that carry data: messages, not priming events
	// elsewhere: the POST was accepted and the answer comes on the legacy
	// SSE stream; the exchange stays registered until it is answered.
	elsewhere bool
	// instead holds the ids of answers the body or stream carried that
	// settle no exchange (at most maxInstead), for the failure's
	// client.ExchangeError.Instead.
	instead []jsonrpc.ID
}

// maxInstead bounds the answers to other ids an exchange remembers.
const maxInstead = 4

// carriedInstead notes that the exchange's body or stream carried an
// answer with id that settles no exchange.
func (ex *exchange) carriedInstead(id jsonrpc.ID) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.request && len(ex.instead) < maxInstead {
		ex.instead = append(ex.instead, id)
	}
}

// answeredInstead returns the ids carriedInstead noted.
func (ex *exchange) answeredInstead() []jsonrpc.ID {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return slices.Clone(ex.instead)
}

// awaitsStream reports whether the request's answer is still awaited on
// the legacy SSE stream.
func (ex *exchange) awaitsStream() bool {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return ex.elsewhere && !ex.answered && !ex.cancelled
}

// newExchange prepares the exchange of m and registers a request's, so
// that CancelRequest finds it.
func (t *Transport) newExchange(m *jsonrpc.Message, body []byte) *exchange {
	ctx, cancel := context.WithCancel(t.ctx)
	ex := &exchange{t: t, msg: m, body: body, ctx: ctx, cancel: cancel, conn: t.connName("POST"),
		request: m.Kind() == jsonrpc.KindRequest}
	ex.modern = readModern(m)
	ex.target = t.legacyEndpoint()
	t.mu.Lock()
	if ex.request {
		t.exchanges[*m.ID] = ex
	} else {
		ex.posted = make(chan struct{})
		t.posting[ex] = true
	}
	t.mu.Unlock()
	return ex
}

// forget unregisters the exchange and releases its context.
func (ex *exchange) forget() {
	t := ex.t
	t.mu.Lock()
	if ex.request && t.exchanges[*ex.msg.ID] == ex {
		delete(t.exchanges, *ex.msg.ID)
	}
	if t.posting[ex] {
		delete(t.posting, ex)
		close(ex.posted)
		if ex.replies != nil {
			ex.replies.give()
		}
	}
	t.mu.Unlock()
	ex.cancel()
}

// awaitPosts waits, at most until deadline, for the POSTs of
// notifications and responses under way to be over.
func (t *Transport) awaitPosts(deadline time.Time) {
	t.mu.Lock()
	posts := make([]chan struct{}, 0, len(t.posting))
	for ex := range t.posting {
		posts = append(posts, ex.posted)
	}
	t.mu.Unlock()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for _, done := range posts {
		select {
		case <-done:
		case <-timer.C:
			return
		}
	}
}

// start sends the POST and returns once its body went out, or with the
// error that kept it from going out; the answer is read on a goroutine
// of its own. ctx bounds the sending only.
func (ex *exchange) start(ctx context.Context) error {
	t := ex.t
	target := t.url
	if ex.target != nil {
		target = ex.target
	}
	req, err := http.NewRequestWithContext(withConn(ex.ctx, ex.conn), http.MethodPost, target.String(), nil)
	if err != nil {
		ex.forget()
		return fmt.Errorf("building the POST: %w", err)
	}
	t.setMessageHeaders(req.Header, ex.msg, ex.modern)
	setParamHeaders(req.Header, ex.params)
	ex.session = req.Header.Get(headerSession)
	body := &sentBody{r: bytes.NewReader(ex.body), sent: make(chan struct{})}
	req.Body = body
	req.ContentLength = int64(len(ex.body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(ex.body)), nil }
	t.reportRequest(ex.conn, req)
	t.reportBody(capture.Out, ex.conn, ex.body, ex.msg)
	failed := make(chan error, 1)
	if !t.spawn(func() { ex.roundTrip(req, body, failed) }) {
		ex.forget()
		return t.life.Gone()
	}
	select {
	case <-body.sent:
		return nil
	case err := <-failed:
		if ex.replies != nil && t.ctx.Err() == nil {
			t.postFailed(ex, err)
		}
		return err
	case <-ctx.Done():
		ex.forget()
		return fmt.Errorf("sending %s: %w", ex.msg.Describe(), context.Cause(ctx))
	}
}

// roundTrip does the POST and reads what answers it. An error before the
// body went out goes to failed, for start to return; a response ends the
// sending, whatever of the body the server did not read.
func (ex *exchange) roundTrip(req *http.Request, body *sentBody, failed chan<- error) {
	defer func() {
		if !ex.awaitsStream() {
			ex.forget()
		}
	}()
	rsp, err := ex.t.hc.Do(req)
	if ex.responded != nil {
		close(ex.responded)
	}
	if err != nil {
		status := failureStatus(err)
		err = ex.t.wordFailure(req, err)
		select {
		case <-body.sent:
			ex.fail(status, err)
		default:
			failed <- &client.ExchangeError{Status: status, Err: err}
		}
		return
	}
	body.done()
	defer rsp.Body.Close()
	ex.t.reportResponse(ex.conn, rsp)
	ex.t.answer(ex, rsp)
}

// sentBody is a request body that says when it was read to its end.
type sentBody struct {
	r    *bytes.Reader
	sent chan struct{}
	once sync.Once
}

func (b *sentBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		b.done()
	}
	return n, err
}

// done says the sending is over.
func (b *sentBody) done() { b.once.Do(func() { close(b.sent) }) }

func (b *sentBody) Close() error { return nil }

// fail ends a request that got no usable answer: the engine gets a
// message naming its id with an *client.ExchangeError as its Violation,
// and fails the request at once. A notification's failure is a warning.
// Once the transport is ending nothing is said: the engine fails what is
// pending with the transport's reason.
func (ex *exchange) fail(status int, err error) {
	if ex.t.ctx.Err() != nil {
		return
	}
	if !ex.request {
		if ex.ctx.Err() == nil {
			ex.t.postFailed(ex, err)
		}
		return
	}
	if !ex.settle() {
		return
	}
	id := *ex.msg.ID
	ex.hand(&jsonrpc.Message{ID: &id, Violation: &client.ExchangeError{Status: status, Err: err, Instead: ex.answeredInstead()}})
}

// hand gives what settled the request, its answer or its failure, to the
// engine.
func (ex *exchange) hand(m *jsonrpc.Message) { ex.t.deliverMsg(m) }

// settle marks the request answered; it reports false when it was
// answered, failed or cancelled already.
func (ex *exchange) settle() bool {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.answered || ex.cancelled {
		return false
	}
	ex.answered = true
	return true
}

// isAnswered says whether the request's answer arrived (or it failed).
func (ex *exchange) isAnswered() bool {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return ex.answered
}

// waited says whether the engine still waits for the request's answer:
// it is neither answered, failed nor cancelled.
func (ex *exchange) waited() bool {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return !ex.answered && !ex.cancelled
}

// answers reports whether m settles this exchange's request: a response
// with its id, or a broken one naming its id (which fails it).
func (ex *exchange) answers(m *jsonrpc.Message) bool {
	if !ex.request || m.ID == nil || *m.ID != *ex.msg.ID {
		return false
	}
	if m.Violation != nil {
		var env *jsonrpc.EnvelopeError
		return !errors.As(m.Violation, &env) || !env.Request
	}
	return m.IsResponse()
}
