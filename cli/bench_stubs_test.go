package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
)

// The stub modes of bench's tests; each serves pings in its own way.
const (
	// benchDropEvery: the "bench-drops" stub answers no ping of every
	// benchDropEvery, and notes each ping it answers in the file
	// $benchAnsweredEnv, one line each.
	benchDropEvery   = 7
	benchAnsweredEnv = "MCPSCOPE_TEST_BENCH_ANSWERED"
	// benchHoldAfter: the "bench-holds" stub answers benchHoldAfter pings,
	// then answers none, and writes the file $benchHoldingEnv once it holds
	// benchHolds of them.
	benchHoldAfter  = 20
	benchHolds      = 4
	benchHoldingEnv = "MCPSCOPE_TEST_BENCH_HOLDING"
)

func init() {
	drops := 0
	stubRequestHooks["bench-drops"] = func(out *bufio.Writer, method string, id json.RawMessage) bool {
		if method != "ping" {
			return false
		}
		if drops++; drops%benchDropEvery == 0 {
			return true
		}
		if f, err := os.OpenFile(os.Getenv(benchAnsweredEnv), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			_, _ = f.WriteString(string(id) + "\n")
			_ = f.Close()
		}
		out.WriteString(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{}}` + "\n")
		out.Flush()
		return true
	}
	held := 0
	stubRequestHooks["bench-holds"] = func(out *bufio.Writer, method string, id json.RawMessage) bool {
		if method != "ping" {
			return false
		}
		if held++; held > benchHoldAfter {
			if held == benchHoldAfter+benchHolds {
				_ = os.WriteFile(os.Getenv(benchHoldingEnv), nil, 0o600)
			}
			return true
		}
		out.WriteString(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{}}` + "\n")
		out.Flush()
		return true
	}
	// "bench-asks": each ping makes the server ask an elicitation/create
	// question first; the ping is answered once the question is.
	asked := 0
	pending := map[string]json.RawMessage{}
	stubRequestHooks["bench-asks"] = func(out *bufio.Writer, method string, id json.RawMessage) bool {
		switch method {
		case "ping":
			asked++
			q := `"q` + strconv.Itoa(asked) + `"`
			pending[q] = id
			out.WriteString(`{"jsonrpc":"2.0","id":` + q + `,"method":"elicitation/create","params":{"message":"name?","requestedSchema":{"type":"object","properties":{"n":{"type":"string"}}}}}` + "\n")
		case "":
			ping, ok := pending[string(id)]
			if !ok {
				return true
			}
			delete(pending, string(id))
			out.WriteString(`{"jsonrpc":"2.0","id":` + string(ping) + `,"result":{}}` + "\n")
		default:
			return false
		}
		out.Flush()
		return true
	}
}
