package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/statedir"
	"github.com/mcpscope/mcpscope/internal/testkit/oauthtest"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// The test binary doubles as a small misbehaving stdio server: with
// stubServerEnv set, TestMain runs stubServer instead of the tests. The
// real peers behave well; this one covers what they never do (garbage on
// stdout, an oversized line, a wrong protocol version, silence).
const stubServerEnv = "MCPSCOPE_CLI_STUB_SERVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(stubServerEnv); mode != "" {
		if takeover := stubTakeovers[mode]; takeover != nil {
			os.Exit(takeover())
		}
		stubServer(mode)
		os.Exit(0)
	}
	peertest.WidenParallel()
	code := statedir.Run(m.Run)
	removeBuiltBinary()
	oauthtest.RemoveBrowser()
	os.Exit(code)
}

// stubArgv returns the argv and env that start the stub server in mode:
// "noisy" (8 non-JSON lines, then well-behaved), "huge" (a 4 KiB line
// first), "badversion" (initialize answers protocol 1999-01-01), "silent"
// (reads everything, answers nothing).
func stubArgv(t *testing.T, mode string) (argv []string, env string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe}, stubServerEnv + "=" + mode
}

// stubServer answers server/discover with -32601, initialize, and the
// three list methods with empty lists, as mode says.
func stubServer(mode string) {
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) { out.WriteString(s + "\n"); out.Flush() }
	switch mode {
	case "noisy":
		for i := range 8 {
			say(fmt.Sprintf("Hello %d, I log to stdout", i))
		}
	case "huge":
		say(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("x", 4096) + `"}}`)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil || len(m.ID) == 0 || mode == "silent" {
			continue
		}
		reply := func(result string) { say(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + result + `}`) }
		if hook := stubRequestHooks[mode]; hook != nil && hook(out, m.Method, m.ID) {
			continue
		}
		switch m.Method {
		case "server/discover":
			say(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`)
		case "initialize":
			v := m.Params.ProtocolVersion
			if mode == "badversion" {
				v = "1999-01-01"
			}
			reply(`{"protocolVersion":"` + v + `","capabilities":{"tools":{}},"serverInfo":{"name":"stub","version":"1"}}`)
		case "tools/list":
			reply(`{"tools":[{"name":"only","inputSchema":{"type":"object"}}]}`)
		default:
			say(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`)
		}
	}
}
