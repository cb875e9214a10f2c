//go:build linux

package peertest

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

const (
	// startBound bounds a server's start: Node takes a second or two on a
	// loaded machine, more under the race detector.
	startBound = guard.Hang
	// stopBound is how long a server has to end after SIGTERM before its
	// process group gets SIGKILL.
	stopBound = 5 * time.Second
	// pollEvery is the pause between two looks at the server's sockets.
	pollEvery = 20 * time.Millisecond
	// upFrontAttempts bounds the retries when a port picked up front was
	// taken by someone else before the server bound it.
	upFrontAttempts = 3
)

var errExited = errors.New("the server exited")

// startHTTP starts p in a process group of its own, registers its stop
// with t.Cleanup, and returns once the server's own process has a TCP socket
// in the LISTEN state that accepts a connection. The listening socket is
// found in /proc, so the address is the one the kernel reports, not one a
// log line claims, and it belongs to this server, not to whatever else took
// the port.
func startHTTP(t testing.TB, p httpPeer) *HTTPPeer {
	t.Helper()
	for attempt := 1; ; attempt++ {
		port := "0"
		if p.portUpFront {
			port = freePort(t)
		}
		argv, env := p.command(port)
		out := &outputTail{}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), env...)
		cmd.Stdout, cmd.Stderr = out, out
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.WaitDelay = time.Second
		if err := cmd.Start(); err != nil {
			t.Fatalf("%s did not start: %v", p.what, err)
		}
		done := make(chan struct{})
		go func() {
			_ = cmd.Wait()
			close(done)
		}()
		t.Cleanup(func() {
			stopGroup(cmd.Process.Pid, done)
			if t.Failed() {
				t.Logf("%s wrote:\n%s", p.what, out.String())
			}
		})
		addr, err := waitListening(cmd.Process.Pid, done, port)
		if err != nil {
			if errors.Is(err, errExited) && p.portUpFront && attempt < upFrontAttempts &&
				strings.Contains(out.String(), "address already in use") {
				continue
			}
			t.Fatalf("%s (%s) is not serving: %v\n%s", p.what, strings.Join(argv, " "), err, out.String())
		}
		if !p.anyInterface && !addr.Addr().IsLoopback() {
			t.Fatalf("%s listens on %s, not on loopback", p.what, addr)
		}
		return &HTTPPeer{URL: p.url(addr.Port()), Addr: addr, out: out, pid: cmd.Process.Pid}
	}
}

// freePort returns a port no one listens on, on any interface, right now.
func freePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatalf("no free port: %v", err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// waitListening polls until process pid listens on one TCP socket (on port,
// unless port is "0") that accepts a connection, the process exits, or
// startBound passes.
func waitListening(pid int, done <-chan struct{}, port string) (netip.AddrPort, error) {
	deadline := time.Now().Add(startBound)
	var last error
	for {
		select {
		case <-done:
			return netip.AddrPort{}, errExited
		default:
		}
		addr, err := listening(pid, port)
		if err == nil {
			return addr, nil
		}
		last = err
		if time.Now().After(deadline) {
			return netip.AddrPort{}, fmt.Errorf("not listening after %s: %w", startBound, last)
		}
		time.Sleep(pollEvery)
	}
}

// listening returns the one address process pid listens on (on port,
// unless port is "0") once a connection to it succeeds.
func listening(pid int, port string) (netip.AddrPort, error) {
	all, err := listeners(pid)
	if err != nil {
		return netip.AddrPort{}, err
	}
	var found []netip.AddrPort
	for _, a := range all {
		if port == "0" || strconv.Itoa(int(a.Port())) == port {
			found = append(found, a)
		}
	}
	if len(found) != 1 {
		return netip.AddrPort{}, fmt.Errorf("listening on %v", found)
	}
	addr := found[0]
	dial := addr
	if addr.Addr().IsUnspecified() {
		dial = netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), addr.Port())
	}
	c, err := net.DialTimeout("tcp", dial.String(), time.Second)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("listening on %s but not accepting: %w", addr, err)
	}
	c.Close()
	return addr, nil
}

// listeners returns the addresses of the TCP sockets in the LISTEN state
// that process pid holds open.
func listeners(pid int) ([]netip.AddrPort, error) {
	fdDir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	fds, err := os.ReadDir(fdDir)
	if err != nil {
		return nil, fmt.Errorf("reading the server's descriptors: %w", err)
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join(fdDir, fd.Name()))
		if ino, ok := strings.CutPrefix(link, "socket:["); err == nil && ok {
			inodes[strings.TrimSuffix(ino, "]")] = true
		}
	}
	var out []netip.AddrPort
	for _, table := range []string{"tcp", "tcp6"} {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "net", table))
		if err != nil {
			continue // no tcp6 where IPv6 is off
		}
		for _, line := range strings.Split(string(b), "\n") {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
			f := strings.Fields(line)
			const listen = "0A"
			if len(f) < 10 || f[3] != listen || !inodes[f[9]] {
				continue
			}
			if a, err := parseProcAddr(f[1]); err == nil {
				out = append(out, a)
			}
		}
	}
	return out, nil
}

// parseProcAddr decodes a local_address of /proc/net/tcp{,6}: the address
// in hex as 32-bit words in host byte order, a colon, the port in hex.
func parseProcAddr(s string) (netip.AddrPort, error) {
	hexAddr, hexPort, ok := strings.Cut(s, ":")
	raw, err := hex.DecodeString(hexAddr)
	if !ok || err != nil || (len(raw) != 4 && len(raw) != 16) {
		return netip.AddrPort{}, fmt.Errorf("not a /proc/net/tcp address: %q", s)
	}
	port, err := strconv.ParseUint(hexPort, 16, 16)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("not a /proc/net/tcp port: %q: %w", s, err)
	}
	for i := 0; i < len(raw); i += 4 {
		binary.BigEndian.PutUint32(raw[i:], binary.NativeEndian.Uint32(raw[i:]))
	}
	addr, _ := netip.AddrFromSlice(raw)
	return netip.AddrPortFrom(addr.Unmap(), uint16(port)), nil
}

// stopGroup ends the process group pgid: SIGTERM, then SIGKILL for what is
// left of it after stopBound (or at once once the leader is gone, for any
// child it left behind), and waits until the leader is reaped.
func stopGroup(pgid int, done <-chan struct{}) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	timer := time.NewTimer(stopBound)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-done
}
