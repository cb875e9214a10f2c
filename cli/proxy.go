package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/client/dial"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/proxy/live"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// proxyFlags are the flags of `mcpscope proxy`.
type proxyFlags struct {
	name      string
	faults    string
	listen    string
	transport string
	record    string
	noRecord  bool
	noRedact  bool
	certHash  string
	insecure  bool
	certFile  string
	keyFile   string
	headers   []string
}

// newProxyCommand builds `mcpscope proxy`.
func newProxyCommand() *cobra.Command {
	f := &proxyFlags{}
	cmd := &cobra.Command{
		Use:   "proxy [--name NAME] [--faults FILE] (-- CMD [ARGS…] | --listen ADDR URL | URL)",
		Short: "Stand between a host and a server: relay, record and show every message",
		Long: "proxy puts mcpscope between a host (Claude, Cursor, VS Code, the Inspector…) and a server.\n" +
			"Bytes pass unchanged both ways; every message is recorded (in the state directory, named\n" +
			"after NAME) and published live to mcpscope attach on a socket only you can open.\n\n" +
			"  -- CMD [ARGS…]      a stdio shim: the host launches mcpscope proxy in place of the server;\n" +
			"                      the server's stderr and exit status are the proxy's\n" +
			"  --listen ADDR URL   a local endpoint for a remote server: Streamable HTTP and legacy\n" +
			"                      HTTP+SSE (http[s]://), WebSocket (ws[s]://), MCP-Flow (wt://; the proxy\n" +
			"                      presents its own certificate and prints its hash for the host to pin)\n" +
			"  URL                 a stdio bridge: the host launches it and speaks stdio, the proxy\n" +
			"                      speaks Streamable HTTP or legacy SSE to URL (what wrap writes for a\n" +
			"                      remote entry)",
		Example: "  mcpscope proxy --name everything -- npx -y @modelcontextprotocol/server-everything stdio\n" +
			"  mcpscope proxy --listen 127.0.0.1:7000 https://example.com/mcp\n" +
			"  mcpscope proxy --name remote https://example.com/mcp\n" +
			"  mcpscope proxy --faults faults.yaml -- ./server",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runProxy(cmd, args, f) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.name, "name", "", "name the session `NAME`: its recording, its live socket and what attach calls it (default: the server's program or host)")
	fs.StringVar(&f.faults, "faults", "", "apply the fault rules of `FILE` (YAML or JSON): delay, drop, duplicate or corrupt matching messages, answer with an error, cut the connection")
	fs.StringVar(&f.listen, "listen", "", "serve a local endpoint on `ADDR` (host:port) for the remote server URL")
	fs.StringVar(&f.transport, "transport", "", "the remote server's transport `NAME` when the URL does not say it: http, sse, ws, gateway or wt")
	fs.StringVar(&f.record, "record", "", "record the session to `FILE` instead of the state directory")
	fs.BoolVar(&f.noRecord, "no-record", false, "do not record the session")
	fs.BoolVar(&f.noRedact, "no-redact", false, "keep credentials (Authorization, cookies, tokens) in the recording and for viewers")
	fs.StringVar(&f.certHash, "cert-hash", "", "pin the upstream server's certificate by `sha256:HEX` (wt://, https://)")
	fs.BoolVar(&f.insecure, "insecure", false, "skip verifying the upstream server's certificate")
	fs.StringVar(&f.certFile, "cert", "", "the proxy's own certificate `FILE` for wt:// (default: a fresh self-signed one, its hash printed)")
	fs.StringVar(&f.keyFile, "key", "", "the key `FILE` of --cert")
	fs.StringArrayVar(&f.headers, "header", nil, "send the HTTP header `'K: V'` to the remote server (repeatable); with --listen, only on requests whose host did not send it")
	return cmd
}

// proxyRun is what every kind of proxy shares: the session, its live
// socket and the context that ends it.
type proxyRun struct {
	cmd  *cobra.Command
	f    *proxyFlags
	sess *proxy.Session
	hub  *live.Hub
}

// runProxy checks the command line, opens the session and hands it to the
// relay the target calls for.
func runProxy(cmd *cobra.Command, args []string, f *proxyFlags) error {
	if f.record != "" && f.noRecord {
		return usagef("--record and --no-record contradict each other")
	}
	dash := cmd.ArgsLenAtDash()
	var argv []string
	var target string
	switch {
	case dash == 0 && len(args) > 0:
		if f.listen != "" {
			return usagef("--listen serves a remote server; a stdio server (-- CMD) is proxied on the proxy's own stdin and stdout")
		}
		argv = args
		target = strings.Join(argv, " ")
	case dash >= 0:
		return usagef("proxy takes either a URL or -- CMD [ARGS…], not both")
	case len(args) == 1:
		target = args[0]
	case len(args) == 0:
		return usagef("proxy needs a server: -- CMD [ARGS…] for stdio, or a URL")
	default:
		return usagef("proxy takes one URL; to proxy a command put it after --")
	}
	var faults []proxy.Fault
	if f.faults != "" {
		var err error
		if faults, err = proxy.LoadFaults(f.faults); err != nil {
			return usagef("--faults: %v", err)
		}
	}
	kind, err := proxyKind(f, argv, target)
	if err != nil {
		return err
	}
	if (f.certFile != "" || f.keyFile != "") && kind != "wt" {
		return usagef("--cert and --key are the certificate the wt:// proxy presents; a %s proxy has none", kind)
	}
	name := f.name
	if name == "" {
		name = defaultProxyName(argv, target)
	}
	if err := proxy.CheckName(name); err != nil {
		return usagef("--name: %v", err)
	}
	sess, err := proxy.Open(proxy.Options{
		Name: name, Target: recordedTarget(argv, target), Transport: kind, Version: Version(),
		NoRecord: f.noRecord, Record: f.record,
		Redact: proxyRedaction(f),
		Faults: faults,
		Log:    func(format string, a ...any) { fmt.Fprintf(cmd.ErrOrStderr(), "mcpscope proxy: "+format+"\n", a...) },
	})
	if err != nil {
		return err
	}
	hub, err := live.Serve(sess)
	if err != nil {
		// The proxy works without viewers: say so and go on.
		fmt.Fprintf(cmd.ErrOrStderr(), "mcpscope proxy: no live viewers for this session: %v\n", err)
	}
	r := &proxyRun{cmd: cmd, f: f, sess: sess, hub: hub}
	ctx, stop := proxySignals(cmd.Context())
	defer stop()
	var runErr error
	switch {
	case argv != nil:
		runErr = r.stdio(ctx, argv)
	case f.listen == "":
		runErr = r.bridge(ctx, target)
	case kind == "ws" || kind == "gateway":
		runErr = r.ws(ctx, target)
	case kind == "wt":
		runErr = r.wt(ctx, target)
	default:
		runErr = r.http(ctx, target)
	}
	if err := sess.Close(runErr); err != nil && runErr == nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "mcpscope proxy: the recording: %v\n", err)
	}
	// After the session's end: viewers are sent its last frames and the end.
	hub.Close()
	if interrupted(ctx) || errors.Is(runErr, context.Canceled) && ctx.Err() != nil {
		return &exitError{code: ExitInterrupted, err: errors.New("interrupted")}
	}
	return runErr
}

// proxySignals returns a context that a host's SIGINT, SIGTERM or SIGHUP
// ends, SIGINT with the cause ErrInterrupted: a stdio proxy interrupted
// exits 130 whatever the server's status after its SIGTERM, without
// waiting for the root's own reading of the same SIGINT to land first.
func proxySignals(parent context.Context) (context.Context, func()) {
	return signalContext(parent, false, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
}

// proxyKind names the transport the proxy relays: stdio for a command,
// else what --transport or the URL's scheme says.
func proxyKind(f *proxyFlags, argv []string, target string) (string, error) {
	if argv != nil {
		if f.transport != "" && f.transport != "stdio" {
			return "", usagef("--transport %s names a remote transport; -- CMD is a stdio server", f.transport)
		}
		return "stdio", nil
	}
	u, err := url.Parse(target)
	if err != nil || (u.Host == "" && !httpconf.IsUnix(u)) {
		return "", usagef("%q is not a URL (http[s]://, ws[s]://, wt://, unix:///path.sock); to proxy a command put it after --", target)
	}
	byScheme := map[string]string{"http": "http", "https": "http", "ws": "ws", "wss": "ws", "wt": "wt", "https+wt": "wt", "unix": "http"}
	kind, ok := byScheme[u.Scheme]
	if !ok {
		return "", usagef("proxy relays http[s]://, ws[s]://, wt://, unix:// and stdio servers, not %s://", u.Scheme)
	}
	if t := f.transport; t != "" {
		allowed := map[string][]string{"http": {"http", "sse"}, "ws": {"ws", "gateway"}, "wt": {"wt"}}[kind]
		ok := false
		for _, a := range allowed {
			ok = ok || a == t
		}
		if !ok {
			return "", usagef("--transport %s does not go with a %s:// URL (%s)", t, u.Scheme, strings.Join(allowed, ", "))
		}
		kind = t
	}
	if f.listen == "" && kind != "http" && kind != "sse" {
		return "", usagef("the stdio bridge (a URL without --listen) speaks Streamable HTTP and legacy SSE; for %s use --listen ADDR", kind)
	}
	return kind, nil
}

// defaultProxyName is the server's program (its last path element, the
// script a runtime runs when there is one) or the URL's host.
func defaultProxyName(argv []string, target string) string {
	if argv == nil {
		u, err := url.Parse(target)
		if err == nil && u.Hostname() != "" {
			return proxy.SafeName(u.Hostname())
		}
		if ep, err := httpconf.ParseUnix(u); err == nil {
			// the socket's file name: unix:///run/notes.sock → notes
			base := filepath.Base(strings.TrimPrefix(ep.Socket, "@"))
			return proxy.SafeName(strings.TrimSuffix(base, filepath.Ext(base)))
		}
		return "remote"
	}
	name := filepath.Base(argv[0])
	for _, a := range argv[1:] {
		if !strings.HasPrefix(a, "-") && (strings.Contains(a, "/") || strings.Contains(a, ".")) {
			name = filepath.Base(a)
			break
		}
	}
	return proxy.SafeName(strings.TrimSuffix(name, filepath.Ext(name)))
}

// recordedTarget is the target as the recording's header names it,
// secrets removed.
func recordedTarget(argv []string, target string) string {
	if argv != nil {
		return strings.Join(redactArgs(argv), " ")
	}
	return redactURL(target)
}

// proxyRedaction is how the recording masks secrets: the values of the
// --header flags whose names say they are credentials, beside what the
// recordings mask anyway.
func proxyRedaction(f *proxyFlags) recordings.Options {
	values, names := secrets(dial.Options{Headers: f.headers})
	return recordings.Options{NoRedact: f.noRedact, Secrets: values, SecretHeaders: names}
}
