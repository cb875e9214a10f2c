package httpconf

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/internal/testkit/socktest"
)

// A unix:// URL is the socket's path and, after '#', the request path
// ("/" without one, as VS Code sends); the requests go to localhost.
func TestParseUnix(t *testing.T) {
	for in, want := range map[string][2]string{
		"unix:///run/x.sock#/mcp":             {"/run/x.sock", "http://localhost/mcp"},
		"unix:///run/x.sock":                  {"/run/x.sock", "http://localhost/"},
		"UNIX:///run/x.sock#/a/b?q=1":         {"/run/x.sock", "http://localhost/a/b?q=1"},
		"unix:///tmp/a%20b.sock#/mcp":         {"/tmp/a b.sock", "http://localhost/mcp"},
		"unix://@mcpscope-demo#/mcp":          {"@mcpscope-demo", "http://localhost/mcp"},
		"unix:/run/x.sock#/mcp":               {"/run/x.sock", "http://localhost/mcp"},
		"unix:///run/x.sock#/mcp#/more":       {"/run/x.sock", "http://localhost/mcp"},
		"unix:///run/x.sock#/mcp?k=a%26b%3Dc": {"/run/x.sock", "http://localhost/mcp?k=a%26b%3Dc"},
		"unix:///run/x.sock#/a%23b":           {"/run/x.sock", "http://localhost/a%23b"},
		"unix:///run/x.sock#/a%2Fb":           {"/run/x.sock", "http://localhost/a%2Fb"},
		"unix://@a.b_c-1#/mcp":                {"@a.b_c-1", "http://localhost/mcp"},
	} {
		u, err := url.Parse(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		ep, err := ParseUnix(u)
		if err != nil || ep.Socket != want[0] || ep.Request.String() != want[1] {
			t.Errorf("ParseUnix(%s) = %q, %v, %v; want %q, %q", in, ep.Socket, ep.Request, err, want[0], want[1])
		}
	}
}

// Malformed unix:// URLs are refused with the reason.
func TestParseUnixRefuses(t *testing.T) {
	for in, want := range map[string]string{
		"unix://run/x.sock":                         "names a host",
		"unix://user:pw@host/x.sock":                "names a host",
		"unix://":                                   "names no socket",
		"unix:///x.sock?a=1#/mcp":                   "query outside its fragment",
		"unix:///x.sock#mcp":                        "must begin with '/'",
		"unix:///" + strings.Repeat("d", 110):       "holds at most 107",
		"http://localhost/mcp":                      "not a unix:// URL",
		"unix:relative.sock":                        "names no socket",
		"unix://@a!b#/mcp":                          "abstract socket name",
		"unix:///x.sock#//evil.example/mcp?steal=1": "",
	} {
		u, err := url.Parse(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		ep, err := ParseUnix(u)
		if want == "" {
			// a fragment naming another host still goes to the socket
			if err == nil && ep.Request.Host != UnixHost {
				t.Errorf("ParseUnix(%s): requests go to host %q", in, ep.Request.Host)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseUnix(%s) = %v; want an error saying %q", in, err, want)
		}
	}
}

// SocketProblem and Dial word each reason a socket does not take a
// connection.
func TestSocketProblems(t *testing.T) {
	dir := socktest.ShortDir(t)
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, "stale.sock")
	ln, err := net.Listen("unix", stale)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	_ = ln.Close()
	for path, want := range map[string]error{
		filepath.Join(dir, "none"): ErrNoSocketFile,
		file:                       ErrNotSocket,
		dir:                        ErrNotSocket,
		stale:                      ErrNoListener,
	} {
		_, c, err := dialed(path)
		if c != nil || !errors.Is(err, want) {
			t.Errorf("Dial %s: %v; want %v", path, err, want)
		}
		var de *UnixDialError
		if !errors.As(err, &de) || de.Socket != path {
			t.Errorf("Dial %s: %T does not name the socket", path, err)
		}
	}
	if found, err := SocketProblem(stale); err != nil || !strings.HasPrefix(found, "a socket, mode 0") {
		t.Errorf("SocketProblem(stale) = %q, %v", found, err)
	}
}

// dialed dials the socket at path through a UnixEndpoint.
func dialed(path string) (UnixEndpoint, net.Conn, error) {
	ep := UnixEndpoint{Socket: path}
	c, err := ep.Dial(context.Background(), "tcp", "localhost:80")
	return ep, c, err
}

// FuzzParseUnix: whatever URL a config file holds, ParseUnix returns an
// endpoint whose requests go to localhost on an absolute (or abstract)
// socket, or an error; it never panics.
func FuzzParseUnix(f *testing.F) {
	for _, s := range []string{"unix:///run/x.sock#/mcp", "unix://@name#/m", "unix://h/x", "unix:///x?y#z", "unix:", "unix:///a%00b#/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := url.Parse(raw)
		if err != nil {
			return
		}
		ep, err := ParseUnix(u)
		if err != nil {
			if !utf8.ValidString(err.Error()) && utf8.ValidString(raw) {
				t.Errorf("error %q is not UTF-8", err)
			}
			return
		}
		if ep.Request.Host != UnixHost || ep.Request.Scheme != "http" {
			t.Errorf("%q: requests go to %s", raw, ep.Request)
		}
		if !strings.HasPrefix(ep.Socket, "/") && !strings.HasPrefix(ep.Socket, "@") {
			t.Errorf("%q: socket %q is neither absolute nor abstract", raw, ep.Socket)
		}
	})
}
