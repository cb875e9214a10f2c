package mcpconfig

import (
	"path/filepath"
	"strings"
)

// proxyFlagsWithValue are the flags of `mcpscope proxy` that take a value;
// the others it has (--no-record, --no-redact, --insecure) take none.
var proxyFlagsWithValue = map[string]bool{
	"--name": true, "--faults": true, "--listen": true, "--transport": true, "--record": true,
	"--cert-hash": true, "--cert": true, "--key": true, "--header": true,
}

// IsMcpscope reports whether command runs mcpscope: its file name, without
// a .exe, is mcpscope.
func IsMcpscope(command string) bool {
	base := filepath.Base(strings.ReplaceAll(command, `\`, "/"))
	base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	return base == "mcpscope"
}

// ProxiedServer is what a wrapped entry's `mcpscope proxy …` command line
// runs: the session name, and the original server's command line or URL.
type ProxiedServer struct {
	Session string
	// Argv is the stdio server after "--"; URL, Transport ("http" or
	// "sse") and Headers the remote server of a stdio bridge.
	Argv      []string
	URL       string
	Transport string
	Headers   []Pair
}

// ParseProxied reads `mcpscope proxy [flags] -- CMD [ARGS…]` or
// `mcpscope proxy [flags] URL`, as wrap writes it; ok is false for any
// other command line (a --listen endpoint included: a host cannot launch
// it in place of a server).
func ParseProxied(command string, args []string) (p ProxiedServer, ok bool) {
	if !IsMcpscope(command) || len(args) == 0 || args[0] != "proxy" {
		return ProxiedServer{}, false
	}
	p.Transport = "http"
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.Argv = args[i+1:]
			return p, len(p.Argv) > 0
		}
		if !strings.HasPrefix(a, "-") {
			p.URL = a
			return p, i == len(args)-1
		}
		flag, value, inline := strings.Cut(a, "=")
		if !inline && proxyFlagsWithValue[flag] {
			if i+1 >= len(args) {
				return ProxiedServer{}, false
			}
			i++
			value = args[i]
		}
		switch flag {
		case "--name":
			p.Session = value
		case "--listen":
			return ProxiedServer{}, false
		case "--transport":
			p.Transport = value
		case "--header":
			k, v, _ := strings.Cut(value, ":")
			p.Headers = append(p.Headers, Pair{strings.TrimSpace(k), strings.TrimSpace(v)})
		}
	}
	return ProxiedServer{}, false
}

// unwrapProxied turns a server whose entry runs through mcpscope proxy
// into the server it proxies, marked Wrapped with its session name; other servers
// are returned as they are.
func unwrapProxied(s Server) Server {
	if s.Transport != "stdio" {
		return s
	}
	p, ok := ParseProxied(s.Command, s.Args)
	if !ok {
		return s
	}
	s.Wrapped, s.ProxyName = true, p.Session
	if p.Argv != nil {
		s.Command, s.Args = p.Argv[0], p.Argv[1:]
		return s
	}
	s.Transport, s.URL, s.Command, s.Args = p.Transport, p.URL, "", nil
	if len(p.Headers) > 0 {
		s.Headers = p.Headers
	}
	return s
}
