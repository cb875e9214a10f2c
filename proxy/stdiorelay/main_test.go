package stdiorelay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// answerServerEnv, set to 1, makes this test binary a stdio server that
// answers every request with an empty result: the server of the tests
// that count on answers and not on echoes.
const answerServerEnv = "MCPSCOPE_STDIORELAY_ANSWER_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(answerServerEnv) == "1" {
		answerServe()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// answerServe answers each request read on stdin with an empty result.
func answerServe() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			break
		}
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(line, &m) != nil || m.ID == nil {
			continue
		}
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"hi"}]}}`+"\n", m.ID)
		if in.Buffered() == 0 {
			_ = out.Flush()
		}
	}
	_ = out.Flush()
}

// answerServer is the argv of the answering server.
func answerServer(t *testing.T) []string {
	t.Helper()
	t.Setenv(answerServerEnv, "1")
	return answerServerArgv(t)
}

// answerServerArgv is the argv of the answering server; the caller sets
// answerServerEnv.
func answerServerArgv(t testing.TB) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe}
}
