//go:build linux

package peertest

import (
	"errors"
	"net"
	"net/netip"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParseProcAddr(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"0100007F:A8A3":                         "127.0.0.1:43171",
		"00000000:1F90":                         "0.0.0.0:8080",
		"00000000000000000000000000000000:0050": "[::]:80",
		"00000000000000000000000001000000:0016": "[::1]:22",
		"0000000000000000FFFF00000100007F:0BB8": "127.0.0.1:3000", // v4-mapped
	} {
		got, err := parseProcAddr(in)
		if err != nil || got.String() != want {
			t.Errorf("parseProcAddr(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0100007F", "0100007F:", "zz00007F:0050", "01007F:0050", "0100007F:10000"} {
		if _, err := parseProcAddr(bad); err == nil {
			t.Errorf("parseProcAddr(%q) accepted", bad)
		}
	}
}

func FuzzParseProcAddr(f *testing.F) {
	f.Add("0100007F:A8A3")
	f.Add("00000000000000000000000001000000:0016")
	f.Fuzz(func(t *testing.T, s string) {
		a, err := parseProcAddr(s)
		if err == nil && !a.IsValid() {
			t.Errorf("parseProcAddr(%q) = invalid address without error", s)
		}
	})
}

// TestListenersOwnSocketsOnly: listeners reports this process's own
// listening sockets, with the address the kernel bound, and not a socket
// that merely connects.
func TestListenersOwnSocketsOnly(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	want := netip.MustParseAddrPort(l.Addr().String())
	client := netip.MustParseAddrPort(c.LocalAddr().String())
	all, err := listeners(syscall.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range all {
		if a == want {
			n++
		}
		if a.Port() == client.Port() {
			t.Errorf("the connecting socket %s is reported as listening", a)
		}
	}
	if n != 1 {
		t.Errorf("listeners %v: want %s once", all, want)
	}
}

// TestHTTPPeerStopped: once the test that started a peer is over (its
// cleanups run whether it passed or failed), no process of the peer's group
// is left and its port refuses connections.
func TestHTTPPeerStopped(t *testing.T) {
	t.Parallel()
	var p *HTTPPeer
	var pgid int
	t.Run("start", func(t *testing.T) {
		p = StartGoSDKSSE(t)
		var err error
		if pgid, err = syscall.Getpgid(p.pid); err != nil || pgid != p.pid {
			t.Fatalf("the peer %d runs in process group %d (%v), not its own", p.pid, pgid, err)
		}
	})
	if p == nil {
		t.Fatal("the peer did not start")
	}
	if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process group %d still exists after the test: %v", pgid, err)
	}
	if c, err := net.DialTimeout("tcp", p.Addr.String(), time.Second); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after the test", p.Addr)
	}
	if !strings.Contains(p.Output(), "serving at 127.0.0.1:") {
		t.Errorf("the peer's output was not kept: %q", p.Output())
	}
}
