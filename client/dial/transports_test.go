package dial

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

// Options that do not fit the endpoint's transport are OptionErrors, and
// nothing is built.
func TestTransportRefusesOptions(t *testing.T) {
	u, _ := url.Parse("http://127.0.0.1:1/mcp")
	sock, _ := url.Parse("unix:///run/x.sock#/mcp")
	cases := map[string]struct {
		e    Endpoint
		o    Options
		want string
	}{
		"env on a URL":         {Endpoint{Transport: "http", URL: u}, Options{Env: []string{"A=1"}}, "--env only applies"},
		"cwd on a URL":         {Endpoint{Transport: "ws", URL: u}, Options{Dir: "/srv/project"}, "--cwd only applies"},
		"unknown transport":    {Endpoint{Transport: "carrier-pigeon"}, Options{}, `--transport "carrier-pigeon" is not a transport mcpscope knows`},
		"insecure stdio":       {Endpoint{Transport: "stdio", Argv: []string{"x"}}, Options{Insecure: true}, "--insecure is not supported by the stdio transport"},
		"stdio, no command":    {Endpoint{Transport: "stdio"}, Options{}, "the stdio target has no command"},
		"ws with an http URL":  {Endpoint{Transport: "ws", URL: u}, Options{}, "needs a ws:// or wss:// URL"},
		"bad header":           {Endpoint{Transport: "http", URL: u}, Options{Headers: []string{"no colon"}}, "is not of the form 'Name: value'"},
		"encoding over http":   {Endpoint{Transport: "http", URL: u}, Options{Encoding: "cbor"}, "--encoding applies to MCP-Flow"},
		"insecure on a socket": {Endpoint{Transport: "http", URL: sock}, Options{Insecure: true}, "do not apply"},
	}
	for name, c := range cases {
		tr, err := Transport(c.e, c.o)
		var oe *OptionError
		if tr != nil || !errors.As(err, &oe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, %v; want an OptionError saying %q", name, tr, err, c.want)
		}
	}
}

// A wt:// URL is MCP-Flow's https URL, /mcp when it names no path.
func TestFlowURL(t *testing.T) {
	for in, want := range map[string]string{
		"wt://127.0.0.1:4433":       "https://127.0.0.1:4433/mcp",
		"https://example.com/other": "https://example.com/other",
	} {
		u, _ := url.Parse(in)
		if got, err := flowURL(u); err != nil || got != want {
			t.Errorf("flowURL(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	u, _ := url.Parse("ws://x/mcp")
	if _, err := flowURL(u); err == nil {
		t.Error("a ws:// URL became an MCP-Flow URL")
	}
}
