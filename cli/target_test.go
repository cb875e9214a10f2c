package cli

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client/dial"
)

func TestSplitTargetStdio(t *testing.T) {
	args := []string{"tools/call", `{"name":"x"}`, "node", "server.js", "--flag"}
	pos, tg, err := splitTarget(args, 2, "")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(pos, []string{"tools/call", `{"name":"x"}`}) {
		t.Errorf("positional = %q", pos)
	}
	if tg.Transport != "stdio" || !reflect.DeepEqual(tg.Argv, []string{"node", "server.js", "--flag"}) || tg.URL != nil {
		t.Errorf("target = %+v", tg)
	}
	if tg.String() != "node server.js --flag" {
		t.Errorf("String() = %q", tg.String())
	}
}

func TestSplitTargetURL(t *testing.T) {
	cases := []struct {
		arg, override, transport string
	}{
		{"http://127.0.0.1:8080/mcp", "", "http"},
		{"https://example.com/mcp", "", "http"},
		{"HTTPS://example.com/mcp", "", "http"},
		{"ws://127.0.0.1:9/ws", "", "ws"},
		{"wss://example.com/ws", "", "ws"},
		{"wt://127.0.0.1:4433/mcp", "", "wt"},
		{"https://127.0.0.1:4433/mcp", "wt", "wt"},
	}
	for _, c := range cases {
		pos, tg, err := splitTarget([]string{"ping", "{}", c.arg}, -1, c.override)
		if err != nil {
			t.Errorf("%s: %v", c.arg, err)
			continue
		}
		if !reflect.DeepEqual(pos, []string{"ping", "{}"}) || tg.Transport != c.transport || tg.URL == nil || !strings.EqualFold(tg.URL.String(), c.arg) {
			t.Errorf("%s: positional %q target %+v", c.arg, pos, tg)
		}
	}
}

func TestSplitTargetParamsWithURLInside(t *testing.T) {
	// A PARAMS_JSON holding a URI must not be mistaken for the TARGET.
	_, _, err := splitTarget([]string{"resources/read", `{"uri":"file:///x"}`}, -1, "")
	if err == nil || ExitCode(err) != ExitUsage {
		t.Fatalf("err = %v, want a missing-TARGET usage error", err)
	}
}

func TestSplitTargetErrors(t *testing.T) {
	cases := []struct {
		name      string
		args      []string
		dash      int
		transport string
	}{
		{"no target", []string{"ping"}, -1, ""},
		{"nothing after dash", []string{"ping"}, 1, ""},
		{"both url and command", []string{"ping", "http://h/mcp", "srv"}, 2, ""},
		{"unknown scheme", []string{"ftp://h/x"}, -1, ""},
		{"no host", []string{"http:///mcp"}, -1, ""},
		{"stdio with url", []string{"http://h/mcp"}, -1, "stdio"},
		{"network transport with command", []string{"srv"}, 0, "ws"},
	}
	for _, c := range cases {
		_, _, err := splitTarget(c.args, c.dash, c.transport)
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%s: err = %v, want a UsageError", c.name, err)
		}
	}
}

func TestNewTransportUnavailableAndUnsupportedFlags(t *testing.T) {
	_, tg, err := splitTarget([]string{"ws://127.0.0.1:1/mcp"}, -1, "gateway")
	if err != nil {
		t.Fatal(err)
	}
	_, err = newTransport(Target{Transport: "carrier-pigeon", URL: tg.URL}, dial.Options{})
	if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), `"carrier-pigeon" is not a transport mcpscope knows`) {
		t.Errorf("unknown transport: code %d, %v", ExitCode(err), err)
	}
	_, err = newTransport(tg, dial.Options{Env: []string{"A=1"}})
	if ExitCode(err) != ExitUsage {
		t.Errorf("--env with a URL: code %d, %v", ExitCode(err), err)
	}

	stdioTarget := Target{Transport: "stdio", Argv: []string{"server"}}
	for name, o := range map[string]dial.Options{
		"--header":     {Headers: []string{"A: b"}},
		"--cert-hash":  {CertHash: "sha256:00"},
		"--insecure":   {Insecure: true},
		"--origin":     {Origin: "https://x"},
		"--keylog":     {KeyLog: "k.log"},
		"--encoding":   {Encoding: "cbor"},
		"--stream-out": {StreamOut: "out"},
	} {
		_, err := newTransport(stdioTarget, o)
		if ExitCode(err) != ExitUsage || err.Error() != name+" is not supported by the stdio transport" {
			t.Errorf("%s: code %d, %v", name, ExitCode(err), err)
		}
	}
	if tr, err := newTransport(stdioTarget, dial.Options{Env: []string{"A=1"}, MaxFrameSize: 100}); err != nil || tr == nil {
		t.Errorf("plain stdio target: %v", err)
	}
}

func TestCheckTransportName(t *testing.T) {
	for _, ok := range []string{"", "stdio", "http", "sse", "ws", "wt"} {
		if err := checkTransportName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	if err := checkTransportName("carrier-pigeon"); ExitCode(err) != ExitUsage {
		t.Errorf("unknown transport: %v", err)
	}
}

func TestParseEnv(t *testing.T) {
	if _, err := parseEnv([]string{"A=1", "B=", "C=x=y"}); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"A", "=1"} {
		if _, err := parseEnv([]string{bad}); ExitCode(err) != ExitUsage {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
