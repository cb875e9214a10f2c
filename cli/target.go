package cli

import (
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/mcpscope/mcpscope/client/dial"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// Target is where mcpscope connects: a stdio server it starts (-- CMD ARGS…)
// or a URL.
type Target struct {
	// Transport names the transport: "stdio", "http", "ws", "wt", or what
	// --transport asked for.
	Transport string
	// URL is the parsed URL of a network target (nil for stdio).
	URL *url.URL
	// Argv is the command and arguments of a stdio server (nil for a URL).
	Argv []string
	// Env (KEY=VALUE) and Dir are the environment and working folder a
	// configured stdio server asks for; --env comes on top of Env.
	Env []string
	Dir string
	// Headers ("Name: value") are a configured remote server's; --header
	// comes after them.
	Headers []string
	// Server names the configured server the target came from ("" for a
	// URL or a command on the line).
	Server string
}

// endpoint is where the target's transport connects.
func (t Target) endpoint() dial.Endpoint {
	return dial.Endpoint{Transport: t.Transport, URL: t.URL, Argv: t.Argv, Dir: t.Dir}
}

// String renders the target for messages: the URL, or the command line.
func (t Target) String() string {
	if t.URL != nil {
		return t.URL.Redacted() // a password in the URL is never shown
	}
	return strings.Join(t.Argv, " ")
}

// schemeTransports maps a URL scheme to the transport it implies.
var schemeTransports = map[string]string{
	"http":  "http",
	"https": "http",
	"ws":    "ws",
	"wss":   "ws",
	"wt":    "wt",
	"unix":  "http", // Streamable HTTP on a Unix socket: unix:///path.sock[#/path]
}

// urlPrefix recognises an argument that is a URL target rather than a
// method name or PARAMS_JSON.
var urlPrefix = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// splitTarget separates the positional arguments of a command from its
// TARGET. dashAt is the index of the first argument after "--" (cobra's
// ArgsLenAtDash), or -1 when there was no "--". A stdio target is everything
// after "--"; otherwise the last positional argument is a URL target when it
// looks like one (scheme://…). transport is the --transport override ("" for
// none).
func splitTarget(args []string, dashAt int, transport string) (positional []string, t Target, err error) {
	if dashAt >= 0 && dashAt <= len(args) {
		positional, argv := args[:dashAt], args[dashAt:]
		if len(argv) == 0 {
			return nil, Target{}, usagef("nothing follows \"--\": give the server's command, as in -- CMD [ARGS…]")
		}
		if n := len(positional); n > 0 && urlPrefix.MatchString(positional[n-1]) {
			return nil, Target{}, usagef("give one TARGET: either the URL %s or the command after \"--\", not both", positional[n-1])
		}
		if transport != "" && transport != "stdio" {
			return nil, Target{}, usagef("--transport %s cannot run the command after \"--\"; that is a stdio server", transport)
		}
		return positional, Target{Transport: "stdio", Argv: append([]string(nil), argv...)}, nil
	}
	n := len(args)
	if n == 0 || !urlPrefix.MatchString(args[n-1]) {
		return nil, Target{}, missingTarget(args)
	}
	t, err = parseURLTarget(args[n-1], transport)
	if err != nil {
		return nil, Target{}, err
	}
	return args[:n-1], t, nil
}

// schemeNoColon recognises a URL whose scheme lacks its ':' (http//host).
var schemeNoColon = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*//`)

// missingTarget explains why args end without a TARGET: the last argument
// is a URL with its ':' missing, a URL came earlier on the line, or there
// is none at all.
func missingTarget(args []string) error {
	if n := len(args); n > 0 && schemeNoColon.MatchString(args[n-1]) {
		scheme, rest, _ := strings.Cut(args[n-1], "//")
		return usagef("the TARGET %s looks like a URL missing the ':' after its scheme; did you mean %s://%s?", quote(args[n-1]), scheme, rest)
	}
	for i, a := range args {
		if urlPrefix.MatchString(a) {
			return usagef("the TARGET must come last on the line: the URL %s is followed by %s", quote(a), quote(args[i+1]))
		}
	}
	return usagef("missing TARGET: give a URL (http[s]://, ws[s]://, wt://, unix:///path.sock) or -- CMD [ARGS…] to start a stdio server")
}

// parseURLTarget parses a URL TARGET and picks its transport from the scheme
// unless transport overrides it.
func parseURLTarget(raw, transport string) (Target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Target{}, usagef("the TARGET %q is not a valid URL: %w", raw, err)
	}
	scheme := strings.ToLower(u.Scheme)
	implied, ok := schemeTransports[scheme]
	if !ok {
		return Target{}, usagef("the URL scheme %q is not one mcpscope speaks (use %s)", u.Scheme, knownSchemes())
	}
	if transport == "stdio" {
		return Target{}, usagef("--transport stdio needs -- CMD [ARGS…], not a URL")
	}
	if scheme == httpconf.UnixScheme {
		return unixTarget(u, transport)
	}
	if u.Host == "" {
		return Target{}, usagef("the URL %s has no host", raw)
	}
	if transport == "" {
		transport = implied
	}
	return Target{Transport: transport, URL: u}, nil
}

// unixTransports are the transports that run on a Unix socket: the HTTP
// family, whose requests the socket carries instead of TCP.
var unixTransports = map[string]bool{"http": true, "sse": true, "tools-http": true}

// unixTarget checks a unix:// URL (the socket's path, the request path
// after '#') and the transport asked for.
func unixTarget(u *url.URL, transport string) (Target, error) {
	if _, err := httpconf.ParseUnix(u); err != nil {
		return Target{}, usagef("%w", err)
	}
	if transport == "" {
		transport = "http"
	}
	if !unixTransports[transport] {
		return Target{}, usagef("--transport %s does not run on a Unix socket: a unix:// target speaks Streamable HTTP (--transport http, the default) or legacy HTTP+SSE (--transport sse)", transport)
	}
	return Target{Transport: transport, URL: u}, nil
}

func knownSchemes() string {
	s := make([]string, 0, len(schemeTransports))
	for k := range schemeTransports {
		s = append(s, k+"://")
	}
	sort.Strings(s)
	return strings.Join(s, ", ")
}
