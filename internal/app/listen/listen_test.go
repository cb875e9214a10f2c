package listen

import (
	"context"
	"net"
	"net/http"
	"testing"
)

func TestBaseURL(t *testing.T) {
	for addr, want := range map[string]string{
		"0.0.0.0:80":   "http://127.0.0.1:80",
		"[::]:8080":    "http://127.0.0.1:8080",
		"[::1]:8080":   "http://[::1]:8080",
		"10.0.0.2:443": "http://10.0.0.2:443",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := BaseURL("http", a); got != want {
			t.Errorf("BaseURL(%s) = %s, want %s", addr, got, want)
		}
	}
}

// Serve returns nil once its context ends, having run end.
func TestServeEndsWithItsContext(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ended := false
	if err := Serve(ctx, ln, http.NotFoundHandler(), nil, func() { ended = true }, "HTTP"); err != nil || !ended {
		t.Errorf("Serve: %v, end ran: %v", err, ended)
	}
}
