package doctor

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// Config says what to examine and how.
type Config struct {
	// Transport is the target's transport: "stdio", "http", "sse", "ws",
	// "wt" (others are walked as their URL's scheme implies).
	Transport string
	// URL is a network target (nil for stdio).
	URL *url.URL
	// Argv is a stdio target's command and arguments.
	Argv []string
	// Timeout bounds each step; MaxTime the whole walk.
	Timeout, MaxTime time.Duration
	// Header, Origin, CertHashes (the "sha256:HEX" pins of --cert-hash)
	// and Insecure are the network flags: the probes send and verify as
	// the real transport will.
	Header     http.Header
	Origin     string
	CertHashes []string
	Insecure   bool
	// Subprotocols are the WebSocket subprotocols the upgrade offers, as
	// the real transport offers them ("mcp" for ws and gateway, none for
	// tools-ws): the probe asks for what the connection will.
	Subprotocols []string
	// Connector builds the real transport and session for the handshake
	// and tools/list steps.
	Connector Connector
	// Classify gives the class of a session's error (nil: Connection,
	// Timeout when a deadline passed).
	Classify func(error) checklist.Class
	// Authorization, when set, says what mcpscope's OAuth flow would do
	// for a server that refused with the WWW-Authenticate values
	// challenge, or why it would not authorize there; nil when no flow
	// runs (--no-auth, the user's own Authorization). The auth step
	// suggests authorizing only when it would.
	Authorization func(ctx context.Context, challenge []string) (string, error)
	// Grant, when set, gets a token for a server that refused req with
	// rsp, as a grant without a user does (--client-credentials): the
	// auth step runs it and the walk goes on with the Authorization
	// header it returns. The Connector's sessions send that token too.
	Grant func(ctx context.Context, req *http.Request, rsp *http.Response) (authorization string, err error)
}

// Connector builds the real transport and the session over it, the way
// every other command connects.
type Connector interface {
	// Transport builds the transport for the target, reporting each frame
	// to sink.
	Transport(sink capture.Sink) (client.Transport, error)
	// Session builds the session over t, not yet connected.
	Session(t client.Transport) *client.Session
}

// errDeadline marks a step cut short by --timeout, errMaxTime a walk cut
// short by --max-time.
var (
	errDeadline = errors.New("no answer within --timeout")
	errMaxTime  = errors.New("the walk ran past --max-time")
)

// walk runs the steps in order; after the first failure every further step
// is skipped.
type walk struct {
	ctx     context.Context
	cfg     Config
	report  checklist.Report
	failed  bool
	skipWhy string
	// unix is the socket of a unix:// target, once its target step ran
	// (nil for other targets).
	unix *httpconf.UnixEndpoint
	// took, when a step sets it, is the step's duration instead of the
	// time its function ran (a step that only reads a result measured in
	// the background).
	took time.Duration
}

// step runs fn as the step name, bounded by --timeout, and records its
// result. fn returns what it found.
func (w *walk) step(name string, fn func(ctx context.Context) (string, error)) bool {
	if w.failed {
		w.report.Results = append(w.report.Results, checklist.Result{Step: name, Status: checklist.Skipped, Detail: w.skipWhy})
		return false
	}
	ctx, cancel := context.WithTimeoutCause(w.ctx, w.cfg.Timeout, errDeadline)
	defer cancel()
	start := time.Now()
	w.took = 0
	detail, err := fn(ctx)
	took := time.Since(start)
	if w.took > 0 {
		took = w.took
	}
	if cause := context.Cause(ctx); err != nil && (cause == errDeadline || cause == errMaxTime) {
		// The layer did not answer in time, whatever fn made of it: a
		// timeout, keeping the fix fn found for its layer.
		var f *Failure
		if errors.As(err, &f) {
			f.Class = checklist.Timeout
		} else {
			err = &Failure{Class: checklist.Timeout, Fix: timeoutFix, Err: timeoutErr(cause, err, w.cfg)}
		}
	}
	if err == nil {
		w.report.Results = append(w.report.Results, checklist.Result{Step: name, Status: checklist.Passed, Detail: detail, Took: took})
		return true
	}
	class, fix := failureOf(err)
	w.report.Results = append(w.report.Results, checklist.Result{Step: name, Status: checklist.Failed, Detail: err.Error(), Took: took, Fix: fix, Class: class, Err: err})
	w.failed, w.skipWhy = true, "skipped: "+name+" failed"
	return false
}

// skip records a step that does not apply to this target.
func (w *walk) skip(name, why string) {
	if w.failed {
		why = w.skipWhy
	}
	w.report.Results = append(w.report.Results, checklist.Result{Step: name, Status: checklist.Skipped, Detail: why})
}

// Run walks the layers to the target of cfg and returns the checklist.
func Run(ctx context.Context, cfg Config) checklist.Report {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.MaxTime <= 0 {
		cfg.MaxTime = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeoutCause(ctx, cfg.MaxTime, errMaxTime)
	defer cancel()
	w := &walk{ctx: ctx, cfg: cfg}
	w.report.Target = targetText(cfg)
	if cfg.Transport == "stdio" {
		w.stdio()
	} else {
		w.network()
	}
	return w.report
}

// targetText renders the target for the checklist's title.
func targetText(cfg Config) string {
	if cfg.URL != nil {
		return cfg.URL.Redacted()
	}
	return strings.Join(cfg.Argv, " ")
}

// timeoutFix is the fix of a step that ran out of time.
const timeoutFix = "the layer did not answer in time; raise --timeout (or --max-time) if the server is slow"

// timeoutErr words a step cut short: by which bound, after how long.
func timeoutErr(cause, err error, cfg Config) error {
	bound := fmt.Sprintf("no answer within --timeout %s", cfg.Timeout)
	if cause == errMaxTime {
		bound = fmt.Sprintf("the walk ran past --max-time %s", cfg.MaxTime)
	}
	if errors.Is(err, cause) {
		return errors.New(bound)
	}
	return fmt.Errorf("%s: %w", bound, err)
}

// network walks a URL target.
func (w *walk) network() {
	u := w.cfg.URL
	if httpconf.IsUnix(u) {
		w.unixWalk()
		return
	}
	w.step("target", func(context.Context) (string, error) {
		if u == nil || u.Hostname() == "" {
			return "", fail(checklist.Usage, "give a URL with a host, such as http://localhost:3000/mcp", "the target has no host")
		}
		return w.cfg.Transport + " " + u.Redacted(), nil
	})
	var addrs []string
	w.step("dns", func(ctx context.Context) (string, error) {
		var err error
		addrs, err = resolve(ctx, u.Hostname())
		return describeAddrs(u.Hostname(), addrs), err
	})
	if w.cfg.Transport == "wt" {
		w.quic(addrs)
	} else {
		conn := w.tcpTLS(addrs)
		if conn != nil {
			defer conn.Close()
		}
		w.httpLayer(conn)
	}
	w.session()
}
