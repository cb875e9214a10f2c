package webtransport

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/transports/internal/conn"
	"github.com/mcpscope/mcpscope/transports/webtransport/wttest"
)

// A server that stops reading the control stream grants no more
// flow-control credit: a frame whose send deadline passes before it is
// whole stalls the stream, and the $/cancel that follows fails at once,
// naming that, instead of waiting behind the cut frame.
func TestSendWithoutCreditStallsLaterSends(t *testing.T) {
	ts := wttest.NewServer(t, func(p *wttest.Peer) {
		if _, ok := p.Handshake("json"); !ok {
			return
		}
		<-p.Sess.Context().Done() // reads nothing more
	})
	_, tr, _ := connect(t, ts, nil, client.Options{})
	big, err := jsonrpc.NewRequest(jsonrpc.IntID(7), "ping", map[string]string{"pad": strings.Repeat("x", 900<<10)}) // over the 512 KiB stream window, under the 1 MiB frame limit
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err = tr.Send(ctx, big)
	var stall *conn.StalledError
	if !errors.As(err, &stall) || !errors.Is(err, client.ErrStoppedReading) || stall.Sent <= 0 || stall.Sent >= stall.Size {
		t.Fatalf("Send without credit = %v, want a stall with part of the frame sent", err)
	}
	bound, stop := context.WithTimeout(context.Background(), waitGuard)
	defer stop()
	err = tr.CancelRequest(bound, jsonrpc.IntID(7), "gave up")
	if !errors.Is(err, client.ErrStoppedReading) || bound.Err() != nil {
		t.Fatalf("$/cancel after the stall = %v (bound: %v), want it to fail at once", err, bound.Err())
	}
	if want := "cannot send the notification $/cancel: the server stopped reading: only "; !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("$/cancel after the stall = %q, want it to start %q", err, want)
	}
}
