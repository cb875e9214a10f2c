package stdiorelay

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proxy"
)

// TestProxyStdioInject: a viewer's request reaches the server between the
// host's lines, never inside one, and its answer is kept from the host.
func TestProxyStdioInject(t *testing.T) {
	s := openSession(t, capture.Config{})
	hostIn, toProxy := io.Pipe()
	fromProxy, hostOut := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	defer cancel()
	ran := make(chan error, 1)
	go func() {
		_, err := Run(ctx, s, Config{Argv: answerServer(t), HostIn: hostIn, HostOut: hostOut, HostErr: io.Discard})
		hostOut.Close()
		ran <- err
	}()
	answers := bufio.NewReader(fromProxy)
	ask := func(id string) string {
		t.Helper()
		if _, err := io.WriteString(toProxy, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`+"\n"); err != nil {
			t.Fatal(err)
		}
		line, err := answers.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return line
	}
	if a := ask("1"); !strings.Contains(a, `"id":1`) {
		t.Fatalf("answer %q", a)
	}
	id, err := s.Inject(ctx, []byte(`{"jsonrpc":"2.0","id":7,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	// The server answers in order: the injected request's answer comes
	// before the host's next one, and is kept from the host.
	if a := ask("2"); !strings.Contains(a, `"id":2`) {
		t.Fatalf("the host got %q, want the answer to its request 2 (the injected %s's answer is not the host's)", a, id)
	}
	toProxy.Close()
	if rest, _ := io.ReadAll(answers); len(rest) != 0 {
		t.Errorf("the host got more: %q", rest)
	}
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	kept := false
	for _, f := range frames(s, capture.Proxy) {
		if m, ok := proxy.ParseMark(f); ok && m.What == proxy.WhatKept {
			kept = true
		}
	}
	if !kept {
		t.Error("no mark says the injected request's answer was kept from the host")
	}
}
