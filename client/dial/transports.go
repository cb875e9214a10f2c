package dial

import (
	"cmp"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// Options are the transport options of the command line, handed to
// whichever transport the target selects.
type Options struct {
	Env          []string     // --env K=V: extra environment of a stdio server
	MaxFrameSize int          // --max-frame-size: largest frame accepted, in bytes (0: the transport's default)
	Headers      []string     // --header 'K: V'
	CertHash     string       // --cert-hash sha256:HEX
	Insecure     bool         // --insecure
	Origin       string       // --origin O
	KeyLog       string       // --keylog FILE
	Encoding     string       // --encoding cbor|json
	StreamOut    string       // --stream-out DIR
	NoRedact     bool         // --no-redact
	Dir          string       // --cwd DIR: the stdio server's folder, over the endpoint's
	Sink         capture.Sink // where the transport reports every frame
	Conn         string       // names the connection in frames ("": the transport's own name)
	Warn         func(string) // prints a warning line on stderr (nil: none)
	// Auth, when set, authorizes the HTTP and WebSocket transports (OAuth).
	Auth bearer.Authorizer
}

// Endpoint is where a transport connects: what a target resolved to.
type Endpoint struct {
	// Transport names the transport: "stdio", "http", "ws", "wt", or what
	// --transport asked for.
	Transport string
	// URL is the parsed URL of a network endpoint (nil for stdio).
	URL *url.URL
	// Argv is the command and arguments of a stdio server, and Dir the
	// folder it starts in (nil and "" for a URL).
	Argv []string
	Dir  string
}

// factory builds the transport for an endpoint.
type factory func(e Endpoint, o Options) (client.Transport, error)

// factories holds the transports of this build, by name. A new transport
// plugs in by adding itself here (and its URL schemes to the command
// line's table of schemes).
var factories = map[string]factory{
	"stdio": newStdio,
	"wt":    newWT,
	"http":  newHTTP,
	"sse":   newHTTP,
	// seed 004's POST dialect
	"tools-http": newHTTP,
	"ws":         NewWS,
	// seed 004's tool frames
	"tools-ws": NewWS,
	// seed 003's streams beside the session
	"gateway": NewWS,
}

// CheckName rejects a --transport value mcpscope does not know.
func CheckName(name string) error {
	if name == "" {
		return nil
	}
	if _, ok := factories[name]; ok {
		return nil
	}
	var names []string
	for k := range factories {
		names = append(names, k)
	}
	sort.Strings(names)
	return optionErrorf("--transport %q is not a transport mcpscope knows (one of %s)", name, strings.Join(names, ", "))
}

// Transport builds the transport the endpoint asks for, not yet started.
// Options that do not fit it are an *OptionError.
func Transport(e Endpoint, o Options) (client.Transport, error) {
	if e.Transport != "stdio" && len(o.Env) > 0 {
		return nil, optionErrorf("--env only applies to a stdio server started with -- CMD [ARGS…]")
	}
	if e.Transport != "stdio" && o.Dir != "" {
		return nil, optionErrorf("--cwd only applies to a stdio server started with -- CMD [ARGS…]")
	}
	f, ok := factories[e.Transport]
	if !ok {
		return nil, CheckName(e.Transport)
	}
	return f(e, o)
}

// newStdio starts the command of the endpoint as a stdio server.
func newStdio(t Endpoint, o Options) (client.Transport, error) {
	if err := StdioRefuses(o); err != nil {
		return nil, err
	}
	if len(t.Argv) == 0 {
		return nil, optionErrorf("the stdio target has no command")
	}
	return stdio.New(stdio.Config{
		Command:      t.Argv[0],
		Args:         t.Argv[1:],
		Env:          o.Env,
		Dir:          cmp.Or(o.Dir, t.Dir),
		MaxFrameSize: o.MaxFrameSize,
		Sink:         o.Sink,
		Conn:         "stdio",
	}), nil
}

// StdioRefuses names the first network option among o, which the stdio
// transport does not support, as an *OptionError; nil when there is none.
func StdioRefuses(o Options) error {
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"--header", len(o.Headers) > 0},
		{"--cert-hash", o.CertHash != ""},
		{"--insecure", o.Insecure},
		{"--origin", o.Origin != ""},
		{"--keylog", o.KeyLog != ""},
		{"--encoding", o.Encoding != ""},
		{"--stream-out", o.StreamOut != ""},
	} {
		if f.set {
			return optionErrorf("%s is not supported by the stdio transport", f.name)
		}
	}
	return nil
}

// OptionError says the options do not fit the endpoint's transport (a
// network option for a stdio server, a URL of the wrong scheme, a header
// that is not one): a mistake on the command line.
type OptionError struct {
	Err error
}

// Error is the reason.
func (e *OptionError) Error() string { return e.Err.Error() }

// Unwrap returns the reason.
func (e *OptionError) Unwrap() error { return e.Err }

// optionErrorf builds an OptionError from a format.
func optionErrorf(format string, a ...any) error {
	return &OptionError{Err: fmt.Errorf(format, a...)}
}
