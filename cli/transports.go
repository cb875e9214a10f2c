package cli

import (
	"sort"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/bearer"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// TransportOptions are the transport flags of the command line, handed to
// whichever transport the TARGET selects.
type TransportOptions struct {
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
	Sink         capture.Sink // where the transport reports every frame
	Conn         string       // names the connection in frames ("": the transport's own name)
	Warn         func(string) // prints a warning line on stderr (nil: none)
	// Auth, when set, authorizes the HTTP and WebSocket transports (OAuth).
	Auth bearer.Authorizer
}

// TransportFactory builds the transport for a target.
type TransportFactory func(t Target, o TransportOptions) (client.Transport, error)

// transportFactories holds the transports of this build, by name. A new
// transport plugs in by adding itself here (and its URL schemes to
// schemeTransports in target.go).
var transportFactories = map[string]TransportFactory{
	"stdio": newStdioTransport,
	"wt":    newWTTransport,
	"http":  newHTTPTransport,
	"sse":   newHTTPTransport,
	// seed 004's POST dialect
	"tools-http": newHTTPTransport,
	"ws":         newWSTransport,
	// seed 004's tool frames
	"tools-ws": newWSTransport,
	// seed 003's streams beside the session
	"gateway": newWSTransport,
}

// checkTransportName rejects a --transport value mcpscope does not know.
func checkTransportName(name string) error {
	if name == "" {
		return nil
	}
	if _, ok := transportFactories[name]; ok {
		return nil
	}
	var names []string
	for k := range transportFactories {
		names = append(names, k)
	}
	sort.Strings(names)
	return usagef("--transport %q is not a transport mcpscope knows (one of %s)", name, strings.Join(names, ", "))
}

// newTransport builds the transport the target asks for.
func newTransport(t Target, o TransportOptions) (client.Transport, error) {
	if t.Transport != "stdio" && len(o.Env) > 0 {
		return nil, usagef("--env only applies to a stdio server started with -- CMD [ARGS…]")
	}
	f, ok := transportFactories[t.Transport]
	if !ok {
		return nil, checkTransportName(t.Transport)
	}
	return f(t, o)
}

// newStdioTransport starts the command of the target as a stdio server.
func newStdioTransport(t Target, o TransportOptions) (client.Transport, error) {
	if err := stdioRefuses(o); err != nil {
		return nil, err
	}
	if len(t.Argv) == 0 {
		return nil, usagef("the stdio target has no command")
	}
	return stdio.New(stdio.Config{
		Command:      t.Argv[0],
		Args:         t.Argv[1:],
		Env:          o.Env,
		Dir:          t.Dir,
		MaxFrameSize: o.MaxFrameSize,
		Sink:         o.Sink,
		Conn:         "stdio",
	}), nil
}

// parseEnv validates --env entries (K=V with a non-empty K).
func parseEnv(entries []string) ([]string, error) {
	for _, kv := range entries {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usagef("--env %q is not of the form KEY=VALUE", kv)
		}
	}
	return entries, nil
}

// configHeaders returns the headers of a configured server that no
// --header of the same name replaces.
func configHeaders(config, line []string) []string {
	replaced := map[string]bool{}
	for _, h := range line {
		name, _, _ := strings.Cut(h, ":")
		replaced[strings.ToLower(strings.TrimSpace(name))] = true
	}
	var out []string
	for _, h := range config {
		name, _, _ := strings.Cut(h, ":")
		if !replaced[strings.ToLower(strings.TrimSpace(name))] {
			out = append(out, h)
		}
	}
	return out
}

// stdioRefuses names the first network flag among o, which the stdio
// transport does not support, as a usage error; nil when there is none.
func stdioRefuses(o TransportOptions) error {
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
			return usagef("%s is not supported by the stdio transport", f.name)
		}
	}
	return nil
}
