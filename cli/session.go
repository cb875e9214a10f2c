package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/resulttext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// streams are where a run writes: the result on out, everything else on
// diag, one whole line at a time.
type streams struct {
	in     io.Reader
	out    io.Writer
	diag   *lineWriter
	pretty bool // indent the result (out is a terminal)
	text   bool // print the result as text (a command that does so at a terminal, on one)
}

// run is one headless run: a session to the target, the work, the cleanup.
type run struct {
	flags     *runFlags
	target    Target
	io        streams
	session   *client.Session
	transport client.Transport
	warnings  *decodeWarnings
	findings  *findingLog   // every finding the run met (findings.go)
	schemas   outputSchemas // the tools' outputSchemas, listed once a run
	tool      string        // the tool of the last tools/call judged (toolFailure)
	taskTools taskSupport   // the tools' v1 taskSupport, listed once a run
	method    string        // the last request sent, whose result emit prints
	sent      time.Time     // when it was sent: its pictures are drawn within --max-time of it
	cached    []string      // the cache hints of the results to print, said after them (cache_hints.go)
}

// work is what a command does with a connected session.
type work func(ctx context.Context, r *run) error

// execute connects to the target, does w and closes the session. It maps
// every failure to an error that ExitCode classifies.
func (f *runFlags) execute(ctx context.Context, target Target, io streams, w work) error {
	plan, err := f.plan()
	if err != nil {
		return err
	}
	if err := f.output.check(io); err != nil {
		return err
	}

	// A question the answers cannot cover stops the run with its cause.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)

	r := &run{flags: f, target: target, io: io}
	r.warnings = &decodeWarnings{warningCap: warningCap{out: io.diag}, unit: controlUnit(target)}
	plan.strays = r.warnings.StrayAnswer
	plan.interactive = isTerminal(io.diag.w)
	// Nothing reaches stderr once the run has returned.
	defer io.diag.Close()
	defer r.warnings.Flush()
	var trace capture.Sink
	if f.trace {
		trace = newStreamTrace(io.diag)
	}
	flood := &datagramFlood{out: io.diag}
	defer flood.Flush()
	rec, tap, closeRec, err := f.recordingTap(target, io.diag)
	if err != nil {
		return err
	}
	defer closeRec() // after the session's close: its frames are in
	streamWarns := &streamWarnings{warningCap{out: io.diag}}
	defer streamWarns.Flush()
	var found capture.Sink // nil unless findings are wanted: Tee skips it
	if f.findings || f.keepFindings {
		var out *lineWriter
		if f.findings {
			out = io.diag
		}
		r.findings = newFindingLog(out)
		defer r.findings.Flush()
		found = r.findings
	}
	deprecated := &deprecationNotes{notes: &r.warnings.warningCap}
	sink := capture.Tee(trace, r.warnings, streamWarns, flood, deprecated, tap, f.sink, found)
	t, session, err := plan.open(target, sink, io.diag.Println, stop)
	if err != nil {
		return err
	}
	r.transport, r.session = t, session
	defer r.warnLimits() // after Close: the counts are final
	defer r.session.Close()

	if err := r.session.Connect(ctx); err != nil {
		return runFailure(ctx, authAdvice(target, connectFailure(target, err, r.session.ProtocolVersion() == "")))
	}
	deprecated.noteTransport(r.session.LinkState().Transport) // after Connect: a fallback may have chosen HTTP+SSE
	recordLink(rec, t, session)
	if err := r.startLogging(ctx); err != nil {
		return runFailure(ctx, err)
	}
	return r.unsentAnswers(runFailure(ctx, authAdvice(target, w(ctx, r))))
}

// runFailure prefers the reason the run was stopped for (an unanswered
// question) over the error it caused, and gives an exit code to errors the
// engine did not type.
func runFailure(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause // even when the call itself got through
	}
	if err == nil {
		return nil
	}
	if !isUsage(err) && ExitCode(err) == ExitUsage {
		// Past the command line, an untyped failure is the connection's,
		// or a timeout's when a time limit ended it.
		return connectionFailed(err)
	}
	return err
}

// connectFailure words a failed Connect: a connection that never came up
// is not "lost", so the transport's own reason is shown. A server that
// exited before it answered the handshake (unanswered) is said to have gone
// before answering initialize. A transport that did not come up within the
// limits exits as a timeout.
func connectFailure(t Target, err error, unanswered bool) error {
	var conn *client.ConnectionError
	if errors.As(err, &conn) && conn.Err != nil {
		cause := conn.Err
		if unanswered {
			cause = stdio.BeforeInitialize(cause)
		}
		return connectionFailed(fmt.Errorf("could not connect to %s: %w", t, cause))
	}
	return fmt.Errorf("could not connect to %s: %w", t, err)
}

// controlUnit names a control frame of the target's transport for warnings.
func controlUnit(t Target) string {
	if t.Transport == "stdio" {
		return "line on stdout"
	}
	return "frame"
}

// call sends one request, reporting progress on stderr when asked, and
// returns its result.
func (r *run) call(ctx context.Context, method string, params any) ([]byte, error) {
	var opts []client.CallOption
	if r.flags.progress {
		warnProgressToken(r.io.diag, r.flags.meta)
		opts = append(opts, client.WithProgress(func(p mcp.ProgressNotificationParams) {
			r.io.diag.Println(formatProgress(p))
		}))
	}
	opts = append(opts, r.requestOptions()...)
	var id jsonrpc.ID
	opts = append(opts, client.WithRounds(func(_ int, got jsonrpc.ID) { id = got }))
	r.method = method
	if method == mcp.MethodToolsCall {
		params = r.taskParams(params)
	}
	started := time.Now()
	r.sent = started
	// The engine hands every progress read before the result to the
	// callback before Call returns, so the lines are complete here.
	res, err := r.session.Call(ctx, method, params, opts...)
	if err == nil && method == mcp.MethodToolsCall {
		if retry, ok := r.retryAsTask(ctx, params, res); ok {
			res, err = r.session.Call(ctx, method, retry, opts...)
		}
	}
	if err == nil && method == mcp.MethodToolsCall {
		res, err = r.followTask(ctx, res, id, started)
	}
	if err != nil {
		return nil, err
	}
	// Execution streams the result refers to finish before the run ends,
	// within --timeout of each sign of life and --max-time of the start.
	return res, r.awaitStreams(ctx, method, id, started)
}

// emit prints the result of the last request sent (printResult): as text
// the way its method reads, or JSON. A run stopped meanwhile (an
// unanswered question) prints nothing on stdout.
func (r *run) emit(ctx context.Context, raw []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	method := r.method
	return r.printResult(method, raw, func(width int, file bool) string {
		var text string
		switch {
		case method == mcp.MethodToolsCall && r.tool != "":
			// Text checks structuredContent against the outputSchema the
			// run lists (once) for the tool.
			text = resulttext.ToolResult(raw, width, r.outputSchema(ctx, r.tool), file)
		case file:
			text = resulttext.Uncut(method, raw, width)
		default:
			text = resulttext.Result(method, raw, width)
		}
		if file {
			return text
		}
		return text + r.pictures(ctx, raw, width)
	})
}

// emitListing prints a listing, {"tools":[…]} and the like, as emit
// prints a result: tables as text.
func (r *run) emitListing(ctx context.Context, fields []string, lists [][]json.RawMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer r.sayCacheHints()
	return r.printResult("", listDocument(fields, lists), func(width int, _ bool) string { return resulttext.Listing(fields, lists, width) })
}
