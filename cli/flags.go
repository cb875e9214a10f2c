package cli

import (
	"slices"
	"strconv"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/client/dial"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/spf13/pflag"
)

// runFlags are the flags of every command that connects to a server.
type runFlags struct {
	trace        bool
	answers      string
	roots        []string
	timeout      time.Duration
	maxTime      time.Duration
	protocol     string
	progress     bool
	env          []string
	maxFrameSize int
	headers      []string
	certHash     string
	insecure     bool
	origin       string
	keyLog       string
	encoding     string
	streamOut    string
	transport    string
	noRedact     bool
	record       string
	noRecord     bool
	recordMax    int64
	config       string
	// OAuth (oauth.go)
	clientID          string
	clientSecret      string
	clientCredentials bool
	clientMetadataURL string
	noAuth            bool
	// How the result is printed (output.go): --format, --output, --raw.
	output outputFlags
	// recorded, when set, answers the server's questions instead of an
	// --answers file: replay --against gives the recording's own answers.
	recorded *answers.File
	// The stdio server's folder, the log level asked of the server and the
	// _meta of each request (request_flags.go).
	cwd      string
	logLevel string
	meta     []string
	// findings prints each finding on stderr as it is found (findings.go);
	// keepFindings keeps them for the command (lint) without printing.
	findings, keepFindings bool
	// maxInFlight, when set, bounds the requests awaiting an answer
	// (bench: its concurrency); 0 keeps the engine's default.
	maxInFlight int
	// sink, when set, sees every frame of the session too (bench's wire
	// times).
	sink capture.Sink
	// repeatAnswers starts each kind of answer again at its first once the
	// last was given (bench repeats a call that asks questions).
	repeatAnswers bool
}

// register adds the flags to fs.
func (f *runFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.trace, "trace", false, "print every frame on stderr: time, direction, channel, size, summary")
	fs.StringVar(&f.answers, "answers", "", "answer the server's questions (elicitation, sampling, roots) from a JSON or YAML `FILE`")
	fs.StringArrayVar(&f.roots, "root", nil, "expose a root to the server: a `URI` or a local path (repeatable)")
	fs.DurationVar(&f.timeout, "timeout", client.DefaultTimeout, "give up on a request after this long without an answer, progress or execution stream bytes (its send included)")
	fs.DurationVar(&f.maxTime, "max-time", client.DefaultHardTimeout, "give up on a request after this long in all, whatever progress says (sending it and its execution streams included)")
	fs.StringVar(&f.protocol, "protocol", "", "offer the MCP protocol `VERSION`, even an unknown one (default: negotiate the newest)")
	fs.BoolVar(&f.progress, "progress", false, "ask for progress and print each notification on stderr")
	fs.StringArrayVar(&f.env, "env", nil, "set `K=V` in the stdio server's environment (repeatable)")
	fs.IntVar(&f.maxFrameSize, "max-frame-size", 0, "largest frame accepted from the server: `N` bytes: a line on stdio, a body or SSE event over HTTP, a WebSocket message, an MCP-Flow frame (default 10 MiB on stdio, 16 MiB otherwise)")
	fs.StringArrayVar(&f.headers, "header", nil, "add the HTTP header `'K: V'` (network transports; repeatable)")
	fs.StringVar(&f.certHash, "cert-hash", "", "pin the server certificate (https, wss and WebTransport; several separated by commas): `sha256:HEX`")
	fs.BoolVar(&f.insecure, "insecure", false, "do not verify the server certificate")
	fs.StringVar(&f.origin, "origin", "", "send `ORIGIN` as the Origin header")
	fs.StringVar(&f.keyLog, "keylog", "", "write TLS keys to `FILE` (for Wireshark)")
	fs.StringVar(&f.encoding, "encoding", "", "preferred MCP-Flow body `ENCODING`: cbor or json")
	fs.StringVar(&f.streamOut, "stream-out", "", "save execution stream payloads under `DIR`")
	fs.StringVar(&f.transport, "transport", "", "use the transport `NAME` instead of the one the URL implies")
	fs.BoolVar(&f.noRedact, "no-redact", false, "show credentials (Authorization, cookies, tokens) in captured headers and recordings instead of redacting them")
	fs.StringVar(&f.record, "record", "", "record the session to `FILE` (the TUI records into the state directory by default)")
	fs.BoolVar(&f.noRecord, "no-record", false, "do not record the session (TUI)")
	fs.StringVar(&f.config, "config", "", "find a server NAME in this MCP config `FILE` only (claude_desktop_config.json, .mcp.json, mcp.json, server.json…)")
	fs.StringVar(&f.clientID, "client-id", "", "OAuth: the `ID` of a client registered beforehand at the server's authorization server")
	fs.StringVar(&f.clientSecret, "client-secret", "", "OAuth: the `SECRET` of the --client-id client (confidential clients)")
	fs.BoolVar(&f.clientCredentials, "client-credentials", false, "OAuth: get the token with the client_credentials grant of the --client-id and --client-secret client (no user, no browser)")
	fs.StringVar(&f.clientMetadataURL, "client-metadata-url", "", "OAuth: the https `URL` of a Client ID Metadata Document to use as the client id where the server supports them")
	fs.BoolVar(&f.noAuth, "no-auth", false, "never run an OAuth flow: a 401 is an error")
	fs.Int64Var(&f.recordMax, "record-stream-max", recordings.DefaultStreamMax, "payload bytes of one stream a recording keeps whole (`N`); past it, totals and the last 1 MiB")
	f.output.register(fs)
	fs.StringVar(&f.cwd, "cwd", "", "start the stdio server in the folder `DIR`")
	fs.StringVar(&f.logLevel, "log-level", "", "ask the server for its log messages at `LEVEL` and above (debug, info, notice, warning, error, critical, alert, emergency) and print each on stderr")
	fs.BoolVar(&f.findings, "findings", false, "print on stderr each departure from the spec seen on the wire (findings: severity, code, summary, frame)")
	if fs.Lookup("meta") == nil { // mcpscope stream has a --meta of its own
		fs.StringArrayVar(&f.meta, "meta", nil, "add `K=V` to each request's params._meta: V as JSON when it parses, else a string (repeatable)")
	}
	groupSharedFlags(fs)
}

// validate checks the flags that stand on their own.
func (f *runFlags) validate() error {
	if f.timeout <= 0 {
		return usagef("--timeout must be positive, got %s", f.timeout)
	}
	if f.maxTime <= 0 {
		return usagef("--max-time must be positive, got %s", f.maxTime)
	}
	if f.maxFrameSize < 0 {
		return usagef("--max-frame-size must not be negative, got %d", f.maxFrameSize)
	}
	if f.encoding != "" && f.encoding != "cbor" && f.encoding != "json" {
		return usagef("--encoding must be cbor or json, got %q", f.encoding)
	}
	if f.record != "" && f.noRecord {
		return usagef("--record and --no-record contradict each other")
	}
	if f.recordMax <= 0 {
		return usagef("--record-stream-max must be positive, got %d", f.recordMax)
	}
	if f.clientSecret != "" && f.clientID == "" {
		return usagef("--client-secret needs --client-id")
	}
	if f.clientCredentials && f.clientSecret == "" {
		return usagef("--client-credentials needs --client-id and --client-secret")
	}
	if f.noAuth && (f.clientID != "" || f.clientMetadataURL != "") {
		return usagef("--no-auth contradicts --client-id and --client-metadata-url")
	}
	if _, err := parseEnv(f.env); err != nil {
		return err
	}
	if err := f.output.validate(); err != nil {
		return err
	}
	if err := f.validateRequestFlags(); err != nil {
		return err
	}
	return checkTransportName(f.transport)
}

// transportOptions gathers the transport flags for target: a configured
// server's own headers and environment first, a --header or --env of the
// same name replacing one of them.
func (f *runFlags) transportOptions(target Target) dial.Options {
	return dial.Options{
		Env:          append(slices.Clone(target.Env), f.env...),
		MaxFrameSize: f.maxFrameSize,
		Headers:      append(configHeaders(target.Headers, f.headers), f.headers...),
		CertHash:     f.certHash,
		Insecure:     f.insecure,
		Origin:       f.origin,
		KeyLog:       f.keyLog,
		Encoding:     f.encoding,
		StreamOut:    f.streamOut,
		NoRedact:     f.noRedact,
		Dir:          f.cwd,
	}
}

// parseRoot turns a --root value into a root (mcp.ParseRoot): a URI is
// kept as is, a local path becomes an absolute file:// URI named after its
// last element.
func parseRoot(v string) (mcp.Root, error) {
	r, err := mcp.ParseRoot(v)
	if err != nil {
		return mcp.Root{}, usagef("--root: %w", err)
	}
	return r, nil
}

// parseRoots parses every --root value.
func parseRoots(vs []string) ([]mcp.Root, error) {
	roots := make([]mcp.Root, 0, len(vs))
	for _, v := range vs {
		r, err := parseRoot(v)
		if err != nil {
			return nil, err
		}
		roots = append(roots, r)
	}
	return roots, nil
}

// formatProgress renders a progress notification as one line:
// "progress 3/5 message", or "progress 3 message" without a total.
func formatProgress(p mcp.ProgressNotificationParams) string {
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	s := "progress " + num(p.Progress)
	if p.Total != nil {
		s += "/" + num(*p.Total)
	}
	if p.Message != "" {
		s += " " + oneLine(p.Message)
	}
	return s
}
