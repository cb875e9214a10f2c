package stdiorelay

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proxy"
)

// BenchmarkProxyStdioRelay relays pipelined tools/call requests and their
// answers through an in-process relay, recording on, against the
// answering server: the proxy's own cost per round trip (two messages).
func BenchmarkProxyStdioRelay(b *testing.B) {
	s, err := proxy.Open(proxy.Options{Name: "bench", Record: filepath.Join(b.TempDir(), "rec.jsonl"), Log: b.Logf})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close(nil)
	b.Setenv(answerServerEnv, "1")
	exe := answerServerArgv(b)
	hostIn, toProxy := io.Pipe()
	fromProxy, hostOut := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	defer cancel()
	ran := make(chan error, 1)
	go func() {
		_, err := Run(ctx, s, Config{Argv: exe, HostIn: hostIn, HostOut: hostOut, HostErr: io.Discard})
		hostOut.Close()
		ran <- err
	}()
	answers := bufio.NewReader(fromProxy)
	b.ResetTimer()
	go func() {
		w := bufio.NewWriter(toProxy)
		for i := range b.N {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`+"\n", i)
		}
		_ = w.Flush()
	}()
	for range b.N {
		if _, err := answers.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	toProxy.Close()
	if err := <-ran; err != nil {
		b.Fatal(err)
	}
}
